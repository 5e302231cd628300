/**
 * The revision seam: everything in the dispatcher that depends on the
 * protocol revision lives behind one {@link Revision} object per revision —
 * how the request envelope is checked, how results are stamped, and which
 * methods exist. Two are served: 2026-07-28 (per-request `_meta`) and the
 * `initialize` era (2025-11-25 and the versions that share its handshake),
 * whose requests a transport marks with their session (see `legacy/`).
 */
import type { Implementation, LoggingLevel, RequestMetaObject } from "@x/mcp-v2607";
import { META_SERVER_INFO, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { type EnvelopeCheck, readEnvelope } from "@x/mcp-v2607/wire";
import { copyOwn, isObject, type JsonObject } from "../objects.js";
import { resultText } from "../result-text.js";

/** Where a handler's context reads the level of log messages the client asked for. */
export interface LevelSource {
  /** The level for a request with `_meta` `meta` that came on `binding`; `undefined`: the client asked for none. */
  logLevel(meta: RequestMetaObject, binding: Binding | undefined): LoggingLevel | undefined;
}

/**
 * A connection or session that carries requests of one revision (an
 * `initialize`-era session), as a transport holds it: handed to `inspect`
 * with each message that came on it, and opaque to everything but its revision.
 */
export interface Binding {
  /** Its id in diagnostics (a session id; `""` where the transport names none). */
  readonly id: string;
}

/** The revision-specific parts of the dispatcher. */
export interface Revision {
  /** The protocol version string this revision answers. */
  readonly version: string;
  /** Reads and checks the request metadata: the envelope, or the -32602 error when it is missing or malformed. */
  readEnvelope(params: JsonObject): EnvelopeCheck;
  /** Adds what every result of this revision carries (resultType, server info) to a shallow copy of `result`, and returns the copy; `result` is left as it was. */
  stamp(result: JsonObject, serverInfo: Implementation): JsonObject;
  /**
   * The JSON text of `stamp(result, serverInfo)`, written without walking
   * what the stamp adds again, when that text is exactly what
   * `JSON.stringify` of the stamped copy gives; `undefined` when it cannot
   * be (the caller then writes the stamped copy). Absent: always the copy.
   * `ownText`: `JSON.stringify(result)` when the caller already has it.
   */
  stampText?(result: unknown, serverInfo: Implementation, ownText?: string): string | undefined;
}

/** The text after a stamped result's own members (what `revision2607.stamp` appends, with or without `resultType`), for the last server info seen. */
let suffixOf: Implementation | undefined;
let metaSuffix = "";
let fullSuffix = "";

/** Revision 2026-07-28: per-request `_meta`, `resultType` on every result, server info in result `_meta`. */
export const revision2607: Revision = {
  version: PROTOCOL_VERSION,
  // The envelope rule the client builds its `_meta` by.
  readEnvelope,
  stamp(result, serverInfo) {
    // A copy: a handler may return a shared, cached or frozen object, which
    // must stay as it was (and must not carry one server's info into another's answer).
    const stamped = copyOwn(result);
    if (stamped.resultType === undefined) stamped.resultType = "complete";
    const meta = stamped._meta;
    if (isObject(meta)) {
      if (meta[META_SERVER_INFO] === undefined) {
        const copy = copyOwn(meta);
        copy[META_SERVER_INFO] = serverInfo;
        stamped._meta = copy;
      }
    } else {
      // A literal key (the value of META_SERVER_INFO): V8 builds this object
      // from a template, where a computed key takes its slow path.
      stamped._meta = { "io.modelcontextprotocol/serverInfo": serverInfo };
    }
    return stamped;
  },
  stampText(result, serverInfo, ownText) {
    // Only where `stamp` appends its members after the result's own and `JSON.stringify` writes the
    // result's own members as the copy's: no `_meta` and no `toJSON` anywhere on it, and a
    // `resultType` either absent (both are appended) or the result's own (kept in its place).
    if (!isObject(result) || "_meta" in result || result.toJSON !== undefined) return undefined;
    const hasType = result.resultType !== undefined;
    // Enumerable as well as own: a hidden one is skipped by the copy too, which then appends "complete".
    if (hasType ? !Object.prototype.propertyIsEnumerable.call(result, "resultType") : "resultType" in result) return undefined;
    let own: string;
    if (ownText !== undefined) own = ownText;
    else {
      try {
        // A tool result of the usual shape is written by its shape (the same text, without the generic walk).
        own = resultText(result) ?? JSON.stringify(result);
      } catch {
        // A bigint or a cycle: the copy's path knows what to do (or to fail) with it.
        return undefined;
      }
    }
    // A boxed primitive writes as one; only an object's text is spliced.
    if (own.charCodeAt(0) !== 123 || own.charCodeAt(own.length - 1) !== 125) return undefined;
    if (serverInfo !== suffixOf) {
      // The server info is frozen (McpServer's constructor), so its text is kept with it.
      metaSuffix = `"_meta":{${JSON.stringify(META_SERVER_INFO)}:${JSON.stringify(serverInfo)}}}`;
      fullSuffix = `"resultType":"complete",${metaSuffix}`;
      suffixOf = serverInfo;
    }
    const suffix = hasType ? metaSuffix : fullSuffix;
    return own.length === 2 ? `{${suffix}` : `${own.slice(0, -1)},${suffix}`;
  },
};

/**
 * Fields of results that 2026-07-28 added and the `initialize` era's schema
 * lacks (spec 2025-11-25: schema): they are taken off every result of that era.
 */
const LATER_RESULT_FIELDS = ["resultType", "ttlMs", "cacheScope"] as const;

/**
 * The `initialize` era (2025-11-25 back to 2024-11-05): the envelope comes from
 * the session, not the request, and results carry nothing of 2026-07-28
 * (no `resultType`, no cache hints, no server info in `_meta`: the server
 * introduced itself in `InitializeResult`).
 */
export const revision2511: Revision = {
  version: "2025-11-25",
  readEnvelope() {
    // Never called: the legacy inspection builds the envelope from the session.
    return { ok: false, code: -32602, message: "Invalid params: initialize-era requests carry no envelope" };
  },
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
    return stamped;
  },
};
