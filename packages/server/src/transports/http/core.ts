/**
 * The Streamable HTTP transport core, whatever the HTTP library: the check
 * ladder every request climbs, then the call itself. The adapters are
 * `fetch.ts` (web `Request`/`Response`), `node.ts` (`node:http`) and
 * `listen.ts` (a ready `node:http` server).
 *
 * The first stage that answers ends the climb; a request that passes every
 * stage is handed to the dispatcher, which checks the protocol version
 * (10: 400, -32022) and the method (11: 404, -32601), then runs it. A
 * response is JSON unless the handler sends a notification before it
 * returns: the first one switches that response to an SSE stream
 * (`X-Accel-Buffering: no`) that carries the notifications and ends with the
 * response. Closing the stream (or the connection) aborts the handler's
 * `signal`. HTTP statuses of outcomes come from `status.ts` alone.
 *
 * The `initialize` era (spec 2025-11-25) shares the endpoint: an `initialize`,
 * or a message with `Mcp-Session-Id` that is not a request carrying the
 * 2026-07-28 `_meta` envelope, is of that era and is served by `legacy.ts`
 * (sessions, the GET stream, DELETE, resumability); every other message is
 * of 2026-07-28, and a request with the envelope is served statelessly
 * whatever session it names (spec 2026-07-28, basic/versioning "Backward
 * Compatibility": its `Mcp-Session-Id` is ignored, never looked up nor
 * echoed). When the server does not serve that era (`protocolVersions`), GET
 * and DELETE get 405 and `Mcp-Session-Id` is ignored.
 */
import { errorResponse, stringifyJson } from "@x/jsonrpc";
import type { JSONRPCNotification, RequestId } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { checkRequestHeaders } from "@x/mcp-v2607/wire";
import { type Inbound, type InboundRequest, internalErrorOutcome, type Outcome, responseText } from "../../dispatch.js";
import { SERVER_BUSY } from "../../errors.js";
import type { JsonObject } from "../../objects.js";
import { answerNow, type McpServer, partsOf } from "../../server.js";
import { publishRequestRejected, rejectionsObserved } from "../../telemetry.js";
import { Call, CallList, type ClientWatcher } from "../call.js";
import { type Decoded, decodeMessage, inspectDecoded, isRequestBatch } from "../messages.js";
import { ChunkQueue, KeepAlive, sseEvent, sseEventOf } from "../sse.js";
import { type AuthInfo, missingScopes, withTokenDigest } from "../../authorization.js";
import { type AuthOptions, type AuthSettings, authSettings, bearerToken, challenge, queryHasToken } from "./auth.js";
import { type HttpSession, LegacyHttp, type LegacyHttpOptions } from "./legacy.js";
import { answerBatch } from "./legacy-batch.js";
import { acceptable, hostName, isJsonMediaType, isLoopbackOrigin, LOOPBACK_HOSTS, pathOf } from "./header-rules.js";
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
  postOnly, //       2. GET/DELETE with Mcp-Session-Id (initialize era): the session's stream / its end; anything else but POST: 405
  accept, //         3. Accept admits neither JSON nor SSE: 406, as no answer could be sent
  contentType, //    3. Content-Type absent or not application/json (parameters allowed, any case): 415, -32600, before the body is read
  load, //           3. maxConcurrentRequests requests held by open connections: 503 with Retry-After, before a body is read
  declaredSize, //   4. Content-Length over the limit: 413, without reading the body
  bodyBudget, //     4. Content-Length would take the bodies being read past maxBodyBytesInFlight: 503 with Retry-After
  READ_BODY, //      4. more bytes than the limit: 413 (Content-Length may lie); past maxBodyBytesInFlight: 503; unreadable: 400, -32700;
  //                 not all there within bodyTimeoutMs: 408, -32600
  //                 (node: a body a framework already read is taken from it, or refused at once with 400, -32700, never waited for)
  decode, //         5, 6. not UTF-8 JSON, too deep (a batch too, where the initialize era is not served): 400 (-32700, -32600), before any handler
  sessionHeader, //  initialize era, once the message is known: a request carrying the 2026-07-28 envelope ignores Mcp-Session-Id (the dual-era rule);
  //                 any other message naming a session: unknown or ended 404; malformed or MCP-Protocol-Version unsupported 400
  message, //        6, 8. not one request, bad _meta: 400, before any handler; an initialize-era request without its session: 400;
  //                 a batch: on a 2025-03-26 session each member climbs on from here (legacy-batch.ts), else 400, -32600 (no member runs)
  notification, //   7. a notification or a well-formed JSON-RPC response: 202 with an empty body, as neither has an answer (on a session: acted on first);
  //                 a malformed response (both result and error, an error that is no object...): 400, -32600 without id
  headerMirrors, //  9. MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-* unequal to the body: 400, -32020 (proxies route on them)
  registrationScopes, // auth on: the tool, resource or prompt named (or completed) has requiredScopes the token lacks: 403 insufficient_scope, before its handler runs
  assignsHook, //    the assigns hook throws: 500, -32603, before the request takes a slot
];
// Then `runCall` (`initialize` mints a session; a request on a session goes to legacy.ts): the dispatcher checks 10. the protocol version (400, -32022)
// and 11. the method (404, -32601), and runs it.

/**
 * One stage of the {@link LADDER}: an answer ends the climb, `undefined`
 * passes the request on. What a stage learns for later ones it leaves on the
 * exchange (no object per request for it).
 */
type Stage = ((core: Core, ex: Exchange) => HttpAnswer | Promise<HttpAnswer> | undefined) | typeof READ_BODY | typeof VERIFY_TOKEN;

/** The first stage after the body read. */
const AFTER_BODY = LADDER.indexOf(READ_BODY) + 1;
/** The first stage after the token check. */
const AFTER_TOKEN = LADDER.indexOf(VERIFY_TOKEN) + 1;
/** Where each member of a batch climbs on from. */
const AT_MESSAGE = LADDER.indexOf(message);

/** CORS for browser clients (off unless configured). */
export interface CorsOptions {
  /** Origins (`scheme://host[:port]`) allowed to call from a browser; they also pass the `Origin` check. */
  origins: readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

/** Options of the Streamable HTTP transport. */
export interface HttpTransportOptions extends LegacyHttpOptions {
  /**
   * Host names (without port) accepted in the `Host` header. Default: the
   * loopback names `localhost`, `127.0.0.1` and `[::1]`, the right rule for a
   * server bound to loopback. A server on any other address must list its names.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host[:port]`) accepted in the `Origin` header. A request
   * without `Origin` is always accepted. Default: any origin whose host name is
   * a loopback name.
   */
  allowedOrigins?: readonly string[];
  /**
   * Check `Origin` and `Host` (DNS-rebinding protection). Default true. Turning
   * it off is only allowed on a loopback address (see `listen`).
   */
  dnsRebindingProtection?: boolean;
  /** CORS for browser clients; off by default. */
  cors?: CorsOptions;
  /** Largest accepted body, in bytes. Default 4 MiB (4 194 304). */
  maxBodyBytes?: number;
  /**
   * Most bytes of request bodies held at once while they are read, across all
   * requests, in bytes. A request whose `Content-Length` would pass it is
   * refused before its body is read, one without `Content-Length` as soon as
   * its bytes would: 503 with `Retry-After: 1` and -32000. A body's bytes
   * count from its first byte (or its declared length) until it is read, fails
   * or its connection closes. Default 16 × `maxBodyBytes` (64 MiB with the
   * default `maxBodyBytes`).
   */
  maxBodyBytesInFlight?: number;
  /** Deepest accepted JSON nesting (objects and arrays). Default 64. */
  maxJsonDepth?: number;
  /**
   * Most time to receive a request's body once the handler starts reading
   * it, in milliseconds; past it the answer is 408 with -32600 (on HTTP/1.1
   * through `createNodeHandler`, with `Connection: close`, as the rest of the
   * body may still come), and the bytes read so far are let go. It bounds a
   * body that never arrives whatever the timeouts of the server the handler
   * is mounted in (Node's own allow five minutes, Fastify's none). A body a
   * framework already read is not timed. Default 30 000; 0 (or a negative
   * number) turns it off. Through `createNodeHandler` the deadlines are
   * swept by one timer, so a late body is let go within two sweeps after it
   * (a sweep: a quarter of this, at most 1 s).
   */
  bodyTimeoutMs?: number;
  /**
   * Most requests answered at once: a request counts while its client waits
   * on an open connection (a JSON answer not yet sent, an SSE answer open, a
   * `subscriptions/listen` stream, an initialize-era stream resumed with
   * `Last-Event-ID`), and an aborted one while its handler still runs with
   * nothing else to bound it (a 2026-07-28 request whose client went away,
   * one of an ended initialize-era session). Past it, a request is answered
   * 503 with `Retry-After: 1` and -32000 before its body is read. An
   * initialize-era request whose client went away runs on without counting
   * here (its session's `maxRequestsPerSession` bounds it), nor does a
   * session's GET stream (`maxSessions` bounds those). Default 1024.
   */
  maxConcurrentRequests?: number;
  /**
   * Most text one SSE response may hold unsent (a client that reads slower
   * than the server notifies), in bytes. Past it the stream is closed and the
   * request aborted. Default 8 MiB.
   */
  maxBufferedBytes?: number;
  /** Interval of the keep-alive comment on open SSE streams, in milliseconds. Default 15 000; 0 turns it off. */
  keepAliveMs?: number;
  /**
   * Per-request data for handlers (`ctx.assigns`), computed from the HTTP
   * request, for example after verifying a bearer token. Called once per request.
   * A hook that throws gets the request answered with HTTP 500 and -32603
   * (the hook's error text is not sent); to refuse a request, throw from a
   * handler or override `McpServer.execute` instead.
   */
  assigns?: (headers: (name: string) => string | undefined) => JsonObject | undefined;
  /**
   * Makes the server an OAuth resource server (spec: basic/authorization):
   * every request, of both eras, needs `Authorization: Bearer <token>` that
   * `auth.verifyAccessToken` accepts; handlers see what it found in
   * `ctx.auth`. The protected resource metadata is served at
   * `/.well-known/oauth-protected-resource` plus the path of
   * `auth.resourceMetadata.resource` (and at the bare well-known path). Off by default.
   * @throws TypeError (when the transport is made) for an unusable {@link AuthOptions}.
   */
  auth?: AuthOptions;
}

/** The response the transport core produces, independent of the HTTP library. */
export type HttpAnswer =
  | { status: number; headers: Record<string, string>; body: string }
  | { status: number; headers: Record<string, string>; stream: ChunkQueue };

/** What an adapter hands the core for one HTTP request. */
export interface HttpExchange {
  method: string;
  /**
   * The request target's path and query (`/mcp?x=1`), when the adapter
   * knows it: the protected resource metadata is answered by path, and a
   * token in the query is refused. Without it neither is done.
   */
  url?: string;
  /** Reads a request header by lower-case name; several lines of one header come joined by ", ". */
  header(name: string): string | undefined;
  /**
   * Reads the whole body, calling `admit` with the byte count read so far
   * after each chunk, and resolves `undefined` as soon as `admit` returns
   * false. Rejects when the body cannot be read (or the client goes away).
   */
  body(admit: (size: number) => boolean): Promise<Uint8Array | undefined>;
  /** Aborted by the adapter when the client goes away. */
  signal: AbortSignal;
}

/** The transport core: answers exchanges and tracks the ones in flight. */
export interface HttpCore {
  /** Answers one exchange. Never rejects. */
  answer(exchange: HttpExchange): Promise<HttpAnswer>;
  /** Requests in flight on open connections (listen streams included; see `maxConcurrentRequests`). */
  readonly active: number;
  /** Resolves once no request is in flight, or after `deadlineMs`, when the rest are aborted. */
  drain(deadlineMs: number): Promise<void>;
}

/** Which of JSON and SSE an `Accept` header admits. */
interface Accepts {
  readonly json: boolean;
  readonly sse: boolean;
}

const NO_CORS: Readonly<Record<string, string>> = Object.freeze({});
const ANY: Accepts = Object.freeze({ json: true, sse: true });

/**
 * One HTTP exchange as the ladder sees it (internal): what the adapter reads
 * from its HTTP library, and what the stages found so far.
 */
export abstract class Exchange {
  /** The request method. */
  abstract readonly method: string;
  /** The request target's path and query, when the adapter knows it. */
  abstract readonly url: string | undefined;
  /** Reads a request header by lower-case name (several lines joined by ", "); callable unbound. */
  abstract readonly header: (name: string) => string | undefined;
  /**
   * Reads the whole body, calling `core.admit(this, size)` with the byte count
   * read so far after each chunk; resolves `undefined` as soon as it refuses.
   * Rejects when the body cannot be read or the client goes away.
   */
  abstract body(core: Core): Promise<Uint8Array | undefined>;
  /** From now on, the client going away (before the answer is written) is told to `watcher`; gone already, at once. */
  abstract watch(watcher: ClientWatcher): void;
  /** Stops what {@link Exchange.watch} started. */
  abstract unwatch(): void;
  /** The CORS headers every later answer carries (set by `dnsRebinding`). */
  cors: Readonly<Record<string, string>> = NO_CORS;
  /** What `Accept` admits (set by `accept`). */
  accepts: Accepts = ANY;
  /** The body, from the read until `decode` decodes it. */
  bytes: Uint8Array | undefined = undefined;
  /** The decoded message (its value, and whether lossless-json read it), from `decode` until `message` classifies it. */
  decoded: Extract<Decoded, { ok: true }> | undefined = undefined;
  /** Bytes of this body counted in the core's in-flight total (set by `bodyBudget` and the read). */
  reserved = 0;
  /** True once the in-flight cap, not `maxBodyBytes`, refused the body. */
  overBudget = false;
  /** The message, as `message` read it; a request from `notification` on. */
  inbound: Inbound | undefined = undefined;
  /** What the assigns hook returned (set by `assignsHook`). */
  assigns: JsonObject | undefined = undefined;
  /** The initialize-era session the request names (set by `sessionHeader`). */
  legacy: HttpSession | undefined = undefined;
  /** True when a request without a session names an initialize-era version in MCP-Protocol-Version. */
  legacyHint = false;
  /** What the verifier found in the bearer token (set by the token check; `auth` option only). */
  auth: AuthInfo | undefined = undefined;
}

/** Adapts a public {@link HttpExchange} (with its `signal`) to the ladder. */
class SignalExchange extends Exchange {
  readonly method: string;
  readonly url: string | undefined;
  readonly header: (name: string) => string | undefined;
  readonly #exchange: HttpExchange;
  #onAbort: (() => void) | undefined = undefined;

  constructor(exchange: HttpExchange) {
    super();
    this.#exchange = exchange;
    this.method = exchange.method;
    this.url = exchange.url;
    this.header = exchange.header;
  }

  body(core: Core): Promise<Uint8Array | undefined> {
    return this.#exchange.body((size) => core.admit(this, size));
  }

  watch(watcher: ClientWatcher): void {
    if (this.#exchange.signal.aborted) {
      watcher.clientGone();
      return;
    }
    this.#onAbort = () => watcher.clientGone();
    this.#exchange.signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  unwatch(): void {
    if (this.#onAbort) this.#exchange.signal.removeEventListener("abort", this.#onAbort);
  }
}

/**
 * The transport core: answers one HTTP exchange for `server`, whatever the
 * HTTP library. Never throws and never rejects; every failure is an answer.
 */
export function createHttpCore(server: McpServer, options: HttpTransportOptions = {}): HttpCore {
  return new Core(server, options);
}

/**
 * The core of one handler (internal): its settings, read once from the
 * options, and the requests in flight. The `node:http` adapter calls
 * {@link Core.serve} directly, with its own {@link Exchange}.
 */
export class Core implements HttpCore {
  readonly server: McpServer;
  readonly options: HttpTransportOptions;
  readonly protect: boolean;
  readonly allowedHosts: readonly string[];
  readonly corsOrigins: readonly string[];
  readonly maxBody: number;
  readonly maxBodiesInFlight: number;
  /** Bytes of the bodies being read now, as counted by {@link Core.admit}. */
  bodyBytes = 0;
  readonly maxDepth: number;
  /** {@link HttpTransportOptions.bodyTimeoutMs}, 0 when off. */
  readonly bodyTimeoutMs: number;
  readonly maxActive: number;
  readonly keepAliveMs: number;
  /** The one keep-alive timer of this core's SSE answers; `undefined` when `keepAliveMs` is 0. */
  readonly keepAlive: KeepAlive | undefined;
  readonly inFlight = new CallList();
  readonly #idleWaiters = new Set<() => void>();
  // Clients send the same Accept header again and again: remember the last one read.
  lastAccept: string | undefined = undefined;
  lastAccepts: Accepts = ANY;
  // Likewise the last Host header that passed.
  lastHost: string | undefined = undefined;
  /** The initialize era of this core: its sessions and streams. */
  readonly legacy: LegacyHttp;
  /** The `auth` option, read once; `undefined` when off. */
  readonly auth: AuthSettings | undefined;

  constructor(server: McpServer, options: HttpTransportOptions) {
    this.server = server;
    this.options = options;
    this.protect = options.dnsRebindingProtection !== false;
    this.allowedHosts = (options.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase());
    this.corsOrigins = options.cors?.origins ?? [];
    this.maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.maxBodiesInFlight = options.maxBodyBytesInFlight ?? 16 * this.maxBody;
    this.maxDepth = options.maxJsonDepth ?? 64;
    this.bodyTimeoutMs = bodyTimeoutOf(options);
    this.maxActive = options.maxConcurrentRequests ?? 1024;
    this.keepAliveMs = options.keepAliveMs ?? 15_000;
    this.keepAlive = this.keepAliveMs > 0 ? new KeepAlive(this.keepAliveMs) : undefined;
    this.auth = options.auth ? authSettings(options.auth) : undefined;
    this.legacy = new LegacyHttp(this, server, options);
  }

  answer(exchange: HttpExchange): Promise<HttpAnswer> {
    return this.serve(new SignalExchange(exchange));
  }

  /** Climbs the ladder for one exchange; rejects only on a fault of the core itself. */
  serve(ex: Exchange): Promise<HttpAnswer> {
    try {
      const answer = climb(this, ex, 0);
      return answer instanceof Promise ? answer : Promise.resolve(answer);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get active(): number {
    return this.inFlight.size;
  }

  drain(deadlineMs: number): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(deadline);
        this.#idleWaiters.delete(wake);
        resolve();
      };
      const deadline = setTimeout(() => {
        for (const c of this.inFlight.toArray()) c.abort();
        wake();
      }, deadlineMs);
      this.#idleWaiters.add(wake);
    });
  }

  /**
   * 503 with `Retry-After` when `maxConcurrentRequests` calls hold a
   * connection already, else `undefined`: the `load` stage, and an
   * initialize-era stream resumed for a running call.
   */
  busy(ex: Exchange): HttpAnswer | undefined {
    if (this.inFlight.size < this.maxActive) return undefined;
    return errorAnswer(503, SERVER_BUSY, `Server busy: ${this.maxActive} requests in flight`, undefined, {
      "retry-after": "1",
      ...ex.cors,
    });
  }

  /** A call ended, or no longer holds a connection: it leaves the in-flight set, and `drain` wakes once none is left. */
  finished(call: Call): void {
    this.inFlight.delete(call);
    // Checked first: copying the (empty) set of waiters on every request that empties the set was 0.4 µs of 24 per request.
    if (this.inFlight.size === 0 && this.#idleWaiters.size > 0) for (const wake of [...this.#idleWaiters]) wake();
  }

  /**
   * Counts `size` bytes of `ex`'s body (read or declared) in the in-flight
   * total. False when the body passes `maxBodyBytes`, or when the total would
   * pass the cap (then `ex.overBudget` is set and nothing is counted).
   */
  admit(ex: Exchange, size: number): boolean {
    if (size > this.maxBody) return false;
    if (size <= ex.reserved) return true;
    if (this.bodyBytes + size - ex.reserved > this.maxBodiesInFlight) {
      ex.overBudget = true;
      return false;
    }
    this.bodyBytes += size - ex.reserved;
    ex.reserved = size;
    return true;
  }

  /** Takes `ex`'s body out of the in-flight total (read, refused, failed or abandoned). */
  release(ex: Exchange): void {
    this.bodyBytes -= ex.reserved;
    ex.reserved = 0;
  }

  /** True for an origin CORS or `allowedOrigins` lets in (by default: a loopback one). */
  originAllowed(origin: string): boolean {
    return (
      this.corsOrigins.includes(origin) ||
      (this.options.allowedOrigins ? this.options.allowedOrigins.includes(origin) : isLoopbackOrigin(origin))
    );
  }

  /** The CORS headers of the answers to `origin` ({@link NO_CORS} unless CORS admits it). */
  corsHeaders(origin: string | undefined): Readonly<Record<string, string>> {
    return origin !== undefined && this.corsOrigins.includes(origin)
      ? {
          "access-control-allow-origin": origin,
          vary: "Origin",
          "access-control-expose-headers": "content-type, mcp-protocol-version, mcp-session-id, www-authenticate",
        }
      : NO_CORS;
  }
}

/** Runs the ladder from stage `from`, then the call: an answer at once, or once the body is read and the handler answered. */
function climb(core: Core, ex: Exchange, from: number): HttpAnswer | Promise<HttpAnswer> {
  for (let i = from; i < LADDER.length; i++) {
    const stage = LADDER[i]!;
    if (stage === READ_BODY) return readBody(core, ex);
    if (stage === VERIFY_TOKEN) {
      if (core.auth === undefined) continue;
      return verifyToken(core, core.auth, ex);
    }
    const answer = stage(core, ex);
    if (answer !== undefined) return answer;
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

const MCP_HEADERS =
  "content-type, accept, authorization, mcp-protocol-version, mcp-method, mcp-name, mcp-param-*, last-event-id, mcp-session-id";

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

/**
 * The methods the endpoint serves, as an `Allow` value: POST, and GET and
 * DELETE when the initialize era is served (its sessions' stream and end),
 * and OPTIONS when CORS answers preflights. The 405 and the preflight both
 * say this, so they cannot disagree.
 */
function methodsServed(core: Core): string {
  const methods = core.legacy.served ? "GET, POST, DELETE" : "POST";
  return core.options.cors ? `${methods}, OPTIONS` : methods;
}

function preflight(core: Core, ex: Exchange): HttpAnswer | undefined {
  const cors = core.options.cors;
  if (ex.method !== "OPTIONS" || !cors) return undefined;
  return {
    status: 204,
    headers: {
      ...ex.cors,
      "access-control-allow-methods": methodsServed(core),
      "access-control-allow-headers": MCP_HEADERS,
      "access-control-max-age": String(cors.maxAgeSeconds ?? 600),
    },
    body: "",
  };
}

function postOnly(core: Core, ex: Exchange): HttpAnswer | undefined {
  if (ex.method === "POST") return undefined;
  const verb = core.legacy.verb(ex);
  if (verb !== undefined) return verb;
  // GET and DELETE are served here only for a session: without one, say so rather than just "use POST".
  const why =
    core.legacy.served && (ex.method === "GET" || ex.method === "DELETE")
      ? `${ex.method} needs the Mcp-Session-Id of an initialize-era session; send requests with POST`
      : "use POST";
  return errorAnswer(405, ErrorCode.InvalidRequest, `Method not allowed: ${why}`, undefined, { allow: methodsServed(core), ...ex.cors });
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

/**
 * Why an adapter cannot hand over a body (internal): its message is the
 * answer's (400, -32700), so say what happened and how to fix the set-up.
 */
export class BodyUnavailable extends Error {}

/** An adapter's body read passed `bodyTimeoutMs` (internal); the adapter has let go of what it read. */
export class BodyTimeout extends Error {
  constructor(readonly ms: number) {
    super(`the body did not arrive within ${ms} ms`);
  }
}

/** {@link HttpTransportOptions.bodyTimeoutMs} as a number of milliseconds, 0 when off. */
export function bodyTimeoutOf(options: HttpTransportOptions): number {
  const ms = options.bodyTimeoutMs ?? 30_000;
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

function decode(core: Core, ex: Exchange): HttpAnswer | undefined {
  // Where a session may take batches, one is read: `message` answers or refuses it once the session is known.
  const decoded = decodeMessage(ex.bytes!, core.maxDepth, "the body", statusOf, core.legacy.served);
  // The bytes are not needed past here; an SSE call may hold the exchange for long.
  ex.bytes = undefined;
  if (!decoded.ok) return refusal(ex, decoded.inbound);
  ex.decoded = decoded;
  return undefined;
}

/** After the body: the session is looked for only once the message says which era it is of. */
function sessionHeader(core: Core, ex: Exchange): HttpAnswer | undefined {
  return core.legacy.sessionHeader(ex);
}

function message(core: Core, ex: Exchange): HttpAnswer | Promise<HttpAnswer> | undefined {
  if (isRequestBatch(ex.decoded!.value)) return answerBatch(ex, (member) => climb(core, member, AT_MESSAGE));
  const inbound = inspectDecoded(core.server, ex.decoded!, ex.legacy?.session, statusOf);
  ex.decoded = undefined;
  if (ex.legacyHint && ex.legacy === undefined && inbound.kind !== "request" && inbound.kind !== "initialize") {
    return core.legacy.missingSession(ex);
  }
  if (inbound.kind === "error") return refusal(ex, inbound);
  ex.inbound = inbound;
  return undefined;
}

/** The answer to a message refused as it was read (its outcome already published). */
function refusal(ex: Exchange, inbound: Extract<Inbound, { kind: "error" }>): HttpAnswer {
  return { status: statusOf(inbound.outcome), headers: jsonHeaders(ex.cors), body: stringifyJson(inbound.outcome.response) };
}

function notification(core: Core, ex: Exchange): HttpAnswer | undefined {
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
  if (ex.legacy) return core.legacy.received(ex);
  return { status: 202, headers: { ...ex.cors }, body: "" };
}

function headerMirrors(_core: Core, ex: Exchange): HttpAnswer | undefined {
  // The header mirrors are a 2026-07-28 rule; the initialize era has only MCP-Protocol-Version, checked with the session.
  if (ex.legacy || ex.inbound!.kind === "initialize") return undefined;
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
// The call: the request takes a slot and the dispatcher answers it

function runCall(core: Core, ex: Exchange): HttpAnswer | Promise<HttpAnswer> {
  const first = ex.inbound!;
  if (first.kind === "initialize") return core.legacy.initialize(ex, first.id, first.params);
  const inbound = first as InboundRequest;
  if (ex.legacy) return core.legacy.call(ex, inbound);
  // The exchange lives as long as its response (a listen stream's, for long): it need not hold the request too.
  ex.inbound = undefined;
  const cors = ex.cors;
  const accepts = ex.accepts;
  const call = new Call();
  // The client's retry of an input_required answer may reach another instance.
  call.manyInstances = true;
  call.status = statusOf;
  if (ex.assigns) call.assigns = ex.assigns;
  if (ex.auth) call.auth = ex.auth;
  core.inFlight.add(call);
  ex.watch(call);

  // The answer is a value when the handler answered at once (most tools),
  // a promise otherwise; an SSE answer as soon as a first notification is sent.
  let resolveAnswer: ((a: HttpAnswer) => void) | undefined;
  let streamAnswer: HttpAnswer | undefined;
  let stream: ChunkQueue | undefined;
  call.notify = (note: JSONRPCNotification): boolean => {
    if (call.done || !accepts.sse || call.aborted) return false;
    if (!stream) {
      stream = new ChunkQueue(core.options.maxBufferedBytes);
      const abort = () => call.abort();
      stream.onCancel = abort;
      stream.onOverflow = abort;
      core.keepAlive?.add(stream);
      streamAnswer = { status: 200, headers: { ...SSE_HEADERS, ...cors }, stream };
      resolveAnswer?.(streamAnswer);
    }
    return stream.push(sseEvent(note));
  };
  /** Ends the call; the JSON answer, or undefined when the outcome went down the SSE stream. */
  const finish = (outcome: Outcome): HttpAnswer | undefined => {
    call.done = true;
    if (stream) core.keepAlive?.delete(stream);
    ex.unwatch();
    core.finished(call);
    if (stream) {
      if (!call.aborted) stream.push(sseEventOf(responseText(outcome)));
      stream.end();
      return undefined;
    }
    return { status: statusOf(outcome), headers: jsonHeaders(cors), body: responseText(outcome) };
  };
  const outcome = answerNow(core.server, inbound, call);
  return settleAnswer(
    outcome,
    inbound,
    finish,
    // Read once: the stream's answer is not kept for the rest of its life.
    () => {
      const answer = streamAnswer;
      streamAnswer = undefined;
      return answer;
    },
    (resolve) => {
      resolveAnswer = resolve;
    },
  );
}

/**
 * The HTTP answer of a request whose outcome may still be running, for both
 * eras' POST paths: `finish` ends the call and gives the JSON answer, or
 * `undefined` when the outcome went down the SSE stream `current()` names;
 * while it runs, `waitForStream` is handed the resolver the SSE answer is
 * given to as soon as a first message opens the stream. A rejected outcome
 * is an internal error. Never throws.
 */
export function settleAnswer(
  outcome: Outcome | Promise<Outcome>,
  inbound: InboundRequest,
  finish: (outcome: Outcome) => HttpAnswer | undefined,
  current: () => HttpAnswer | undefined,
  waitForStream: (resolve: (answer: HttpAnswer) => void) => void,
): HttpAnswer | Promise<HttpAnswer> {
  if (!(outcome instanceof Promise)) return finish(outcome) ?? (current() as HttpAnswer);
  // The callbacks below hold the request's id, not the request: they live as long as the outcome runs.
  const id = inbound.id;
  const open = current();
  if (open) {
    whenSettled(outcome, id, finish);
    return open;
  }
  return new Promise<HttpAnswer>((resolve) => {
    waitForStream(resolve);
    whenSettled(outcome, id, finish, resolve);
  });
}

/**
 * Runs `finish` on the outcome once it settles (a rejection as an internal
 * error), and gives a JSON answer to `resolve`. Apart from `settleAnswer` so
 * that its callbacks hold only these, not `settleAnswer`'s other arguments.
 */
function whenSettled(
  outcome: Promise<Outcome>,
  id: RequestId,
  finish: (outcome: Outcome) => HttpAnswer | undefined,
  resolve?: (answer: HttpAnswer) => void,
): void {
  const settle = (o: Outcome) => {
    const answer = finish(o);
    if (answer && resolve) resolve(answer);
  };
  outcome.then(settle, () => settle(internalErrorOutcome(id)));
}

// ---------------------------------------------------------------------------
// Helpers

const JSON_HEADERS = { "content-type": "application/json" };
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };

function jsonHeaders(cors: Readonly<Record<string, string>>): Record<string, string> {
  return cors === NO_CORS ? { "content-type": "application/json" } : { ...JSON_HEADERS, ...cors };
}

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

/** A transport refusal: `status` with a JSON-RPC error body (no id) and `extra` headers. */
export function errorAnswer(
  status: number,
  code: number,
  message: string,
  id?: RequestId,
  extra: Readonly<Record<string, string>> = {},
  method?: string,
): Extract<HttpAnswer, { body: string }> {
  const response = errorResponse(id, code, message);
  // Refusals decided by the transport (403, 405, 413, parse errors, header mismatches...) are observable too.
  if (rejectionsObserved()) publishRequestRejected({ requestId: id as RequestId | undefined, method, code, message, status });
  return { status, headers: { ...JSON_HEADERS, ...extra }, body: stringifyJson(response) };
}
