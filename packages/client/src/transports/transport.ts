/**
 * What a transport does for the client: deliver one JSON-RPC request and
 * bring back its response, passing on the notifications that arrive for it
 * on the way (spec 2026-07-28, basic/transports).
 */
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";

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
}

/**
 * A client transport. Implementations: {@link StreamableHttpTransport},
 * {@link StdioTransport}, {@link InMemoryTransport}; any object of this shape
 * works.
 *
 * `send` resolves with the JSON-RPC response whose `id` is the request's (an
 * error response included); it rejects with an `McpClientError` of code
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
}
