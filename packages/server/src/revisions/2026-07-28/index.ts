/**
 * Revision 2026-07-28 as a codec (spec 2026-07-28, basic/index): every
 * request carries its envelope in `_meta` (read by `@x/mcp-v2607/wire`'s
 * rule, by which the client builds it); it serves the shared table as it
 * is; a method that may ask runs as one round of a Multi Round-Trip Request
 * (`run.ts`, `round.ts`, `state.ts`); results carry `resultType` and the
 * server's info (`stamp.ts`).
 */
import type { LoggingLevel } from "@x/mcp-v2607";
import { META_LOG_LEVEL, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { readEnvelope } from "@x/mcp-v2607/wire";
import { refusal } from "../../dispatch.js";
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
    if (!check.ok) return refusal(id, check.code, check.message);
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
