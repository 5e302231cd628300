/**
 * The last step of the spec's backward-compatibility algorithm for HTTP
 * (spec 2025-03-26, basic/transports "Backwards Compatibility"): when the
 * Streamable HTTP `initialize` POST is refused with a 4xx, GET the same URL
 * and, if it opens an SSE stream whose first event is `endpoint`, speak the
 * deprecated HTTP+SSE transport of 2024-11-05 for the rest of the connection.
 */
import type { JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";
import { MODERN_ERROR_CODES } from "../revisions/initialize/probe.js";
import { isMcpClientError, type McpClientError, transportError } from "../errors.js";
import { type SseOptions, SseTransport } from "./sse.js";
import type { SendOptions } from "./transport.js";

/** True when `response` to `message` is the refusal that starts the fallback: a 4xx to `initialize`. */
export function refusedInitialize(message: JSONRPCRequest, response: Response): boolean {
  return message.method === "initialize" && response.status >= 400 && response.status < 500;
}

/**
 * Settles the refused `initialize`: `streamable` is how the Streamable HTTP
 * transport read the refusal. A 2026-07-28 error, or a failure other than an
 * HTTP status, stands as it is. Otherwise the `initialize` is sent over an
 * {@link SseTransport} on `url`; when it answers, `adopt` is given it, and
 * the Streamable HTTP transport carries every later message over it.
 * @returns the `initialize` response of whichever transport answered.
 * @throws McpClientError -32000 `"http_error"` naming both attempts when neither answered; the abort reason when `options.signal` aborted.
 */
export async function fallBackToSse(
  url: URL,
  sseOptions: SseOptions,
  adopt: (transport: SseTransport) => void,
  message: JSONRPCRequest,
  options: SendOptions,
  streamable: Promise<JSONRPCResponse>,
): Promise<JSONRPCResponse> {
  let refusal: JSONRPCResponse | McpClientError;
  try {
    refusal = await streamable;
    const code = "error" in refusal ? (refusal.error as { code?: unknown } | undefined)?.code : undefined;
    if (typeof code !== "number" || MODERN_ERROR_CODES.has(code)) return refusal;
  } catch (error) {
    const reason = isMcpClientError(error) ? ((error as McpClientError).data as { reason?: unknown } | undefined)?.reason : undefined;
    if (reason !== "http_error") throw error;
    refusal = error as McpClientError;
  }
  let transport: SseTransport | undefined;
  let response: JSONRPCResponse;
  try {
    // Built here: its constructor's refusal (a URL it does not take) is the fallback's failure.
    transport = new SseTransport(url, sseOptions);
    response = await transport.send(message, options);
  } catch (error) {
    await transport?.close();
    if (options.signal.aborted) throw error;
    // A Streamable HTTP server that refused this initialize with a JSON-RPC error: that error is the answer.
    if (!(refusal instanceof Error)) return refusal;
    const status = (refusal.data as { status?: unknown } | undefined)?.status;
    throw transportError(
      "http_error",
      `${refusal.message} (Streamable HTTP); the fallback to HTTP+SSE (2024-11-05) failed too: ${error instanceof Error ? error.message : String(error)}`,
      { status, sse: isMcpClientError(error) ? (error as McpClientError).data : undefined },
      error,
    );
  }
  adopt(transport);
  return response;
}
