/**
 * List results with cache hints and cursors (spec 2026-07-28,
 * server/utilities/pagination and server/utilities/caching; the list
 * sections of server/tools, server/resources and server/prompts).
 *
 * Every list builder takes the same options type, {@link ListResultOptions}:
 * the two cache hints (checked by `cacheHints`, defaults private / 0) and the
 * cursor of the next page. The items are placed in the result in the order
 * given, each a copy of plain JSON data read once before it was checked
 * (see the README, "Plain data").
 */
import type {
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from "@x/mcp-v2607";
import { type CacheHintOptions, cacheHints } from "./cache.js";
import { checkPrompt, checkResource, checkTemplate, checkTool } from "./items.js";
import { plainData } from "./snapshot.js";
import { describeValue, isGiven, isPlainObject, optionsObject } from "./util.js";

/** Anything that can describe itself as a `Tool` definition (e.g. a registered tool of a server). */
export interface DescribesTool {
  /** The `Tool` definition as `tools/list` lists it. */
  describe(): Tool;
}

/**
 * Options shared by the list builders: the cache hints (`ttlMs`, whole
 * milliseconds >= 0, default 0; `cacheScope`, default `"private"`) plus the
 * cursor of the next page.
 */
export interface ListResultOptions extends CacheHintOptions {
  /**
   * Opaque cursor of the next page; leave it out (or `null`) on the last page,
   * and the result has no `nextCursor` key. An empty string is a valid cursor
   * and is kept. {@link listResourcesResult} and {@link listPromptsResult}
   * also take the cursor as their second argument.
   */
  nextCursor?: string | null;
}

/** The `nextCursor` key to set, or `undefined` for the last page. */
function cursorOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new TypeError(`nextCursor must be a string, null or undefined, got ${describeValue(value)}`);
  return value;
}

/**
 * Resolves the cursor given as an argument and/or in the options: the
 * argument wins when the option is absent and vice versa; both given and
 * different is a TypeError (which one was meant is unknowable).
 */
function resolveCursor(positional: unknown, options: ListResultOptions): string | undefined {
  if (positional !== undefined && options.nextCursor !== undefined && positional !== options.nextCursor) {
    throw new TypeError(
      `nextCursor is given twice with different values (argument ${describeValue(positional)}, options.nextCursor ${describeValue(options.nextCursor)})`,
    );
  }
  return cursorOf(positional !== undefined ? positional : options.nextCursor);
}

/**
 * Copies `items` into a new array after checking each element (its shape,
 * then every member the schema names, with `check`); the message names `argument[index]`.
 */
function checkedItems<T>(
  given: unknown,
  argument: string,
  isItem: (item: unknown) => boolean,
  shape: string,
  check: (item: Record<string, unknown>, where: string) => void,
): T[] {
  const items = plainData(given, argument);
  if (!Array.isArray(items)) throw new TypeError(`${argument} must be an array, got ${describeValue(items)}`);
  return items.map((item, index) => {
    if (!isItem(item)) throw new TypeError(`${argument}[${index}] must be ${shape}, got ${describeValue(item)}`);
    check(item as Record<string, unknown>, `${argument}[${index}]`);
    return item as T;
  });
}

const hasStrings =
  (...keys: string[]) =>
  (item: unknown): boolean =>
    isPlainObject(item) && keys.every((key) => typeof item[key] === "string");

/**
 * Builds the `ListToolsResult` answered to `tools/list` (spec: server/tools,
 * "Listing Tools"). A ready `Tool` is kept as given (a copy); an object with a
 * `describe()` method is converted by calling it, and what it returns copied. Cache hints default to
 * `{ cacheScope: "private", ttlMs: 0 }`; `options.nextCursor` is passed
 * through (absent or `null`: last page, no `nextCursor` key).
 *
 * @throws TypeError when `tools` is not an array, an element is neither a
 *   tool (object with a string `name`) nor describes one, a member the
 *   schema names has the wrong type (an `inputSchema` that is no
 *   `{ type: "object" }` schema, a hint that is no boolean, ...), or
 *   `nextCursor` is not a string, or a tool or the options are not plain
 *   JSON data (a function such as `toJSON`, a `Date`, a cycle: see the
 *   README, "Plain data"); RangeError naming `ttlMs` or `cacheScope` when a
 *   hint is invalid, or when a tool is nested deeper than 1000 levels.
 *
 * @example
 * listToolsResult([{ name: "add", inputSchema: { type: "object" } }], { ttlMs: 60_000 });
 * // { resultType: "complete", tools: [...], ttlMs: 60000, cacheScope: "private" }
 */
export function listToolsResult(tools: readonly (Tool | DescribesTool)[], options?: ListResultOptions): ListToolsResult {
  const opts = optionsObject(plainData(options, "options"));
  if (!Array.isArray(tools)) throw new TypeError(`tools must be an array, got ${describeValue(tools)}`);
  const hints = cacheHints(opts);
  const length = tools.length;
  const list: Tool[] = [];
  for (let index = 0; index < length; index++) {
    // Each item read once; a describer (a registered tool, a class instance) is asked, and its answer copied.
    const tool = tools[index];
    const describe = tool ? (tool as DescribesTool).describe : undefined;
    const described = plainData(typeof describe === "function" ? describe.call(tool) : tool, `tools[${index}]`);
    if (!isPlainObject(described) || typeof described.name !== "string") {
      throw new TypeError(`tools[${index}] must be a Tool or have describe(), got ${describeValue(described)}`);
    }
    checkTool(described, `tools[${index}]`);
    list.push(described as unknown as Tool);
  }
  const result: ListToolsResult = { resultType: "complete", tools: list, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
  const nextCursor = cursorOf(opts.nextCursor);
  if (nextCursor !== undefined) result.nextCursor = nextCursor;
  return result;
}

/**
 * Builds the `ListResourcesResult` answered to `resources/list` (spec:
 * server/resources, "Listing Resources"; server/utilities/pagination).
 *
 * `resources` are placed in the result as given (copies). `nextCursor` is passed
 * through: a string (the empty string included) becomes `nextCursor`;
 * `null` or `undefined` means the last page and the key is left out. The
 * cursor may also come from `options.nextCursor` (same shared options type
 * as {@link listToolsResult}). Cache hints default to private / 0.
 *
 * @throws TypeError when `resources` is not an array, an element is not an
 *   object with string `name` and `uri` or has a member of the wrong type
 *   (`size` no integer, `annotations`, `icons`, ...), `nextCursor` is not a string, the
 *   argument and `options.nextCursor` disagree, or the arguments are not plain
 *   JSON data (a function such as `toJSON`, a `Date`, a cycle: see the README,
 *   "Plain data"); RangeError naming `ttlMs` or `cacheScope` when a hint is
 *   invalid, or when an argument is nested deeper than 1000 levels.
 *
 * @example
 * listResourcesResult([{ name: "readme", uri: "file:///readme.md" }], "page-2", { ttlMs: 30_000 });
 * // { resultType: "complete", resources: [...], nextCursor: "page-2", ttlMs: 30000, cacheScope: "private" }
 */
export function listResourcesResult(
  resources: readonly Resource[],
  nextCursor?: string | null,
  options?: ListResultOptions,
): ListResourcesResult {
  const opts = optionsObject(plainData(options, "options"));
  const list = checkedItems<Resource>(resources, "resources", hasStrings("name", "uri"), "a Resource (string name and uri)", checkResource);
  const hints = cacheHints(opts);
  const result: ListResourcesResult = { resultType: "complete", resources: list, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
  const cursor = resolveCursor(nextCursor, opts);
  if (cursor !== undefined) result.nextCursor = cursor;
  return result;
}

/**
 * Builds the `ListPromptsResult` answered to `prompts/list` (spec:
 * server/prompts, "Listing Prompts"; server/utilities/pagination).
 *
 * `prompts` are placed in the result as given (copies); `nextCursor` is passed through
 * exactly as for {@link listResourcesResult} (`null`/`undefined`: last page,
 * no key; `""` is a valid cursor). Cache hints default to private / 0.
 *
 * @throws TypeError when `prompts` is not an array, an element is not an
 *   object with a string `name` or has a member of the wrong type (its
 *   `arguments`, `icons`, ...), `nextCursor` is not a string, the argument
 *   and `options.nextCursor` disagree, or the arguments are not plain JSON
 *   data (see {@link listResourcesResult}); RangeError naming `ttlMs` or
 *   `cacheScope` when a hint is invalid, or when an argument is nested
 *   deeper than 1000 levels.
 *
 * @example
 * listPromptsResult([{ name: "code_review", description: "Review code" }], null);
 * // { resultType: "complete", prompts: [...], ttlMs: 0, cacheScope: "private" }
 */
export function listPromptsResult(prompts: readonly Prompt[], nextCursor?: string | null, options?: ListResultOptions): ListPromptsResult {
  const opts = optionsObject(plainData(options, "options"));
  const list = checkedItems<Prompt>(prompts, "prompts", hasStrings("name"), "a Prompt (string name)", checkPrompt);
  const hints = cacheHints(opts);
  const result: ListPromptsResult = { resultType: "complete", prompts: list, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
  const cursor = resolveCursor(nextCursor, opts);
  if (cursor !== undefined) result.nextCursor = cursor;
  return result;
}

/**
 * Builds the `ListResourceTemplatesResult` answered to
 * `resources/templates/list` (spec: server/resources, "Resource Templates").
 *
 * `templates` are placed in the result (as `resourceTemplates`) as given (copies).
 * This builder takes no cursor: the result never has a
 * `nextCursor` key, and a non-null `nextCursor` in the options (say, from an
 * options object shared with the other list builders) is refused rather than
 * silently dropped (the schema would allow one; set it on the result yourself
 * if you really paginate templates). Cache hints default to private / 0.
 *
 * @throws TypeError when `templates` is not an array, an element is not an
 *   object with string `name` and `uriTemplate` or has a member of the wrong
 *   type, `options.nextCursor` is given, or the arguments are not plain JSON
 *   data (see {@link listResourcesResult}); RangeError naming `ttlMs` or
 *   `cacheScope` when a hint is invalid, or when an argument is nested
 *   deeper than 1000 levels.
 *
 * @example
 * listResourceTemplatesResult([{ name: "file", uriTemplate: "file:///{path}" }], { cacheScope: "public" });
 * // { resultType: "complete", resourceTemplates: [...], ttlMs: 0, cacheScope: "public" }
 */
export function listResourceTemplatesResult(
  templates: readonly ResourceTemplate[],
  options?: CacheHintOptions,
): ListResourceTemplatesResult {
  const opts = optionsObject(plainData(options, "options")) as ListResultOptions;
  const list = checkedItems<ResourceTemplate>(
    templates,
    "templates",
    hasStrings("name", "uriTemplate"),
    "a ResourceTemplate (string name and uriTemplate)",
    checkTemplate,
  );
  if (isGiven(opts.nextCursor)) {
    throw new TypeError(`nextCursor: listResourceTemplatesResult takes no cursor, got ${describeValue(opts.nextCursor)}`);
  }
  const hints = cacheHints(opts);
  return { resultType: "complete", resourceTemplates: list, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
}
