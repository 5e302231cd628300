/**
 * The request metadata headers of Streamable HTTP (spec 2026-07-28,
 * basic/transports/streamable-http "Request Metadata"): `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-{Name}` for tool parameters
 * annotated with `x-mcp-header` (server/tools "x-mcp-header"), with the
 * Base64 sentinel encoding of values that are not plain ASCII.
 */
import type { Tool } from "@x/mcp-v2607";
import { META_PROTOCOL_VERSION, Method } from "@x/mcp-v2607/constants";
import { ClientErrorCode, McpClientError } from "./errors.js";

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** Printable ASCII and space. Tab is allowed by RFC 9110 but is always encoded here, which every server decodes. */
const PLAIN = /^[\x20-\x7e]*$/;
/** RFC 9110 `tchar`: what a header field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** How deep the search for `x-mcp-header` annotations goes into an untrusted schema. */
const MAX_SCHEMA_DEPTH = 64;

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Encodes a value for `Mcp-Name` or `Mcp-Param-{Name}` (spec: streamable-http
 * "Value Encoding"): the value itself when it is printable ASCII without
 * leading or trailing spaces, else `=?base64?{Base64 of its UTF-8}?=`. A
 * plain value that looks like a sentinel (starts with `=?base64?` and ends
 * with `?=`) is encoded too, so that it cannot be misread. Tabs are always
 * encoded.
 *
 * @example encodeHeaderValue("us-west1") // "us-west1"
 * @example encodeHeaderValue("Hello, 世界") // "=?base64?SGVsbG8sIOS4lueVjA==?="
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    PLAIN.test(value) &&
    !value.startsWith(" ") &&
    !value.endsWith(" ") &&
    !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
  return plain ? value : `${SENTINEL_PREFIX}${base64(value)}${SENTINEL_SUFFIX}`;
}

/** One valid `x-mcp-header` annotation of a tool's `inputSchema`. */
export interface HeaderParam {
  /** The `{Name}` of `Mcp-Param-{Name}`, as the schema writes it. */
  header: string;
  /** The chain of `properties` keys from the schema root to the annotated property. */
  path: string[];
  /** The annotated property's `type`: `"string"`, `"integer"` or `"boolean"`. */
  type: "string" | "integer" | "boolean";
}

/** What {@link toolHeaderParams} finds: the annotations, or why the tool definition is invalid. */
export type ToolHeaderCheck = { ok: true; params: HeaderParam[] } | { ok: false; reason: string };

const SCHEMA_MAPS = ["$defs", "definitions", "patternProperties", "dependentSchemas", "dependencies"];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const SCHEMA_SINGLES = [
  "items",
  "additionalItems",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointer(segments: readonly string[]): string {
  return segments.length === 0 ? "(root)" : `/${segments.map((s) => s.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
}

/**
 * Reads and checks the `x-mcp-header` annotations of a tool's `inputSchema`
 * (spec: server/tools "x-mcp-header", streamable-http "Schema Extension").
 * An annotation is valid when its value is a non-empty HTTP token (RFC 9110
 * `tchar`: no spaces, colons, control or non-ASCII characters), unique among
 * the schema's annotations ignoring case, placed on a property whose `type`
 * is `"string"`, `"integer"` or `"boolean"`, and reachable from the root
 * through `properties` keys only (not through `items`, `anyOf`, `$ref`,
 * `$defs`, ...).
 *
 * @returns `{ ok: true, params }` (possibly empty), or `{ ok: false, reason }`
 *   naming the first rule broken and where. Never throws.
 */
export function toolHeaderParams(tool: Pick<Tool, "inputSchema">): ToolHeaderCheck {
  const found: HeaderParam[] = [];
  let problem: string | undefined;
  const walk = (node: unknown, chain: string[] | null, at: string[], depth: number): void => {
    if (problem !== undefined || !isObject(node)) return;
    if (depth > MAX_SCHEMA_DEPTH) {
      problem = `inputSchema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`;
      return;
    }
    if (Object.hasOwn(node, "x-mcp-header")) {
      const header = node["x-mcp-header"];
      if (chain === null || chain.length === 0) {
        problem = `x-mcp-header at ${pointer(at)} is not on a property reachable from the root through "properties" only`;
        return;
      }
      if (typeof header !== "string" || header === "") {
        problem = `x-mcp-header at ${pointer(at)} is empty or not a string`;
        return;
      }
      if (!TOKEN.test(header)) {
        problem = `x-mcp-header ${JSON.stringify(header)} at ${pointer(at)} is not a valid HTTP header name token`;
        return;
      }
      const type = node.type;
      if (type !== "string" && type !== "integer" && type !== "boolean") {
        problem = `x-mcp-header ${JSON.stringify(header)} at ${pointer(at)} is on a property of type ${JSON.stringify(type ?? null)}; only string, integer and boolean are allowed`;
        return;
      }
      const clash = found.find((p) => p.header.toLowerCase() === header.toLowerCase());
      if (clash) {
        problem = `x-mcp-header ${JSON.stringify(header)} at ${pointer(at)} repeats ${JSON.stringify(clash.header)} (names are compared ignoring case)`;
        return;
      }
      found.push({ header, path: chain, type });
    }
    const properties = node.properties;
    if (isObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        walk(child, chain === null ? null : [...chain, key], [...at, "properties", key], depth + 1);
      }
    }
    for (const keyword of SCHEMA_MAPS) {
      const map = node[keyword];
      if (isObject(map)) for (const [key, child] of Object.entries(map)) walk(child, null, [...at, keyword, key], depth + 1);
    }
    for (const keyword of SCHEMA_LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) {
        for (const [i, child] of list.entries()) walk(child, null, [...at, keyword, String(i)], depth + 1);
      }
    }
    for (const keyword of SCHEMA_SINGLES) {
      if (isObject(node[keyword])) walk(node[keyword], null, [...at, keyword], depth + 1);
    }
  };
  walk(tool.inputSchema, [], [], 0);
  return problem === undefined ? { ok: true, params: found } : { ok: false, reason: problem };
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * The `Mcp-Param-{Name}` headers of one `tools/call` (spec: streamable-http
 * "Client Behavior"): for each annotation, the argument at its property path,
 * converted to text (a string as is, an integer in decimal, a boolean as
 * `true`/`false`) and encoded by {@link encodeHeaderValue}. A missing or
 * `null` argument gives no header.
 *
 * @throws McpClientError with code -32602 (`ClientErrorCode.InvalidArguments`)
 *   when an annotated argument is an object, an array, or a number that is not
 *   an integer within ±(2^53 − 1): it cannot be mirrored into a header.
 */
export function paramHeaders(params: readonly HeaderParam[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const value = valueAt(args, param.path);
    if (value === undefined || value === null) continue;
    let text: string;
    if (typeof value === "string") text = value;
    else if (typeof value === "boolean") text = value ? "true" : "false";
    else if (typeof value === "number" && Number.isSafeInteger(value)) text = String(value);
    else {
      throw new McpClientError(
        ClientErrorCode.InvalidArguments,
        `Argument ${param.path.join(".")} is mirrored into the Mcp-Param-${param.header} header and must be a string, a boolean or a safe integer, got ${typeof value === "number" ? value : Array.isArray(value) ? "an array" : typeof value}`,
        { argument: param.path.join("."), header: `Mcp-Param-${param.header}` },
      );
    }
    headers[`Mcp-Param-${param.header}`] = encodeHeaderValue(text);
  }
  return headers;
}

const NAMED: Record<string, "name" | "uri"> = {
  [Method.ToolsCall]: "name",
  [Method.PromptsGet]: "name",
  [Method.ResourcesRead]: "uri",
};

/**
 * The standard metadata headers of one message (spec: streamable-http
 * "Protocol Version Header", "Standard Request Headers"):
 * `MCP-Protocol-Version` (from `params._meta`), `Mcp-Method`, and for
 * `tools/call`, `prompts/get` and `resources/read` `Mcp-Name` (encoded by
 * {@link encodeHeaderValue}). A header whose source is missing is left out.
 */
export function standardHeaders(message: { method: string; params?: Record<string, unknown> }): Record<string, string> {
  const headers: Record<string, string> = {};
  const meta = message.params?._meta;
  const version = isObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  if (typeof version === "string") headers["MCP-Protocol-Version"] = version;
  headers["Mcp-Method"] = message.method;
  const field = NAMED[message.method];
  const name = field ? message.params?.[field] : undefined;
  if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  return headers;
}
