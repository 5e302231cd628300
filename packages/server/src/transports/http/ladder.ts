/**
 * The check ladder of the Streamable HTTP transport (internal): every
 * request climbs its stages in order, and the first that answers ends the
 * climb; a request that passes them all is run (`run.ts`). The stages name
 * no revision: where a session matters they ask the core's framing
 * (`framing.ts`).
 */
import { errorResponse, stringifyJson } from "@x/jsonrpc";
import type { RequestId } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { checkRequestHeaders } from "@x/mcp-v2607/wire";
import { type AuthInfo, missingScopes, withTokenDigest } from "../../authorization.js";
import type { InboundRequest } from "../../dispatch.js";
import { SERVER_BUSY } from "../../errors.js";
import { partsOf } from "../../server.js";
import { decodeMessage, inspectDecoded, isRequestBatch } from "../messages.js";
import { errorAnswer, jsonHeaders, refusal } from "./answers.js";
import { type AuthSettings, bearerToken, challenge, queryHasToken } from "./auth.js";
import type { Core } from "./core.js";
import { BodyTimeout, BodyUnavailable, type Exchange, type HttpAnswer } from "./exchange.js";
import { acceptable, hostName, isJsonMediaType, pathOf } from "./header-rules.js";
import { runCall } from "./run.js";
import { statusOf } from "./status.js";

/**
 * Where the ladder reads the body: the stages above it see only the request
 * line and headers (a refusal there costs no read), those below see the body.
 */
const READ_BODY = "read the body";

/**
 * Where the ladder checks the bearer token (only with the `auth` option):
 * after Host/Origin, before anything about the MCP request is looked at,
 * so a request without a valid token learns nothing (not even whether its
 * session exists) and costs no body read. Asynchronous, like the body read.
 */
const VERIFY_TOKEN = "verify the token";

/** The check ladder, in order; each stage answers early or passes the request on. */
const LADDER: readonly Stage[] = [
  dnsRebinding, //   1. not exactly one well-formed Host: 400; Origin or Host not allowed: 403, so a web page cannot reach a local server
  resourceMetadata, // auth on: the protected resource metadata at its well-known paths (GET: 200 JSON; other methods: 405), open to anyone
  preflight, //      2. OPTIONS with CORS on: 204, the answer a browser asks for before a cross-origin POST
  VERIFY_TOKEN, //   auth on: no token: 401; malformed Authorization (or a token in the query): 400; invalid or expired: 401 invalid_token;
  //                 short of auth.requiredScopes: 403 insufficient_scope; the verifier throws: 503 with Retry-After
  postOnly, //       2. another method than POST: the framing's (initialize era: GET/DELETE with Mcp-Session-Id, the session's stream / its end), else 405
  accept, //         3. Accept admits neither JSON nor SSE: 406, as no answer could be sent
  contentType, //    3. Content-Type absent or not application/json (parameters allowed, any case): 415, -32600, before the body is read
  load, //           3. maxConcurrentRequests requests held by open connections: 503 with Retry-After, before a body is read
  declaredSize, //   4. Content-Length over the limit: 413, without reading the body
  bodyBudget, //     4. Content-Length would take the bodies being read past maxBodyBytesInFlight: 503 with Retry-After
  READ_BODY, //      4. more bytes than the limit: 413 (Content-Length may lie); past maxBodyBytesInFlight: 503; unreadable: 400, -32700;
  //                 not all there within bodyTimeoutMs: 408, -32600
  //                 (node: a body a framework already read is taken from it, or refused at once with 400, -32700, never waited for)
  decode, //         5, 6. not UTF-8 JSON, too deep, a batch (unless the framing takes batches): 400 (-32700, -32600), before any handler
  sessionHeader, //  the framing, once the message is known (initialize era: a request carrying the 2026-07-28 envelope ignores Mcp-Session-Id,
  //                 the dual-era rule; any other message naming a session: unknown or ended 404; malformed or MCP-Protocol-Version unsupported 400)
  message, //        6, 8. not one request, bad _meta: 400, before any handler; a message whose headers call for a session it lacks: 400;
  //                 a batch: the framing's (initialize era: on a 2025-03-26 session each member climbs on from here, else 400, -32600)
  notification, //   7. a notification or a well-formed JSON-RPC response: 202 with an empty body, as neither has an answer (on a session: acted on first);
  //                 a malformed response (both result and error, an error that is no object...): 400, -32600 without id
  headerMirrors, //  9. MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-* unequal to the body: 400, -32020 (proxies route on them)
  registrationScopes, // auth on: the tool, resource or prompt named (or completed) has requiredScopes the token lacks: 403 insufficient_scope, before its handler runs
  assignsHook, //    the assigns hook throws: 500, -32603, before the request takes a slot
];

// Then `runCall` (the opening mints a session, a request on a session goes to the framing): the dispatcher checks 10. the protocol version (400, -32022)
// and 11. the method (404, -32601), and runs it.

/**
 * One stage of the {@link LADDER}: an answer ends the climb, `undefined`
 * passes the request on. What a stage learns for later ones it leaves on the
 * exchange (no object per request for it).
 */
type Stage = ((core: Core, ex: Exchange) => Step) | typeof READ_BODY | typeof VERIFY_TOKEN;

/** What a stage answers: an answer, nothing (climb on), or either later (a framing reading a shared session store). */
type Step = HttpAnswer | undefined | Promise<HttpAnswer | undefined>;

/** The first stage after the body read. */
const AFTER_BODY = LADDER.indexOf(READ_BODY) + 1;

/** The first stage after the token check. */
const AFTER_TOKEN = LADDER.indexOf(VERIFY_TOKEN) + 1;

/** Where each member of a batch climbs on from. */
const AT_MESSAGE = LADDER.indexOf(message);

/** Runs the ladder from stage `from`, then the call: an answer at once, or once the body is read and the handler answered. */
export function climb(core: Core, ex: Exchange, from: number): HttpAnswer | Promise<HttpAnswer> {
  for (let i = from; i < LADDER.length; i++) {
    const stage = LADDER[i]!;
    if (stage === READ_BODY) return readBody(core, ex);
    if (stage === VERIFY_TOKEN) {
      if (core.auth === undefined) continue;
      return verifyToken(core, core.auth, ex);
    }
    const answer = stage(core, ex);
    if (answer === undefined) continue;
    // A framing that must ask a shared session store first: the climb goes on once it answered.
    if (answer instanceof Promise) return answer.then((a) => a ?? climb(core, ex, i + 1));
    return answer;
  }
  return runCall(core, ex);
}

// ---------------------------------------------------------------------------
// The stages, in the order of the ladder

function dnsRebinding(core: Core, ex: Exchange): HttpAnswer | undefined {
  const origin = ex.header("origin");
  if (core.protect && origin !== undefined && !core.originAllowed(origin))
    return errorAnswer(403, ErrorCode.InvalidRequest, "Forbidden: Origin not allowed");
  const host = ex.header("host");
  if (host !== core.lastHost || host === undefined) {
    const refusal = hostVerdict(core, host);
    if (refusal !== undefined) return refusal;
    core.lastHost = host;
  }
  ex.cors = core.corsHeaders(origin);
  return undefined;
}

/**
 * The Host check: exactly one Host header, well formed (else 400, as HTTP
 * itself requires), and, with DNS-rebinding protection on, an allowed name (else 403).
 */
function hostVerdict(core: Core, host: string | undefined): HttpAnswer | undefined {
  if (host === undefined) return errorAnswer(400, ErrorCode.InvalidRequest, "Bad Request: no Host header");
  // Adapters join repeated header lines with ", ", and no valid Host holds a comma.
  if (host.includes(",")) return errorAnswer(400, ErrorCode.InvalidRequest, "Bad Request: more than one Host header");
  const name = hostName(host);
  if (name === undefined) return errorAnswer(400, ErrorCode.InvalidRequest, "Bad Request: malformed Host header");
  if (core.protect && !core.allowedHosts.includes(name)) return errorAnswer(403, ErrorCode.InvalidRequest, "Forbidden: Host not allowed");
  return undefined;
}

function resourceMetadata(core: Core, ex: Exchange): HttpAnswer | undefined {
  const auth = core.auth;
  if (auth === undefined || ex.url === undefined || !auth.metadataPaths.includes(pathOf(ex.url))) return undefined;
  // Public metadata: any page may read it (RFC 9728 section 3 puts no limit on who fetches it).
  const open = { "access-control-allow-origin": "*" };
  if (ex.method === "GET" || ex.method === "HEAD") {
    return {
      status: 200,
      headers: { "content-type": "application/json", "cache-control": "max-age=3600", ...open },
      body: ex.method === "HEAD" ? "" : auth.document,
    };
  }
  if (ex.method === "OPTIONS") {
    return {
      status: 204,
      headers: { ...open, "access-control-allow-methods": "GET, HEAD, OPTIONS", "access-control-max-age": "600" },
      body: "",
    };
  }
  return errorAnswer(405, ErrorCode.InvalidRequest, "Method not allowed: the protected resource metadata is read with GET", undefined, {
    allow: "GET, HEAD, OPTIONS",
    ...open,
  });
}

/**
 * The {@link VERIFY_TOKEN} step: reads `Authorization`, asks the verifier,
 * checks expiry and `auth.requiredScopes`, then climbs on from {@link AFTER_TOKEN}.
 */
function verifyToken(core: Core, auth: AuthSettings, ex: Exchange): HttpAnswer | Promise<HttpAnswer> {
  if (queryHasToken(ex.url)) {
    return authRefusal(ex, auth, 400, "invalid_request", "access tokens are not accepted in the query string; send Authorization: Bearer");
  }
  const token = bearerToken(ex.header("authorization"));
  if (token === null) {
    return authRefusal(ex, auth, 400, "invalid_request", "malformed Authorization header: expected exactly one 'Bearer <token>'");
  }
  if (token === undefined) return authRefusal(ex, auth, 401, undefined, "no access token (send Authorization: Bearer <token>)");
  let verdict: AuthInfo | undefined | Promise<AuthInfo | undefined>;
  try {
    verdict = auth.verify(token, { method: ex.method, header: ex.header });
  } catch {
    return unverifiable(ex);
  }
  if (verdict instanceof Promise) {
    return verdict.then(
      (info) => admitToken(core, auth, ex, token, info),
      () => unverifiable(ex),
    );
  }
  return admitToken(core, auth, ex, token, verdict);
}

function admitToken(
  core: Core,
  auth: AuthSettings,
  ex: Exchange,
  token: string,
  info: AuthInfo | undefined,
): HttpAnswer | Promise<HttpAnswer> {
  if (info === undefined || info === null || typeof info !== "object") {
    return authRefusal(ex, auth, 401, "invalid_token", "the access token is invalid, expired or not meant for this resource");
  }
  if (typeof info.expiresAt === "number" && info.expiresAt <= Date.now() / 1000) {
    return authRefusal(ex, auth, 401, "invalid_token", "the access token has expired");
  }
  const scopes = Array.isArray(info.scopes) ? info.scopes : [];
  if (missingScopes(auth.required, scopes).length > 0) {
    return authRefusal(ex, auth, 403, "insufficient_scope", "the access token lacks scopes this server requires", auth.required.join(" "));
  }
  const admitted = withTokenDigest(Array.isArray(info.scopes) ? info : { ...info, scopes }, token);
  if (admitted instanceof Promise) {
    return admitted.then((bound) => {
      ex.auth = bound;
      return climb(core, ex, AFTER_TOKEN);
    });
  }
  ex.auth = admitted;
  return climb(core, ex, AFTER_TOKEN);
}

/**
 * A refusal of the token check: `status` with the Bearer challenge (RFC
 * 6750 section 3) and a JSON-RPC error body naming the OAuth error. The
 * token appears in neither.
 */
function authRefusal(
  ex: Exchange,
  auth: AuthSettings,
  status: 400 | 401 | 403,
  error: "invalid_request" | "invalid_token" | "insufficient_scope" | undefined,
  description: string,
  scope: string | undefined = auth.challengeScope,
  id?: RequestId,
  method?: string,
): HttpAnswer {
  const label = status === 400 ? "Bad Request" : status === 401 ? "Unauthorized" : "Forbidden";
  return errorAnswer(
    status,
    ErrorCode.InvalidRequest,
    `${label}: ${error === undefined ? "" : `${error}: `}${description}`,
    id,
    { "www-authenticate": challenge(auth, error, description, scope), ...ex.cors },
    method,
  );
}

function unverifiable(ex: Exchange): HttpAnswer {
  return errorAnswer(503, ErrorCode.InternalError, "Service unavailable: the access token could not be verified now", undefined, {
    "retry-after": "1",
    ...ex.cors,
  });
}

function preflight(core: Core, ex: Exchange): HttpAnswer | undefined {
  const cors = core.options.cors;
  if (ex.method !== "OPTIONS" || !cors) return undefined;
  return {
    status: 204,
    headers: {
      ...ex.cors,
      "access-control-allow-methods": core.allow,
      "access-control-allow-headers": core.requestHeaders,
      "access-control-max-age": String(cors.maxAgeSeconds ?? 600),
    },
    body: "",
  };
}

function postOnly(core: Core, ex: Exchange): Step {
  if (ex.method === "POST") return undefined;
  const verb = core.framing?.verb(ex, core.allow);
  if (verb !== undefined) return verb;
  return errorAnswer(405, ErrorCode.InvalidRequest, "Method not allowed: use POST", undefined, { allow: core.allow, ...ex.cors });
}

function accept(core: Core, ex: Exchange): HttpAnswer | undefined {
  const header = ex.header("accept");
  if (header !== core.lastAccept) {
    core.lastAccepts = acceptable(header);
    core.lastAccept = header;
  }
  const accepts = core.lastAccepts;
  ex.accepts = accepts;
  if (accepts.json || accepts.sse) return undefined;
  return errorAnswer(406, ErrorCode.InvalidRequest, "Not acceptable: accept application/json or text/event-stream", undefined, ex.cors);
}

function contentType(_core: Core, ex: Exchange): HttpAnswer | undefined {
  const type = ex.header("content-type");
  if (isJsonMediaType(type)) return undefined;
  const sent = type === undefined ? "none was sent" : `got ${JSON.stringify(type.length > 100 ? `${type.slice(0, 100)}...` : type)}`;
  return errorAnswer(
    415,
    ErrorCode.InvalidRequest,
    `Unsupported Media Type: the body must be sent with Content-Type: application/json (${sent})`,
    undefined,
    ex.cors,
  );
}

function load(core: Core, ex: Exchange): HttpAnswer | undefined {
  return core.busy(ex);
}

function declaredSize(core: Core, ex: Exchange): HttpAnswer | undefined {
  const declared = ex.header("content-length");
  if (declared === undefined || !(Number(declared) > core.maxBody)) return undefined;
  return tooLarge(core, ex);
}

function bodyBudget(core: Core, ex: Exchange): HttpAnswer | undefined {
  const declared = Number(ex.header("content-length"));
  // A declared length counts at once, so a stalled body holds its place from its headers on.
  if (!(declared > 0) || core.admit(ex, declared)) return undefined;
  return bodiesBusy(core, ex);
}

/** The {@link READ_BODY} step: reads the body (one promise), then climbs on from {@link AFTER_BODY}. */
function readBody(core: Core, ex: Exchange): HttpAnswer | Promise<HttpAnswer> {
  let reading: Promise<Uint8Array | undefined>;
  try {
    reading = ex.body(core);
  } catch {
    core.release(ex);
    return unreadable(ex);
  }
  return reading.then(
    (bytes) => {
      core.release(ex);
      if (bytes === undefined) return ex.overBudget ? bodiesBusy(core, ex) : tooLarge(core, ex);
      ex.bytes = bytes;
      return climb(core, ex, AFTER_BODY);
    },
    (error) => {
      core.release(ex);
      if (error instanceof BodyTimeout) return bodyTimedOut(ex, error.ms);
      return unreadable(ex, error instanceof BodyUnavailable ? error.message : undefined);
    },
  );
}

function decode(core: Core, ex: Exchange): HttpAnswer | undefined {
  // Where the framing takes batches, one is read: `message` hands it over once the session is known.
  const decoded = decodeMessage(ex.bytes!, core.maxDepth, "the body", statusOf, core.framing?.batches === true);
  // The bytes are not needed past here; an SSE call may hold the exchange for long.
  ex.bytes = undefined;
  if (!decoded.ok) return refusal(ex, decoded.inbound);
  ex.decoded = decoded;
  return undefined;
}

/** After the body: the session is looked for only once the message says which revision it is of. */
function sessionHeader(core: Core, ex: Exchange): Step {
  return core.framing?.claim(ex);
}

function message(core: Core, ex: Exchange): HttpAnswer | Promise<HttpAnswer> | undefined {
  // `decode` let a batch through only when there is a framing that takes them.
  if (isRequestBatch(ex.decoded!.value)) return core.framing!.batch(ex, (member) => climb(core, member, AT_MESSAGE));
  const inbound = inspectDecoded(core.server, ex.decoded!, ex.session?.binding, statusOf);
  ex.decoded = undefined;
  if (ex.expectsSession && ex.session === undefined && inbound.kind !== "request" && inbound.kind !== "initialize") {
    return core.framing!.missingSession(ex);
  }
  if (inbound.kind === "error") return refusal(ex, inbound);
  ex.inbound = inbound;
  return undefined;
}

function notification(core: Core, ex: Exchange): Step {
  const inbound = ex.inbound!;
  const kind = inbound.kind;
  if (kind === "request" || kind === "initialize") return undefined;
  // Accepted only when well formed; either way never answered under its id (reported by `inspect`).
  if (kind === "invalid-response") {
    return {
      status: 400,
      headers: jsonHeaders(ex.cors),
      body: stringifyJson(errorResponse(undefined, ErrorCode.InvalidRequest, inbound.message)),
    };
  }
  if (ex.session) return core.framing!.received(ex);
  return { status: 202, headers: { ...ex.cors }, body: "" };
}

function headerMirrors(_core: Core, ex: Exchange): HttpAnswer | undefined {
  // The header mirrors are a 2026-07-28 rule: the headers of an opening, or of a message on a session, are its framing's.
  if (ex.session || ex.inbound!.kind === "initialize") return undefined;
  const inbound = ex.inbound as InboundRequest;
  const mismatch = checkRequestHeaders(
    ex.header,
    inbound.method,
    inbound.params,
    inbound.envelope.protocolVersion,
    () => inbound.headerParams,
  );
  if (mismatch === undefined) return undefined;
  return errorAnswer(400, ErrorCode.HeaderMismatch, mismatch, inbound.id, ex.cors, inbound.method);
}

/** What each method with per-registration scopes names, for the challenge's `error_description`. */
const SCOPED: Readonly<Record<string, string>> = {
  "tools/call": "tool",
  "prompts/get": "prompt",
  "resources/read": "resource",
  "completion/complete": "prompt or template",
};

function registrationScopes(core: Core, ex: Exchange): HttpAnswer | undefined {
  const auth = core.auth;
  if (auth === undefined || ex.inbound!.kind !== "request") return undefined;
  const inbound = ex.inbound as InboundRequest;
  const needed = partsOf(core.server).requiredScopes(inbound);
  if (needed === undefined || missingScopes(needed, ex.auth!.scopes).length === 0) return undefined;
  // All the scopes of the operation in one challenge, so one step-up is enough (spec: "Scope Challenge Handling").
  return authRefusal(
    ex,
    auth,
    403,
    "insufficient_scope",
    `${inbound.method} of this ${SCOPED[inbound.method] ?? "registration"} needs more scopes`,
    needed.join(" "),
    inbound.id,
    inbound.method,
  );
}

function assignsHook(core: Core, ex: Exchange): HttpAnswer | undefined {
  const hook = core.options.assigns;
  const fromToken = ex.auth?.assigns;
  if (fromToken) ex.assigns = { ...fromToken };
  if (!hook) return undefined;
  try {
    const own = hook(ex.header);
    ex.assigns = fromToken ? { ...fromToken, ...own } : own;
    return undefined;
  } catch {
    const inbound = ex.inbound as InboundRequest;
    return errorAnswer(500, ErrorCode.InternalError, "Internal error: the assigns hook failed", inbound.id, ex.cors, inbound.method);
  }
}

// ---------------------------------------------------------------------------
// Refusals of the body

function tooLarge(core: Core, ex: Exchange): HttpAnswer {
  return errorAnswer(413, ErrorCode.InvalidRequest, `Body larger than ${core.maxBody} bytes`, undefined, ex.cors);
}

function bodiesBusy(core: Core, ex: Exchange): HttpAnswer {
  return errorAnswer(503, SERVER_BUSY, `Server busy: request bodies being read would pass ${core.maxBodiesInFlight} bytes`, undefined, {
    "retry-after": "1",
    ...ex.cors,
  });
}

function bodyTimedOut(ex: Exchange, ms: number): HttpAnswer {
  return errorAnswer(
    408,
    ErrorCode.InvalidRequest,
    `Request timeout: the body did not arrive within ${ms} ms (bodyTimeoutMs)`,
    undefined,
    ex.cors,
  );
}

function unreadable(ex: Exchange, why = "the request body could not be read"): HttpAnswer {
  return errorAnswer(400, ErrorCode.ParseError, `Parse error: ${why}`, undefined, ex.cors);
}
