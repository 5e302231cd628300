/**
 * Wire rules of revision 2026-07-28 that a server and a client must apply
 * alike, written once: the request metadata headers of Streamable HTTP
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-{Name}`) with
 * their Base64 sentinel encoding, the `x-mcp-header` annotations of a tool's
 * `inputSchema`, and the per-request `_meta` envelope.
 *
 * Hand-written. The `_meta` members are checked against the generated
 * `envelope` schema group (`generated/schemas-envelope.js`) by
 * `documentCheck` of `@x/json-schema` (no validator package), compiled on
 * the first request: a few schema documents rather than their compiled
 * code, so that `@x/mcp-v2607/wire` stays a cheap import and a small bundle.
 *
 * @module @x/mcp-v2607/wire
 */
import { documentCheck, nonFiniteProblem, type ValidatorCheck, type ValidatorProblem } from "@x/json-schema";
// Through the ./constants entry, so that the built wire.js imports that file rather than carrying a copy.
import { ErrorCode, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION, Method } from "./constants-entry.js";
import type { ClientCapabilities, Implementation, LoggingLevel, ProgressToken, RequestMetaObject } from "./generated/types.js";
import {
  ClientCapabilities as capabilitiesSchema,
  Implementation as implementationSchema,
  LoggingLevel as logLevelSchema,
} from "./generated/schemas-envelope.js";

export { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION } from "./constants-entry.js";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------
// Header values: the Base64 sentinel (streamable-http "Value Encoding")

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** Printable ASCII and space. Tab is allowed by RFC 9110 but is always encoded on sending, which every server decodes. */
const PLAIN_OUT = /^[\x20-\x7e]*$/;
/** Visible ASCII, space and tab: what a received plain header value may hold (RFC 9110 field values). */
const PLAIN_IN = /^[\x20-\x7e\t]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Encodes a value for `Mcp-Name` or `Mcp-Param-{Name}` (spec 2026-07-28,
 * basic/transports/streamable-http "Value Encoding"): the value itself when it
 * is printable ASCII without leading or trailing spaces, else
 * `=?base64?{Base64 of its UTF-8}?=`. A plain value that looks like a
 * sentinel (starts with `=?base64?` and ends with `?=`) is encoded too, so
 * that it cannot be misread. Tabs are always encoded. Never throws.
 *
 * @example encodeHeaderValue("us-west1") // "us-west1"
 * @example encodeHeaderValue("Hello, 世界") // "=?base64?SGVsbG8sIOS4lueVjA==?="
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    PLAIN_OUT.test(value) &&
    !value.startsWith(" ") &&
    !value.endsWith(" ") &&
    !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
  return plain ? value : `${SENTINEL_PREFIX}${base64(value)}${SENTINEL_SUFFIX}`;
}

/**
 * Decodes a received `Mcp-Name` or `Mcp-Param-{Name}` value that may use the
 * `=?base64?...?=` sentinel form (spec 2026-07-28,
 * basic/transports/streamable-http "Value Encoding"). The caller trims
 * surrounding whitespace first, as HTTP does.
 *
 * @returns the decoded string, or `undefined` when the value holds characters
 *   a header may not carry, or a sentinel that is not padded Base64 of UTF-8.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!PLAIN_IN.test(value)) return undefined;
  if (
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX) &&
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
  ) {
    const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
    if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
    try {
      // atob, not Buffer: the client uses these rules in browsers too.
      const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }
  return value;
}

// ---------------------------------------------------------------------------
// Mcp-Name (streamable-http "Standard Request Headers")

/**
 * The methods whose requests carry an `Mcp-Name` header, and the `params`
 * field it mirrors: `tools/call` and `prompts/get` → `name`, `resources/read`
 * → `uri` (spec 2026-07-28, basic/transports/streamable-http "Standard
 * Request Headers"), and the tasks extension's `tasks/get`, `tasks/update`
 * and `tasks/cancel` → `taskId`.
 */
export const MCP_NAME_FIELDS: Readonly<Record<string, "name" | "uri" | "taskId">> = /* @__PURE__ */ Object.freeze({
  [Method.ToolsCall]: "name",
  [Method.PromptsGet]: "name",
  [Method.ResourcesRead]: "uri",
  // The tasks extension routes its requests by task ("Streamable HTTP: Routing Headers").
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
});

/** The `params` field `Mcp-Name` mirrors for `method` ({@link MCP_NAME_FIELDS}), or `undefined` when the method carries no `Mcp-Name`. */
export function mcpNameField(method: string): "name" | "uri" | "taskId" | undefined {
  return Object.hasOwn(MCP_NAME_FIELDS, method) ? MCP_NAME_FIELDS[method] : undefined;
}

// ---------------------------------------------------------------------------
// x-mcp-header annotations (server/tools "x-mcp-header", streamable-http "Schema Extension")

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

/** Default bound on how deep {@link toolHeaderParams} searches a schema, which may come from an untrusted server. */
export const MAX_HEADER_SCHEMA_DEPTH = 64;

/** RFC 9110 `tchar`: what a header field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// Every JSON Schema keyword that holds subschemas: an annotation found below
// one of them is not reachable through `properties` only, hence invalid.
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

function pointer(segments: readonly string[]): string {
  return segments.length === 0 ? "(root)" : `/${segments.map((s) => s.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;
}

/**
 * Reads and checks the `x-mcp-header` annotations of a tool's `inputSchema`
 * (spec 2026-07-28, server/tools "x-mcp-header";
 * basic/transports/streamable-http "Schema Extension"). An annotation is
 * valid when its value is a non-empty HTTP token (RFC 9110 `tchar`: no
 * spaces, colons, control or non-ASCII characters), unique among the schema's
 * annotations ignoring case, placed on a property whose `type` is
 * `"string"`, `"integer"` or `"boolean"`, and reachable from the root through
 * `properties` keys only (not through `items`, `anyOf`, `$defs`, ...).
 *
 * A server refuses to register such a tool; a client drops it from the list.
 *
 * @param tool a `Tool` definition, or any object with the `inputSchema` to read.
 * @param maxDepth how many schema levels are searched (default
 *   {@link MAX_HEADER_SCHEMA_DEPTH}); a deeper schema is refused.
 * @returns `{ ok: true, params }` (possibly empty) in schema order, or
 *   `{ ok: false, reason }` naming the first rule broken and where (a JSON
 *   pointer). Never throws.
 */
export function toolHeaderParams(tool: { readonly inputSchema: unknown }, maxDepth = MAX_HEADER_SCHEMA_DEPTH): ToolHeaderCheck {
  const found: HeaderParam[] = [];
  let problem: string | undefined;
  const walk = (node: unknown, chain: string[] | null, at: string[], depth: number): void => {
    if (problem !== undefined || !isObject(node)) return;
    if (depth > maxDepth) {
      problem = `inputSchema is nested deeper than ${maxDepth} levels`;
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

/** The argument at a `properties` path: own keys of plain objects only, `undefined` when any step is missing. */
function argumentAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

// ---------------------------------------------------------------------------
// Sending: the headers of one request

/**
 * The text an argument is mirrored as in `Mcp-Param-{Name}` (spec 2026-07-28,
 * basic/transports/streamable-http "Client Behavior"), before
 * {@link encodeHeaderValue}: a string as is, a boolean as `true`/`false`, an
 * integer within ±(2^53 − 1) or a `bigint` in decimal.
 *
 * @returns the text, or `undefined` for any other value (an object, an array,
 *   a fraction, a number beyond ±(2^53 − 1), which may be rounded...), which cannot be mirrored.
 */
export function paramHeaderText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if ((typeof value === "number" && Number.isSafeInteger(value)) || typeof value === "bigint") return String(value);
  return undefined;
}

/**
 * What {@link mcpParamHeaders} and {@link requestHeaders} give: the headers
 * (`Mcp-Param-{Name}` → encoded value), or the first annotation whose
 * argument cannot be mirrored and that argument.
 */
export type ParamHeaders = { ok: true; headers: Record<string, string> } | { ok: false; param: HeaderParam; value: unknown };

/**
 * The `Mcp-Param-{Name}` headers of one `tools/call` (spec 2026-07-28,
 * basic/transports/streamable-http "Client Behavior"): for each annotation,
 * the argument at its path as {@link paramHeaderText}, encoded by
 * {@link encodeHeaderValue}. A missing or `null` argument gives no header.
 *
 * @returns `{ ok: true, headers }`, or `{ ok: false, param, value }` for the
 *   first argument that is not a string, a boolean, a safe integer or a bigint. Never throws.
 */
export function mcpParamHeaders(params: readonly HeaderParam[], args: unknown): ParamHeaders {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const value = argumentAt(args, param.path);
    if (value === undefined || value === null) continue;
    const text = paramHeaderText(value);
    if (text === undefined) return { ok: false, param, value };
    headers[`Mcp-Param-${param.header}`] = encodeHeaderValue(text);
  }
  return { ok: true, headers };
}

/**
 * The standard metadata headers of one message (spec 2026-07-28,
 * basic/transports/streamable-http "Protocol Version Header", "Standard
 * Request Headers"): `MCP-Protocol-Version` (from
 * `params._meta["io.modelcontextprotocol/protocolVersion"]`), `Mcp-Method`,
 * and for the methods of {@link MCP_NAME_FIELDS} `Mcp-Name` (encoded by
 * {@link encodeHeaderValue}). A header whose source is missing or not a
 * string is left out. Never throws.
 */
export function standardHeaders(message: { method: string; params?: Record<string, unknown> }): Record<string, string> {
  const headers: Record<string, string> = {};
  const meta = message.params?._meta;
  const version = isObject(meta) ? meta[META_PROTOCOL_VERSION] : undefined;
  if (typeof version === "string") headers["MCP-Protocol-Version"] = version;
  headers["Mcp-Method"] = message.method;
  const field = mcpNameField(message.method);
  const name = field ? message.params?.[field] : undefined;
  if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  return headers;
}

/**
 * Every metadata header a request carries over Streamable HTTP: the
 * {@link standardHeaders}, plus for `tools/call` the {@link mcpParamHeaders}
 * of `params.arguments` under the tool's annotations (`params`, from
 * {@link toolHeaderParams}; ignored for other methods).
 *
 * @returns `{ ok: true, headers }`, or `{ ok: false, param, value }` when an
 *   annotated argument cannot be mirrored. Never throws.
 */
export function requestHeaders(
  message: { method: string; params?: Record<string, unknown> },
  params: readonly HeaderParam[] = [],
): ParamHeaders {
  const headers = standardHeaders(message);
  if (message.method !== Method.ToolsCall || params.length === 0) return { ok: true, headers };
  const mirrored = mcpParamHeaders(params, message.params?.arguments);
  if (!mirrored.ok) return mirrored;
  for (const name of Object.keys(mirrored.headers)) headers[name] = mirrored.headers[name]!;
  return { ok: true, headers };
}

// ---------------------------------------------------------------------------
// Receiving: the check of a request's headers against its body

/** A decimal integer, optionally written with a zero fraction (`42`, `-7`, `42.0`). */
const DECIMAL_INTEGER = /^-?\d+(\.0+)?$/;

function sameParamValue(header: string, body: unknown): boolean {
  if (typeof body === "string") return header === body;
  if (typeof body === "boolean") return header === String(body);
  // Integers compare numerically (the spec's SHOULD), but only from plain
  // decimal text: `0x1`, `1e0` or `+1` would let a proxy read another value.
  if (typeof body === "number") return DECIMAL_INTEGER.test(header) && Number(header) === body;
  // Beyond 2^53 the body is a bigint: compared digit for digit, not as rounded doubles.
  if (typeof body === "bigint") return DECIMAL_INTEGER.test(header) && BigInt(header.replace(/\.0+$/, "")) === body;
  return false;
}

function bound(text: string): string {
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}

/**
 * Checks the metadata headers of one request against its body (spec
 * 2026-07-28, basic/transports/streamable-http "Server Behavior"): the
 * headers {@link standardHeaders} and {@link mcpParamHeaders} send must be
 * present and equal to the body (values decoded by {@link decodeHeaderValue},
 * integers compared numerically); an `Mcp-Param-{Name}` header for an absent
 * argument is a mismatch too.
 *
 * @param getHeader reads a request header by lower-case name (`undefined` when absent).
 * @param protocolVersion the version the body's `_meta` names.
 * @param headerParamsOf returns the `x-mcp-header` annotations of a tool, or `undefined` for an unknown tool.
 * @returns `undefined` when every header is present and equal to the body, else
 *   the message of the -32020 (HeaderMismatch) error to answer with (HTTP 400).
 */
export function checkRequestHeaders(
  getHeader: (name: string) => string | undefined,
  method: string,
  params: Record<string, unknown>,
  protocolVersion: string,
  headerParamsOf: (tool: string) => readonly HeaderParam[] | undefined,
): string | undefined {
  const version = getHeader("mcp-protocol-version");
  if (version === undefined) return "Missing MCP-Protocol-Version header";
  if (version.trim() !== protocolVersion) {
    return `Header mismatch: MCP-Protocol-Version header value '${bound(version)}' does not match body value '${bound(protocolVersion)}'`;
  }
  const methodHeader = getHeader("mcp-method");
  if (methodHeader === undefined) return "Missing Mcp-Method header";
  if (methodHeader.trim() !== method) {
    return `Header mismatch: Mcp-Method header value '${bound(methodHeader)}' does not match body value '${bound(method)}'`;
  }
  const nameField = mcpNameField(method);
  if (nameField) {
    const raw = getHeader("mcp-name");
    if (raw === undefined) return "Missing Mcp-Name header";
    const decoded = decodeHeaderValue(raw.trim());
    if (decoded === undefined) return "Mcp-Name header holds invalid characters or an invalid Base64 value";
    const bodyValue = params[nameField];
    // A body name that is not a string is the method's to refuse (-32602).
    if (typeof bodyValue === "string" && decoded !== bodyValue) {
      return `Header mismatch: Mcp-Name header value '${bound(decoded)}' does not match body value '${bound(String(bodyValue))}'`;
    }
    if (method === Method.ToolsCall && typeof bodyValue === "string") {
      const annotated = headerParamsOf(bodyValue);
      if (annotated && annotated.length > 0) {
        const args = params.arguments;
        for (const param of annotated) {
          const raw = getHeader(`mcp-param-${param.header.toLowerCase()}`);
          const value = argumentAt(args, param.path);
          if (value === undefined || value === null) {
            if (raw !== undefined)
              return `Header mismatch: Mcp-Param-${param.header} header is present but the argument ${param.path.join(".")} is absent`;
            continue;
          }
          if (raw === undefined) return `Missing Mcp-Param-${param.header} header for argument ${param.path.join(".")}`;
          const decodedParam = decodeHeaderValue(raw.trim());
          if (decodedParam === undefined) return `Mcp-Param-${param.header} header holds invalid characters or an invalid Base64 value`;
          if (!sameParamValue(decodedParam, value)) {
            return `Header mismatch: Mcp-Param-${param.header} header value '${bound(decodedParam)}' does not match the argument ${param.path.join(".")}`;
          }
        }
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// The request `_meta` envelope (basic/index "_meta")

/** The parts of one request's `_meta` every request of this revision carries, read once. */
export interface RequestEnvelope {
  /** The whole `params._meta` object, as sent. */
  meta: RequestMetaObject;
  /** `_meta["io.modelcontextprotocol/protocolVersion"]`: a non-empty string. */
  protocolVersion: string;
  /** `_meta["io.modelcontextprotocol/clientCapabilities"]`: an object (`{}` means none). */
  clientCapabilities: ClientCapabilities;
  /** `_meta["io.modelcontextprotocol/clientInfo"]` when sent (a `name` and `version` string). */
  clientInfo: Implementation | undefined;
}

/**
 * What {@link readEnvelope} gives: the envelope, or the error to answer with:
 * -32602 (InvalidParams) for a missing or malformed member (see {@link readEnvelope}).
 */
export type EnvelopeCheck = { ok: true; envelope: RequestEnvelope } | { ok: false; code: typeof ErrorCode.InvalidParams; message: string };

function invalidEnvelope(message: string): EnvelopeCheck {
  return { ok: false, code: ErrorCode.InvalidParams, message };
}

/** `a string`, `an object`, `a string or an integer`: the JSON types of a `type` problem, with articles. */
function typeWords(types: unknown): string {
  const names = (Array.isArray(types) ? types : String(types).split(",")).map(String);
  return names.map((t) => `${/^[aeiou]/.test(t) ? "an" : "a"} ${t}`).join(" or ");
}

/** `.sampling`, `.icons[0].src`, `["my key"]`: a problem's path (a JSON Pointer) written as JavaScript access. */
function accessPath(pointer: string): string {
  if (pointer === "") return "";
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => {
      const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
      if (/^\d+$/.test(key)) return `[${key}]`;
      return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    })
    .join("");
}

/**
 * One problem of a failed validator, worded for an error message: the
 * deepest one reported (an `anyOf` reports each branch, then itself; the
 * deepest is nearest to what is wrong), e.g. `.sampling must be an object`.
 */
function describeProblem(problems: readonly ValidatorProblem[]): string {
  // The deepest problems are nearest to what is wrong; among them a wrong type
  // says most, then a combinator's own (anyOf: none of the branches fits),
  // then the last reported. Validators order problems differently: ranked, not by order.
  const rank = (p: ValidatorProblem) => (p.keyword === "type" ? 2 : COMBINATORS.has(p.keyword ?? "") ? 1 : 0);
  let chosen: ValidatorProblem | undefined;
  let depth = -1;
  for (const problem of problems) {
    const d = problem.path.split("/").length;
    if (d > depth || (d === depth && rank(problem) >= rank(chosen!) && !(rank(chosen!) === 2 && rank(problem) === 2))) {
      chosen = problem;
      depth = d;
    }
  }
  if (chosen === undefined) return " does not match the schema";
  const params = chosen.params ?? {};
  let problem: string;
  if (chosen.keyword === "type" && params.type !== undefined) problem = `must be ${typeWords(params.type)}`;
  else if (chosen.keyword === "enum" && Array.isArray(params.allowedValues))
    problem = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  else problem = chosen.message;
  return `${accessPath(chosen.path)} ${problem}`;
}

const COMBINATORS = new Set(["anyOf", "oneOf"]);

/** The schema documents of the checked `_meta` members (the generated `envelope` group). */
const ENVELOPE_SCHEMAS = { ClientCapabilities: capabilitiesSchema, Implementation: implementationSchema, LoggingLevel: logLevelSchema };
type EnvelopeMember = keyof typeof ENVELOPE_SCHEMAS;
let envelopeChecks: Map<EnvelopeMember, ValidatorCheck> | undefined;

/** The check of one envelope member, compiled (with the others) on first use. */
function envelopeCheck(member: EnvelopeMember): ValidatorCheck {
  if (envelopeChecks === undefined) {
    const checks = new Map<EnvelopeMember, ValidatorCheck>();
    for (const [name, document] of Object.entries(ENVELOPE_SCHEMAS)) checks.set(name as EnvelopeMember, documentCheck(document));
    envelopeChecks = checks;
  }
  return envelopeChecks.get(member) as ValidatorCheck;
}

/**
 * Checks one `_meta` member against its schema definition: `undefined`
 * when it passes, else the refusal naming the member and what is wrong.
 */
function checkMember(key: string, value: unknown, member: EnvelopeMember): EnvelopeCheck | undefined {
  const problems = envelopeCheck(member)(value);
  if (problems.length === 0) {
    // JSON Schema's number types pass Infinity and NaN, which JSON cannot carry (a too-large literal parses to Infinity).
    const nonFinite = nonFiniteProblem(value);
    return nonFinite && invalidEnvelope(`Invalid params: _meta["${key}"]${accessPath(nonFinite.path)} ${nonFinite.message}`);
  }
  return invalidEnvelope(`Invalid params: _meta["${key}"]${describeProblem(problems)}`);
}

/**
 * Reads and checks the `_meta` of one request's `params` (spec 2026-07-28,
 * basic/index "`_meta`", per-request protocol fields; schema:
 * `RequestMetaObject`): an object with a non-empty string protocol version
 * and client capabilities; `progressToken`, when present, a string or a safe
 * integer. The client capabilities, and the client info and log level when
 * present, are checked against the schema's `ClientCapabilities`,
 * `Implementation` and `LoggingLevel` (the `envelope` schema group, checked
 * by `documentCheck` of `@x/json-schema`, compiled on the first call; the
 * same definitions `validate()` checks), so a member of the wrong type
 * anywhere inside them is refused. The rest of `_meta` is passed on.
 *
 * @returns `{ ok: true, envelope }`, or `{ ok: false, code: -32602, message }`
 *   naming the first field that is missing or malformed, e.g. `Invalid params:
 *   _meta["io.modelcontextprotocol/clientCapabilities"].sampling must be an
 *   object`.
 * @throws nothing: no validator package is loaded.
 */
export function readEnvelope(params: Record<string, unknown>): EnvelopeCheck {
  const meta = params._meta;
  if (!isObject(meta)) {
    return invalidEnvelope(
      "Missing or invalid params._meta (an object): every request must carry its protocol version and client capabilities",
    );
  }
  const protocolVersion = meta[META_PROTOCOL_VERSION];
  if (typeof protocolVersion !== "string" || protocolVersion === "") {
    return invalidEnvelope(`Missing or invalid _meta["${META_PROTOCOL_VERSION}"]`);
  }
  const clientCapabilities = meta[META_CLIENT_CAPABILITIES];
  if (clientCapabilities === undefined) return invalidEnvelope(`Missing or invalid _meta["${META_CLIENT_CAPABILITIES}"]`);
  const badCapabilities = checkMember(META_CLIENT_CAPABILITIES, clientCapabilities, "ClientCapabilities");
  if (badCapabilities) return badCapabilities;
  const progressToken = meta.progressToken;
  if (
    progressToken !== undefined &&
    typeof progressToken !== "string" &&
    typeof progressToken !== "bigint" &&
    !Number.isSafeInteger(progressToken)
  ) {
    return invalidEnvelope("Invalid _meta.progressToken: must be a string or an integer");
  }
  const clientInfo = meta[META_CLIENT_INFO];
  if (clientInfo !== undefined) {
    const badInfo = checkMember(META_CLIENT_INFO, clientInfo, "Implementation");
    if (badInfo) return badInfo;
  }
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined) {
    const badLevel = checkMember(META_LOG_LEVEL, logLevel, "LoggingLevel");
    if (badLevel) return badLevel;
  }
  return {
    ok: true,
    envelope: {
      meta: meta as RequestMetaObject,
      protocolVersion,
      clientCapabilities: clientCapabilities as ClientCapabilities,
      clientInfo: clientInfo as Implementation | undefined,
    },
  };
}

/** What a client puts in every request's `_meta` ({@link requestMeta}). */
export interface RequestMetaFields {
  /** The protocol version spoken on this request. */
  protocolVersion: string;
  /** The client's capabilities for this request (`{}` for none). */
  clientCapabilities: ClientCapabilities;
  /** The client's name and version, for display and logging. */
  clientInfo: Implementation;
  /** The lowest level of `notifications/message` wanted; none are sent when absent (spec: server/utilities/logging). */
  logLevel?: LoggingLevel;
  /** The token `notifications/progress` for this request will carry (spec: basic/utilities/progress). */
  progressToken?: ProgressToken;
  /** Further `_meta` entries; the protocol's own keys above replace any of the same name. */
  extra?: Record<string, unknown>;
}

/**
 * Builds the `_meta` of one request (spec 2026-07-28, basic/index "`_meta`"):
 * a new object with `extra`'s entries, then the protocol version, client
 * capabilities and client info, and the log level and progress token when
 * given. What it builds from valid fields passes {@link readEnvelope}, which
 * a client may use to check it. Never throws; values are not checked.
 */
export function requestMeta(fields: RequestMetaFields): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...fields.extra };
  meta[META_PROTOCOL_VERSION] = fields.protocolVersion;
  meta[META_CLIENT_CAPABILITIES] = fields.clientCapabilities;
  meta[META_CLIENT_INFO] = fields.clientInfo;
  if (fields.logLevel !== undefined) meta[META_LOG_LEVEL] = fields.logLevel;
  if (fields.progressToken !== undefined) meta.progressToken = fields.progressToken;
  return meta;
}

// ---------------------------------------------------------------------------
// Authorization: where a resource's protected resource metadata is

/** The well-known path prefix of OAuth 2.0 Protected Resource Metadata (RFC 9728 section 3). */
export const RESOURCE_METADATA_WELL_KNOWN = "/.well-known/oauth-protected-resource";

/**
 * The paths, on the resource's origin, of the protected resource metadata of
 * the MCP endpoint `resource` (spec 2026-07-28, basic/authorization,
 * "Protected Resource Metadata Discovery"; the same in 2025-11-25): with a
 * path, the path-inserted well-known path first
 * (`/.well-known/oauth-protected-resource/mcp` for `https://a.example/mcp`),
 * then the root one; without a path only the root one. Trailing slashes of
 * the path are dropped. The server serves the document at these paths; a
 * client that got no `resource_metadata` in its challenge tries them in this
 * order. Never throws.
 */
export function resourceMetadataPaths(resource: URL): string[] {
  const path = resource.pathname.replace(/\/+$/, "");
  return path === "" ? [RESOURCE_METADATA_WELL_KNOWN] : [RESOURCE_METADATA_WELL_KNOWN + path, RESOURCE_METADATA_WELL_KNOWN];
}
