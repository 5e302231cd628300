/**
 * An in-process transport for tests and embedding: each request goes to a
 * plain function that returns the response. Messages cross it as JSON text,
 * as on a wire, so neither side shares objects with the other.
 */
import { errorResponse, JsonRpcErrorCode, parseJson, stringifyJson } from "@x/jsonrpc";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";
import { transportError } from "../errors.js";
import { standardHeaders } from "@x/mcp-v2607/wire";
import { readMessage } from "../numbers.js";
import { isNotification, isResponse, responseFor, utf8Length } from "./jsonrpc.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type SendOptions, type Transport } from "./transport.js";

/** What the handler of an {@link InMemoryTransport} receives besides the message. */
export interface InMemoryExchange {
  /**
   * The HTTP headers the Streamable HTTP transport would send with this
   * message (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`,
   * `Mcp-Param-*`), keyed by lower-case name.
   */
  headers: Record<string, string>;
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** Delivers a notification for this request before the response (like an SSE event). */
  notify(notification: JSONRPCNotification): void;
}

/**
 * The server side of an {@link InMemoryTransport}: takes one request and
 * returns its response (sync or async). Returning `undefined` means no
 * response, which fails the request with reason `"stream_broken"`; a throw
 * becomes a -32603 error response.
 */
export type InMemoryHandler = (
  message: JSONRPCRequest,
  exchange: InMemoryExchange,
) => Promise<JSONRPCResponse | undefined> | JSONRPCResponse | undefined;

/** Options of {@link InMemoryTransport}. */
export interface InMemoryOptions {
  /** Largest message in bytes either way. Default 4 MiB. */
  maxMessageBytes?: number;
  /** The authorization context reported to the cache (see `Transport.authContext`). */
  authContext?: string | (() => string | undefined);
  /**
   * Whether tool definitions with invalid `x-mcp-header` annotations are
   * dropped, as over HTTP. Default true, so tests see HTTP behaviour.
   */
  mirrorsHeaders?: boolean;
}

/**
 * A transport that calls a function. Use it to test the client against a
 * hand-written responder, or to embed a server in the same process:
 *
 * @example
 * const transport = new InMemoryTransport(async (request) => ({
 *   jsonrpc: "2.0", id: request.id, result: { resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" },
 * }));
 */
export class InMemoryTransport implements Transport {
  readonly kind = "memory";
  readonly mirrorsHeaders: boolean;
  private readonly handler: InMemoryHandler;
  private readonly maxBytes: number;
  private readonly auth: InMemoryOptions["authContext"];
  private closed = false;

  /** @throws TypeError when `handler` is not a function or `maxMessageBytes` is not a positive integer. */
  constructor(handler: InMemoryHandler, options: InMemoryOptions = {}) {
    if (typeof handler !== "function") throw new TypeError("InMemoryTransport needs a handler function");
    const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new TypeError(`maxMessageBytes must be a positive integer, got ${max}`);
    this.handler = handler;
    this.maxBytes = max;
    this.auth = options.authContext;
    this.mirrorsHeaders = options.mirrorsHeaders ?? true;
  }

  /** The configured authorization context. */
  authContext(): string | undefined {
    return typeof this.auth === "function" ? this.auth() : this.auth;
  }

  /**
   * Passes the request to the handler as a copy made through JSON
   * (`stringifyJson`, `parseJson`: bigints kept, as a server reads them), and
   * its response and notifications back as the other transports read them
   * (`readMessage`, README "Numbers").
   */
  async send(message: JSONRPCRequest, options: SendOptions): Promise<JSONRPCResponse> {
    if (this.closed) throw transportError("closed", "The in-memory transport is closed");
    const out = stringifyJson(message);
    const outBytes = utf8Length(out);
    if (outBytes > this.maxBytes) {
      throw transportError(
        "message_too_large",
        `The ${message.method} request is ${outBytes} bytes, over the limit of ${this.maxBytes} bytes`,
        { bytes: outBytes, limit: this.maxBytes },
      );
    }
    if (options.signal.aborted) throw options.signal.reason;
    const exchange: InMemoryExchange = {
      headers: lowerCaseHeaders({ ...standardHeaders(message), ...options.headers }),
      signal: options.signal,
      notify: (notification) => {
        if (options.signal.aborted) return;
        const copy: unknown = readMessage(stringifyJson(notification));
        if (isNotification(copy)) options.onNotification(copy);
      },
    };
    const aborted = new Promise<never>((_, reject) => {
      options.signal.addEventListener("abort", () => reject(options.signal.reason), { once: true });
    });
    aborted.catch(() => {});
    let response: JSONRPCResponse | undefined;
    try {
      response = await Promise.race([Promise.resolve().then(() => this.handler(parseJson(out) as JSONRPCRequest, exchange)), aborted]);
    } catch (error) {
      if (options.signal.aborted) throw options.signal.reason;
      // @x/jsonrpc's unchecked builder: the id is this client's own, and @x/builders would be one more module at import.
      response = errorResponse(
        message.id,
        JsonRpcErrorCode.InternalError,
        error instanceof Error ? error.message : String(error),
      ) as JSONRPCResponse;
    }
    if (response === undefined) {
      throw transportError("stream_broken", `The in-memory handler gave no response to the ${message.method} request`);
    }
    const text = stringifyJson(response);
    const inBytes = utf8Length(text);
    if (inBytes > this.maxBytes) {
      throw transportError(
        "message_too_large",
        `The response to the ${message.method} request is ${inBytes} bytes, over the limit of ${this.maxBytes} bytes`,
        { bytes: inBytes, limit: this.maxBytes },
      );
    }
    const parsed: unknown = readMessage(text);
    const answer = isResponse(parsed) ? responseFor(parsed, message.id) : undefined;
    if (!answer)
      throw transportError(
        "invalid_message",
        `The in-memory handler's answer to request ${stringifyJson(message.id)} is not a JSON-RPC response to it`,
      );
    return answer;
  }

  /** Marks the transport closed; later requests fail with reason `"closed"`. */
  async close(): Promise<void> {
    this.closed = true;
  }
}

function lowerCaseHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
