/**
 * JSON-RPC error responses for every error code the spec defines
 * (spec 2026-07-28, basic/index "Error Codes"; schema: `JSONRPCErrorResponse`,
 * `HeaderMismatchError`, `MissingRequiredClientCapabilityError`,
 * `UnsupportedProtocolVersionError`).
 *
 * The `id` of an error response is the request's id; pass `undefined` when it
 * is unknown (a parse error, an unreadable request) and the key is left out,
 * since the schema's `RequestId` admits neither `null` nor any other value.
 */
import type { ClientCapabilities, JSONRPCErrorResponse, RequestId } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { plainData } from "./snapshot.js";
import { describeValue } from "./util.js";

/**
 * Builds a JSON-RPC error response `{ jsonrpc: "2.0", id?, error: { code, message, data? } }`.
 *
 * @param id the request's id, or `undefined` when unknown (the key is then absent).
 * @param code an integer JSON-RPC error code (see `ErrorCode`).
 * @param message one concise sentence.
 * @param data optional extra detail, copied as plain JSON data (see the README, "Plain data"); absent when `undefined`.
 * @throws TypeError when `code` is not an integer or `message` not a string, or `id` is neither a string nor an integer,
 *   or `data` is not plain JSON data (a function such as `toJSON`, an `Error` or other class instance, a cycle);
 *   RangeError when `data` is nested deeper than 1000 levels.
 *
 * @example
 * jsonRpcError(7, -32602, "Unknown tool: nope", { name: "nope" });
 */
export function jsonRpcError(id: RequestId | undefined, code: number, message: string, data?: unknown): JSONRPCErrorResponse {
  if (!Number.isInteger(code)) throw new TypeError(`code must be an integer, got ${describeValue(code)}`);
  if (typeof message !== "string") throw new TypeError(`message must be a string, got ${describeValue(message)}`);
  if (id !== undefined && typeof id !== "string" && !Number.isInteger(id)) {
    throw new TypeError(`id must be a string or an integer, got ${describeValue(id)}`);
  }
  const error: JSONRPCErrorResponse["error"] = { code, message };
  if (data !== undefined) error.data = plainData(data, "data") as JSONRPCErrorResponse["error"]["data"];
  const response: JSONRPCErrorResponse = { jsonrpc: "2.0", error };
  if (id !== undefined) response.id = id;
  return response;
}

/**
 * -32700: the body was not valid JSON (or not UTF-8). The id is never known.
 * @throws as {@link jsonRpcError} does (its `data` is plain JSON data: see the README, "Plain data").
 * @example parseError("Body is not valid JSON");
 */
export function parseError(message = "Parse error", data?: unknown): JSONRPCErrorResponse {
  return jsonRpcError(undefined, ErrorCode.ParseError, message, data);
}

/**
 * -32600: the message is not a valid JSON-RPC request (an array, a response, a wrong `jsonrpc`).
 * @throws as {@link jsonRpcError} does (its `data` is plain JSON data: see the README, "Plain data").
 * @example invalidRequest(undefined, "Batches are not supported");
 */
export function invalidRequest(id?: RequestId, message = "Invalid request", data?: unknown): JSONRPCErrorResponse {
  return jsonRpcError(id, ErrorCode.InvalidRequest, message, data);
}

/**
 * -32601: the server does not implement `method` (over HTTP: status 404).
 * @example methodNotFound(1, "initialize"); // message "Method not found: initialize"
 */
export function methodNotFound(id: RequestId | undefined, method: string): JSONRPCErrorResponse {
  return jsonRpcError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`, { method });
}

/**
 * -32602: the params are invalid (missing `_meta`, unknown tool, bad cursor, ...).
 * @throws as {@link jsonRpcError} does (its `data` is plain JSON data: see the README, "Plain data").
 * @example invalidParams(3, "Unknown tool: nope", { name: "nope" });
 */
export function invalidParams(id: RequestId | undefined, message: string, data?: unknown): JSONRPCErrorResponse {
  return jsonRpcError(id, ErrorCode.InvalidParams, message, data);
}

/**
 * -32603: an unexpected server fault. Say nothing in `message` that leaks internals.
 * @throws as {@link jsonRpcError} does (its `data` is plain JSON data: see the README, "Plain data").
 * @example internalError(4);
 */
export function internalError(id?: RequestId, message = "Internal error", data?: unknown): JSONRPCErrorResponse {
  return jsonRpcError(id, ErrorCode.InternalError, message, data);
}

/**
 * -32020 (`HeaderMismatchError`): an `MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name` or `Mcp-Param-*` header is missing or differs from the body
 * (over HTTP: status 400).
 * @example headerMismatch(1, "Mcp-Name header 'a' does not match body value 'b'");
 */
export function headerMismatch(id: RequestId | undefined, message: string): JSONRPCErrorResponse {
  return jsonRpcError(id, ErrorCode.HeaderMismatch, message);
}

/**
 * -32021 (`MissingRequiredClientCapabilityError`): the request needs client
 * capabilities the client did not declare; `data.requiredCapabilities` names them.
 * @throws as {@link jsonRpcError} does (its `data` is plain JSON data: see the README, "Plain data").
 * @example missingRequiredClientCapability(2, { elicitation: {} });
 */
export function missingRequiredClientCapability(
  id: RequestId | undefined,
  requiredCapabilities: ClientCapabilities,
  message = "Missing required client capability",
): JSONRPCErrorResponse {
  return jsonRpcError(id, ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities });
}

/**
 * -32022 (`UnsupportedProtocolVersionError`): the requested protocol version
 * is not one this server speaks; `data` lists the `supported` ones and the
 * `requested` one (over HTTP: status 400).
 * @example unsupportedProtocolVersion(1, "1999-01-01", ["2026-07-28"]);
 */
export function unsupportedProtocolVersion(
  id: RequestId | undefined,
  requested: string,
  supported: readonly string[],
): JSONRPCErrorResponse {
  return jsonRpcError(id, ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${requested}`, {
    supported: [...supported],
    requested,
  });
}
