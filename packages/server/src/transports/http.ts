/**
 * Streamable HTTP transport (spec 2026-07-28, basic/transports/streamable-http):
 * a fetch-style `(Request) => Promise<Response>` handler, a `node:http`
 * request listener, and `listen()` to start a `node:http` server.
 *
 * The transport owns framing, headers, status codes and cancellation. The
 * first failing check answers, in this order:
 *
 * 1. `Origin` present and not allowed, or `Host` not allowed: 403
 * 2. a method other than POST: 405 with `Allow: POST`
 * 3. a body over the size limit: 413
 * 4. a body that is not UTF-8 JSON: 400, -32700
 * 5. a JSON array, or not a request or notification: 400, -32600
 * 6. a notification: 202 with an empty body
 * 7. `_meta`, its protocol version or its client capabilities missing: 400, -32602
 * 8. `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` or `Mcp-Param-*` missing or unequal to the body: 400, -32020
 * 9. an unsupported protocol version: 400, -32022
 * 10. an unknown or removed method: 404, -32601
 *
 * Anything else is answered with status 200 and the method's result or error.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import { ErrorCode } from "@x/mcp-v2607";
import type { TransportInfo } from "../context.js";
import type { McpServer } from "../server.js";
import { checkRequestHeaders, type HeaderParam, headerParams } from "./headers.js";

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
  /** Largest accepted body, in bytes. Default 4 MiB (4 194 304). */
  maxBodyBytes?: number;
  /**
   * Per-request data for handlers (`ctx.assigns`), computed from the HTTP
   * request, for example after verifying a bearer token. Called once per request.
   */
  assigns?: (headers: (name: string) => string | undefined) => Record<string, unknown> | undefined;
}

/** The response the transport core produces, independent of the HTTP library. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];
const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
const JSON_HEADERS = { "content-type": "application/json" };

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

function originAllowed(origin: string, allowed: readonly string[] | undefined): boolean {
  if (allowed) return allowed.includes(origin);
  try {
    const url = new URL(origin);
    return LOOPBACK_HOSTS.includes(url.hostname.toLowerCase()) || url.hostname === "::1";
  } catch {
    return false;
  }
}

function errorAnswer(status: number, code: number, message: string, id?: unknown): HttpAnswer {
  const response: Record<string, unknown> = { jsonrpc: "2.0", error: { code, message } };
  if (id !== undefined) response.id = id;
  return { status, headers: { ...JSON_HEADERS }, body: JSON.stringify(response) };
}

/** What an adapter hands the core for one HTTP request. */
export interface HttpExchange {
  method: string;
  /** Reads a request header by lower-case name. */
  header(name: string): string | undefined;
  /** Reads the whole body, or resolves `undefined` as soon as it grows past `limit` bytes. */
  body(limit: number): Promise<Uint8Array | undefined>;
  signal?: AbortSignal;
}

/**
 * The transport core: answers one HTTP exchange for `server`.
 * Never throws and never rejects; every failure is an answer.
 */
export function createHttpCore(server: McpServer, options: HttpTransportOptions = {}) {
  const allowedHosts = (options.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase());
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const headerParamCache = new Map<string, readonly HeaderParam[]>();
  const headerParamsOf = (name: string) => {
    const tool = server.tool(name);
    if (!tool) return undefined;
    let params = headerParamCache.get(name);
    if (!params) {
      params = headerParams(tool.definition.inputSchema as Record<string, unknown>);
      headerParamCache.set(name, params);
    }
    return params;
  };

  return async function answer(exchange: HttpExchange): Promise<HttpAnswer> {
    // 1. DNS-rebinding protection.
    const origin = exchange.header("origin");
    if (origin !== undefined && !originAllowed(origin, options.allowedOrigins)) {
      return errorAnswer(403, ErrorCode.InvalidRequest, "Forbidden: Origin not allowed");
    }
    const host = exchange.header("host");
    if (host !== undefined && !allowedHosts.includes(hostName(host))) {
      return errorAnswer(403, ErrorCode.InvalidRequest, "Forbidden: Host not allowed");
    }
    // 2. POST only.
    if (exchange.method !== "POST") {
      return { status: 405, headers: { allow: "POST", ...JSON_HEADERS }, body: JSON.stringify({ jsonrpc: "2.0", error: { code: ErrorCode.InvalidRequest, message: "Method not allowed: use POST" } }) };
    }
    // 3. Size limit.
    const declared = exchange.header("content-length");
    if (declared !== undefined && Number(declared) > maxBody) {
      return errorAnswer(413, ErrorCode.InvalidRequest, `Body larger than ${maxBody} bytes`);
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await exchange.body(maxBody);
    } catch {
      return errorAnswer(400, ErrorCode.ParseError, "Parse error: the request body could not be read");
    }
    if (bytes === undefined) return errorAnswer(413, ErrorCode.InvalidRequest, `Body larger than ${maxBody} bytes`);
    // 4. UTF-8 JSON.
    let message: unknown;
    try {
      message = JSON.parse(decoder.decode(bytes));
    } catch {
      return errorAnswer(400, ErrorCode.ParseError, "Parse error: the body is not UTF-8 JSON");
    }
    // 5 and 7: JSON-RPC shape and _meta.
    if (Array.isArray(message)) return errorAnswer(400, ErrorCode.InvalidRequest, "Invalid request: batches are not supported");
    const inbound = server.inspect(message);
    if (inbound.kind === "error") {
      return { status: inbound.outcome.status, headers: { ...JSON_HEADERS }, body: JSON.stringify(inbound.outcome.response) };
    }
    // 6. Notifications are accepted and not answered.
    if (inbound.kind === "notification") return { status: 202, headers: {}, body: "" };
    // 8. Header mirrors.
    const mismatch = checkRequestHeaders(exchange.header, inbound.method, inbound.params, inbound.envelope.protocolVersion, headerParamsOf);
    if (mismatch !== undefined) return errorAnswer(400, ErrorCode.HeaderMismatch, mismatch, inbound.id);
    // 9, 10 and the method itself.
    const info: TransportInfo = {};
    if (exchange.signal) info.signal = exchange.signal;
    if (options.assigns) {
      const assigns = options.assigns(exchange.header);
      if (assigns) info.assigns = assigns;
    }
    const outcome = await server.execute(inbound, info);
    return { status: outcome.status, headers: { ...JSON_HEADERS }, body: JSON.stringify(outcome.response) };
  };
}

/**
 * A fetch-style handler for Streamable HTTP: give it a web `Request`, get
 * the `Response`. Mount it on any router that speaks `Request`/`Response`
 * (Node 20 `fetch` types, Deno, Bun, Hono, ...). Never rejects.
 *
 * @example
 * const handle = createFetchHandler(server);
 * const response = await handle(new Request("http://localhost/mcp", { method: "POST", body, headers }));
 */
export function createFetchHandler(server: McpServer, options: HttpTransportOptions = {}): (request: Request) => Promise<Response> {
  const core = createHttpCore(server, options);
  return async (request) => {
    const answer = await core({
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
    return new Response(answer.status === 202 ? null : answer.body, { status: answer.status, headers: answer.headers });
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

/**
 * A `node:http` request listener for Streamable HTTP, working on Node's own
 * request and response objects (no web `Request`/`Response` per call).
 * Closing the connection before the answer aborts the handler's `signal`.
 *
 * @example
 * http.createServer(createNodeHandler(server, { path: "/mcp" })).listen(3000, "127.0.0.1");
 */
export function createNodeHandler(server: McpServer, options: NodeHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const core = createHttpCore(server, options);
  const path = options.path;
  return (req, res) => {
    if (path !== undefined) {
      const url = req.url ?? "/";
      const q = url.indexOf("?");
      if ((q === -1 ? url : url.slice(0, q)) !== path) {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
        return;
      }
    }
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    core({
      method: req.method ?? "GET",
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(", ") : value;
      },
      body: (limit) => readNodeBody(req, limit),
      signal: controller.signal,
    }).then(
      (answer) => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers);
        res.end(answer.body);
      },
      () => {
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  };
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
  /** Address to bind. Default `127.0.0.1`. Any non-loopback address requires `allowedHosts`. */
  host?: string;
}

/** A running HTTP server and the URL of its MCP endpoint. */
export interface RunningHttpServer {
  /** The underlying `node:http` server. */
  server: Server;
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  /** Stops accepting connections and closes idle ones; resolves when closed. */
  close(): Promise<void>;
}

/**
 * Starts a `node:http` server for `mcp` on `host:port`, endpoint `path`
 * (default `/mcp`). Resolves once listening.
 *
 * @throws Error when `host` is not a loopback address and no `allowedHosts` is given
 *   (the DNS-rebinding rule), or when the port cannot be bound.
 */
export async function listen(mcp: McpServer, options: ListenOptions = {}): Promise<RunningHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host);
  if (!loopback && !options.allowedHosts) {
    throw new Error(`listen: host ${host} is not loopback, so allowedHosts must list the host names clients use`);
  }
  const path = options.path ?? "/mcp";
  const http = createServer(createNodeHandler(mcp, { ...options, path }));
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
  return {
    server: http,
    url: `http://${shownHost}:${port}${path}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeIdleConnections();
      }),
  };
}
