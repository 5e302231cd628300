/**
 * What a transport does for the client: deliver one JSON-RPC request and
 * bring back its response, passing on the notifications that arrive for it
 * on the way (spec 2026-07-28, basic/transports).
 */
import type { JsonRpcErrorResponse, JsonRpcResultResponse } from "@x/jsonrpc";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";

/**
 * What the client gives a transport when it enters the `initialize` era
 * (spec 2025-11-25, basic/lifecycle and basic/transports): the version to
 * name on every later message, and where the messages that are not responses
 * go.
 */
export interface SessionHooks {
  /** The negotiated protocol version, sent as `MCP-Protocol-Version` on every HTTP request after `initialize`. */
  readonly protocolVersion: string;
  /**
   * Answers a server-to-client request (`ping`, `elicitation/create`,
   * `sampling/createMessage`, `roots/list`, ...). Resolves with the response
   * to send back, or `undefined` when none must be sent (the server
   * cancelled the request). Never rejects.
   */
  onRequest(request: JSONRPCRequest): Promise<JsonRpcResultResponse | JsonRpcErrorResponse | undefined>;
  /**
   * Receives every notification of the session exactly once: those on a
   * request's own stream (which also reach that request's
   * `SendOptions.onNotification`) and those on the stream for messages not
   * tied to a request (HTTP GET; stdio: the one channel).
   */
  onNotification(notification: JSONRPCNotification): void;
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
   * Enters the `initialize` era once the handshake's result is in: from now
   * on every message names the session (`Mcp-Session-Id`, learnt from the
   * `initialize` response) and the negotiated version, server-to-client
   * requests are answered through `hooks.onRequest`, and broken SSE streams
   * are resumed. A transport without it can only speak 2026-07-28.
   */
  beginSession?(hooks: SessionHooks): void;
  /** Sends a notification (the `initialize` era: `notifications/initialized`, `notifications/cancelled`, ...). */
  notify?(notification: JSONRPCNotification): Promise<void>;
  /**
   * Opens the stream for server messages that answer no request (HTTP:
   * the GET SSE stream; a `405` means the server offers none). Resolves once
   * it is open or refused (the HTTP transport waits at most 2000 ms, then
   * goes on opening it in the background); it then runs until `endSession`
   * or `close`.
   */
  openEventStream?(): Promise<void>;
  /**
   * Ends the session (HTTP: `DELETE` with the session id; a `405` is
   * accepted) and leaves the era, so that the next `initialize` starts a new one.
   */
  endSession?(): Promise<void>;
}
