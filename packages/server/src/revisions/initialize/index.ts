/**
 * The `initialize` era as a codec (spec 2025-11-25, and the versions that
 * share its handshake back to 2024-11-05): an `initialize` opens a session
 * (the transport makes it, with `era.ts`), and every later request comes on
 * that session, its {@link Binding}: the envelope is the session's (the
 * version negotiated, the capabilities and client info of `initialize`),
 * `_meta` is read only for its `progressToken`. Its methods are the
 * session's own and the shared table's (`methods.ts`), those the session's
 * version has (`versions/`: another is -32601); a handler's asks are
 * server-to-client requests on the session, awaited in place, those the
 * version can carry (another answers "not supported"); results and the
 * notifications of a request are reduced to what the version defines; an
 * unknown resource is the era's -32002.
 */
import { ErrorCode as EraErrorCode } from "@x/mcp-v2511/constants";
import { INITIALIZE_ERA_VERSIONS } from "@x/mcp-v2511/wire";
import type { LoggingLevel } from "@x/mcp-v2607";
import { ErrorCode, META_SERVER_INFO } from "@x/mcp-v2607/constants";
import type { RequestEnvelope } from "@x/mcp-v2607/wire";
import { refusal } from "../../dispatch.js";
import { McpError, ResourceNotFoundError } from "../../errors.js";
import type { JSONRPCNotification } from "@x/mcp-v2607";
import type { TransportInfo } from "../../context.js";
import type { MethodEntry } from "../../features/feature.js";
import { copyOwn, isObject, type JsonObject } from "../../objects.js";
import { RequestRoute } from "../../route.js";
import type { Revision } from "../revision.js";
import { checkClientAnswer, hasLaterEnvelope } from "./era.js";
import { sessionMethods, sessionOf } from "./methods.js";
import type { LegacySession } from "./session.js";

/**
 * Fields of results that 2026-07-28 added and the `initialize` era's schema
 * lacks (spec 2025-11-25: schema): taken off every result of that era, also
 * where the version's result is open (`tasks/result` of 2025-11-25 carries
 * the tool's result as it is).
 */
const LATER_RESULT_FIELDS = ["resultType", "ttlMs", "cacheScope"] as const;

/** The entry of a method the session's version does not have: answered -32601 as an unknown method is, with the session's status. */
const NOT_IN_VERSION: MethodEntry = { enabled: () => false, handle: () => ({}) };

/** The `initialize` era. */
export const revision2511: Revision = {
  name: "initialize",
  versions: INITIALIZE_ERA_VERSIONS,
  perRequest: false,

  // The opening of the era: the transport decides whether it serves it.
  opens: (method, params) => method === "initialize" && !hasLaterEnvelope(params),

  request(id, method, params, binding, table) {
    if (binding === undefined) return { kind: "initialize", id, params };
    const session = binding as LegacySession;
    if (method === "initialize") return refusal(id, ErrorCode.InvalidRequest, "Invalid request: this session is already initialized");
    // One stdio connection speaks one era; Streamable HTTP never hands one here (the dual-era rule, `selectsLaterEra`).
    if (hasLaterEnvelope(params)) {
      return refusal(
        id,
        ErrorCode.InvalidRequest,
        "Invalid request: a 2026-07-28 request (with the _meta envelope) on an initialize-era session",
      );
    }
    const meta = params._meta;
    const progressToken = isObject(meta) ? meta.progressToken : undefined;
    if (
      progressToken !== undefined &&
      typeof progressToken !== "string" &&
      typeof progressToken !== "bigint" &&
      !Number.isSafeInteger(progressToken)
    ) {
      return refusal(id, ErrorCode.InvalidParams, "Invalid _meta.progressToken: must be a string or an integer");
    }
    const envelope: RequestEnvelope = {
      meta: (isObject(meta) ? meta : {}) as RequestEnvelope["meta"],
      protocolVersion: session.protocolVersion,
      clientCapabilities: session.clientCapabilities,
      clientInfo: session.clientInfo,
    };
    // No header mirrors: they are a 2026-07-28 rule.
    const entry = session.table.hasClientRequest(method) ? table.get(method) : NOT_IN_VERSION;
    return {
      kind: "request",
      id,
      method,
      params,
      envelope,
      headerParams: undefined,
      revision: revision2511,
      binding,
      entry,
      lossless: undefined,
    };
  },

  methods: sessionMethods,

  run(entry, params, ctx, transport, scope) {
    const session = sessionOf(scope);
    const method = ctx.method;
    reduceNotifications(transport, session);
    if (entry.asks === true) {
      // Asks are requests on the session, on the stream of this request, checked with the era's validators;
      // one the session's version cannot carry answers "not supported", as a missing capability does.
      const id = ctx.requestId;
      scope.route = new RequestRoute(
        (askMethod, askParams, signal) =>
          session.request(askMethod, askParams, id, signal).then((answer) => checkClientAnswer(askMethod, answer)),
        false,
        (askMethod, askParams) => session.carries(askMethod, askParams),
      );
      // The dispatcher finishes it once the run is over.
    }
    const running = entry.handle(params, ctx, transport, scope);
    // The result as the session's version defines it.
    if (running instanceof Promise) return running.then((result) => reduceResult(session, method, result));
    return reduceResult(session, method, running);
  },

  // The level the client set with `logging/setLevel` on the session (none until it does).
  logLevel: (_meta, binding): LoggingLevel | undefined => (binding as LegacySession | undefined)?.logLevel,

  // No `resultType`, no cache hints, no server info in `_meta`: the server introduced itself in `InitializeResult`.
  stamp(result) {
    const stamped = copyOwn(result);
    for (const field of LATER_RESULT_FIELDS) delete stamped[field];
    const meta = stamped._meta;
    if (isObject(meta) && META_SERVER_INFO in meta) {
      const copy = copyOwn(meta);
      delete copy[META_SERVER_INFO];
      if (Object.keys(copy).length === 0) delete stamped._meta;
      else stamped._meta = copy;
    }
    return stamped as JsonObject;
  },

  // spec 2025-11-25, server/resources "Error Handling": an unknown resource is -32002 there.
  fault: (error) =>
    error instanceof ResourceNotFoundError ? new McpError(EraErrorCode.ResourceNotFound, error.message, error.data) : error,
};

/** A handler's result reduced to what the session's version defines for `method`'s result. */
function reduceResult(session: LegacySession, method: string, result: unknown): unknown {
  return isObject(result) ? session.table.result(method, result) : result;
}

/**
 * The request's own notifications (progress, log messages) reduced to what
 * the session's version defines, and one it lacks not sent: the transport's
 * `notify` for this request (its own `Call`) is wrapped once, before the
 * handler runs.
 */
function reduceNotifications(transport: TransportInfo, session: LegacySession): void {
  const send = transport.notify;
  if (send === undefined) return;
  transport.notify = (notification: JSONRPCNotification) => {
    const reduced = session.outbound(notification as unknown as JsonObject);
    return reduced !== undefined && send(reduced as unknown as JSONRPCNotification);
  };
}
