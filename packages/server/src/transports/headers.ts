/**
 * Request metadata headers of Streamable HTTP (spec 2026-07-28,
 * basic/transports/streamable-http "Request Metadata"): `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}`, their Base64 sentinel
 * encoding, and the check that they equal the body.
 */
import { Method } from "@x/mcp-v2607/constants";

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** Visible ASCII, space and tab: what a plain header value may hold (RFC 9110 field values). */
const PLAIN_VALUE = /^[\x20-\x7e\t]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes a header value that may use the `=?base64?...?=` sentinel form.
 * @returns the decoded UTF-8 string, or `undefined` when the value holds
 *   characters a header may not carry or a sentinel that is not valid Base64/UTF-8.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!PLAIN_VALUE.test(value)) return undefined;
  if (
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX) &&
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length
  ) {
    const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
    if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(encoded, "base64"));
    } catch {
      return undefined;
    }
  }
  return value;
}

/** Methods whose `Mcp-Name` header mirrors `params.name` or `params.uri`. */
const NAMED_METHODS: Record<string, "name" | "uri"> = {
  [Method.ToolsCall]: "name",
  [Method.PromptsGet]: "name",
  [Method.ResourcesRead]: "uri",
};

/** One `x-mcp-header` annotation of a tool: the header name part and the property path it mirrors. */
export interface HeaderParam {
  /** The `{name}` of `Mcp-Param-{name}`, as written in the schema. */
  header: string;
  /** The chain of `properties` keys leading to the annotated property. */
  path: string[];
  /** The property's JSON type: `"string"`, `"integer"` or `"boolean"`. */
  type: string;
}

/**
 * Finds the `x-mcp-header` annotations of an input schema, following only
 * `properties` chains (the only places the spec allows them).
 */
export function headerParams(schema: Record<string, unknown>): HeaderParam[] {
  const out: HeaderParam[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (typeof node !== "object" || node === null) return;
    const n = node as Record<string, unknown>;
    if (typeof n["x-mcp-header"] === "string" && path.length > 0) {
      out.push({ header: n["x-mcp-header"], path, type: typeof n.type === "string" ? n.type : "string" });
    }
    const props = n.properties;
    if (typeof props === "object" && props !== null) {
      for (const [key, child] of Object.entries(props)) walk(child, [...path, key]);
    }
  };
  walk(schema, []);
  return out;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** A decimal integer, optionally written with a zero fraction (`42`, `-7`, `42.0`). */
const DECIMAL_INTEGER = /^-?\d+(\.0+)?$/;

function sameParamValue(header: string, body: unknown): boolean {
  if (typeof body === "string") return header === body;
  if (typeof body === "boolean") return header === String(body);
  // Integers compare numerically (the spec's SHOULD), but only from plain
  // decimal text: `0x1`, `1e0` or `+1` would let a proxy read another value.
  if (typeof body === "number") return DECIMAL_INTEGER.test(header) && Number(header) === body;
  return false;
}

/**
 * Checks the metadata headers of one request against its body.
 *
 * @param getHeader reads a request header by lower-case name (`undefined` when absent).
 * @param headerParamsOf returns the `x-mcp-header` annotations of a tool, or `undefined` for an unknown tool.
 * @returns `undefined` when every header is present and equal to the body, else
 *   the message of the -32020 (HeaderMismatch) error to answer with.
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
  const nameField = Object.hasOwn(NAMED_METHODS, method) ? NAMED_METHODS[method] : undefined;
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
          const value = valueAt(args, param.path);
          if (value === undefined || value === null) {
            if (raw !== undefined)
              return `Header mismatch: Mcp-Param-${param.header} header is present but the argument ${param.path.join(".")} is absent`;
            continue;
          }
          if (raw === undefined) return `Missing Mcp-Param-${param.header} header for argument ${param.path.join(".")}`;
          const decodedParam = decodeHeaderValue(raw.trim() === raw ? raw : raw.trim());
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

function bound(text: string): string {
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}
