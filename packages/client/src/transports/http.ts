/**
 * The Streamable HTTP client transport (spec 2026-07-28,
 * basic/transports/streamable-http): one POST per request to the MCP
 * endpoint, answered with a JSON body or an SSE stream of notifications
 * followed by the response.
 */
import { createHash } from "node:crypto";
import { MissingDependencyError, parseJson, stringifyJson } from "@x/jsonrpc";
import type { JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";
import { createParser } from "eventsource-parser";
import { clip, type McpClientError, transportError } from "../errors.js";
import { standardHeaders } from "../headers.js";
import { isNotification, isResponse, responseFor, utf8Length } from "./jsonrpc.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type SendOptions, type Transport } from "./transport.js";

/** Options of {@link StreamableHttpTransport}. */
export interface StreamableHttpOptions {
  /** The `fetch` to use (default: the global one). */
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
 * Messages are read with `parseJson` and written with `stringifyJson` of
 * `@x/jsonrpc`: an integer beyond ±(2^53 − 1) is a `bigint` with every digit.
 *
 * Failures reject with `McpClientError` -32000 and `data.reason`:
 * `"connection_failed"` (fetch itself failed), `"http_error"` (a status with
 * no JSON-RPC body, `data.status`), `"stream_broken"` (the SSE stream ended or
 * broke before the response), `"message_too_large"`, `"invalid_message"`
 * (a body or event that is not JSON-RPC). An HTTP error status whose body is a
 * JSON-RPC error (e.g. 400 with -32022) resolves with that error response.
 * A message that needs lossless-json when it is not installed rejects with
 * its MissingDependencyError.
 */
export class StreamableHttpTransport implements Transport {
  readonly kind = "http";
  readonly mirrorsHeaders = true;
  readonly url: URL;
  private readonly fetch: typeof fetch;
  private readonly headers: StreamableHttpOptions["headers"];
  private readonly maxBytes: number;
  private readonly fixedAuthContext: string | undefined;
  private closed = false;
  private readonly inflight = new Set<AbortController>();

  /**
   * @param url the MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`.
   * @throws TypeError when `url` is not an http(s) URL or `maxMessageBytes` is not a positive integer.
   */
  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new TypeError(`The MCP endpoint must be an http or https URL, got ${this.url.protocol}`);
    }
    const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new TypeError(`maxMessageBytes must be a positive integer, got ${max}`);
    this.fetch = options.fetch ?? globalThis.fetch;
    this.headers = options.headers;
    this.maxBytes = max;
    this.fixedAuthContext = options.authContext;
  }

  /**
   * The authorization context requests are sent in (see
   * {@link StreamableHttpOptions.authContext}): with a `headers` function,
   * it is called to see the `Authorization` header the next request will carry.
   */
  async authContext(): Promise<string | undefined> {
    if (this.fixedAuthContext !== undefined) return this.fixedAuthContext;
    const headers = new Headers(typeof this.headers === "function" ? await this.headers() : this.headers);
    return digest(headers.get("authorization"));
  }

  /** Sends one request as a POST and reads its JSON or SSE response. */
  async send(message: JSONRPCRequest, options: SendOptions): Promise<JSONRPCResponse> {
    if (this.closed) throw transportError("closed", "The HTTP transport is closed");
    const body = stringifyJson(message);
    const size = utf8Length(body);
    if (size > this.maxBytes) {
      throw transportError(
        "message_too_large",
        `The ${message.method} request is ${size} bytes, over the limit of ${this.maxBytes} bytes`,
        { bytes: size, limit: this.maxBytes },
      );
    }
    const headers = new Headers(typeof this.headers === "function" ? await this.headers() : this.headers);
    headers.set("content-type", "application/json");
    headers.set("accept", "application/json, text/event-stream");
    for (const [name, value] of Object.entries(standardHeaders(message))) headers.set(name, value);
    for (const [name, value] of Object.entries(options.headers)) headers.set(name, value);

    const controller = new AbortController();
    const abort = () => controller.abort(options.signal.reason);
    if (options.signal.aborted) abort();
    options.signal.addEventListener("abort", abort, { once: true });
    this.inflight.add(controller);
    try {
      let response: Response;
      try {
        response = await this.fetch(this.url, { method: "POST", headers, body, signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted) throw this.abortReason(controller, error);
        throw transportError("connection_failed", `POST ${this.url.href} failed: ${describe(error)}`, { url: this.url.href }, error);
      }
      const type = (response.headers.get("content-type") ?? "").toLowerCase();
      if (response.ok && type.includes("text/event-stream")) return await this.readStream(response, message, options, controller);
      return await this.readJson(response, message, type, controller);
    } finally {
      options.signal.removeEventListener("abort", abort);
      this.inflight.delete(controller);
    }
  }

  /** Closes the transport: in-flight requests are aborted and fail with reason `"closed"`. */
  async close(): Promise<void> {
    this.closed = true;
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
      parsed = parseJson(text);
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
    return new TextDecoder().decode(Buffer.concat(chunks));
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
    let failure: McpClientError | MissingDependencyError | undefined;
    const parser = createParser({
      maxBufferSize: this.maxBytes,
      onEvent: (event) => {
        if (answer || failure) return;
        if (event.event !== undefined && event.event !== "message") return;
        if (event.data.trim() === "") return;
        if (utf8Length(event.data) > this.maxBytes) {
          failure = transportError(
            "message_too_large",
            `An SSE event of the ${message.method} request is over the limit of ${this.maxBytes} bytes`,
            { limit: this.maxBytes },
          );
          return;
        }
        let parsed: unknown;
        try {
          parsed = parseJson(event.data);
        } catch (error) {
          failure =
            error instanceof MissingDependencyError
              ? error
              : transportError("invalid_message", `An SSE event of the ${message.method} request is not JSON: ${clip(event.data)}`);
          return;
        }
        if (isResponse(parsed)) {
          answer = responseFor(parsed, message.id);
        } else if (isNotification(parsed)) {
          try {
            options.onNotification(parsed);
          } catch {
            // A listener's fault is not the transport's.
          }
        }
        // A server-to-client request is not allowed on this stream (spec: MRTR replaces them); it is ignored.
      },
      onError: (error) => {
        if (error.type === "max-buffer-size-exceeded" && !failure) {
          failure = transportError(
            "message_too_large",
            `An SSE event of the ${message.method} request is over the limit of ${this.maxBytes} bytes`,
            { limit: this.maxBytes },
          );
        }
      },
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let ended = false;
    try {
      while (!answer && !failure) {
        const step = await this.readStep(
          reader,
          controller,
          `The SSE stream of the ${message.method} request broke off before its response`,
        );
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
    if (answer) return answer;
    if (failure) throw failure;
    throw transportError("stream_broken", `The SSE stream of the ${message.method} request ended before its response arrived`);
  }
}

function digest(authorization: string | null): string | undefined {
  return authorization === null ? undefined : createHash("sha256").update(authorization).digest("base64url");
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
