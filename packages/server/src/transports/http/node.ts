/**
 * The `node:http` adapter of the Streamable HTTP core: Node's own request
 * and response objects, no web `Request`/`Response` per call.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "@x/mcp-v2607/constants";
import type { McpServer } from "../../server.js";
import type { Call } from "../call.js";
import type { ChunkQueue } from "../sse.js";
import { Core, Exchange, errorAnswer, type HttpAnswer, type HttpCore, type HttpTransportOptions } from "./core.js";

/** Options of {@link createNodeHandler}: the transport's, plus the endpoint path. */
export interface NodeHandlerOptions extends HttpTransportOptions {
  /** Only this path is the MCP endpoint; others get 404 with a JSON-RPC error (-32600). Default: every path. */
  path?: string;
}

/** A `node:http` request listener that also exposes its transport core and its responses in progress (for graceful shutdown). */
export type NodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
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
  /** The call the core is running for this exchange, aborted when the client goes away. */
  #call: Call | undefined = undefined;
  /** True once the response closed before it was finished (the client went away). */
  gone = false;
  /** Run once, when the client goes away during an SSE response. */
  onGone: (() => void) | undefined = undefined;

  constructor(req: IncomingMessage) {
    super();
    this.#req = req;
    this.method = req.method ?? "GET";
    this.url = req.url;
    this.header = (name) => {
      // Node keeps only the first of several Host (or Authorization) lines; the ladder must see them all.
      if (name === "host" || name === "authorization") return headerLines(req.rawHeaders, name);
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    };
  }

  body(core: Core): Promise<Uint8Array | undefined> {
    return readNodeBody(this.#req, core, this);
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
  // abandon() first: a generator parked on an empty queue would only see return() at its next chunk.
  if (!exchange.gone)
    exchange.onGone = () => {
      answer.stream.abandon();
      iterator.return?.();
    };
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
  const core = new Core(server, options);
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
      const target = q === -1 ? url : url.slice(0, q);
      // With `auth`, the protected resource metadata lives beside the endpoint, at its well-known paths.
      if (target !== path && !core.auth?.metadataPaths.includes(target)) {
        const answer = errorAnswer(404, ErrorCode.InvalidRequest, "Not found: this path is not the MCP endpoint");
        res.writeHead(answer.status, answer.headers).end(answer.body);
        return;
      }
    }
    const current = new NodeExchange(req);
    exchange = current;
    core
      .serve(current)
      .then((answer) => {
        if (res.destroyed) return;
        if ("stream" in answer) return writeStream(answer, res, current);
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      })
      .catch(() => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const answer = errorAnswer(500, ErrorCode.InternalError, "Internal error");
        res.writeHead(answer.status, answer.headers).end(answer.body);
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
 * comes), or a rejection when the request errs or closes before its end.
 */
function readNodeBody(req: IncomingMessage, core: Core, ex: Exchange): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (!core.admit(ex, size)) {
        settled = true;
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    const fail = (error?: Error) => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      reject(error ?? new Error("the connection closed before the body ended"));
    };
    req.on("error", fail);
    // A connection cut (a timeout, the client gone) may close the request without an error.
    req.on("close", () => fail());
  });
}
