/**
 * The Streamable HTTP client transport (spec 2026-07-28,
 * basic/transports/streamable-http): one POST per request to the MCP
 * endpoint, answered with a JSON body or an SSE stream of notifications
 * followed by the response.
 *
 * A revision with sessions frames it through its seam (`http-framing.ts`,
 * {@link StreamableHttpTransport.frame}): the framing adds its headers,
 * reads what a response says of the session, takes the server's messages
 * that are not responses, and resumes a broken stream of the session; the
 * transport gives it a GET, a DELETE and a POST of a notification or
 * response (the `initialize` era's framing: `revisions/initialize/http.ts`).
 */
import { MissingDependencyError } from "@x/jsonrpc";
import type { JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";
import { OAuthSession } from "../auth/session.js";
import { rejectUnknown } from "../auth/options.js";
import { delay } from "../delay.js";
import type { OAuthClientProvider } from "../auth/provider.js";
import { clip, isMcpClientError, type McpClientError, transportError } from "../errors.js";
import { standardHeaders } from "@x/mcp-v2607/wire";
import { readMessage } from "../numbers.js";
import { concatBytes, encodeMessage, isNotification, isRequest, isResponse, responseFor } from "./jsonrpc.js";
import type { HttpFraming } from "./http-framing.js";
import { DEFAULT_RESUME_DELAY_MS, MAX_RESUME_DELAY_MS, type ResumeDelays, readEvents, resumeDelay, type StreamCursor } from "./sse-read.js";
import { baseFetch, describe, digest, httpUrl, POST_TIMEOUT_MS } from "./http-common.js";
import { fallBackToSse, refusedInitialize } from "./sse-fallback.js";
import type { SseTransport } from "./sse.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type SendOptions, type SessionFramings, type Transport } from "./transport.js";

/** Default number of resumption attempts of one broken SSE stream (`StreamableHttpOptions.maxResumeAttempts`). */
const DEFAULT_MAX_RESUME_ATTEMPTS = 3;

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
   * `retry` (else `resumeDelayMs`, at most `maxResumeDelayMs`). Default 3; 0 never resumes.
   */
  maxResumeAttempts?: number;
  /** Milliseconds to wait before a resumption when the server sent no `retry` field. Default 1000. */
  resumeDelayMs?: number;
  /** Most milliseconds taken from a server's `retry` field; a larger value is cut to this. Default 30 000. */
  maxResumeDelayMs?: number;
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

/** Every member of {@link StreamableHttpOptions}, to refuse a misspelt one. */
const HTTP_OPTIONS: Record<keyof StreamableHttpOptions, true> = {
  fetch: true,
  headers: true,
  maxMessageBytes: true,
  authContext: true,
  maxResumeAttempts: true,
  resumeDelayMs: true,
  maxResumeDelayMs: true,
  auth: true,
  legacySseFallback: true,
};

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
 * the server's `retry` (default `resumeDelayMs`, at most
 * `maxResumeDelayMs`), at most `maxResumeAttempts` times; the
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
  private readonly delays: ResumeDelays;
  private readonly oauth: OAuthSession | undefined;
  private closed = false;
  private readonly inflight = new Set<AbortController>();
  private framing: HttpFraming | undefined;
  private framings: SessionFramings | undefined;
  private readonly legacySseFallback: boolean;
  /** The HTTP+SSE transport the server turned out to speak (`legacySseFallback`): every later message goes over it. */
  private sse: SseTransport | undefined;

  /**
   * @param url the MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`.
   * @throws TypeError when `url` is not an http(s) URL, an option is one `StreamableHttpOptions` does not
   *   name, `maxMessageBytes` is not a positive integer or `maxResumeAttempts`, `resumeDelayMs` or
   *   `maxResumeDelayMs` not a non-negative one.
   */
  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    rejectUnknown("StreamableHttpTransport", options, Object.keys(HTTP_OPTIONS));
    this.url = httpUrl(url, "MCP endpoint");
    const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new TypeError(`maxMessageBytes must be a positive integer, got ${max}`);
    const resume = options.maxResumeAttempts ?? DEFAULT_MAX_RESUME_ATTEMPTS;
    if (!Number.isSafeInteger(resume) || resume < 0) throw new TypeError(`maxResumeAttempts must be a non-negative integer, got ${resume}`);
    this.maxResume = resume;
    this.delays = {
      resumeDelayMs: options.resumeDelayMs ?? DEFAULT_RESUME_DELAY_MS,
      maxResumeDelayMs: options.maxResumeDelayMs ?? MAX_RESUME_DELAY_MS,
    };
    for (const [key, value] of Object.entries(this.delays))
      if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${key} must be a non-negative integer, got ${value}`);
    const base = baseFetch(options.fetch);
    this.oauth = options.auth ? new OAuthSession(this.url, options.auth, base) : undefined;
    this.fetch = this.oauth ? this.oauth.fetch : base;
    this.headers = options.headers;
    this.maxBytes = max;
    this.fixedAuthContext = options.authContext;
    this.legacySseFallback = options.legacySseFallback ?? true;
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
    return this.framing?.sessionId;
  }

  /** Installs a session framing (see {@link Transport.frame}), through which every later message is framed. */
  frame(framings: SessionFramings): boolean {
    this.framings = framings;
    if (this.sse) return this.sse.frame(framings);
    const transport = this;
    this.framing = framings.http?.({
      url: this.url,
      maxResumeAttempts: this.maxResume,
      delays: this.delays,
      get closed() {
        return transport.closed;
      },
      userHeaders: () => this.userHeaders(),
      fetch: (method, headers, signal) => this.request(method, headers, signal),
      post: (message) => this.post(message),
      readEvents: (body, controller, what, cursor, onMessage) => readEvents(this.maxBytes, body, controller, what, cursor, onMessage),
    });
    return this.framing !== undefined;
  }

  /** Sends one request as a POST and reads its JSON or SSE response. */
  async send(message: JSONRPCRequest, options: SendOptions): Promise<JSONRPCResponse> {
    if (this.closed) throw transportError("closed", "The HTTP transport is closed");
    if (this.sse) return this.sse.send(message, options);
    const body = this.encode(message);
    const headers = await this.headersFor(message);
    for (const [name, value] of Object.entries(options.headers)) headers.set(name, value);

    const controller = new AbortController();
    const framing = this.framing;
    const inSession = framing?.carries(message) ?? false;
    const abort = () => {
      controller.abort(options.signal.reason);
      // A session cancels by notification; closing the stream alone is a disconnect (spec 2025-11-25: cancellation).
      if (inSession) {
        this.post({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: message.id, reason: "The client cancelled the request" },
        }).catch(() => {});
      }
    };
    if (options.signal.aborted) abort();
    options.signal.addEventListener("abort", abort, { once: true });
    this.inflight.add(controller);
    const mark = framing?.mark();
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
      framing?.check(response, mark, message.method);
      const type = (response.headers.get("content-type") ?? "").toLowerCase();
      if (response.ok && type.includes("text/event-stream")) return await this.readStream(response, message, options, controller);
      const read = this.readJson(response, message, type, controller);
      if (!this.legacySseFallback || !refusedInitialize(message, response)) return await read;
      const sse = { fetch: this.fetch, headers: this.headers, maxMessageBytes: this.maxBytes };
      return await fallBackToSse(this.url, sse, (transport) => this.adopt(transport), message, options, read);
    } finally {
      options.signal.removeEventListener("abort", abort);
      this.inflight.delete(controller);
    }
  }

  private encode(message: object): string {
    return encodeMessage(message, this.maxBytes);
  }

  private async userHeaders(): Promise<Headers> {
    return new Headers(typeof this.headers === "function" ? await this.headers() : this.headers);
  }

  /** The headers of a POST: the user's, then the MCP ones (the 2026 metadata headers, or the session's). */
  private async headersFor(message: { method?: string; params?: Record<string, unknown> } | object): Promise<Headers> {
    const headers = await this.userHeaders();
    headers.set("content-type", "application/json");
    headers.set("accept", "application/json, text/event-stream");
    if (this.framing?.headers(headers)) return headers;
    if ("method" in message && typeof message.method === "string") {
      for (const [name, value] of Object.entries(standardHeaders(message as { method: string }))) headers.set(name, value);
    }
    return headers;
  }

  /** POSTs a notification or a response; the answer's body is dropped. */
  private async post(message: object): Promise<void> {
    if (this.closed) throw transportError("closed", "The HTTP transport is closed");
    const body = this.encode(message);
    const headers = await this.headersFor(message);
    const mark = this.framing?.mark();
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
    this.framing?.check(response, mark, "a notification");
    if (!response.ok)
      throw transportError("http_error", `HTTP ${response.status} from ${this.url.href} to a notification`, { status: response.status });
  }

  /** A GET or DELETE through the transport's fetch, for the session framing. */
  private async request(method: "GET" | "DELETE", headers: Headers, signal: AbortSignal): Promise<Response> {
    try {
      return await this.fetch(this.url, { method, headers, signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      if (isMcpClientError(error) || error instanceof MissingDependencyError) throw error;
      throw transportError("connection_failed", `${method} ${this.url.href} failed: ${describe(error)}`, { url: this.url.href }, error);
    }
  }

  /** From now on the server is spoken to over `sse`, framed as this transport was. */
  private adopt(sse: SseTransport): void {
    this.sse = sse;
    this.framing = undefined;
    if (this.framings) sse.frame(this.framings);
  }

  /** Closes the transport: in-flight requests are aborted and fail with reason `"closed"`. */
  async close(): Promise<void> {
    this.closed = true;
    await this.sse?.close();
    this.framing?.closed();
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
        this.framing?.notification(parsed);
      } else if (isRequest(parsed)) {
        // A session's server-to-client requests come on the request's stream; 2026-07-28 has none (MRTR replaces them).
        this.framing?.request(parsed);
      }
      return false;
    };
    const what = `The SSE stream of the ${message.method} request`;
    let body: ReadableStream<Uint8Array> = response.body;
    for (let attempts = 0; ; attempts++) {
      const broke = await readEvents(this.maxBytes, body, controller, what, cursor, onMessage);
      if (answer) return answer;
      // Only a session's streams can be resumed, and only after an event with an id (spec 2025-11-25: "Resumability and Redelivery").
      const framing = this.framing;
      if (!framing?.carries(message) || cursor.lastEventId === undefined || attempts >= this.maxResume) {
        if (broke) throw transportError("stream_broken", `${what} broke off before its response: ${describe(broke)}`, {}, broke);
        throw transportError("stream_broken", `${what} ended before its response arrived`);
      }
      await delay(resumeDelay(cursor, this.delays), controller.signal);
      const resumed = await framing.resume(cursor.lastEventId, controller);
      if (!resumed?.body) {
        throw transportError(
          "stream_broken",
          `${what} broke off and could not be resumed after event ${clip(cursor.lastEventId ?? "", 80)}`,
        );
      }
      body = resumed.body;
    }
  }
}
