/**
 * What a transport does for the client: deliver one JSON-RPC request and
 * bring back its response, passing on the notifications that arrive for it
 * on the way (spec 2026-07-28, basic/transports).
 */
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";
import type { HttpCarrier, HttpFraming } from "./http-framing.js";
import type { StdioCarrier, StdioFraming } from "./stdio-framing.js";

/**
 * The framings a revision with sessions offers a transport (the `initialize`
 * era's, spec 2025-11-25: basic/transports): one per transport that
 * defines a seam for it (`http-framing.ts`, `stdio-framing.ts`), each made
 * from what that transport offers it.
 */
export interface SessionFramings {
  /** The framing of Streamable HTTP, made from what the HTTP transport offers it. */
  http?(carrier: HttpCarrier): HttpFraming;
  /** The framing of stdio, made from what the stdio transport offers it. */
  stdio?(carrier: StdioCarrier): StdioFraming;
}

/** Default bound on one message, in bytes, for every transport: 4 MiB (the same bound as the server's). */
export { DEFAULT_MAX_MESSAGE_BYTES } from "@x/jsonrpc";

/** What the client hands a transport with each request. */
export interface SendOptions {
  /**
   * Aborts the exchange: the transport stops waiting, cancels the request the
   * way its binding says (HTTP: closes the response stream; stdio: sends
   * `notifications/cancelled`) and rejects. The client distinguishes a
   * timeout from a caller's cancel itself.
   */
  signal: AbortSignal;
  /**
   * Extra HTTP headers for this request: the `Mcp-Param-{Name}` headers of a
   * `tools/call`. Transports without headers ignore them.
   */
  headers: Readonly<Record<string, string>>;
  /** Called with each notification that arrives for this request before its response. */
  onNotification(notification: JSONRPCNotification): void;
  /**
   * Called when the transport has to wait for something that is not the
   * server, such as an OAuth authorization the user completes in a browser:
   * the request's timeout stops until the returned function is called, then
   * starts again in full.
   */
  pauseTimeout?(): () => void;
}

/**
 * A client transport. Implementations: {@link StreamableHttpTransport},
 * {@link StdioTransport}, {@link InMemoryTransport}; any object of this shape
 * works.
 *
 * `send` resolves with the JSON-RPC response whose `id` is the request's (an
 * error response included), its numbers as `JSON.parse` reads them (the
 * built-in transports keep only request ids and progress tokens beyond 2^53
 * as `bigint`, README "Numbers"); it rejects with an `McpClientError` of code
 * -32000 (`TransportFailed`) whose `data.reason` names what went wrong when no
 * response can be had, and with anything once `options.signal` has aborted.
 */
export interface Transport {
  /** A short name of the binding: `"http"`, `"stdio"`, `"memory"`, ... */
  readonly kind: string;
  /**
   * True when this transport carries HTTP headers, so that tool definitions
   * with invalid `x-mcp-header` annotations must be dropped (spec:
   * streamable-http "Schema Extension").
   */
  readonly mirrorsHeaders: boolean;
  /** Starts the transport (spawns a process, ...); called by `Client.connect`. Optional. */
  start?(): Promise<void>;
  /** Sends one request and resolves with its response. */
  send(message: JSONRPCRequest, options: SendOptions): Promise<JSONRPCResponse>;
  /**
   * Identifies who the requests are sent as (e.g. a digest of the bearer
   * token), so that private cache entries are never shared across
   * authorization contexts. `undefined` means anonymous.
   */
  authContext?(): string | undefined | Promise<string | undefined>;
  /** Stops the transport; waiting requests fail with reason `"closed"`. */
  close(): Promise<void>;
  /**
   * Installs the framing of a revision with sessions for this transport
   * (the one `framings` has for its kind), through which it frames every
   * later message. False (or absent) when the transport carries no session:
   * it can then only speak 2026-07-28.
   */
  frame?(framings: SessionFramings): boolean;
}
