/**
 * Small checks on JSON-RPC 2.0 messages as they come off a transport.
 *
 * Deliberately more lenient than `classify` of `@x/jsonrpc`, which is what a
 * server applies to what it receives: a client takes a response without
 * `jsonrpc`, or an error response with a missing or `null` id (what some
 * servers send when they could not read the request), rather than leave the
 * request waiting.
 */
import { isObject } from "@x/jsonrpc";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, RequestId } from "@x/mcp-v2607";

/** True for a JSON-RPC response: an object with a `result` or an `error` and no `method`. */
export function isResponse(value: unknown): value is JSONRPCResponse & { id?: RequestId | null } {
  return isObject(value) && !("method" in value) && ("result" in value || "error" in value);
}

/** True for a JSON-RPC request: a `method` string and a string or integer `id` (a server-to-client request in the `initialize` era). */
export function isRequest(value: unknown): value is JSONRPCRequest {
  return isObject(value) && typeof value.method === "string" && (typeof value.id === "string" || Number.isInteger(value.id));
}

/** True for a JSON-RPC notification: a `method` string and no `id`. */
export function isNotification(value: unknown): value is JSONRPCNotification {
  return isObject(value) && typeof value.method === "string" && !("id" in value);
}

/**
 * Reads a response for the request `id`: the response itself when its id is
 * `id`; an error response without an id (or with `null`, which some servers
 * send when they could not read the request) is taken as the answer to `id`
 * and given that id. Returns `undefined` for a response to another request.
 */
export function responseFor(value: JSONRPCResponse & { id?: RequestId | null }, id: RequestId): JSONRPCResponse | undefined {
  if (value.id === id) return value;
  if ("error" in value && (value.id === undefined || value.id === null)) return { ...value, id } as JSONRPCResponse;
  return undefined;
}

/** Length of a string in UTF-8 bytes. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
