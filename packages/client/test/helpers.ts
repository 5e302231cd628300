import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JSONRPCRequest, JSONRPCResponse } from "@x/mcp-v2607";
import { vi } from "vitest";
import { Client, type ClientOptions, InMemoryTransport, type InMemoryExchange, type InMemoryOptions } from "../src/index.js";

/** What a scripted method answers: a result object, or `{ error }` for a JSON-RPC error. */
export type Answer = Record<string, unknown> | { error: { code: number; message: string; data?: unknown } };

/** A method's script: gets the request params (and the exchange) and answers. */
export type Script = (params: Record<string, unknown>, exchange: InMemoryExchange, request: JSONRPCRequest) => Answer | Promise<Answer>;

/** A scripted in-memory server: answers by method, and records every request it gets. */
export function scripted(scripts: Record<string, Script>) {
  const requests: Array<{ message: JSONRPCRequest; headers: Record<string, string> }> = [];
  const handler = async (message: JSONRPCRequest, exchange: InMemoryExchange): Promise<JSONRPCResponse> => {
    requests.push({ message, headers: exchange.headers });
    const script = scripts[message.method];
    if (!script) return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } };
    const answer = await script((message.params ?? {}) as Record<string, unknown>, exchange, message);
    if ("error" in answer && typeof answer.error === "object" && answer.error !== null && "code" in answer.error) {
      return { jsonrpc: "2.0", id: message.id, error: answer.error } as JSONRPCResponse;
    }
    return { jsonrpc: "2.0", id: message.id, result: answer as never };
  };
  return { requests, handler };
}

/** A client connected to a scripted in-memory server. */
export async function memoryClient(scripts: Record<string, Script>, options: ClientOptions = {}, transportOptions: InMemoryOptions = {}) {
  const server = scripted(scripts);
  const client = new Client({ name: "test-client", version: "1.0.0" }, { onWarning: () => {}, ...options });
  await client.connect(new InMemoryTransport(server.handler, transportOptions));
  return { client, requests: server.requests };
}

/** A list result with cache hints. */
export function listResult(field: string, items: unknown[], extra: Record<string, unknown> = {}) {
  return { resultType: "complete", ttlMs: 0, cacheScope: "private", [field]: items, ...extra };
}

/** A complete CallToolResult with text. */
export function textResult(text: string, extra: Record<string, unknown> = {}) {
  return { resultType: "complete", content: [{ type: "text", text }], ...extra };
}

/** A tool definition. */
export function tool(name: string, extra: Record<string, unknown> = {}) {
  return { name, inputSchema: { type: "object" }, ...extra };
}

/** A node:http server on 127.0.0.1, port 0, that hands each request and its read body to `handle`. */
export async function httpServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>) {
  const sockets = new Set<import("node:net").Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      Promise.resolve(handle(req, res, Buffer.concat(chunks).toString("utf8"))).catch((error) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes a JSON-RPC response as JSON. */
export function sendJson(res: ServerResponse, body: unknown, status = 200) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** One turn of the event loop (setImmediate, never faked here): every microtask queued before it has run. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Fakes setTimeout and clearTimeout only, so that time passes when the test
 * says so and a round trip to a real server on a busy machine costs none of
 * it. `scheduled(ms, n)` resolves once `n` timers of `ms` milliseconds have
 * been set since the clock was made (by the client or anything else in the
 * process); `advance(ms)` moves the clock and runs the timers then due.
 * `restore()` puts the real timers back.
 */
export function fakeClock() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const fake = globalThis.setTimeout;
  const counts = new Map<number, number>();
  const waiting: { ms: number; n: number; resolve: () => void }[] = [];
  globalThis.setTimeout = ((handler: (...args: unknown[]) => void, ms?: number, ...rest: unknown[]) => {
    const delay = ms ?? 0;
    const n = (counts.get(delay) ?? 0) + 1;
    counts.set(delay, n);
    for (let i = waiting.length - 1; i >= 0; i--) {
      const w = waiting[i]!;
      if (w.ms === delay && w.n <= n) {
        waiting.splice(i, 1);
        w.resolve();
      }
    }
    return fake(handler, ms, ...rest);
  }) as typeof setTimeout;
  return {
    scheduled: (ms: number, n: number) =>
      (counts.get(ms) ?? 0) >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ ms, n, resolve })),
    advance: (ms: number) => vi.advanceTimersByTime(ms),
    restore: () => {
      // vitest puts back the real timers over its own fakes, not over a wrapper of them.
      globalThis.setTimeout = fake;
      vi.useRealTimers();
    },
  };
}
