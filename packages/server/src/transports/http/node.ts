/**
 * The `node:http` adapter of the Streamable HTTP core: Node's own request
 * and response objects, no web `Request`/`Response` per call.
 */
import type * as AsyncHooks from "node:async_hooks";
import type { AsyncResource } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { stringifyJson } from "@x/jsonrpc";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { atTurnEnd, nodeBuiltin } from "../../builtins.js";
import type { McpServer } from "../../server.js";
import type { ClientWatcher } from "../call.js";
import type { ChunkQueue } from "../sse.js";
import { lingerAnswer, lingers, stalled } from "./linger.js";
import { pathOf } from "./header-rules.js";
import { errorAnswer } from "./answers.js";
import { Core, type HttpCore } from "./core.js";
import { BodyTimeout, BodyUnavailable, Exchange, type HttpAnswer } from "./exchange.js";
import type { HttpTransportOptions } from "./options.js";

/** Options of {@link createNodeHandler}: the transport's, plus the endpoint path. */
export interface NodeHandlerOptions extends HttpTransportOptions {
  /**
   * Only this path is the MCP endpoint; others get 404 with a JSON-RPC error
   * (-32600). It is matched against the whole request path: behind a router
   * that strips its mount prefix from `req.url` (Express's `app.use("/mcp", h)`),
   * against `req.originalUrl`, so the path given to the router and to the
   * handler is the same. When a router's prefix or a trailing slash is the
   * difference, the 404's message says what `path` must be. Default: every
   * path (the router alone chooses).
   */
  path?: string;
}

/**
 * A `node:http` request listener that also exposes its transport core and its
 * responses in progress (for graceful shutdown). It is also an Express/Connect
 * middleware (`app.use("/mcp", handler)` or `app.post("/mcp", handler)`): it
 * answers every request it is given and never calls `next`.
 */
export type NodeHandler = ((req: IncomingMessage, res: ServerResponse, next?: unknown) => void) & {
  readonly core: HttpCore;
  /** Resolves once no response is being written, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void>;
};

/**
 * Complete answers are written at the end of the event loop's turn, all
 * together, not each as soon as it is ready. A write to a loopback or LAN
 * peer that sleeps waiting for it wakes the peer, and the wake-up is paid in
 * the writer's system call: answering each request of a burst at once woke
 * the client once per answer. Written together, the first write wakes it and
 * the others find it awake (bench/README.md, "Answers written together":
 * server CPU per request under 32 connections 41.8 -> 27.8 µs). An answer
 * waits at most for the rest of the turn's I/O callbacks: the requests that
 * arrived with it.
 */
let dueResponses: ServerResponse[] = [];
let dueAnswers: Extract<HttpAnswer, { body: string }>[] = [];
// Each answer is written in the async context of its own request (an
// AsyncLocalStorage store, a trace's active span), not in that of the
// request that happened to queue first: 'finish' and 'close' listeners and
// loggers read it.
let dueScopes: AsyncResource[] = [];
let Scope: typeof AsyncResource | undefined;

function endAtTurnEnd(res: ServerResponse, answer: Extract<HttpAnswer, { body: string }>): void {
  Scope ??= nodeBuiltin<typeof AsyncHooks>("node:async_hooks").AsyncResource;
  if (dueResponses.length === 0) (atTurnEnd ?? setImmediate)(writeDue);
  dueResponses.push(res);
  dueAnswers.push(answer);
  dueScopes.push(new Scope("x-mcp.answer"));
}

function writeDue(): void {
  const responses = dueResponses;
  const answers = dueAnswers;
  const scopes = dueScopes;
  // Taken first: an answer queued while these are written goes in a turn of its own.
  dueResponses = [];
  dueAnswers = [];
  dueScopes = [];
  for (let i = 0; i < responses.length; i++) {
    const res = responses[i]!;
    if (!res.destroyed) scopes[i]!.runInAsyncScope(writeAnswer, null, res, answers[i]!);
  }
}

function writeAnswer(res: ServerResponse, answer: Extract<HttpAnswer, { body: string }>): void {
  try {
    const req = res.req as IncomingMessage | undefined;
    // Answered before the body was all read (413, 415, 503, ...): the rest of it is read first.
    if (req !== undefined && lingers(req)) lingerAnswer(req, res, answer);
    else {
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    }
  } catch {
    answerFailure(res);
  }
}

/** A fault of the handler itself on `res`: 500 with -32603 while nothing was sent, else the connection is cut. */
function answerFailure(res: ServerResponse): void {
  try {
    if (res.headersSent) res.destroy();
    else {
      const answer = errorAnswer(500, ErrorCode.InternalError, "Internal error");
      res.writeHead(answer.status, answer.headers).end(answer.body);
    }
  } catch {
    res.destroy();
  }
}

/** One `node:http` exchange as the core sees it: no web objects, no `AbortController` of its own. */
class NodeExchange extends Exchange {
  readonly method: string;
  readonly url: string | undefined;
  readonly header: (name: string) => string | undefined;
  readonly #req: IncomingMessage;
  /** Told when the client goes away before the answer: the call the core is running for this exchange. */
  #watcher: ClientWatcher | undefined = undefined;
  /** True once the response closed before it was finished (the client went away). */
  gone = false;
  /** True once the body read passed `bodyTimeoutMs`: the rest may still come, so the connection must close. */
  bodyTimedOut = false;
  /** Run once, when the client goes away during an SSE response. */
  onGone: (() => void) | undefined = undefined;

  constructor(
    req: IncomingMessage,
    /** The handler's body deadlines; `undefined` when `bodyTimeoutMs` is off. */
    readonly deadlines: BodyDeadlines | undefined,
  ) {
    super();
    this.#req = req;
    this.method = req.method ?? "GET";
    this.url = fullUrl(req);
    this.header = (name) => {
      // Node keeps only the first of several Host (or Authorization) lines; the ladder must see them all.
      if (name === "host" || name === "authorization") return headerLines(req.rawHeaders, name);
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    };
  }

  body(core: Core): Promise<Uint8Array | undefined> {
    const req = this.#req;
    if (!alreadyRead(req)) return readNodeBody(req, core, this);
    // A body parser in front (express.json(), ...) read the stream: waiting for 'data' would wait forever.
    let bytes: Uint8Array | undefined;
    try {
      bytes = bodyLeft(req as IncomingMessage & FrameworkFields);
    } catch {
      bytes = undefined;
    }
    if (bytes === undefined) return Promise.reject(new BodyUnavailable(CONSUMED));
    return Promise.resolve(core.admit(this, bytes.byteLength) ? bytes : undefined);
  }

  watch(watcher: ClientWatcher): void {
    // A client gone already (while its body was read or its token checked) is told at once.
    if (this.gone) watcher.clientGone();
    else this.#watcher = watcher;
  }

  unwatch(): void {
    this.#watcher = undefined;
  }

  /** The response closed before it was finished. */
  closed(): void {
    if (this.gone) return;
    this.gone = true;
    this.#watcher?.clientGone();
    this.onGone?.();
  }
}

/**
 * Writes an SSE answer's chunks to `res` as they come, respecting the
 * socket's backpressure, and ends `res` after the last. Driven by the
 * queue's wake-up callback, not an async iterator: an idle stream (an open
 * `subscriptions/listen`) then holds no generator, promise or async frame.
 */
function writeStream(answer: Extract<HttpAnswer, { stream: ChunkQueue }>, res: ServerResponse, exchange: NodeExchange): void {
  const queue = answer.stream;
  if (queue.ended) {
    // The whole stream is known (a request answered at once on an SSE response, as the
    // initialize era's tools/call is): one body with its length, no chunked encoding.
    let text = "";
    for (let chunk = queue.take(); chunk !== undefined; chunk = queue.take()) text += chunk;
    endAtTurnEnd(res, {
      status: answer.status,
      headers: { ...answer.headers, "content-length": String(Buffer.byteLength(text)) },
      body: text,
    });
    return;
  }
  res.writeHead(answer.status, answer.headers);
  // The client went away: drop what is unread and end the queue now (its reader wakes and stops).
  if (!exchange.gone) exchange.onGone = () => queue.abandon();
  // Past maxBufferedBytes the client is not keeping up: the writer may be parked on a 'drain'
  // that never comes, so the connection is cut (the client sees an error, not a clean end).
  const overflowed = queue.onOverflow;
  queue.onOverflow = () => {
    overflowed?.();
    res.destroy();
  };
  // The head leaves with the first chunk, or on its own when the stream has nothing to say yet
  // (an idle listen stream: the client must see the 200 at once).
  let flushed = false;
  const pump = () => {
    // What is ready leaves in one write: the head, a priming event, the answer and the end of a
    // stream answered at once were four system calls (and four wake-ups of the client) before.
    res.cork();
    try {
      for (;;) {
        if (res.destroyed) return;
        const chunk = queue.take();
        if (chunk === undefined) {
          if (queue.ended) res.end();
          else {
            if (!flushed) res.flushHeaders();
            queue.onceReady(later);
          }
          flushed = true;
          return;
        }
        flushed = true;
        // Respect the socket's backpressure: wait for 'drain' (or the end of the response).
        if (!res.write(chunk) && !res.destroyed) {
          const done = () => {
            res.off("drain", done);
            res.off("close", done);
            pump();
          };
          res.on("drain", done);
          res.on("close", done);
          return;
        }
      }
    } catch {
      res.destroy();
    } finally {
      // end() uncorks by itself.
      if (!res.writableEnded && !res.destroyed) res.uncork();
    }
  };
  // Chunks are written in a microtask after their push, never inside the pusher's call.
  const later = () => queueMicrotask(pump);
  pump();
}

/**
 * A `node:http` request listener for Streamable HTTP, working on Node's own
 * request and response objects (no web `Request`/`Response` per call).
 * Closing the connection before the answer, or closing an SSE response,
 * aborts the handler's `signal`.
 *
 * Behind a body parser that already read the request stream (Express's
 * `express.json()`), the body is taken from `req.rawBody` (bytes or text)
 * or `req.body` (bytes, text, or a parsed object or array, written back as
 * JSON text) and gets every check a body read here gets; when neither holds
 * it, the answer is 400 with -32700 at once, never a wait. A body read here
 * that has not all arrived within `bodyTimeoutMs` (30 s by default) is
 * answered 408 with -32600 and `Connection: close`, whatever the timeouts of
 * the server or framework in front (a `node:http` server's own bound the
 * whole request: see `configureNodeServer`).
 *
 * A complete answer is written at the end of the event loop's turn, with the
 * other answers of that turn (one burst of writes for a burst of requests:
 * a sleeping client is woken once, not once per answer); SSE events are
 * written as they come.
 *
 * @example
 * http.createServer(createNodeHandler(server, { path: "/mcp" })).listen(3000, "127.0.0.1");
 */
export function createNodeHandler(server: McpServer, options: NodeHandlerOptions = {}): NodeHandler {
  const core = new Core(server, options);
  const path = options.path;
  const deadlines = core.bodyTimeoutMs > 0 ? new BodyDeadlines(core.bodyTimeoutMs) : undefined;
  // Responses not yet closed: a count, not a Set of them. A Set that grows to
  // the connections' count and empties again with every burst of requests
  // kept each response (and all it refers to) alive long enough for V8 to
  // promote it to the old generation: about 2 KB per request, half the CPU
  // time of the handler going to garbage collection (bench/micro/http-path.mjs).
  let open = 0;
  const waiters = new Set<() => void>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    open++;
    let exchange: NodeExchange | undefined;
    res.on("close", () => {
      open--;
      if (open === 0 && waiters.size > 0) for (const wake of [...waiters]) wake();
      if (exchange && !res.writableFinished) exchange.closed();
    });
    if (path !== undefined) {
      const target = pathOf(fullUrl(req) ?? "/");
      // With `auth`, the protected resource metadata lives beside the endpoint, at its well-known paths.
      if (target !== path && !core.auth?.metadataPaths.includes(target)) {
        writeAnswer(res, errorAnswer(404, ErrorCode.InvalidRequest, notFound(req, target, path)));
        return;
      }
    }
    const current = new NodeExchange(req, deadlines);
    exchange = current;
    const failed = () => answerFailure(res);
    // One `then` with both callbacks (not then + catch): a promise and a job fewer per request.
    core.serve(current).then((answer) => {
      if (res.destroyed) {
        // Gone before its stream could be written: nobody reads it, and what waits on it must hear so.
        if ("stream" in answer) answer.stream.abandon();
        return;
      }
      try {
        if ("stream" in answer) return writeStream(answer, res, current);
        // HTTP/2 has no Connection header (and closes nothing per request).
        if (current.bodyTimedOut && req.httpVersionMajor === 1) res.setHeader("connection", "close");
        endAtTurnEnd(res, answer);
      } catch {
        failed();
      }
    }, failed);
  };
  const settled = (timeoutMs: number) =>
    open === 0
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

/** Every line of header `lower` (a lower-case name) of the request, joined by ", " (one line: itself; none: `undefined`). */
function headerLines(raw: string[], lower: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lower.length && name.toLowerCase() === lower) value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}

/**
 * Reads `req`'s body, each chunk counted by `core.admit`; settles exactly
 * once: the bytes, `undefined` when refused (the rest is discarded as it
 * comes), or a rejection when the request errs or closes before its end, or
 * ({@link BodyTimeout}) when it has not ended within `core.bodyTimeoutMs`.
 */
function readNodeBody(req: IncomingMessage, core: Core, ex: NodeExchange): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const deadlines = ex.deadlines;
    const settle = () => {
      settled = true;
      if (read.due !== 0) deadlines?.remove(read);
    };
    const onData = (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (!core.admit(ex, size)) {
        settle();
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (settled) return;
      settle();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      // Nothing more comes: let go of these closures and of the chunks they hold, which
      // a request answered by a long stream (subscriptions/listen) would keep as long as it.
      chunks.length = 0;
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
    };
    const fail = (error?: Error) => {
      if (settled) return;
      settle();
      chunks.length = 0;
      reject(error ?? new Error("the connection closed before the body ended"));
    };
    // A connection cut (a timeout, the client gone, an error) closes the request. No 'error'
    // listener: Node emits a request's 'error' only to listeners, and 'close' follows it.
    const onClose = () => fail();
    // Whatever the server's own timeouts (a framework's may have none), a stalled body is let go.
    const read: BodyRead = {
      due: 0,
      prev: undefined,
      next: undefined,
      expire: () => {
        ex.bodyTimedOut = true;
        stalled(req);
        fail(new BodyTimeout(core.bodyTimeoutMs));
      },
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
    if (deadlines !== undefined && !settled) deadlines.add(read);
  });
}

/** A body being read, on the {@link BodyDeadlines} list until it ends or is late. */
interface BodyRead {
  /** The sweep at which it is late; 0 when not on the list. */
  due: number;
  prev: BodyRead | undefined;
  next: BodyRead | undefined;
  /** Called once, when it is late. */
  expire(): void;
}

/**
 * The bodies a handler is reading, each with its deadline (`bodyTimeoutMs`),
 * swept by one unref'd interval that runs only while some body is being
 * read: no timer set and cleared per request (that was about 0.3 µs of the
 * handler's 9 per request, `bench/micro/http-path.mjs`). A late body is let
 * go between `bodyTimeoutMs` and `bodyTimeoutMs` plus two sweeps (a sweep is
 * a quarter of it, at most 1 s). The list runs through the reads themselves,
 * so adding and removing one allocates nothing.
 */
class BodyDeadlines {
  readonly #every: number;
  /** Sweeps from a read's start to its deadline, the partial first one not counted. */
  readonly #span: number;
  #sweeps = 0;
  #head: BodyRead | undefined = undefined;
  #timer: ReturnType<typeof setInterval> | undefined = undefined;

  constructor(ms: number) {
    this.#every = Math.max(1, Math.min(1000, Math.ceil(ms / 4)));
    this.#span = Math.ceil(ms / this.#every) + 1;
  }

  add(read: BodyRead): void {
    read.due = this.#sweeps + this.#span;
    read.prev = undefined;
    read.next = this.#head;
    if (this.#head) this.#head.prev = read;
    this.#head = read;
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.#every);
      this.#timer.unref?.();
    }
  }

  remove(read: BodyRead): void {
    if (read.prev) read.prev.next = read.next;
    else if (this.#head === read) this.#head = read.next;
    if (read.next) read.next.prev = read.prev;
    read.prev = read.next = undefined;
    read.due = 0;
  }

  #sweep(): void {
    const now = ++this.#sweeps;
    for (let read = this.#head; read !== undefined; ) {
      const next = read.next;
      if (read.due <= now) {
        this.remove(read);
        read.expire();
      }
      read = next;
    }
    // Idle: the interval stops, and the next body read starts it again.
    if (this.#head === undefined && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}

/** What frameworks leave on Node's request: a router's full target, a body parser's result. */
interface FrameworkFields {
  /** The request target before a router stripped its mount prefix (Express, Connect). */
  originalUrl?: unknown;
  /** The body's bytes, kept by some frameworks and body parsers beside the parsed value. */
  rawBody?: unknown;
  /** A body parser's result: JSON (an object or array), text, or bytes. */
  body?: unknown;
}

/** The request target, mount prefix included: `req.originalUrl` when a router set it, else `req.url`. */
function fullUrl(req: IncomingMessage): string | undefined {
  const original = (req as IncomingMessage & FrameworkFields).originalUrl;
  return typeof original === "string" && original.startsWith("/") ? original : req.url;
}

/** At most 200 characters of a path quoted back in an answer. */
function cut(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/**
 * The 404's text: the path asked for, the endpoint's, and why they differ
 * when it looks like a set-up mistake rather than a wrong URL: the path
 * option naming the path under a router's prefix (Express's `app.use`, a
 * Fastify plug-in's `prefix`), or a trailing slash the router let through.
 */
function notFound(req: IncomingMessage, target: string, path: string): string {
  const base = `Not found: ${JSON.stringify(cut(target))} is not the MCP endpoint ${JSON.stringify(path)}`;
  if (target.length > path.length && target.endsWith(path)) {
    const prefix = cut(target.slice(0, target.length - path.length));
    return `${base}: the path option is matched against the whole request path, mount prefix included; mounted under ${JSON.stringify(prefix)}, it must be ${JSON.stringify(cut(target))}, or be left out so that the router alone chooses the path`;
  }
  if (target === `${path}/`) return `${base}: the endpoint has no trailing slash`;
  if (fullUrl(req) !== req.url) return `${base} (the path option is matched against the whole path, mount prefix included)`;
  return base;
}

/** The 400's text when a body was read before the handler and nothing usable was left of it. */
const CONSUMED =
  "the request body was already read before the MCP handler (by a body parser in front of it) and neither req.rawBody nor req.body holds it; mount the handler before the parser, or let the parser read JSON";

/**
 * True when something before the handler read the request stream (its end
 * was emitted, or data was taken from it): no more 'data' will come.
 */
function alreadyRead(req: IncomingMessage): boolean {
  return req.readableEnded || req.readableDidRead;
}

/**
 * The body a framework kept after reading the stream: `req.rawBody` bytes
 * first (exact bytes: big integers and duplicate keys as sent), then
 * `req.body` as bytes, text, or a parsed JSON object or array (written back
 * as JSON text, so every check on the body applies to it as to bytes:
 * the size limit to that text, the nesting limit, the message rules).
 * `undefined` when none is there. Throws when `req.body` cannot be written as JSON.
 */
function bodyLeft(req: IncomingMessage & FrameworkFields): Uint8Array | undefined {
  const raw = req.rawBody;
  if (raw instanceof Uint8Array) return raw;
  if (typeof raw === "string") return Buffer.from(raw, "utf8");
  const body = req.body;
  if (body instanceof Uint8Array) return body;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body !== null && typeof body === "object") return Buffer.from(stringifyJson(body), "utf8");
  return undefined;
}
