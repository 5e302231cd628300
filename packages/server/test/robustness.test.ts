import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../src/index.js";
import { rpc } from "./helpers.js";

const reported: unknown[] = [];
let running: RunningHttpServer;
beforeAll(async () => {
  const server = new McpServer({ name: "robust", version: "1" }, { onError: (error) => reported.push(error) });
  server.registerTool(
    "shard",
    { inputSchema: { type: "object", properties: { shard: { type: "integer", "x-mcp-header": "Shard" } } } },
    (a) => `shard ${a.shard}`,
  );
  server.registerResource("leaky", "file:///leaky", {}, () => {
    throw Object.assign(new Error("upstream said 404 for /internal/secret"), { code: 404 });
  });
  server.registerResourceTemplate("users", "users://{id}/profile", {}, (_uri, { id }) => `user ${id}`);
  running = await listen(server, { port: 0 });
});
afterAll(() => running.close());

describe("robustness", () => {
  it("methods named after Object.prototype members are unknown methods, not header mismatches", async () => {
    for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      const res = await rpc(running.url, method);
      expect(res.status, method).toBe(404);
      expect(res.json.error.code).toBe(-32601);
    }
  });

  it("a badly percent-encoded URI is not found, not an internal error", async () => {
    const res = await rpc(running.url, "resources/read", { uri: "users://%E0%A4%A/profile" });
    expect(res.json.error).toMatchObject({ code: -32602, data: { uri: "users://%E0%A4%A/profile" } });
  });

  it("an error with a non-protocol code is answered -32603 without its text, and reported to onError", async () => {
    reported.length = 0;
    const res = await rpc(running.url, "resources/read", { uri: "file:///leaky" });
    expect(res.json.error).toEqual({ code: -32603, message: "Internal error" });
    expect(res.raw).not.toContain("secret");
    expect(String(reported[0])).toContain("upstream said 404");
  });

  it("compares integer Mcp-Param headers as plain decimals only, and refuses a header whose argument is absent", async () => {
    const call = (shard: number | undefined, header: string | undefined) =>
      rpc(
        running.url,
        "tools/call",
        { name: "shard", arguments: shard === undefined ? {} : { shard } },
        { headers: header === undefined ? {} : { "mcp-param-shard": header } },
      );
    expect((await call(1, "1")).status).toBe(200);
    expect((await call(1, "1.0")).status).toBe(200);
    expect((await call(-7, "-7")).status).toBe(200);
    for (const loose of ["0x1", "0b1", "1e0", "+1", "1.5", ""]) {
      const res = await call(1, loose);
      expect(res.status, loose).toBe(400);
      expect(res.json.error.code).toBe(-32020);
    }
    const unpaired = await call(undefined, "99");
    expect(unpaired.status).toBe(400);
    expect(unpaired.json.error.message).toContain("argument shard is absent");
  });

  it("refuses a progressToken that is neither a string nor an integer, and a non-string name, with -32602", async () => {
    const token = await rpc(running.url, "tools/call", { name: "shard", arguments: {} }, { meta: { progressToken: { a: 1 } } });
    expect(token.status).toBe(400);
    expect(token.json.error.code).toBe(-32602);
    const name = await rpc(running.url, "tools/call", { name: 5 }, { headers: { "mcp-name": "5" } });
    expect(name.json.error.code).toBe(-32602);
  });
});

describe("transport limits and failures", () => {
  it("takes chunks from an SSE queue in O(1) and closes a stream whose unread text passes the cap", async () => {
    const { ChunkQueue } = await import("../src/transports/sse.js");
    const big = new ChunkQueue();
    for (let i = 0; i < 50_000; i++) big.push(`chunk ${i}\n`);
    big.end();
    let count = 0;
    for await (const _ of big) count++;
    expect(count).toBe(50_000);
    let overflowed = 0;
    const small = new ChunkQueue(100);
    small.onOverflow = () => overflowed++;
    expect(small.push("x".repeat(60))).toBe(true);
    expect(small.push("x".repeat(60))).toBe(false);
    expect(overflowed).toBe(1);
    expect(small.ended).toBe(true);
    expect(small.push("more")).toBe(false);
  });

  it("reads an SSE queue with take() and onceReady(): each wake-up is called once, at a push, the end or an abandon", async () => {
    const { ChunkQueue } = await import("../src/transports/sse.js");
    const q = new ChunkQueue();
    expect(q.take()).toBeUndefined();
    let wakes = 0;
    q.onceReady(() => wakes++);
    q.push("a");
    q.push("b");
    expect(wakes).toBe(1);
    expect([q.take(), q.take(), q.take()]).toEqual(["a", "b", undefined]);
    q.onceReady(() => wakes++);
    q.end();
    expect(wakes).toBe(2);
    expect(q.ended).toBe(true);
    let cancelled = 0;
    const gone = new ChunkQueue();
    gone.onCancel = () => cancelled++;
    gone.push("unread");
    gone.onceReady(() => wakes++);
    gone.abandon();
    expect([wakes, cancelled, gone.take()]).toEqual([3, 1, undefined]);
  });

  it("keeps many SSE streams alive with one timer, which stops with the last stream", async () => {
    const { ChunkQueue, KeepAlive, SSE_KEEPALIVE } = await import("../src/transports/sse.js");
    vi.useFakeTimers();
    try {
      const keepAlive = new KeepAlive(1000);
      const [a, b] = [new ChunkQueue(), new ChunkQueue()];
      keepAlive.add(a);
      keepAlive.add(b);
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(1000);
      expect([a.take(), b.take()]).toEqual([SSE_KEEPALIVE, SSE_KEEPALIVE]);
      keepAlive.delete(a);
      vi.advanceTimersByTime(1000);
      expect([a.take(), b.take()]).toEqual([undefined, SSE_KEEPALIVE]);
      keepAlive.delete(b);
      expect(vi.getTimerCount()).toBe(0);
      keepAlive.add(a);
      expect(vi.getTimerCount()).toBe(1);
      keepAlive.delete(a);
    } finally {
      vi.useRealTimers();
    }
  });

  it("runs a call's onAbort once, after its signal (if made) is aborted", async () => {
    const { Call } = await import("../src/transports/call.js");
    const call = new Call("stdio");
    const seen: boolean[] = [];
    const signal = call.signal;
    call.onAbort = () => seen.push(signal.aborted);
    call.abort();
    call.abort();
    expect(seen).toEqual([true]);
    expect(call.onAbort).toBeUndefined();
  });

  it("aborts a request whose SSE stream outgrows maxBufferedBytes while the client does not read", async () => {
    const s = new McpServer({ name: "flood", version: "1" });
    let aborted = false;
    s.registerTool("flood", {}, async (_args, ctx) => {
      ctx.signal.addEventListener("abort", () => {
        aborted = true;
      });
      for (let i = 0; i < 200_000 && !ctx.signal.aborted; i++) {
        ctx.progress(i, undefined, "x".repeat(200));
        if (i % 1000 === 0) await new Promise((r) => setImmediate(r));
      }
      return "done";
    });
    const r = await listen(s, { port: 0, maxBufferedBytes: 256 * 1024 });
    try {
      const { request } = await import("node:http");
      const url = new URL(r.url);
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "flood",
          _meta: {
            progressToken: 1,
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      });
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            "content-type": "application/json",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "flood",
          },
        },
        (res) => {
          res.pause(); // never read
          res.on("error", () => {});
        },
      );
      req.on("error", () => {}); // the server cuts the stream: expected
      let cut = false;
      req.on("socket", (socket) => socket.on("close", () => (cut = true)));
      req.end(body);
      // Checks 10 ms apart, at least 120 s of them (a hang guard): a busy machine's socket may be slow to stall.
      for (let i = 0; i < 12_000 && !aborted; i++) await new Promise((res) => setTimeout(res, 10));
      expect(aborted).toBe(true);
      // The server also closes the connection rather than leave it parked on a 'drain' that never comes.
      for (let i = 0; i < 12_000 && !cut; i++) await new Promise((res) => setTimeout(res, 10));
      expect(cut).toBe(true);
      req.destroy();
    } finally {
      await r.close(200);
    }
  });

  it("publishes transport refusals on x-mcp:request:rejected", async () => {
    const { subscribe, unsubscribe } = await import("node:diagnostics_channel");
    const seen: { code: number; status: number }[] = [];
    const onEvent = (event: unknown) => seen.push(event as { code: number; status: number });
    subscribe("x-mcp:request:rejected", onEvent);
    try {
      await fetch(running.url, { method: "GET" });
      await rpc(running.url, "tools/call", { name: "shard", arguments: {} }, { headers: { "mcp-name": "other" } });
      expect(seen.map((e) => [e.status, e.code])).toEqual([
        [405, -32600],
        [400, -32020],
      ]);
    } finally {
      unsubscribe("x-mcp:request:rejected", onEvent);
    }
  });
});
