/**
 * List results with cache hints and cursors (spec 2026-07-28,
 * server/utilities/pagination and server/utilities/caching).
 */
import type { ListToolsResult, Tool } from "@x/mcp-v2607";
import { type CacheHintOptions, cacheHints } from "./cache.js";
import { describeValue, isPlainObject } from "./util.js";

/** Anything that can describe itself as a `Tool` definition (e.g. a registered tool of a server). */
export interface DescribesTool {
  describe(): Tool;
}

/** Options of the list builders: cache hints plus the cursor of the next page. */
export interface ListResultOptions extends CacheHintOptions {
  /** Opaque cursor of the next page; leave it out (or `null`) on the last page, and the key is absent. An empty string is a valid cursor. */
  nextCursor?: string | null;
}

/**
 * Builds the `ListToolsResult` answered to `tools/list`. A ready `Tool` is kept
 * as is; an object with a `describe()` method is converted by calling it.
 * Cache hints default to `{ cacheScope: "private", ttlMs: 0 }`.
 *
 * @throws TypeError when an element is neither a tool (object with a string
 *   `name`) nor describes one; RangeError naming `ttlMs` or `cacheScope` when a hint is invalid.
 *
 * @example
 * listToolsResult([{ name: "add", inputSchema: { type: "object" } }], { ttlMs: 60_000 });
 * // { resultType: "complete", tools: [...], ttlMs: 60000, cacheScope: "private" }
 */
export function listToolsResult(tools: readonly (Tool | DescribesTool)[], options: ListResultOptions = {}): ListToolsResult {
  if (!Array.isArray(tools)) throw new TypeError(`tools must be an array, got ${describeValue(tools)}`);
  const hints = cacheHints(options);
  const list = tools.map((tool, index) => {
    if (tool && typeof (tool as DescribesTool).describe === "function") return (tool as DescribesTool).describe();
    if (isPlainObject(tool) && typeof tool.name === "string") return tool as Tool;
    throw new TypeError(`tools[${index}] must be a Tool or have describe(), got ${describeValue(tool)}`);
  });
  const result: ListToolsResult = { resultType: "complete", tools: list, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
  if (options.nextCursor !== undefined && options.nextCursor !== null) {
    if (typeof options.nextCursor !== "string") throw new TypeError(`nextCursor must be a string, got ${describeValue(options.nextCursor)}`);
    result.nextCursor = options.nextCursor;
  }
  return result;
}
