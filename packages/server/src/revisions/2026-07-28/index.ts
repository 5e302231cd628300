/**
 * Revision 2026-07-28 as a codec (spec 2026-07-28, basic/index): every
 * request carries its envelope in `_meta` (read by `@x/mcp-v2607/wire`'s
 * rule, by which the client builds it); it serves the shared table as it
 * is; a method that may ask runs as one round of a Multi Round-Trip Request
 * (`run.ts`, `round.ts`, `state.ts`); results carry `resultType` and the
 * server's info (`stamp.ts`).
 */
import type { RequestId } from "@x/jsonrpc";
import type { LoggingLevel } from "@x/mcp-v2607";
import { ErrorCode, META_LOG_LEVEL, META_PROTOCOL_VERSION, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { readEnvelope } from "@x/mcp-v2607/wire";
import { errorOutcome, type Outcome, refusal } from "../../dispatch.js";
import { isObject, type JsonObject } from "../../objects.js";
import type { Revision } from "../revision.js";
import { runRound } from "./run.js";
import { stamp, stampText } from "./stamp.js";

/** Revision 2026-07-28: per-request `_meta`, Multi Round-Trip asks, `resultType` and server info on every result. */
export const revision2607: Revision = {
  name: PROTOCOL_VERSION,
  versions: [PROTOCOL_VERSION],
  perRequest: true,

  request(id, method, params, binding, table) {
    const check = readEnvelope(params);
    if (!check.ok) {
      // An `initialize` naming no version here: no revision of this server opened a session with it.
      if (method === "initialize" && !namesVersion(params))
        return { kind: "error", outcome: initializeRefused(id, params, revision2607.versions) };
      return refusal(id, check.code, check.message);
    }
    // Resolved once here: the transport checks the header mirrors it names, the dispatcher runs it.
    const entry = table.get(method);
    const headerParams = entry?.headerParams?.(params);
    return {
      kind: "request",
      id,
      method,
      params,
      envelope: check.envelope,
      headerParams,
      revision: revision2607,
      binding,
      entry,
      lossless: undefined,
    };
  },

  // Contributed methods are answered before the shared table's.
  methods: (shared, contributed) => (contributed.size === 0 ? shared : new Map([...shared, ...contributed])),

  run(entry, params, ctx, transport, scope, settings) {
    return entry.asks === true ? runRound(settings, entry, params, ctx, transport, scope) : entry.handle(params, ctx, transport, scope);
  },

  logLevel: (meta) => meta[META_LOG_LEVEL] as LoggingLevel | undefined,
  stamp,
  stampText,
};

/**
 * The answer of a server that does not serve the `initialize` handshake to
 * an `initialize` request: -32022 naming the versions it supports (spec
 * 2026-07-28, basic/versioning: a server that speaks only per-request
 * versions names them in any error it returns to `initialize`), at stage
 * `"message"` (over HTTP: 400).
 */
export function initializeRefused(id: RequestId, params: JsonObject, supported: readonly string[]): Outcome {
  const requested = typeof params.protocolVersion === "string" ? params.protocolVersion : undefined;
  return errorOutcome(
    id,
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: this server does not serve the initialize handshake; it supports ${supported.join(", ")} (per-request _meta)`,
    { supported: [...supported], requested },
    "message",
  );
}

/** True when `params._meta` names a protocol version: the request is of this revision, however its envelope fails. */
function namesVersion(params: JsonObject): boolean {
  return isObject(params._meta) && typeof params._meta[META_PROTOCOL_VERSION] === "string";
}
