/**
 * The seam through which a revision with sessions frames the Streamable
 * HTTP transport's messages (as `packages/server/src/transports/http/framing.ts`
 * does on the server): the transport names no revision; it asks the framing
 * installed on it (`Transport.frame`) for the headers of a message, what a
 * response says of the session, whether a request is the session's (an
 * abort is then a `notifications/cancelled`, a broken stream resumed), and
 * hands it the server's messages that are not responses. The framing
 * reaches the endpoint through the {@link HttpCarrier} the transport gives it.
 */
import type { JSONRPCNotification, JSONRPCRequest } from "@x/mcp-v2607";
import type { ResumeDelays, StreamCursor } from "./sse-read.js";

/** What the HTTP transport offers a framing. */
export interface HttpCarrier {
  /** The MCP endpoint. */
  readonly url: URL;
  /** `StreamableHttpOptions.maxResumeAttempts`. */
  readonly maxResumeAttempts: number;
  /** The waits before a resumption (`StreamableHttpOptions.resumeDelayMs`, `maxResumeDelayMs`). */
  readonly delays: ResumeDelays;
  /** True once the transport is closed. */
  readonly closed: boolean;
  /** The user's headers for a new request. */
  userHeaders(): Promise<Headers>;
  /**
   * One request through the transport's fetch (its authorization included).
   * @throws McpClientError -32000 `"connection_failed"`, or the abort reason.
   */
  fetch(method: "GET" | "DELETE", headers: Headers, signal: AbortSignal): Promise<Response>;
  /**
   * POSTs a notification or a response (the framing's headers added); the
   * answer's body is dropped. Waits at most 30 s for the answer.
   * @throws McpClientError -32000: `"connection_failed"`, `"http_error"`, the framing's `check`, `"closed"`.
   */
  post(message: object): Promise<void>;
  /** Reads the events of an SSE stream (see `sse-read.ts`). */
  readEvents(
    body: ReadableStream<Uint8Array>,
    controller: AbortController,
    what: string,
    cursor: StreamCursor,
    onMessage: (message: unknown) => boolean,
  ): Promise<unknown>;
}

/** A revision's framing of Streamable HTTP messages (see the module comment). */
export interface HttpFraming {
  /** The session id in use, if any. */
  readonly sessionId: string | undefined;
  /**
   * Adds the framing's headers to a request's; false when it frames none
   * (the transport then adds 2026-07-28's metadata headers).
   */
  headers(headers: Headers): boolean;
  /** What a request is sent under (the session id), for {@link check}. */
  mark(): string | undefined;
  /**
   * Reads what a response to `method`, sent under `mark`, says of the
   * session. @throws McpClientError -32000 `"session_ended"` (the server
   * ended it), `"invalid_message"` (a malformed session id).
   */
  check(response: Response, mark: string | undefined, method: string): void;
  /** True when `request` goes on the session: cancelled by notification, its stream resumed. */
  carries(request: JSONRPCRequest): boolean;
  /** A notification on a request's stream (it also reached the request's own listener). */
  notification(notification: JSONRPCNotification): void;
  /** A server-to-client request on a request's stream. */
  request(request: JSONRPCRequest): void;
  /** The stream that resumes a broken one after `lastEventId`, or `undefined` when there is none. */
  resume(lastEventId: string, controller: AbortController): Promise<Response | undefined>;
  /** The transport closed: stop what runs on it. */
  closed(): void;
}
