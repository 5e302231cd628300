import {
  type JSONRPCNotification,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
} from "@x/mcp-v2607";
import { connect, type Socket } from "node:net";
import { mcpNameField } from "@x/mcp-v2607/wire";
import { McpServer, type TransportInfo } from "../src/index.js";

/** A valid request `_meta` for revision 2026-07-28. */
export function meta(extra: Record<string, unknown> = {}) {
  return {
    [META_PROTOCOL_VERSION]: PROTOCOL_VERSION,
    [META_CLIENT_CAPABILITIES]: {},
    [META_CLIENT_INFO]: { name: "test-client", version: "0.0.1" },
    ...extra,
  };
}

let nextId = 1;
/** A JSON-RPC request with a fresh id and a valid `_meta`. */
export function request(method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0" as const, id: nextId++, method, params: { ...params, _meta: meta() } };
}

/** The headers a conforming client sends with `body`. */
export function headersFor(body: { method: string; params?: Record<string, unknown> }): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    "mcp-method": body.method,
  };
  const field = mcpNameField(body.method);
  const name = field ? body.params?.[field] : undefined;
  if (typeof name === "string") headers["mcp-name"] = name;
  return headers;
}

/** A small server with a plain tool, a tool with an output schema, and misbehaving tools. */
export function testServer(options?: ConstructorParameters<typeof McpServer>[1]): McpServer {
  const server = new McpServer({ name: "test-server", version: "1.2.3" }, options);
  server.registerTool(
    "echo",
    {
      description: "echo",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
    },
    (args) => String(args.text),
  );
  server.registerTool(
    "sum",
    {
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    },
    (args) => ({ resultType: "complete", content: [], structuredContent: { sum: Number(args.a) + Number(args.b) } }),
  );
  // @ts-expect-error: deliberately the wrong shape, to test the run-time output check
  server.registerTool("bad_output", { outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }, () => ({
    resultType: "complete",
    content: [],
    structuredContent: { n: "not a number" },
  }));
  server.registerTool("throws", {}, () => {
    throw new Error("kaboom");
  });
  server.registerTool("rejects_non_error", {}, () => Promise.reject({ weird: true }));
  server.registerTool("returns_junk", {}, () => 42 as never);
  server.registerTool(
    "region",
    {
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" }, n: { type: "integer", "x-mcp-header": "N" } },
      },
    },
    (args) => `region ${String(args.region)}`,
  );
  return server;
}

/** One JSON-RPC call over real HTTP with a conforming client's headers; returns status, headers and parsed body (or SSE events). */
export async function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: { meta?: Record<string, unknown>; headers?: Record<string, string>; id?: string | number; signal?: AbortSignal } = {},
) {
  const body = { jsonrpc: "2.0", id: options.id ?? nextId++, method, params: { ...params, _meta: meta(options.meta) } };
  const headers = { ...headersFor(body), ...options.headers };
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: options.signal });
  const type = response.headers.get("content-type") ?? "";
  const text = await response.text();
  if (type.startsWith("text/event-stream")) {
    const events = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)));
    return { status: response.status, headers: response.headers, events, json: events[events.length - 1], raw: text };
  }
  return { status: response.status, headers: response.headers, events: [] as any[], json: text ? JSON.parse(text) : undefined, raw: text };
}

/** A raw TCP client of `url`'s host and port: what it received, and when the server closed the connection. */
export function rawClient(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on("data", (c: Buffer) => chunks.push(c));
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
  return { socket, closed, received: () => Buffer.concat(chunks).toString("utf8") };
}

/** The request line and headers of a POST of `tools/list` to `url` with `extra` headers (no body). */
export function head(url: string, extra: Record<string, string>): string {
  const { host, pathname } = new URL(url);
  const body = request("tools/list");
  const lines = Object.entries({ host, ...headersFor(body), ...extra }).map(([k, v]) => `${k}: ${v}\r\n`);
  return `POST ${pathname} HTTP/1.1\r\n${lines.join("")}\r\n`;
}

/**
 * A POST to `url` whose body never all arrives: its headers declare
 * `declared` bytes, `sent` of them are written, then nothing more. Resolves
 * with what the server answered once it closed the connection, or
 * `undefined` when it has not within `waitMs` (a hang guard: far above the
 * server's own time-out, so that a busy machine never reaches it).
 */
export async function stalledPost(url: string, declared: number, sent: number, waitMs: number): Promise<string | undefined> {
  const client = rawClient(url);
  client.socket.write(head(url, { "content-length": String(declared) }));
  client.socket.write("x".repeat(sent));
  const closed = await Promise.race([client.closed, new Promise<undefined>((resolve) => setTimeout(resolve, waitMs))]);
  client.socket.destroy();
  return closed === undefined ? undefined : client.received();
}

/** The status line, lower-case header lines and parsed JSON body (chunked or not) of a raw HTTP/1.1 answer. */
export function parseRawAnswer(raw: string): { status: string; headers: string; json: any } {
  const end = raw.indexOf("\r\n\r\n");
  const top = raw.slice(0, end);
  const headers = top.toLowerCase();
  let body = raw.slice(end + 4);
  if (headers.includes("transfer-encoding: chunked")) {
    let text = "";
    // Each chunk: its size in hex, CRLF, the bytes, CRLF; a 0 size ends the body. Bounded by the body's length.
    for (let at = 0; at < body.length; ) {
      const line = body.indexOf("\r\n", at);
      const size = Number.parseInt(body.slice(at, line), 16);
      if (!(size > 0)) break;
      text += body.slice(line + 2, line + 2 + size);
      at = line + 2 + size + 2;
    }
    body = text;
  }
  return { status: top.split("\r\n")[0]!, headers, json: JSON.parse(body) };
}

/** `_meta` that declares these client capabilities (for `rpc`'s and `send`'s `meta` option). */
export function capabilities(declared: Record<string, unknown>): Record<string, unknown> {
  return { [META_CLIENT_CAPABILITIES]: declared };
}

/** A JSON-RPC response as the tests read it: a result or an error. */
export interface Answer {
  id: string | number;
  result?: any;
  error?: any;
}

/**
 * One request answered in process by the server's own request handling
 * (`McpServer.handle`, what stdio and in-memory transports use): the JSON-RPC response.
 */
export async function send(
  server: McpServer,
  method: string,
  params: Record<string, unknown> = {},
  options: { meta?: Record<string, unknown>; transport?: TransportInfo } = {},
): Promise<Answer> {
  const message = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta: meta(options.meta) } };
  const outcome = await server.handle(message, options.transport);
  return outcome.response as unknown as Answer;
}

/**
 * Opens a `subscriptions/listen` stream in process: `received` collects what
 * the server sends on it, `close()` cancels it, and `response` is its final answer.
 * `options.meta` is merged into the request's `_meta` (e.g. `capabilities(...)`),
 * `options.transport` adds to what the transport tells the server (e.g. `assigns`).
 */
export function listenTo(
  server: McpServer,
  notifications: Record<string, unknown>,
  options: { meta?: Record<string, unknown>; transport?: TransportInfo } = {},
) {
  const controller = new AbortController();
  const received: JSONRPCNotification[] = [];
  const message = request("subscriptions/listen", { notifications });
  message.params._meta = meta(options.meta);
  const response = server
    .handle(message, {
      ...options.transport,
      signal: controller.signal,
      notify: (n) => {
        received.push(n);
        return true;
      },
    })
    .then((outcome) => outcome.response as unknown as Answer);
  return {
    id: message.id,
    received,
    /** What the acknowledgement says the server granted of the filter asked for. */
    granted: () => (received[0]?.params as { notifications?: Record<string, unknown> } | undefined)?.notifications,
    /** The methods received so far, the acknowledgement first. */
    methods: () => received.map((n) => n.method),
    response,
    close: () => {
      controller.abort();
      return response;
    },
  };
}
