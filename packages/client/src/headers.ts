/**
 * The request metadata headers of Streamable HTTP (spec 2026-07-28,
 * basic/transports/streamable-http "Request Metadata"): `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`, and `Mcp-Param-{Name}` for tool parameters
 * annotated with `x-mcp-header` (server/tools "x-mcp-header"), with the
 * Base64 sentinel encoding of values that are not plain ASCII.
 *
 * The rules live in `@x/mcp-v2607/wire`, shared with the server, so that what
 * the client sends is what the server checks; this module turns an argument
 * that cannot be mirrored into the client's error.
 */
import { type HeaderParam, mcpParamHeaders } from "@x/mcp-v2607/wire";
import { ClientErrorCode, McpClientError } from "./errors.js";

/**
 * The `Mcp-Param-{Name}` headers of one `tools/call` (spec: streamable-http
 * "Client Behavior"): for each annotation, the argument at its property path,
 * converted to text (a string as is, an integer in decimal, a boolean as
 * `true`/`false`) and encoded by `encodeHeaderValue` of `@x/mcp-v2607/wire`. A missing or
 * `null` argument gives no header.
 *
 * @throws McpClientError with code -32602 (`ClientErrorCode.InvalidArguments`)
 *   when an annotated argument is an object, an array, or a number that is not
 *   an integer within ±(2^53 − 1): it cannot be mirrored into a header.
 */
export function paramHeaders(params: readonly HeaderParam[], args: unknown): Record<string, string> {
  const mirrored = mcpParamHeaders(params, args);
  if (mirrored.ok) return mirrored.headers;
  const { param, value } = mirrored;
  throw new McpClientError(
    ClientErrorCode.InvalidArguments,
    `Argument ${param.path.join(".")} is mirrored into the Mcp-Param-${param.header} header and must be a string, a boolean or a safe integer, got ${typeof value === "number" ? value : Array.isArray(value) ? "an array" : typeof value}`,
    { argument: param.path.join("."), header: `Mcp-Param-${param.header}` },
  );
}
