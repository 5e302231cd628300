/**
 * Hand-written wire rules of revision 2024-11-05: its HTTP transport is HTTP
 * with Server-Sent Events, not Streamable HTTP (spec 2024-11-05:
 * basic/transports, "HTTP with SSE"). The server has two endpoints: the
 * client opens an SSE stream on the first and POSTs every message to the
 * second, whose URI the server sends as the stream's first event; the
 * server sends every message it has for the client on that stream. There
 * are no MCP headers (no session id header, no protocol version header), no
 * resumption, and no batches. Over stdio a message is one line and carries
 * nothing else.
 *
 * @module @x/mcp-v2411/wire
 */

/**
 * The SSE event names of the HTTP with SSE transport:
 * - `endpoint`: the first event of the stream; its data is the URI the
 *   client sends its messages to, as HTTP POST requests;
 * - `message`: one JSON-RPC message from the server, its JSON in the data.
 */
export const SseEvent = /* @__PURE__ */ Object.freeze({
  endpoint: "endpoint",
  message: "message",
} as const);

/**
 * Whether this revision has JSON-RPC batches: no. Every message is sent on
 * its own (spec 2024-11-05: basic/messages); 2025-03-26 adds batches and
 * 2025-06-18 removes them again.
 */
export const BATCHES = false;
