/**
 * Hand-written wire rules of revision 2025-06-18: what its Streamable HTTP
 * transport adds to the messages (spec 2025-06-18: basic/transports).
 * Over stdio a message is one line and carries nothing else.
 *
 * @module @x/mcp-v2506/wire
 */

/**
 * The HTTP header names of this revision's Streamable HTTP transport, lower
 * case (as Node and fetch `Headers` give them):
 * - `sessionId` `Mcp-Session-Id`: minted by the server on the response to
 *   `initialize`, sent by the client on every later request ("Session
 *   Management");
 * - `protocolVersion` `MCP-Protocol-Version`: the negotiated version, on
 *   every request after `initialize`; new in this revision ("Protocol
 *   Version Header");
 * - `lastEventId` `Last-Event-ID`: the SSE event id a client resumes a
 *   stream after ("Resumability and Redelivery").
 */
export const Header = /* @__PURE__ */ Object.freeze({
  sessionId: "mcp-session-id",
  protocolVersion: "mcp-protocol-version",
  lastEventId: "last-event-id",
} as const);

/**
 * The version a server assumes for a request without an
 * `MCP-Protocol-Version` header when it has no other way to tell (spec
 * 2025-06-18: basic/transports, "Protocol Version Header"): 2025-03-26, the
 * revision before the header.
 */
export const VERSION_WITHOUT_HEADER = "2025-03-26";

/**
 * Whether this revision has JSON-RPC batches (an array of messages in one
 * body): no. 2025-06-18 removed them (spec 2025-06-18: changelog), and a POST
 * body is a single request, notification or response (basic/transports,
 * "Sending Messages to the Server").
 */
export const BATCHES = false;

/** Longest session id accepted, in characters: a bound of this library on what a server stores and echoes (the spec sets none). */
export const MAX_SESSION_ID_LENGTH = 256;

/**
 * True when `id` is a well-formed session id: 1 to
 * {@link MAX_SESSION_ID_LENGTH} visible ASCII characters (0x21 to 0x7E;
 * spec 2025-06-18: basic/transports, "Session Management").
 */
export function isValidSessionId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= MAX_SESSION_ID_LENGTH && /^[\x21-\x7e]+$/.test(id);
}
