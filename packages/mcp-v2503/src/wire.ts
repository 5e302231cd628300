/**
 * Hand-written wire rules of revision 2025-03-26: what its Streamable HTTP
 * transport (new in this revision) adds to the messages, and its JSON-RPC
 * batches (spec 2025-03-26: basic/transports, basic/index "Batching").
 * Over stdio a message (or a batch) is one line and carries nothing else.
 *
 * @module @x/mcp-v2503/wire
 */

/**
 * The HTTP header names of this revision's Streamable HTTP transport, lower
 * case (as Node and fetch `Headers` give them):
 * - `sessionId` `Mcp-Session-Id`: minted by the server on the response to
 *   `initialize`, sent by the client on every later request ("Session
 *   Management");
 * - `lastEventId` `Last-Event-ID`: the SSE event id a client resumes a
 *   stream after ("Resumability and Redelivery").
 *
 * There is no `MCP-Protocol-Version` header in this revision (2025-06-18
 * adds it): the version is known from the session's `initialize`.
 */
export const Header = /* @__PURE__ */ Object.freeze({
  sessionId: "mcp-session-id",
  lastEventId: "last-event-id",
} as const);

/**
 * Whether this revision has JSON-RPC batches: yes. An implementation MAY
 * send a batch and MUST accept one (spec 2025-03-26: basic/index,
 * "Batching"): a POST body may be an array of requests and notifications,
 * or of responses, and a server may answer with batched responses
 * (basic/transports, "Sending Messages to the Server").
 */
export const BATCHES = true;

/** Longest session id accepted, in characters: a bound of this library on what a server stores and echoes (the spec sets none). */
export const MAX_SESSION_ID_LENGTH = 256;

/**
 * True when `id` is a well-formed session id: 1 to
 * {@link MAX_SESSION_ID_LENGTH} visible ASCII characters (0x21 to 0x7E;
 * spec 2025-03-26: basic/transports, "Session Management").
 */
export function isValidSessionId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= MAX_SESSION_ID_LENGTH && /^[\x21-\x7e]+$/.test(id);
}
