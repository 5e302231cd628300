/**
 * Request metadata headers of Streamable HTTP (spec 2026-07-28,
 * basic/transports/streamable-http "Request Metadata"): `MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name` and `Mcp-Param-{Name}`, their Base64 sentinel
 * encoding, and the check that they equal the body.
 *
 * The rules live in `@x/mcp-v2607/wire`, shared with the client, so that what
 * a client sends is what this server checks; this module keeps the names the
 * transports and `@x/server/core` use.
 */
import { type HeaderParam, toolHeaderParams } from "@x/mcp-v2607/wire";

export { checkRequestHeaders, decodeHeaderValue, type HeaderParam, toolHeaderParams } from "@x/mcp-v2607/wire";

/**
 * The `x-mcp-header` annotations of an input schema (spec: server/tools
 * "x-mcp-header"), found by `toolHeaderParams` of `@x/mcp-v2607/wire`: only
 * annotations reachable from the root through `properties` chains count.
 *
 * @returns the annotations in schema order, or `[]` when the schema breaks a
 *   rule of `x-mcp-header` (registration refuses such a tool, so a registered
 *   tool never gets here with one). Never throws.
 */
export function headerParams(schema: Record<string, unknown>): HeaderParam[] {
  const check = toolHeaderParams({ inputSchema: schema });
  return check.ok ? check.params : [];
}
