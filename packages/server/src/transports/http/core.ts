/**
 * Streamable HTTP transport (spec 2026-07-28, basic/transports/streamable-http):
 * a fetch-style `(Request) => Promise<Response>` handler, a `node:http`
 * request listener, and `listen()` to start a `node:http` server.
 *
 * The transport owns framing, headers, status codes and cancellation. The
 * first failing check answers, in this order:
 *
 * 1. `Origin` present and not allowed, or `Host` not allowed: 403
 * 2. a method other than POST: 405 with `Allow: POST` (an `OPTIONS`
 *    preflight is answered with 204 when CORS is configured)
 * 3. an `Accept` header that admits neither JSON nor SSE: 406; the
 *    concurrent-request limit reached: 503 with `Retry-After`
 * 4. a body over the size limit: 413
 * 5. a body that is not UTF-8 JSON: 400, -32700; nested deeper than the limit: 400, -32600
 * 6. a JSON array, or not a request or notification: 400, -32600
 * 7. a notification: 202 with an empty body
 * 8. `_meta`, its protocol version or its client capabilities missing: 400, -32602
 * 9. `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` or `Mcp-Param-*` missing or unequal to the body: 400, -32020
 * 10. an unsupported protocol version: 400, -32022
 * 11. an unknown or removed method: 404, -32601
 *
 * Anything else is answered with the method's result or error. A response
 * is JSON unless the handler sends a notification before it returns: the
 * first one switches that response to an SSE stream (`X-Accel-Buffering: no`)
 * that carries the notifications and ends with the response. Closing the
 * stream (or the connection) aborts the handler's `signal`. An
 * `Mcp-Session-Id` header is ignored and never minted.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { stringifyJson } from "@x/jsonrpc";
import type { JSONRPCNotification, RequestId } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { internalErrorOutcome, type Outcome } from "../../dispatch.js";
import { SERVER_BUSY } from "../../errors.js";
import { answerNow, type McpServer } from "../../server.js";
import { publishRequestRejected, rejectionsObserved } from "../../telemetry.js";
import { Call } from "../call.js";
import { checkRequestHeaders } from "../headers.js";
import { readMessage } from "../messages.js";
import { ChunkQueue, SSE_KEEPALIVE, sseEvent } from "../sse.js";
import { statusOf } from "./status.js";

/** CORS for browser clients (off unless configured). */
export interface CorsOptions {
  /** Origins (`scheme://host[:port]`) allowed to call from a browser; they also pass the `Origin` check. */
  origins: readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

/** Options of the Streamable HTTP transport. */
export interface HttpTransportOptions {
  /**
   * Host names (without port) accepted in the `Host` header. Default: the
   * loopback names `localhost`, `127.0.0.1` and `[::1]`, the right rule for a
   * server bound to loopback. A server on any other address must list its names.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host[:port]`) accepted in the `Origin` header. A request
   * without `Origin` is always accepted. Default: any origin whose host name is
   * a loopback name.
   */
  allowedOrigins?: readonly string[];
  /**
   * Check `Origin` and `Host` (DNS-rebinding protection). Default true. Turning
   * it off is only allowed on a loopback address (see `listen`).
   */
  dnsRebindingProtection?: boolean;
  /** CORS for browser clients; off by default. */
  cors?: CorsOptions;
  /** Largest accepted body, in bytes. Default 4 MiB (4 194 304). */
  maxBodyBytes?: number;
  /** Deepest accepted JSON nesting (objects and arrays). Default 64. */
  maxJsonDepth?: number;
  /** Most requests handled at once (open listen streams included); past it: 503. Default 1024. */
  maxConcurrentRequests?: number;
  /**
   * Most text one SSE response may hold unsent (a client that reads slower
   * than the server notifies), in bytes. Past it the stream is closed and the
   * request aborted. Default 8 MiB.
   */
  maxBufferedBytes?: number;
  /** Interval of the keep-alive comment on open SSE streams, in milliseconds. Default 15 000; 0 turns it off. */
  keepAliveMs?: number;
  /**
   * Per-request data for handlers (`ctx.assigns`), computed from the HTTP
   * request, for example after verifying a bearer token. Called once per request.
   * A hook that throws gets the request answered with HTTP 500 and -32603
   * (the hook's error text is not sent); to refuse a request, throw from a
   * handler or override `McpServer.execute` instead.
   */
  assigns?: (headers: (name: string) => string | undefined) => Record<string, unknown> | undefined;
}

/** The response the transport core produces, independent of the HTTP library. */
export type HttpAnswer =
  | { status: number; headers: Record<string, string>; body: string }
  | { status: number; headers: Record<string, string>; stream: ChunkQueue };

/** What an adapter hands the core for one HTTP request. */
export interface HttpExchange {
  method: string;
  /** Reads a request header by lower-case name. */
  header(name: string): string | undefined;
  /** Reads the whole body, or resolves `undefined` as soon as it grows past `limit` bytes. */
  body(limit: number): Promise<Uint8Array | undefined>;
  /** Aborted by the adapter when the client goes away. */
  signal: AbortSignal;
}

/** The transport core: answers exchanges and tracks the ones in flight. */
export interface HttpCore {
  /** Answers one exchange. Never rejects. */
  answer(exchange: HttpExchange): Promise<HttpAnswer>;
  /** Requests in flight (listen streams included). */
  readonly active: number;
  /** Resolves once no request is in flight, or after `deadlineMs`, when the rest are aborted. */
  drain(deadlineMs: number): Promise<void>;
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];
const JSON_HEADERS = { "content-type": "application/json" };
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };
const MCP_HEADERS = "content-type, accept, authorization, mcp-protocol-version, mcp-method, mcp-name, mcp-param-*, last-event-id";

/** The Host header's host name, lower-case, without the port (`[::1]` keeps its brackets). */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    return end === -1 ? h : h.slice(0, end + 1);
  }
  const colon = h.indexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const host = new URL(origin).hostname.toLowerCase();
    return LOOPBACK_HOSTS.includes(host) || host === "::1";
  } catch {
    return false;
  }
}

function errorAnswer(
  status: number,
  code: number,
  message: string,
  id?: unknown,
  extra: Record<string, string> = {},
  method?: string,
): HttpAnswer {
  const response: Record<string, unknown> = { jsonrpc: "2.0", error: { code, message } };
  if (id !== undefined) response.id = id;
  // Refusals decided by the transport (403, 405, 413, parse errors, header mismatches...) are observable too.
  if (rejectionsObserved()) publishRequestRejected({ requestId: id as RequestId | undefined, method, code, message, status });
  return { status, headers: { ...JSON_HEADERS, ...extra }, body: stringifyJson(response) };
}

/** Which of JSON and SSE an `Accept` header admits (both when it is absent). */
export function acceptable(accept: string | undefined): { json: boolean; sse: boolean } {
  if (accept === undefined || accept.trim() === "") return { json: true, sse: true };
  let json = false;
  let sse = false;
  for (const part of accept.split(",")) {
    const range = part.split(";")[0]!.trim().toLowerCase();
    if (range === "*/*") json = sse = true;
    else if (range === "application/json" || range === "application/*") json = true;
    else if (range === "text/event-stream" || range === "text/*") sse = true;
  }
  return { json, sse };
}

/**
 * What the core needs from one HTTP exchange (internal): the public
 * {@link HttpExchange} minus its `AbortSignal`, plus a way to be told when
 * the client goes away. The `node:http` adapter implements it without an
 * `AbortController` of its own.
 */
interface CoreExchange {
  readonly method: string;
  /** Reads a request header by lower-case name; callable unbound. */
  readonly header: (name: string) => string | undefined;
  body(limit: number): Promise<Uint8Array | undefined>;
  /** From now on, the client going away aborts `call`. */
  watch(call: Call): void;
  /** Stops what {@link CoreExchange.watch} started. */
  unwatch(): void;
}

/** Adapts a public {@link HttpExchange} (with its `signal`) to the core. */
function coreExchange(exchange: HttpExchange): CoreExchange {
  let onAbort: (() => void) | undefined;
  return {
    method: exchange.method,
    header: exchange.header,
    body: (limit) => exchange.body(limit),
    watch(call) {
      onAbort = () => call.abort();
      exchange.signal.addEventListener("abort", onAbort, { once: true });
    },
    unwatch() {
      if (onAbort) exchange.signal.removeEventListener("abort", onAbort);
    },
  };
}

const NO_CORS: Readonly<Record<string, string>> = Object.freeze({});

/** The core and its internal entry point, which the `node:http` adapter calls directly. */
interface CoreParts {
  core: HttpCore;
  serve(exchange: CoreExchange): Promise<HttpAnswer>;
}

/**
 * The transport core: answers one HTTP exchange for `server`, whatever the
 * HTTP library. Never throws and never rejects; every failure is an answer.
 */
export function createHttpCore(server: McpServer, options: HttpTransportOptions = {}): HttpCore {
  return makeCore(server, options).core;
}

function makeCore(server: McpServer, options: HttpTransportOptions): CoreParts {
  const protect = options.dnsRebindingProtection !== false;
  const allowedHosts = (options.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase());
  const corsOrigins = options.cors?.origins ?? [];
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const maxDepth = options.maxJsonDepth ?? 64;
  const maxActive = options.maxConcurrentRequests ?? 1024;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const inFlight = new Set<Call>();
  const idleWaiters = new Set<() => void>();
  // Clients send the same Accept header again and again: remember the last one read.
  let lastAccept: string | undefined;
  let lastAccepts = acceptable(undefined);

  const originAllowed = (origin: string) =>
    corsOrigins.includes(origin) || (options.allowedOrigins ? options.allowedOrigins.includes(origin) : isLoopbackOrigin(origin));

  const corsHeaders = (origin: string | undefined): Readonly<Record<string, string>> =>
    origin !== undefined && corsOrigins.includes(origin)
      ? { "access-control-allow-origin": origin, vary: "Origin", "access-control-expose-headers": "content-type, mcp-protocol-version" }
      : NO_CORS;

  const jsonHeaders = (cors: Readonly<Record<string, string>>): Record<string, string> =>
    cors === NO_CORS ? { "content-type": "application/json" } : { ...JSON_HEADERS, ...cors };

  const finished = (call: Call) => {
    inFlight.delete(call);
    if (inFlight.size === 0) for (const wake of [...idleWaiters]) wake();
  };

  function serve(exchange: CoreExchange): Promise<HttpAnswer> {
    try {
      return checkAndRead(exchange);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function checkAndRead(exchange: CoreExchange): Promise<HttpAnswer> {
    const origin = exchange.header("origin");
    // 1. DNS-rebinding protection.
    if (protect) {
      if (origin !== undefined && !originAllowed(origin))
        return Promise.resolve(errorAnswer(403, ErrorCode.InvalidRequest, "Forbidden: Origin not allowed"));
      const host = exchange.header("host");
      if (host !== undefined && !allowedHosts.includes(hostName(host)))
        return Promise.resolve(errorAnswer(403, ErrorCode.InvalidRequest, "Forbidden: Host not allowed"));
    }
    const cors = corsHeaders(origin);
    // 2. POST only (and CORS preflight).
    if (exchange.method === "OPTIONS" && options.cors) {
      return Promise.resolve({
        status: 204,
        headers: {
          ...cors,
          "access-control-allow-methods": "POST, OPTIONS",
          "access-control-allow-headers": MCP_HEADERS,
          "access-control-max-age": String(options.cors.maxAgeSeconds ?? 600),
        },
        body: "",
      });
    }
    if (exchange.method !== "POST") {
      return Promise.resolve(
        errorAnswer(405, ErrorCode.InvalidRequest, "Method not allowed: use POST", undefined, { allow: "POST", ...cors }),
      );
    }
    // 3. Accept and load.
    const accept = exchange.header("accept");
    if (accept !== lastAccept) {
      lastAccepts = acceptable(accept);
      lastAccept = accept;
    }
    const accepts = lastAccepts;
    if (!accepts.json && !accepts.sse) {
      return Promise.resolve(
        errorAnswer(406, ErrorCode.InvalidRequest, "Not acceptable: accept application/json or text/event-stream", undefined, cors),
      );
    }
    if (inFlight.size >= maxActive) {
      return Promise.resolve(
        errorAnswer(503, SERVER_BUSY, `Server busy: ${maxActive} requests in flight`, undefined, { "retry-after": "1", ...cors }),
      );
    }
    // 4. Size limit.
    const declared = exchange.header("content-length");
    if (declared !== undefined && Number(declared) > maxBody) {
      return Promise.resolve(errorAnswer(413, ErrorCode.InvalidRequest, `Body larger than ${maxBody} bytes`, undefined, cors));
    }
    let reading: Promise<Uint8Array | undefined>;
    try {
      reading = exchange.body(maxBody);
    } catch {
      return Promise.resolve(errorAnswer(400, ErrorCode.ParseError, "Parse error: the request body could not be read", undefined, cors));
    }
    return reading.then(
      (bytes) => answerBody(exchange, cors, accepts, bytes),
      () => errorAnswer(400, ErrorCode.ParseError, "Parse error: the request body could not be read", undefined, cors),
    );
  }

  function answerBody(
    exchange: CoreExchange,
    cors: Readonly<Record<string, string>>,
    accepts: { json: boolean; sse: boolean },
    bytes: Uint8Array | undefined,
  ): HttpAnswer | Promise<HttpAnswer> {
    if (bytes === undefined) return errorAnswer(413, ErrorCode.InvalidRequest, `Body larger than ${maxBody} bytes`, undefined, cors);
    // 5, 6 and 8: UTF-8 JSON within the depth limit, one JSON-RPC message, its _meta.
    const inbound = readMessage(server, bytes, maxDepth, "body");
    if (inbound.kind === "error") {
      return { status: statusOf(inbound.outcome), headers: jsonHeaders(cors), body: stringifyJson(inbound.outcome.response) };
    }
    // 7. Notifications are accepted and not answered.
    if (inbound.kind === "notification") return { status: 202, headers: { ...cors }, body: "" };
    // 9. Header mirrors.
    const mismatch = checkRequestHeaders(
      exchange.header,
      inbound.method,
      inbound.params,
      inbound.envelope.protocolVersion,
      () => inbound.headerParams,
    );
    if (mismatch !== undefined) return errorAnswer(400, ErrorCode.HeaderMismatch, mismatch, inbound.id, cors, inbound.method);

    // 10, 11 and the method itself, streaming notifications when there are any.
    // Per-request data first: a hook that throws is answered before the request takes a slot.
    let assigns: Record<string, unknown> | undefined;
    if (options.assigns) {
      try {
        assigns = options.assigns(exchange.header);
      } catch {
        return errorAnswer(500, ErrorCode.InternalError, "Internal error: the assigns hook failed", inbound.id, cors, inbound.method);
      }
    }
    const call = new Call();
    if (assigns) call.assigns = assigns;
    inFlight.add(call);
    exchange.watch(call);

    // The answer is a value when the handler answered at once (most tools),
    // a promise otherwise; an SSE answer as soon as a first notification is sent.
    let resolveAnswer: ((a: HttpAnswer) => void) | undefined;
    let streamAnswer: HttpAnswer | undefined;
    let stream: ChunkQueue | undefined;
    let timer: ReturnType<typeof setInterval> | undefined;
    call.notify = (notification: JSONRPCNotification): boolean => {
      if (call.done || !accepts.sse || call.aborted) return false;
      if (!stream) {
        stream = new ChunkQueue(options.maxBufferedBytes);
        stream.onCancel = () => call.abort();
        stream.onOverflow = () => call.abort();
        if (keepAliveMs > 0) {
          timer = setInterval(() => stream?.push(SSE_KEEPALIVE), keepAliveMs);
          timer.unref?.();
        }
        streamAnswer = { status: 200, headers: { ...SSE_HEADERS, ...cors }, stream };
        resolveAnswer?.(streamAnswer);
      }
      return stream.push(sseEvent(notification));
    };
    /** Ends the call; the JSON answer, or undefined when the outcome went down the SSE stream. */
    const finish = (outcome: Outcome): HttpAnswer | undefined => {
      call.done = true;
      if (timer) clearInterval(timer);
      exchange.unwatch();
      finished(call);
      if (stream) {
        if (!call.aborted) stream.push(sseEvent(outcome.response));
        stream.end();
        return undefined;
      }
      return { status: statusOf(outcome), headers: jsonHeaders(cors), body: stringifyJson(outcome.response) };
    };
    const outcome = answerNow(server, inbound, call);
    if (!(outcome instanceof Promise)) return finish(outcome) ?? (streamAnswer as HttpAnswer);
    if (streamAnswer) {
      outcome.then(finish, () => finish(internalErrorOutcome(inbound.id)));
      return streamAnswer;
    }
    return new Promise<HttpAnswer>((resolve) => {
      resolveAnswer = resolve;
      const settle = (o: Outcome) => {
        const answer = finish(o);
        if (answer) resolve(answer);
      };
      outcome.then(settle, () => settle(internalErrorOutcome(inbound.id)));
    });
  }

  const core: HttpCore = {
    answer: (exchange) => serve(coreExchange(exchange)),
    get active() {
      return inFlight.size;
    },
    drain(deadlineMs) {
      if (inFlight.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(deadline);
          idleWaiters.delete(wake);
          resolve();
        };
        const deadline = setTimeout(() => {
          for (const c of inFlight) c.abort();
          wake();
        }, deadlineMs);
        idleWaiters.add(wake);
      });
    },
  };
  return { core, serve };
}

/**
 * A fetch-style handler for Streamable HTTP: give it a web `Request`, get
 * the `Response`. Mount it on any router that speaks `Request`/`Response`
 * (Node 20 `fetch` types, Deno, Bun, Hono, ...). Never rejects. The
 * `Request`'s `signal`, or cancelling the SSE body, aborts the handler.
 *
 * @example
 * const handle = createFetchHandler(server);
 * const response = await handle(new Request("http://localhost/mcp", { method: "POST", body, headers }));
 */
export function createFetchHandler(server: McpServer, options: HttpTransportOptions = {}): (request: Request) => Promise<Response> {
  const core = createHttpCore(server, options);
  return async (request) => {
    const answer = await core.answer({
      method: request.method,
      header: (name) => request.headers.get(name) ?? (name === "host" ? hostOfUrl(request.url) : undefined),
      body: async (limit) => {
        if (!request.body) return new Uint8Array(0);
        const chunks: Uint8Array[] = [];
        let size = 0;
        const reader = request.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          size += value.byteLength;
          if (size > limit) {
            await reader.cancel().catch(() => {});
            return undefined;
          }
          chunks.push(value);
        }
        return Buffer.concat(chunks);
      },
      signal: request.signal,
    });
    if ("stream" in answer) {
      const iterator = answer.stream[Symbol.asyncIterator]();
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          await iterator.return?.();
        },
      });
      return new Response(body, { status: answer.status, headers: answer.headers });
    }
    return new Response(answer.status === 202 || answer.status === 204 ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
  };
}

function hostOfUrl(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** Options of {@link createNodeHandler}: the transport's, plus the endpoint path. */
export interface NodeHandlerOptions extends HttpTransportOptions {
  /** Only this path is the MCP endpoint; others get 404. Default: every path. */
  path?: string;
}

/** A `node:http` request listener that also exposes its transport core and its responses in progress (for graceful shutdown). */
export type NodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  readonly core: HttpCore;
  /** Resolves once no response is being written, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void>;
};

/** One `node:http` exchange as the core sees it: no web objects, no `AbortController` of its own. */
class NodeExchange implements CoreExchange {
  readonly method: string;
  readonly header: (name: string) => string | undefined;
  readonly #req: IncomingMessage;
  /** The call the core is running for this exchange, aborted when the client goes away. */
  #call: Call | undefined = undefined;
  /** True once the response closed before it was finished (the client went away). */
  gone = false;
  /** Run once, when the client goes away during an SSE response. */
  onGone: (() => void) | undefined = undefined;

  constructor(req: IncomingMessage) {
    this.#req = req;
    this.method = req.method ?? "GET";
    this.header = (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    };
  }

  body(limit: number): Promise<Uint8Array | undefined> {
    return readNodeBody(this.#req, limit);
  }

  watch(call: Call): void {
    // As with an AbortSignal listener added late, a client already gone does not abort the call.
    if (!this.gone) this.#call = call;
  }

  unwatch(): void {
    this.#call = undefined;
  }

  /** The response closed before it was finished. */
  closed(): void {
    if (this.gone) return;
    this.gone = true;
    this.#call?.abort();
    this.onGone?.();
  }
}

async function writeStream(
  answer: Extract<HttpAnswer, { stream: ChunkQueue }>,
  res: ServerResponse,
  exchange: NodeExchange,
): Promise<void> {
  res.writeHead(answer.status, answer.headers);
  res.flushHeaders();
  const iterator = answer.stream[Symbol.asyncIterator]();
  if (!exchange.gone) exchange.onGone = () => iterator.return?.();
  for (;;) {
    const next = await iterator.next();
    if (next.done || res.destroyed) break;
    // Respect the socket's backpressure: wait for 'drain' (or the end of the response).
    if (!res.write(next.value) && !res.destroyed) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

/**
 * A `node:http` request listener for Streamable HTTP, working on Node's own
 * request and response objects (no web `Request`/`Response` per call).
 * Closing the connection before the answer, or closing an SSE response,
 * aborts the handler's `signal`.
 *
 * @example
 * http.createServer(createNodeHandler(server, { path: "/mcp" })).listen(3000, "127.0.0.1");
 */
export function createNodeHandler(server: McpServer, options: NodeHandlerOptions = {}): NodeHandler {
  const { core, serve } = makeCore(server, options);
  const path = options.path;
  const open = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    let exchange: NodeExchange | undefined;
    res.on("close", () => {
      open.delete(res);
      if (open.size === 0) for (const wake of [...waiters]) wake();
      if (exchange && !res.writableFinished) exchange.closed();
    });
    if (path !== undefined) {
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      if ((q === -1 ? url : url.slice(0, q)) !== path) {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
        return;
      }
    }
    const current = new NodeExchange(req);
    exchange = current;
    serve(current)
      .then((answer) => {
        if (res.destroyed) return;
        if ("stream" in answer) return writeStream(answer, res, current);
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      })
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
  };
  const settled = (timeoutMs: number) =>
    open.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, timeoutMs);
          waiters.add(wake);
        });
  return Object.assign(listener, { core, settled });
}

function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

/** Options of {@link listen}. */
export interface ListenOptions extends NodeHandlerOptions {
  /** TCP port; `0` picks a free one. Default 3000. */
  port?: number;
  /** Address to bind. Default `127.0.0.1`. A non-loopback address requires `allowedHosts` and DNS-rebinding protection on. */
  host?: string;
}

/** A running HTTP server and the URL of its MCP endpoint. */
export interface RunningHttpServer {
  /** The underlying `node:http` server. */
  server: Server;
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  /**
   * Graceful shutdown: stops accepting connections, ends every
   * `subscriptions/listen` stream with its final result, lets running
   * requests finish for up to `deadlineMs` (default 5 000 ms), aborts the
   * rest, and resolves once the server is closed.
   */
  close(deadlineMs?: number): Promise<void>;
}

const LOOPBACK_BINDS = ["127.0.0.1", "localhost", "::1", "[::1]"];

/**
 * Starts a `node:http` server for `mcp` on `host:port`, endpoint `path`
 * (default `/mcp`). Resolves once listening.
 *
 * @throws Error when `host` is not a loopback address and either no
 *   `allowedHosts` is given or DNS-rebinding protection is turned off, or
 *   when the port cannot be bound.
 */
export async function listen(mcp: McpServer, options: ListenOptions = {}): Promise<RunningHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const loopback = LOOPBACK_BINDS.includes(host);
  if (!loopback && options.dnsRebindingProtection === false) {
    throw new Error(`listen: DNS-rebinding protection may only be turned off on a loopback address, not ${host}`);
  }
  if (!loopback && !options.allowedHosts) {
    throw new Error(`listen: host ${host} is not loopback, so allowedHosts must list the host names clients use`);
  }
  const path = options.path ?? "/mcp";
  const handler = createNodeHandler(mcp, { ...options, path });
  // node:http is loaded here, not when the package is imported: stdio and
  // fetch-style servers never need it.
  const { createServer } = await import("node:http");
  const http = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 3000, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    server: http,
    url: `http://${shownHost}:${port}${path}`,
    close(deadlineMs = 5000) {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        mcp.close();
        const started = Date.now();
        await handler.core.drain(deadlineMs);
        // Let the answers of finished requests reach their clients before cutting connections.
        await handler.settled(Math.max(100, deadlineMs - (Date.now() - started)));
        http.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}
