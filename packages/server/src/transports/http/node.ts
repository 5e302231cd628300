/**
 * The `node:http` adapter of the Streamable HTTP core: Node's own request
 * and response objects, no web `Request`/`Response` per call. Reading the
 * body is `node-body.ts`'s, writing the answer `node-response.ts`'s.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "@x/mcp-v2607/constants";
import type { McpServer } from "../../server.js";
import type { ClientWatcher } from "../call.js";
import { pathOf } from "./header-rules.js";
import { errorAnswer } from "./answers.js";
import { Core, type HttpCore } from "./core.js";
import { BodyUnavailable, Exchange } from "./exchange.js";
import { alreadyRead, BodyDeadlines, bodyLeft, CONSUMED, type FrameworkFields, readNodeBody } from "./node-body.js";
import { answerFailure, endAtTurnEnd, writeAnswer, writeStream } from "./node-response.js";
import { rejectUnknown } from "@x/jsonrpc";
import { type HttpTransportOptions, httpOptionNames } from "./options.js";

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
  rejectUnknown("createNodeHandler", options, httpOptionNames(server, ["path"]));
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
