/**
 * Hand-written wire rules of the `initialize` era (revisions 2024-11-05
 * through 2025-11-25), shared by `@x/server` and `@x/client` so that both
 * sides negotiate versions and read the session headers by one rule.
 *
 * Spec 2025-11-25: basic/lifecycle ("Version Negotiation") and
 * basic/transports ("Session Management", "Protocol Version Header",
 * "Resumability and Redelivery").
 *
 * @module @x/mcp-v2511/wire
 */
import { PROTOCOL_VERSION } from "./constants-entry.js";

/**
 * The protocol versions that open with the `initialize` handshake, newest
 * first. Each of them is served and spoken with this package's types: the
 * later revisions only added optional fields, so a 2025-11-25 peer reads an
 * older peer's messages (spec 2025-11-25: changelog).
 */
export const INITIALIZE_ERA_VERSIONS: readonly ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] = /* @__PURE__ */ Object.freeze([
  PROTOCOL_VERSION,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
] as const);

/** One of {@link INITIALIZE_ERA_VERSIONS}. */
export type InitializeEraVersion = (typeof INITIALIZE_ERA_VERSIONS)[number];

/** True when `version` is a protocol version of the `initialize` era. */
export function isInitializeEraVersion(version: unknown): version is InitializeEraVersion {
  return typeof version === "string" && (INITIALIZE_ERA_VERSIONS as readonly string[]).includes(version);
}

/**
 * The version a server answers in `InitializeResult.protocolVersion`: the
 * client's when the server supports it, else the newest the server supports
 * (spec 2025-11-25: basic/lifecycle, "Version Negotiation"). The client then
 * disconnects when it does not support the answer.
 *
 * @param requested the client's `InitializeRequest.params.protocolVersion`
 *   (any value: a malformed one gets the newest version).
 * @param supported the server's versions, newest first (non-empty).
 */
export function negotiateProtocolVersion(requested: unknown, supported: readonly string[] = INITIALIZE_ERA_VERSIONS): string {
  if (typeof requested === "string" && supported.includes(requested)) return requested;
  const newest = supported[0];
  if (newest === undefined) throw new RangeError("negotiateProtocolVersion: no supported version");
  return newest;
}

/**
 * The HTTP header names of the era's Streamable HTTP transport, lower case
 * (as Node and fetch `Headers` give them):
 * - `sessionId` `Mcp-Session-Id`: minted by the server on the `initialize`
 *   response, sent by the client on every later request;
 * - `protocolVersion` `MCP-Protocol-Version`: the negotiated version, on every
 *   request after `initialize` (2025-06-18 and later);
 * - `lastEventId` `Last-Event-ID`: the SSE event id a client resumes after.
 */
export const Header = /* @__PURE__ */ Object.freeze({
  sessionId: "mcp-session-id",
  protocolVersion: "mcp-protocol-version",
  lastEventId: "last-event-id",
} as const);

/**
 * The version a server assumes for a request without an
 * `MCP-Protocol-Version` header (spec 2025-11-25: basic/transports,
 * "Protocol Version Header": 2025-03-26, which had no such header).
 */
export const VERSION_WITHOUT_HEADER = "2025-03-26";

/**
 * Whether this revision has JSON-RPC batches (an array of messages in one
 * body or line): no, as in 2025-06-18, which removed them (spec 2025-06-18:
 * changelog); only 2025-03-26 has them (`@x/mcp-v2503/wire`).
 */
export const BATCHES = false;

/** Longest session id accepted, in characters: a bound on what a server stores and echoes. */
export const MAX_SESSION_ID_LENGTH = 256;

/**
 * True when `id` is a well-formed session id: 1 to
 * {@link MAX_SESSION_ID_LENGTH} visible ASCII characters (0x21 to 0x7E;
 * spec 2025-11-25: basic/transports, "Session Management").
 */
export function isValidSessionId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= MAX_SESSION_ID_LENGTH && /^[\x21-\x7e]+$/.test(id);
}
