/**
 * Small checks on JSON-RPC 2.0 messages as they come off a transport.
 *
 * Deliberately more lenient than `classify` of `@x/jsonrpc`, which is what a
 * server applies to what it receives: a client takes a response without
 * `jsonrpc`, or an error response with a missing or `null` id (what some
 * servers send when they could not read the request), rather than leave the
 * request waiting.
 */
import { isObject, isRequestId, isResponseShaped, stringifyJson } from "@x/jsonrpc";
import { transportError } from "../errors.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, RequestId } from "@x/mcp-v2607";

/** True for a JSON-RPC response: an object with a `result` or an `error` and no `method` (the shape rule of `@x/jsonrpc`). */
export function isResponse(value: unknown): value is JSONRPCResponse & { id?: RequestId | null } {
  return isResponseShaped(value);
}

/**
 * True for a JSON-RPC request: a `method` string and an `id` it can be
 * answered under (`isRequestId`: a string, a safe integer, or a `bigint` for
 * an integer beyond 2^53); a server-to-client request in the `initialize` era.
 */
export function isRequest(value: unknown): value is JSONRPCRequest {
  return isObject(value) && typeof value.method === "string" && isRequestId(value.id);
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

const NodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: "utf8"): number } }).Buffer;

/**
 * Length of a string in UTF-8 bytes: Node's `Buffer.byteLength` where there
 * is one (it does not copy), else {@link countUtf8Bytes} (browsers have no `Buffer`).
 */
export const utf8Length: (text: string) => number =
  NodeBuffer !== undefined ? (text) => NodeBuffer.byteLength(text, "utf8") : countUtf8Bytes;

/**
 * The UTF-8 length of a string, counted without encoding it. A lone
 * surrogate counts 3 bytes, as an encoder writes U+FFFD for it.
 */
export function countUtf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a pair: 2 UTF-16 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** The bytes of `chunks` one after another, in one array (`Buffer.concat` without Node). */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  let total = 0;
  for (const chunk of chunks) total += chunk.byteLength;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * `message` as the JSON text a transport sends, at most `maxBytes` bytes of UTF-8.
 * @throws McpClientError -32000 `"message_too_large"` naming the method (or "response") and both sizes.
 */
export function encodeMessage(message: unknown, maxBytes: number): string {
  const body = stringifyJson(message);
  const size = utf8Length(body);
  if (size > maxBytes) {
    const method = (message as { method?: unknown }).method;
    throw transportError(
      "message_too_large",
      `The ${typeof method === "string" ? method : "response"} message is ${size} bytes, over the limit of ${maxBytes} bytes`,
      { bytes: size, limit: maxBytes },
    );
  }
  return body;
}
