/**
 * How a result of revision 2026-07-28 is stamped (spec 2026-07-28,
 * basic/index "Result"): `resultType` on every result (`"complete"` unless
 * the handler set one), and the server's `Implementation` in the result's
 * `_meta`; and the stamped result's JSON text, written around the
 * handler's own text rather than walked a second time.
 */
import type { Implementation } from "@x/mcp-v2607";
import { META_SERVER_INFO } from "@x/mcp-v2607/constants";
import { copyOwn, isObject, type JsonObject } from "../../objects.js";
import { resultMembers } from "../../result-text.js";

/** The text after a stamped result's own members (what {@link stamp} appends, with or without `resultType`), for the last server info seen. */
let suffixOf: Implementation | undefined;
let metaSuffix = "";
let fullSuffix = "";

/** See `Revision.stamp`. */
export function stamp(result: JsonObject, serverInfo: Implementation): JsonObject {
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
}

/** See `Revision.stampText`. */
export function stampText(result: unknown, serverInfo: Implementation, ownText?: string): string | undefined {
  // Only where `stamp` appends its members after the result's own and `JSON.stringify` writes the
  // result's own members as the copy's: no `_meta` and no `toJSON` anywhere on it, and a
  // `resultType` either absent (both are appended) or the result's own (kept in its place).
  if (!isObject(result) || "_meta" in result || result.toJSON !== undefined) return undefined;
  const hasType = result.resultType !== undefined;
  // Enumerable as well as own: a hidden one is skipped by the copy too, which then appends "complete".
  if (hasType ? !Object.prototype.propertyIsEnumerable.call(result, "resultType") : "resultType" in result) return undefined;
  let own = ownText;
  let members: string | undefined;
  try {
    // A tool result of the usual shape is written by its shape (the same text, without the generic walk).
    if (own === undefined) members = resultMembers(result);
    if (own === undefined && members === undefined) own = JSON.stringify(result);
  } catch {
    // A bigint or a cycle: the copy's path knows what to do (or to fail) with it.
    return undefined;
  }
  if (members === undefined) {
    // A boxed primitive writes as one; only an object's text is spliced.
    if (own === undefined || own.charCodeAt(0) !== 123 || own.charCodeAt(own.length - 1) !== 125) return undefined;
    members = own.slice(1, -1);
  }
  if (serverInfo !== suffixOf) {
    // The server info is frozen (McpServer's constructor), so its text is kept with it.
    metaSuffix = `"_meta":{${JSON.stringify(META_SERVER_INFO)}:${JSON.stringify(serverInfo)}}}`;
    fullSuffix = `"resultType":"complete",${metaSuffix}`;
    suffixOf = serverInfo;
  }
  const suffix = hasType ? metaSuffix : fullSuffix;
  // Spliced without flattening: a large result's text is copied once, when it is written out.
  return members === "" ? `{${suffix}` : `{${members},${suffix}`;
}
