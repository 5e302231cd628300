/**
 * The Streamable HTTP client transport (spec 2026-07-28,
 * basic/transports/streamable-http): one POST per request to the MCP
 * endpoint, answered with a JSON body or an SSE stream of notifications
 * followed by the response.
 *
 * In the `initialize` era (spec 2025-11-25, basic/transports "Streamable
 * HTTP"), after {@link StreamableHttpTransport.beginSession}, it also keeps
 * the session: `Mcp-Session-Id` and `MCP-Protocol-Version` on every request,
 * server-to-client requests answered by a POST of their response, the GET
 * stream, `notifications/cancelled` on abort, resumption of a broken SSE
 * stream with `Last-Event-ID`, and `DELETE` at the end.
 */
import { MissingDependencyError, stringifyJson } from "@x/jsonrpc";
import { Header, isValidSessionId } from "@x/mcp-v2511/wire";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";
import { OAuthSession } from "../auth/session.js";
import type { OAuthClientProvider } from "../auth/provider.js";
import { clip, isMcpClientError, type McpClientError, transportError } from "../errors.js";
import { standardHeaders } from "../headers.js";
import { importOnce } from "../lazy.js";
import { readMessage } from "../numbers.js";
import { concatBytes, isNotification, isRequest, isResponse, responseFor, utf8Length } from "./jsonrpc.js";
import { isNode, nodeFetch } from "./node-fetch.js";
import { fallBackToSse, refusedInitialize } from "./sse-fallback.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type SendOptions, type SessionHooks, type Transport } from "./transport.js";

/** Wait before resuming a broken SSE stream when the server sent no `retry` field, in milliseconds. */
export const DEFAULT_RESUME_DELAY_MS = 1000;
/** Longest wait taken from a server's `retry` field, in milliseconds; a larger value is cut to this. */
export const MAX_RESUME_DELAY_MS = 30_000;
/** Default number of resumption attempts of one broken SSE stream (the `initialize` era). */
export const DEFAULT_MAX_RESUME_ATTEMPTS = 3;

/** Longest wait for the server to accept a notification or a response the client POSTs, in milliseconds. */
const POST_TIMEOUT_MS = 30_000;

/** Longest wait of `openEventStream` for the GET stream's headers, in milliseconds. */
const EVENT_STREAM_OPEN_WAIT_MS = 2000;

/** Where an SSE stream left off: the last event id seen and the server's last `retry` (ms). */
interface StreamCursor {
  lastEventId?: string;
  retry?: number;
}

/** Options of {@link StreamableHttpTransport}. */
export interface StreamableHttpOptions {
  /**
   * The `fetch` to use. Default: on Node, `node:http`/`node:https` for the
   * transport's own requests (less CPU per call than Node's `fetch`; any
   * request it does not handle, and all of them once `globalThis.fetch` was
   * replaced, go to the global `fetch`); elsewhere the global `fetch`.
   */
  fetch?: typeof fetch;
  /**
   * Headers added to every request, e.g. `{ authorization: "Bearer ..." }`,
   * or a function that returns them per request (for tokens that change).
   * They never replace the MCP headers (`MCP-Protocol-Version`, `Mcp-Method`,
   * `Mcp-Name`, `Mcp-Param-*`, `Content-Type`, `Accept`).
   */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /**
   * Largest message, in bytes, sent or received: the request body, a JSON
   * response body, or one SSE event. Default 4 MiB. Over it, the request
   * fails with reason `"message_too_large"`.
   */
  maxMessageBytes?: number;
  /**
   * The authorization context for the cache's private entries. Default: a
   * SHA-256 digest of the `Authorization` header (anonymous when there is none).
   */
  authContext?: string;
  /**
   * The `initialize` era: how many times one broken SSE stream (a request's,
   * or the GET stream) is resumed with `Last-Event-ID` before the request
   * fails with reason `"stream_broken"`. Each attempt waits the server's
   * `retry` (default 1000 ms, at most 30000 ms). Default 3; 0 never resumes.
   */
  maxResumeAttempts?: number;
  /**
   * OAuth authorization (spec 2026-07-28, basic/authorization; 2025-11-25
   * alike): the app's hooks and token store, or a ready provider
   * (`clientCredentials()`, `jwtBearer()`). The access token then goes on
   * every request (POST, the `initialize` era's GET stream and DELETE); a
   * `401` or `403 insufficient_scope` runs discovery, registration and a
   * grant and sends the request again. A failure rejects with
   * `McpClientError` -32097 (`AuthorizationFailed`) whose `data.reason`
   * names the step. The token's `Authorization` header replaces one given in
   * `headers`. Default: none (a `401` is an `"http_error"`).
   * @throws TypeError (from the constructor) for a `clientMetadataUrl` that is not https with a path, or a `redirectUrl` that is not a URL.
   */
  auth?: OAuthClientProvider;
  /**
   * The last step of `protocol: "auto"` (spec 2025-03-26, basic/transports
   * "Backwards Compatibility"): when the `initialize` POST gets a 4xx whose
   * body is none of the 2026-07-28 errors (-32020, -32021, -32022), GET the
   * same URL and, if an SSE stream opens with an `endpoint` event on the same
   * origin, carry the rest of the connection over the deprecated HTTP+SSE
   * transport of 2024-11-05 ({@link SseTransport}, with this transport's
   * `fetch`, headers, OAuth and `maxMessageBytes`). When that fails too, the
   * error names both attempts. Default `true`; `false` keeps the 4xx.
   */
  legacySseFallback?: boolean;
}

/**
 * Streamable HTTP over `fetch`.
 *
 * Each request is a POST with `Content-Type: application/json`,
 * `Accept: application/json, text/event-stream` and the request metadata
 * headers. A JSON response is read up to `maxMessageBytes`; an SSE response
 * is parsed with `eventsource-parser` (LF, CRLF and CR line ends, comment
 * lines ignored), each event's data being one JSON-RPC message:
 * notifications go to `onNotification`, the response ends the exchange and
 * closes the stream. Aborting the signal closes the stream, which the spec
 * makes the cancellation of the request.
 *
 * Messages are read with `readMessage` (README "Numbers": an integer beyond
 * ±(2^53 − 1) is `JSON.parse`'s double, but a `bigint` with every digit in a
 * request id or a progress token) and written with `stringifyJson` of
 * `@x/jsonrpc` (a `bigint` as its digits).
 *
 * Failures reject with `McpClientError` -32000 and `data.reason`:
 * `"connection_failed"` (fetch itself failed), `"http_error"` (a status with
 * no JSON-RPC body, `data.status`), `"stream_broken"` (the SSE stream ended or
 * broke before the response), `"message_too_large"`, `"invalid_message"`
 * (a body or event that is not JSON-RPC, or an invalid `Mcp-Session-Id`),
 * `"session_ended"` (a 404 to a request that named a session). An HTTP error
 * status whose body is a JSON-RPC error (e.g. 400 with -32022) resolves with
 * that error response.
 *
 * In the `initialize` era a stream that broke before its response (after an
 * event with an id) is resumed with a GET carrying `Last-Event-ID`, after
 * the server's `retry` (default {@link DEFAULT_RESUME_DELAY_MS}, at most
 * {@link MAX_RESUME_DELAY_MS}), at most `maxResumeAttempts` times; the
 * response may come on the resumed stream.
 */
export class StreamableHttpTransport implements Transport {
  readonly kind = "http";
  readonly mirrorsHeaders = true;
  readonly url: URL;
  private readonly fetch: typeof fetch;
  private readonly headers: StreamableHttpOptions["headers"];
  private readonly maxBytes: number;
  private readonly fixedAuthContext: string | undefined;
  private readonly maxResume: number;
  private readonly oauth: OAuthSession | undefined;
  private readonly legacySse: boolean;
  private closed = false;
  private readonly inflight = new Set<AbortController>();
  private sid: string | undefined;
  private session: SessionHooks | undefined;
  private eventStream: AbortController | undefined;

  /**
   * @param url the MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`.
   * @throws TypeError when `url` is not an http(s) URL, `maxMessageBytes` is not a positive integer or
   *   `maxResumeAttempts` not a non-negative one.
   */
  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new TypeError(`The MCP endpoint must be an http or https URL, got ${this.url.protocol}`);
    }
    const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new TypeError(`maxMessageBytes must be a positive integer, got ${max}`);
    const resume = options.maxResumeAttempts ?? DEFAULT_MAX_RESUME_ATTEMPTS;
    if (!Number.isSafeInteger(resume) || resume < 0) throw new TypeError(`maxResumeAttempts must be a non-negative integer, got ${resume}`);
    this.maxResume = resume;
    // Called as a plain function: workerd's fetch refuses to run as a method of another object ("Illegal invocation").
    const given = options.fetch;
    // On Node the transport's requests go through node:http (node-fetch.ts): Node's fetch costs more CPU per call.
    const viaNode = given === undefined && isNode();
    const base: typeof fetch = (input, init) => (given ?? (viaNode ? nodeFetch : globalThis.fetch))(input, init);
    this.oauth = options.auth ? new OAuthSession(this.url, options.auth, base) : undefined;
    this.fetch = this.oauth ? this.oauth.fetch : base;
    this.headers = options.headers;
    this.maxBytes = max;
    this.fixedAuthContext = options.authContext;
    this.legacySse = options.legacySseFallback ?? true;
  }

  /**
   * The authorization context requests are sent in (see
   * {@link StreamableHttpOptions.authContext}): with a `headers` function,
   * it is called to see the `Authorization` header the next request will carry.
   */
  async authContext(): Promise<string | undefined> {
    if (this.fixedAuthContext !== undefined) return this.fixedAuthContext;
    if (this.oauth) {
      const token = await this.oauth.accessToken();
      if (token !== undefined) return digest(`Bearer ${token}`);
    }
    const headers = new Headers(typeof this.headers === "function" ? await this.headers() : this.headers);
    return digest(headers.get("authorization"));
  }

  /** The session id the server gave on `initialize` (the `initialize` era), else `undefined`. */
  get sessionId(): string | undefined {
    return this.sid;
  }

  /** Sends one request as a POST and reads its JSON or SSE response. */
  async send(message: JSONRPCRequest, options: SendOptions): Promise<JSONRPCResponse> {
    if (this.closed) throw transportError("closed", "The HTTP transport is closed");
    const body = this.encode(message);
    const headers = await this.headersFor(message);
    for (const [name, value] of Object.entries(options.headers)) headers.set(name, value);

    const controller = new AbortController();
    const inSession = this.session !== undefined && message.method !== "initialize";
    const abort = () => {
      controller.abort(options.signal.reason);
      // The earlier era cancels by notification; closing the stream alone is a disconnect (spec 2025-11-25: cancellation).
      if (inSession) {
        this.notify({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: message.id, reason: "The client cancelled the request" },
        }).catch(() => {});
      }
    };
    if (options.signal.aborted) abort();
    options.signal.addEventListener("abort", abort, { once: true });
    this.inflight.add(controller);
    const sentSession = this.sid;
    try {
      let response: Response;
      try {
        const init = { method: "POST", headers, body, signal: controller.signal };
        response = await (this.oauth ? this.oauth.fetch(this.url, init, options) : this.fetch(this.url, init));
      } catch (error) {
        if (controller.signal.aborted) throw this.abortReason(controller, error);
        if (isMcpClientError(error) || error instanceof MissingDependencyError) throw error;
        throw transportError("connection_failed", `POST ${this.url.href} failed: ${describe(error)}`, { url: this.url.href }, error);
      }
      this.checkSession(response, sentSession, message.method);
      if (message.method === "initialize" && response.ok) this.learnSession(response);
      const type = (response.headers.get("content-type") ?? "").toLowerCase();
      if (response.ok && type.includes("text/event-stream")) return await this.readStream(response, message, options, controller);
      const read = this.readJson(response, message, type, controller);
      if (!this.legacySse || !refusedInitialize(message, response)) return await read;
      return await fallBackToSse(
        this,
        { fetch: this.fetch, headers: this.headers, maxMessageBytes: this.maxBytes },
        message,
        options,
        read,
      );
    } finally {
      options.signal.removeEventListener("abort", abort);
      this.inflight.delete(controller);
    }
  }

  /** Enters the `initialize` era (see {@link Transport.beginSession}). */
  beginSession(hooks: SessionHooks): void {
    this.session = hooks;
  }

  /**
   * POSTs a notification. Resolves on a 2xx answer (202 Accepted), waiting at most 30 s for it.
   * @throws McpClientError -32000: `"connection_failed"`, `"http_error"` (another status), `"session_ended"` (404 on a session), `"closed"`.
   */
  async notify(notification: JSONRPCNotification): Promise<void> {
    await this.post(notification);
  }

  /**
   * Opens the GET SSE stream of the session for server messages that answer
   * no request. A `405` (or any answer that is not an SSE stream) means the
   * server offers none: resolves without one. When the stream ends it is
   * opened again, with `Last-Event-ID` when an event carried an id, at most
   * `maxResumeAttempts` times in a row without an event in between. Waits at
   * most 2000 ms for the stream's headers; it then goes on opening in the background.
   */
  async openEventStream(): Promise<void> {
    if (!this.session || this.eventStream || this.closed) return;
    const controller = new AbortController();
    this.eventStream = controller;
    const opened = this.getStream(undefined, controller).then(
      (response) => {
        if (response) void this.runEventStream(response, controller);
        else if (this.eventStream === controller) this.eventStream = undefined;
      },
      () => {
        if (this.eventStream === controller) this.eventStream = undefined;
      },
    );
    // A server may hold the stream's headers back until its first event: waiting is bounded.
    await Promise.race([opened, delay(EVENT_STREAM_OPEN_WAIT_MS, controller.signal).catch(() => {})]);
  }

  /** Ends the session: closes the GET stream and sends `DELETE` with the session id (a `405` or a failure is accepted). */
  async endSession(): Promise<void> {
    this.eventStream?.abort(transportError("closed", "The session ended"));
    this.eventStream = undefined;
    const id = this.sid;
    const version = this.session?.protocolVersion;
    this.sid = undefined;
    this.session = undefined;
    if (id === undefined || this.closed) return;
    const headers = await this.userHeaders();
    headers.set(Header.sessionId, id);
    if (version !== undefined) headers.set(Header.protocolVersion, version);
    try {
      const response = await this.fetch(this.url, { method: "DELETE", headers, signal: AbortSignal.timeout(5000) });
      await response.body?.cancel().catch(() => {});
    } catch {
      // The session ends on the server's idle timeout instead.
    }
  }

  private encode(message: unknown): string {
    const body = stringifyJson(message);
    const size = utf8Length(body);
    if (size > this.maxBytes) {
      const method = (message as { method?: unknown }).method;
      throw transportError(
        "message_too_large",
        `The ${typeof method === "string" ? method : "response"} message is ${size} bytes, over the limit of ${this.maxBytes} bytes`,
        { bytes: size, limit: this.maxBytes },
      );
    }
    return body;
  }

  private async userHeaders(): Promise<Headers> {
    return new Headers(typeof this.headers === "function" ? await this.headers() : this.headers);
  }

  /** The headers of a POST: the user's, then the MCP ones (the 2026 metadata headers, or the session's). */
  private async headersFor(message: { method?: string; params?: Record<string, unknown> } | object): Promise<Headers> {
    const headers = await this.userHeaders();
    headers.set("content-type", "application/json");
    headers.set("accept", "application/json, text/event-stream");
    if (this.session) {
      if (this.sid !== undefined) headers.set(Header.sessionId, this.sid);
      headers.set(Header.protocolVersion, this.session.protocolVersion);
    } else if ("method" in message && typeof message.method === "string") {
      for (const [name, value] of Object.entries(standardHeaders(message as { method: string }))) headers.set(name, value);
    }
    return headers;
  }

  /** A 404 to a request that named a session: the session is gone (spec 2025-11-25: "Session Management"). */
  private checkSession(response: Response, sentSession: string | undefined, method: string): void {
    if (response.status !== 404 || sentSession === undefined) return;
    if (this.sid === sentSession) this.sid = undefined;
    response.body?.cancel().catch(() => {});
    throw transportError("session_ended", `The server ended the session (HTTP 404 to ${method}); a new initialize is needed`, {
      status: 404,
    });
  }

  private learnSession(response: Response): void {
    const id = response.headers.get(Header.sessionId);
    if (id === null) {
      this.sid = undefined;
      return;
    }
    if (!isValidSessionId(id)) {
      response.body?.cancel().catch(() => {});
      throw transportError("invalid_message", `The server sent an invalid Mcp-Session-Id ${clip(JSON.stringify(id), 80)}`);
    }
    this.sid = id;
  }

  /** POSTs a notification or a response; the answer's body is dropped. */
  private async post(message: object): Promise<void> {
    if (this.closed) throw transportError("closed", "The HTTP transport is closed");
    const body = this.encode(message);
    const headers = await this.headersFor(message);
    const sentSession = this.sid;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(transportError("connection_failed", `POST ${this.url.href} got no answer in ${POST_TIMEOUT_MS} ms`)),
      POST_TIMEOUT_MS,
    );
    this.inflight.add(controller);
    let response: Response;
    try {
      response = await this.fetch(this.url, { method: "POST", headers, body, signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) throw this.abortReason(controller, error);
      if (isMcpClientError(error) || error instanceof MissingDependencyError) throw error;
      throw transportError("connection_failed", `POST ${this.url.href} failed: ${describe(error)}`, { url: this.url.href }, error);
    } finally {
      clearTimeout(timer);
      this.inflight.delete(controller);
    }
    await response.body?.cancel().catch(() => {});
    this.checkSession(response, sentSession, "a notification");
    if (!response.ok)
      throw transportError("http_error", `HTTP ${response.status} from ${this.url.href} to a notification`, { status: response.status });
  }

  /** Hands a server-to-client request to the session and POSTs its answer (spec 2025-11-25: "Sending Messages to the Server"). */
  private answer(request: JSONRPCRequest): void {
    const session = this.session;
    if (!session) return;
    void session
      .onRequest(request)
      .then((response) => (response ? this.post(response) : undefined))
      .catch(() => {
        // The server times the request out; nothing else can be done here.
      });
  }

  /** The GET stream, or `undefined` when the server offers none (405, or anything but an SSE stream). */
  private async getStream(lastEventId: string | undefined, controller: AbortController): Promise<Response | undefined> {
    const headers = await this.userHeaders();
    headers.set("accept", "text/event-stream");
    if (this.sid !== undefined) headers.set(Header.sessionId, this.sid);
    if (this.session) headers.set(Header.protocolVersion, this.session.protocolVersion);
    if (lastEventId !== undefined) headers.set(Header.lastEventId, lastEventId);
    const sentSession = this.sid;
    let response: Response;
    try {
      response = await this.fetch(this.url, { method: "GET", headers, signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) throw this.abortReason(controller, error);
      if (isMcpClientError(error) || error instanceof MissingDependencyError) throw error;
      throw transportError("connection_failed", `GET ${this.url.href} failed: ${describe(error)}`, { url: this.url.href }, error);
    }
    this.checkSession(response, sentSession, "GET");
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (!response.ok || !type.includes("text/event-stream") || !response.body) {
      await response.body?.cancel().catch(() => {});
      return undefined;
    }
    return response;
  }

  private async runEventStream(first: Response, controller: AbortController): Promise<void> {
    const cursor: StreamCursor = {};
    let attempts = 0;
    let response: Response | undefined = first;
    try {
      while (response?.body && !controller.signal.aborted) {
        let events = 0;
        try {
          await this.readEvents(response.body, controller, "The GET stream", cursor, (message) => {
            events++;
            if (isNotification(message)) this.deliver(message);
            else if (isRequest(message)) this.answer(message);
            return false;
          });
        } catch (error) {
          // A package not installed will not be there on the next attempt either: the session goes on without the stream.
          if (error instanceof MissingDependencyError) break;
          // A bad event or a broken read: the stream is opened again below.
        }
        if (events > 0) attempts = 0;
        if (controller.signal.aborted || attempts >= this.maxResume) break;
        attempts++;
        await delay(resumeDelay(cursor), controller.signal);
        response = await this.getStream(cursor.lastEventId, controller);
      }
    } catch {
      // Aborted, or the stream could not be opened again: the session goes on without it.
    } finally {
      if (this.eventStream === controller) this.eventStream = undefined;
    }
  }

  private deliver(notification: JSONRPCNotification): void {
    try {
      this.session?.onNotification(notification);
    } catch {
      // A listener's fault is not the transport's.
    }
  }

  /** Closes the transport: in-flight requests are aborted and fail with reason `"closed"`. */
  async close(): Promise<void> {
    this.closed = true;
    this.eventStream?.abort(transportError("closed", "The HTTP transport was closed"));
    this.eventStream = undefined;
    for (const controller of this.inflight) controller.abort(transportError("closed", "The HTTP transport was closed"));
    this.inflight.clear();
  }

  private abortReason(controller: AbortController, error: unknown): unknown {
    return controller.signal.reason ?? error;
  }

  private async readJson(response: Response, message: JSONRPCRequest, type: string, controller: AbortController): Promise<JSONRPCResponse> {
    const status = response.status;
    const text = await this.readBody(response, message, controller);
    if (text.trim() === "") {
      throw transportError("http_error", `HTTP ${status} from ${this.url.href} with no response to the ${message.method} request`, {
        status,
      });
    }
    let parsed: unknown;
    try {
      parsed = readMessage(text);
    } catch (error) {
      if (error instanceof MissingDependencyError) throw error;
      if (!response.ok) throw transportError("http_error", `HTTP ${status} from ${this.url.href}: ${clip(text.trim())}`, { status });
      throw transportError(
        "invalid_message",
        `The response to the ${message.method} request is not JSON (content-type ${type || "none"}): ${clip(text.trim())}`,
        { status },
      );
    }
    const answer = isResponse(parsed) ? responseFor(parsed, message.id) : undefined;
    if (answer) return answer;
    if (!response.ok) throw transportError("http_error", `HTTP ${status} from ${this.url.href}: ${clip(text.trim())}`, { status });
    throw transportError(
      "invalid_message",
      `The response body is not a JSON-RPC response to request ${JSON.stringify(message.id)}: ${clip(text.trim())}`,
      { status },
    );
  }

  /** One read of a response body; a broken stream is a `stream_broken` transport error (`what` says which), an abort its reason. */
  private async readStep(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    controller: AbortController,
    what: string,
  ): Promise<ReadableStreamReadResult<Uint8Array>> {
    try {
      return await reader.read();
    } catch (error) {
      if (controller.signal.aborted) throw this.abortReason(controller, error);
      throw transportError("stream_broken", `${what}: ${describe(error)}`, {}, error);
    }
  }

  private async readBody(response: Response, message: JSONRPCRequest, controller: AbortController): Promise<string> {
    const declared = Number(response.headers.get("content-length") ?? Number.NaN);
    if (declared > this.maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw this.tooLarge(message, declared);
    }
    if (!response.body) return "";
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const step = await this.readStep(reader, controller, `The response body of the ${message.method} request broke off`);
        if (step.done) break;
        total += step.value.byteLength;
        if (total > this.maxBytes) {
          await reader.cancel().catch(() => {});
          throw this.tooLarge(message, total);
        }
        chunks.push(step.value);
      }
    } finally {
      reader.releaseLock();
    }
    return new TextDecoder().decode(concatBytes(chunks));
  }

  private tooLarge(message: JSONRPCRequest, bytes: number): McpClientError {
    return transportError(
      "message_too_large",
      `The response to the ${message.method} request is ${bytes}+ bytes, over the limit of ${this.maxBytes} bytes`,
      { bytes, limit: this.maxBytes },
    );
  }

  private async readStream(
    response: Response,
    message: JSONRPCRequest,
    options: SendOptions,
    controller: AbortController,
  ): Promise<JSONRPCResponse> {
    if (!response.body) throw transportError("stream_broken", `The SSE response to the ${message.method} request has no body`);
    let answer: JSONRPCResponse | undefined;
    const cursor: StreamCursor = {};
    const onMessage = (parsed: unknown): boolean => {
      if (isResponse(parsed)) {
        answer = responseFor(parsed, message.id);
        return answer !== undefined;
      }
      if (isNotification(parsed)) {
        try {
          options.onNotification(parsed);
        } catch {
          // A listener's fault is not the transport's.
        }
        if (this.session) this.deliver(parsed);
      } else if (isRequest(parsed)) {
        // The earlier era sends server-to-client requests on the request's stream; 2026-07-28 has none (MRTR replaces them).
        this.answer(parsed);
      }
      return false;
    };
    const what = `The SSE stream of the ${message.method} request`;
    let body: ReadableStream<Uint8Array> = response.body;
    for (let attempts = 0; ; attempts++) {
      const broke = await this.readEvents(body, controller, what, cursor, onMessage);
      if (answer) return answer;
      // Only a session's streams can be resumed, and only after an event with an id (spec 2025-11-25: "Resumability and Redelivery").
      const resumable = this.session !== undefined && message.method !== "initialize" && cursor.lastEventId !== undefined;
      if (!resumable || attempts >= this.maxResume) {
        if (broke) throw transportError("stream_broken", `${what} broke off before its response: ${describe(broke)}`, {}, broke);
        throw transportError("stream_broken", `${what} ended before its response arrived`);
      }
      await delay(resumeDelay(cursor), controller.signal);
      const resumed = await this.getStream(cursor.lastEventId, controller);
      if (!resumed?.body) {
        throw transportError(
          "stream_broken",
          `${what} broke off and could not be resumed after event ${clip(cursor.lastEventId ?? "", 80)}`,
        );
      }
      body = resumed.body;
    }
  }

  /**
   * Reads the events of one SSE stream, handing each JSON-RPC message to
   * `onMessage` until it returns true (the stream is then closed) or the
   * stream ends. Records the last event id and `retry` in `cursor`.
   * @returns `undefined` when the stream ended or `onMessage` stopped it, the error when a read broke.
   * @throws `"message_too_large"` / `"invalid_message"` transport errors, a MissingDependencyError, or the abort reason.
   */
  private async readEvents(
    body: ReadableStream<Uint8Array>,
    controller: AbortController,
    what: string,
    cursor: StreamCursor,
    onMessage: (message: unknown) => boolean,
  ): Promise<unknown> {
    let createParser: typeof import("eventsource-parser")["createParser"];
    try {
      ({ createParser } = await eventSourceParser.get());
    } catch (error) {
      // The stream is not read: let the server go of it (an earlier-era GET stream would otherwise be held open).
      await body.cancel().catch(() => {});
      throw error;
    }
    let done = false;
    let failure: McpClientError | MissingDependencyError | undefined;
    const parser = createParser({
      maxBufferSize: this.maxBytes,
      onRetry: (ms) => {
        cursor.retry = ms;
      },
      onEvent: (event) => {
        if (done || failure) return;
        if (event.id !== undefined) cursor.lastEventId = event.id;
        if (event.event !== undefined && event.event !== "message") return;
        if (event.data.trim() === "") return;
        if (utf8Length(event.data) > this.maxBytes) {
          failure = transportError("message_too_large", `An SSE event of ${what} is over the limit of ${this.maxBytes} bytes`, {
            limit: this.maxBytes,
          });
          return;
        }
        let parsed: unknown;
        try {
          parsed = readMessage(event.data);
        } catch (error) {
          failure =
            error instanceof MissingDependencyError
              ? error
              : transportError("invalid_message", `An SSE event of ${what} is not JSON: ${clip(event.data)}`);
          return;
        }
        if (onMessage(parsed)) done = true;
      },
      onError: (error) => {
        if (error.type === "max-buffer-size-exceeded" && !failure) {
          failure = transportError("message_too_large", `An SSE event of ${what} is over the limit of ${this.maxBytes} bytes`, {
            limit: this.maxBytes,
          });
        }
      },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let ended = false;
    let broke: unknown;
    try {
      while (!done && !failure) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (error) {
          if (controller.signal.aborted) throw this.abortReason(controller, error);
          broke = error;
          ended = true;
          break;
        }
        if (step.done) {
          ended = true;
          try {
            // A stream may end on a lone CR, which the parser holds back in case an LF follows.
            parser.feed(`${decoder.decode()}\n`);
          } catch {
            // The parser ended in an error state; the failure is already recorded.
          }
          break;
        }
        try {
          parser.feed(decoder.decode(step.value, { stream: true }));
        } catch {
          // The parser throws after a max-buffer-size error; onError recorded it.
        }
      }
    } finally {
      if (!ended) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    if (failure && !done) throw failure;
    return broke;
  }
}

function resumeDelay(cursor: StreamCursor): number {
  return Math.min(cursor.retry ?? DEFAULT_RESUME_DELAY_MS, MAX_RESUME_DELAY_MS);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

// Imported on first use, not with the package: a client that reads only JSON
// answers never needs it, and loading it is a noticeable part of a cold start.
const eventSourceParser = importOnce(() => import("eventsource-parser"), "eventsource-parser");

// The last digest made: the Authorization value rarely changes between requests.
let lastDigest: { of: string; is: string } | undefined;

/**
 * The `Authorization` value's SHA-256, base64url: an authorization context
 * that does not keep the credential. Web Crypto, which every runtime the
 * client runs on has (Node, Bun, Deno, workerd, browsers).
 */
export async function digest(authorization: string | null): Promise<string | undefined> {
  if (authorization === null) return undefined;
  if (lastDigest?.of === authorization) return lastDigest.is;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(authorization)));
  let binary = "";
  for (const byte of hash) binary += String.fromCharCode(byte);
  const is = btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  lastDigest = { of: authorization, is };
  return is;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
