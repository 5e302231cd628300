/**
 * The HTTP+SSE client transport of 2024-11-05 (spec 2024-11-05,
 * basic/transports "HTTP with SSE"), which 2025-03-26 replaced with
 * Streamable HTTP and keeps only for backward compatibility (spec 2025-03-26,
 * basic/transports "Backwards Compatibility"): one long GET stream carries
 * every server message, and the client POSTs its messages to the URL the
 * stream's first event, `endpoint`, names.
 */
import { MissingDependencyError } from "@x/jsonrpc";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, RequestId } from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import { rejectUnknown } from "../auth/options.js";
import { OAuthSession } from "../auth/session.js";
import type { OAuthClientProvider } from "../auth/provider.js";
import { clip, isMcpClientError, type McpClientError, transportError } from "../errors.js";
import { importOnce } from "../lazy.js";
import { readMessage } from "../numbers.js";
import { baseFetch, describe, digest, hasUserinfo, httpUrl, POST_TIMEOUT_MS } from "./http-common.js";
import { encodeMessage, isNotification, isRequest, isResponse, responseFor, utf8Length } from "./jsonrpc.js";
import type { StdioFraming } from "./stdio-framing.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type SendOptions, type SessionFramings, type Transport } from "./transport.js";

/** The members of {@link SseOptions}: any other is refused, so that a misspelt one is not ignored. */
const SSE_OPTIONS = ["fetch", "headers", "maxMessageBytes", "authContext", "auth"];

/** Options of {@link SseTransport}. */
export interface SseOptions {
  /** The `fetch` to use. Default: on Node, `node:http`/`node:https` (as for Streamable HTTP); elsewhere the global `fetch`. */
  fetch?: typeof fetch;
  /** Headers added to the GET and to every POST, or a function that returns them per request. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** Largest message, in bytes, sent or received (one SSE event). Default 4 MiB. */
  maxMessageBytes?: number;
  /** The authorization context for the cache's private entries. Default: a SHA-256 digest of the `Authorization` header. */
  authContext?: string;
  /**
   * OAuth authorization, as for {@link StreamableHttpOptions.auth}: the access
   * token goes on the GET stream and on every POST; a `401` or
   * `403 insufficient_scope` runs the authorization and sends the request again.
   */
  auth?: OAuthClientProvider;
}

interface Pending {
  /** The stream the response is to come on: when it ends, the request fails. */
  stream: AbortController | undefined;
  resolve(response: JSONRPCResponse): void;
  reject(error: unknown): void;
  onNotification(notification: JSONRPCNotification): void;
}

interface Opening {
  promise: Promise<URL>;
  resolve(url: URL): void;
  reject(error: unknown): void;
}

/**
 * @deprecated The HTTP+SSE transport is the spec's deprecated transport
 * (2024-11-05, replaced by Streamable HTTP in 2025-03-26). Use it only for
 * servers that offer nothing else; `StreamableHttpTransport` falls back to it
 * on its own (see {@link StreamableHttpOptions.legacySseFallback}).
 *
 * The HTTP+SSE transport: the first request opens a GET to `url` with
 * `Accept: text/event-stream` and waits for the `endpoint` event (bounded by
 * that request's timeout); every client message is then POSTed to that
 * endpoint (2xx expected, usually 202), and responses, server-to-client
 * requests and notifications arrive on the stream. It speaks the
 * `initialize` era only. The endpoint must have the stream URL's origin
 * (scheme, host and port) and no user name or password: one elsewhere is
 * refused, so that a server cannot send the client's messages and its
 * credentials to another site; for the same reason a POST is not
 * redirected (a 3xx answer fails it with `"http_error"`).
 *
 * Each event is bounded by `maxMessageBytes`; an event over it ends the
 * stream. Cancelling a request POSTs `notifications/cancelled` (not for
 * `initialize`, which the spec forbids cancelling). Notifications reach the
 * session and every request in flight (the channel is shared).
 *
 * Failures reject with `McpClientError` -32000 and `data.reason`:
 * `"http_error"` (the GET or a POST got another status, `data.status`),
 * `"connection_failed"`, `"invalid_message"` (not an SSE stream, a first
 * event other than `endpoint`, an endpoint that is not a URL, is on
 * another origin or carries a user name or password),
 * `"message_too_large"`, `"stream_broken"` (the stream ended: every
 * waiting request fails), `"session_ended"` (a request after
 * the stream ended in a session, or a 404 to a POST in it: the client then
 * starts a new session), `"closed"`.
 */
export class SseTransport implements Transport {
  readonly kind = "sse";
  readonly mirrorsHeaders = false;
  readonly url: URL;
  private readonly fetch: typeof fetch;
  private readonly headers: SseOptions["headers"];
  private readonly maxBytes: number;
  private readonly fixedAuthContext: string | undefined;
  private readonly oauth: OAuthSession | undefined;
  private readonly pending = new Map<RequestId, Pending>();
  private endpoint: URL | undefined;
  private opening: Opening | undefined;
  private stream: AbortController | undefined;
  /** The session's framing: HTTP+SSE carries every message of a session on one stream, as stdio does, so the stdio framing fits it. */
  private framing: StdioFraming | undefined;
  /** True once an `initialize` was answered on the open stream: the server then ties a session to it. */
  private inSession = false;
  /** Why later messages of this session cannot be delivered: its stream ended. */
  private lost: McpClientError | undefined;
  private closed = false;

  /**
   * @param url the SSE URL, e.g. `http://127.0.0.1:3000/sse`.
   * @throws TypeError when `url` is not an http(s) URL or carries a user name
   *   or password, `maxMessageBytes` is not a positive integer, or `options`
   *   has a member {@link SseOptions} does not name.
   */
  constructor(url: string | URL, options: SseOptions = {}) {
    rejectUnknown("SseTransport", options, SSE_OPTIONS);
    this.url = httpUrl(url, "SSE URL");
    const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new TypeError(`maxMessageBytes must be a positive integer, got ${max}`);
    const base = baseFetch(options.fetch);
    this.oauth = options.auth ? new OAuthSession(this.url, options.auth, base) : undefined;
    this.fetch = this.oauth ? this.oauth.fetch : base;
    this.headers = options.headers;
    this.maxBytes = max;
    this.fixedAuthContext = options.authContext;
  }

  /** The endpoint the server named in its `endpoint` event while the stream is open, else `undefined`. */
  get messageEndpoint(): URL | undefined {
    return this.endpoint;
  }

  /** The authorization context requests are sent in (see {@link SseOptions.authContext}). */
  async authContext(): Promise<string | undefined> {
    if (this.fixedAuthContext !== undefined) return this.fixedAuthContext;
    const token = await this.oauth?.accessToken();
    if (token !== undefined) return digest(`Bearer ${token}`);
    return digest(new Headers(await this.userHeaders()).get("authorization"));
  }

  /** POSTs the request to the endpoint and waits for its response on the stream. */
  async send(message: JSONRPCRequest, options: SendOptions): Promise<JSONRPCResponse> {
    const initializing = message.method === "initialize";
    this.check(initializing);
    if (initializing) {
      this.lost = undefined;
      this.inSession = false;
    }
    const body = this.encode(message);
    if (options.signal.aborted) throw options.signal.reason;
    const endpoint = await this.open(options.signal);
    return new Promise<JSONRPCResponse>((resolve, reject) => {
      const settle = () => options.signal.removeEventListener("abort", onAbort);
      const onAbort = () => {
        if (!this.pending.delete(message.id)) return;
        settle();
        if (message.method !== "initialize") {
          const params = { requestId: message.id, reason: "The client cancelled the request" };
          this.write({ jsonrpc: "2.0", method: Method.NotificationsCancelled, params }).catch(() => {});
        }
        reject(options.signal.reason);
      };
      if (this.endpoint !== endpoint) {
        // The stream ended between the endpoint and this request.
        reject(
          this.lost ??
            transportError("stream_broken", `The SSE stream from ${this.url.href} ended before the ${message.method} request was sent`),
        );
        return;
      }
      options.signal.addEventListener("abort", onAbort, { once: true });
      const pending: Pending = {
        stream: this.stream,
        resolve: (response) => {
          settle();
          if (initializing && "result" in response) this.inSession = true;
          resolve(response);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
        onNotification: options.onNotification,
      };
      this.pending.set(message.id, pending);
      this.post(endpoint, body).catch((error) => {
        if (this.pending.get(message.id) !== pending) return;
        this.pending.delete(message.id);
        pending.reject(error);
      });
    });
  }

  /**
   * Installs a session framing (see {@link Transport.frame}): the stdio
   * one, since this transport, like stdio, carries the server's requests
   * and notifications on one channel (the stream) and writes the client's
   * messages one by one (POSTs to the endpoint).
   */
  frame(framings: SessionFramings): boolean {
    this.framing = framings.stdio?.({ write: (message) => this.write(message) });
    return this.framing !== undefined;
  }

  /** POSTs a notification or a response; resolves on a 2xx answer, waiting at most 30 s. @throws McpClientError -32000 as {@link send}. */
  private async write(message: object): Promise<void> {
    this.check(false);
    const body = this.encode(message);
    await this.post(await this.open(AbortSignal.timeout(POST_TIMEOUT_MS)), body);
  }

  /** Closes the stream; waiting requests fail with reason `"closed"`. */
  async close(): Promise<void> {
    this.closed = true;
    const error = transportError("closed", "The SSE transport was closed");
    this.drop(error);
    this.fail(error, undefined);
  }

  /** Lets go of the stream at once (its reader ends on its own), so that the next request opens a new one. */
  private drop(reason: McpClientError): void {
    this.stream?.abort(reason);
    this.stream = undefined;
    this.endpoint = undefined;
    this.opening = undefined;
  }

  private check(initializing: boolean): void {
    if (this.closed) throw transportError("closed", "The SSE transport is closed");
    if (this.lost && !initializing) throw this.lost;
  }

  private encode(message: object): string {
    return encodeMessage(message, this.maxBytes);
  }

  private async userHeaders(): Promise<Headers> {
    return new Headers(typeof this.headers === "function" ? await this.headers() : this.headers);
  }

  /** The endpoint, opening the stream first when none is open; waiting for it ends when `signal` aborts. */
  private async open(signal: AbortSignal): Promise<URL> {
    if (this.endpoint) return this.endpoint;
    if (!this.opening) {
      let resolve!: (url: URL) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<URL>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => {});
      const opening: Opening = { promise, resolve, reject };
      this.opening = opening;
      void this.connect(opening);
    }
    const opening = this.opening;
    if (signal.aborted) throw signal.reason;
    return new Promise<URL>((resolve, reject) => {
      const onAbort = () => {
        // No request waits for this stream any more: it is given up rather than left open.
        if (this.opening === opening) this.stream?.abort(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      opening.promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }

  /** Opens the GET stream and reads it until it ends; `opening` settles with the endpoint or the reason there is none. */
  private async connect(opening: Opening): Promise<void> {
    const controller = new AbortController();
    this.stream = controller;
    let ended: McpClientError | undefined;
    try {
      const headers = await this.userHeaders();
      headers.set("accept", "text/event-stream");
      let response: Response;
      try {
        response = await this.fetch(this.url, { method: "GET", headers, signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason ?? error;
        if (isMcpClientError(error) || error instanceof MissingDependencyError) throw error;
        throw transportError("connection_failed", `GET ${this.url.href} failed: ${describe(error)}`, { url: this.url.href }, error);
      }
      const type = (response.headers.get("content-type") ?? "").toLowerCase();
      if (!response.ok || !type.includes("text/event-stream") || !response.body) {
        await response.body?.cancel().catch(() => {});
        if (!response.ok) {
          throw transportError("http_error", `HTTP ${response.status} from GET ${this.url.href}`, { status: response.status });
        }
        throw transportError("invalid_message", `GET ${this.url.href} answered ${type || "no content-type"}, not an SSE stream`);
      }
      ended = await this.read(response.body, controller, opening);
    } catch (error) {
      ended = isMcpClientError(error)
        ? (error as McpClientError)
        : transportError("stream_broken", `The SSE stream from ${this.url.href} failed: ${describe(error)}`, {}, error);
    }
    opening.reject(ended);
    controller.abort(ended);
    if (this.stream !== controller) {
      // Dropped by close: what waited on it has its answer already or fails below.
      this.fail(ended, controller);
      return;
    }
    this.drop(ended);
    if (this.inSession && !this.closed) {
      this.inSession = false;
      this.lost = transportError(
        "session_ended",
        `The SSE stream from ${this.url.href} ended, and the session with it; a new initialize is needed`,
      );
    }
    this.fail(ended, controller);
  }

  /**
   * Reads the stream: the first event must be `endpoint`, then every
   * `message` event is one JSON-RPC message.
   * @returns why the stream ended, for the requests still waiting.
   */
  private async read(body: ReadableStream<Uint8Array>, controller: AbortController, opening: Opening): Promise<McpClientError> {
    const { createParser } = await eventSourceParser.get();
    let failure: McpClientError | undefined;
    let endpoint: URL | undefined;
    const parser = createParser({
      maxBufferSize: this.maxBytes,
      onEvent: (event) => {
        if (failure) return;
        if (!endpoint) {
          const taken = this.takeEndpoint(event.event, event.data);
          if (taken instanceof URL) {
            endpoint = taken;
            if (this.stream === controller) this.endpoint = taken;
            opening.resolve(taken);
          } else failure = taken;
          return;
        }
        if (event.event !== undefined && event.event !== "message") return;
        if (utf8Length(event.data) > this.maxBytes) {
          failure = transportError("message_too_large", `An SSE event is over the limit of ${this.maxBytes} bytes`, {
            limit: this.maxBytes,
          });
          return;
        }
        let message: unknown;
        try {
          message = readMessage(event.data);
        } catch {
          // Not JSON: it names no request, so none can be failed for it.
          return;
        }
        this.dispatch(message);
      },
      onError: (error) => {
        if (error.type === "max-buffer-size-exceeded") {
          failure ??= transportError("message_too_large", `An SSE event is over the limit of ${this.maxBytes} bytes`, {
            limit: this.maxBytes,
          });
        }
      },
    });
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let reason = "ended";
    try {
      while (!failure) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (error) {
          if (controller.signal.aborted && isMcpClientError(controller.signal.reason)) return controller.signal.reason as McpClientError;
          reason = `broke off (${describe(error)})`;
          break;
        }
        if (step.done) break;
        try {
          parser.feed(decoder.decode(step.value, { stream: true }));
        } catch {
          // The parser throws once over its buffer bound; onError recorded it.
        }
      }
    } finally {
      await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    if (failure) return failure;
    const where = endpoint ? "before the response arrived" : "before its endpoint event";
    return transportError("stream_broken", `The SSE stream from ${this.url.href} ${reason} ${where}`);
  }

  /** Reads the `endpoint` event: a URL (relative to the stream's) on the stream's origin. @returns it, or the refusal. */
  private takeEndpoint(type: string | undefined, data: string): URL | McpClientError {
    if (type !== "endpoint") {
      return transportError(
        "invalid_message",
        `The first event of the SSE stream from ${this.url.href} is ${type ?? "message"}, not endpoint`,
      );
    }
    const text = data.trim();
    const endpoint = URL.canParse(text, this.url) ? new URL(text, this.url) : undefined;
    if (!endpoint || endpoint.origin !== this.url.origin || hasUserinfo(endpoint)) {
      return transportError(
        "invalid_message",
        `The server named an endpoint ${clip(JSON.stringify(text), 200)} outside ${this.url.origin} or with a user name or password; messages are only sent to the SSE URL's origin`,
        { endpoint: clip(text, 200) },
      );
    }
    return endpoint;
  }

  private dispatch(message: unknown): void {
    if (isResponse(message)) {
      const id = message.id;
      const waiting = id === undefined || id === null ? undefined : this.pending.get(id);
      const answer = waiting ? responseFor(message, id as RequestId) : undefined;
      if (waiting && answer) {
        this.pending.delete(id as RequestId);
        waiting.resolve(answer);
      }
      return;
    }
    if (isRequest(message)) {
      // Outside a session the request goes unanswered: the server times it out.
      this.framing?.request(message);
      return;
    }
    if (isNotification(message)) {
      const framing = this.framing;
      for (const listener of [
        framing && ((n: typeof message) => framing.notification(n)),
        ...[...this.pending.values()].map((p) => p.onNotification),
      ]) {
        try {
          listener?.(message);
        } catch {
          // A listener's fault is not the transport's.
        }
      }
    }
  }

  /** POSTs one message to the endpoint; the answer's body is dropped. */
  private async post(endpoint: URL, body: string): Promise<void> {
    const headers = await this.userHeaders();
    headers.set("content-type", "application/json");
    const signal = AbortSignal.timeout(POST_TIMEOUT_MS);
    let response: Response;
    try {
      // Not followed: a redirect would carry the message to wherever the server points, past the origin check on the endpoint.
      response = await this.fetch(endpoint, { method: "POST", headers, body, signal, redirect: "manual" });
    } catch (error) {
      if (isMcpClientError(error) || error instanceof MissingDependencyError) throw error;
      throw transportError("connection_failed", `POST ${endpoint.href} failed: ${describe(error)}`, { url: endpoint.href }, error);
    }
    await response.body?.cancel().catch(() => {});
    if (response.ok) return;
    if (response.status === 404 && this.inSession) {
      const message = `The server ended the session (HTTP 404 from POST ${endpoint.href}); a new initialize is needed`;
      throw transportError("session_ended", message, { status: 404 });
    }
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      throw transportError(
        "http_error",
        `HTTP ${response.status} from POST ${endpoint.href}: the endpoint redirects, and messages are only sent to the endpoint the stream named`,
        { status: response.status },
      );
    }
    throw transportError("http_error", `HTTP ${response.status} from POST ${endpoint.href}`, { status: response.status });
  }

  /** Fails the requests waiting on `stream` (every one when `undefined`). */
  private fail(error: McpClientError, stream: AbortController | undefined): void {
    for (const [id, p] of [...this.pending]) {
      if (stream !== undefined && p.stream !== stream) continue;
      this.pending.delete(id);
      p.reject(error);
    }
  }
}

// Imported on first use, as in the Streamable HTTP transport.
const eventSourceParser = importOnce(() => import("eventsource-parser"), "eventsource-parser");
