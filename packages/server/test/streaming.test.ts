import { validate } from "@x/mcp-v2607";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../src/index.js";
import { headersFor, meta, rpc } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let aborted = 0;
let released: (() => void) | undefined;
/** Called when the hang tool runs, and when its signal aborts. */
let onHang: () => void = () => {};
let onAborted: () => void = () => {};
function streamingServer() {
  const server = new McpServer({ name: "s", version: "1" }, { logging: true });
  server.registerTool("progress", {}, async (_args, ctx) => {
    ctx.progress(1, 3, "one");
    await sleep(5);
    ctx.progress(2, 3);
    ctx.progress(3);
    return "done";
  });
  server.registerTool("quiet", {}, (_args, ctx) => {
    // Without a progressToken or logLevel these send nothing, and the answer stays JSON.
    const sent = [ctx.progress(1), ctx.log("error", "x")];
    return JSON.stringify(sent);
  });
  server.registerTool("logs", {}, (_args, ctx) => {
    for (const level of ["debug", "info", "warning", "error"] as const) ctx.log(level, { level }, "test");
    return "logged";
  });
  server.registerTool("hang", {}, (_args, ctx) => {
    ctx.progress(0);
    return new Promise<string>((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        aborted++;
        onAborted();
        resolve("aborted");
      });
      released = () => resolve("released");
      onHang();
    });
  });
  return server;
}

let server: McpServer;
let running: RunningHttpServer;
beforeAll(async () => {
  server = streamingServer();
  running = await listen(server, { port: 0, keepAliveMs: 50, cors: { origins: ["https://app.example.com"] }, maxConcurrentRequests: 50 });
});
afterAll(() => running.close(100));

describe("SSE responses, progress and logging", () => {
  it("switches to SSE on the first notification and ends with the response", async () => {
    const res = await rpc(running.url, "tools/call", { name: "progress" }, { meta: { progressToken: 0 } });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.events.map((e) => e.method ?? "response")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "response",
    ]);
    expect(res.events[0].params).toEqual({ progressToken: 0, progress: 1, total: 3, message: "one" });
    for (const event of res.events.slice(0, 3)) expect(validate("ProgressNotification", event).ok).toBe(true);
    expect(res.json.result.content[0].text).toBe("done");
    // Each event's JSON stands on one data: line.
    expect(res.raw.split("\n").filter((l) => l.startsWith("data: ")).length).toBe(4);
  });

  it("answers JSON when the handler sends nothing (no progressToken, no logLevel)", async () => {
    const res = await rpc(running.url, "tools/call", { name: "quiet" });
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.json.result.content[0].text).toBe("[false,false]");
  });

  it("sends log messages at or above the requested level only", async () => {
    const res = await rpc(running.url, "tools/call", { name: "logs" }, { meta: { "io.modelcontextprotocol/logLevel": "warning" } });
    const logs = res.events.filter((e) => e.method === "notifications/message");
    expect(logs.map((e) => e.params.level)).toEqual(["warning", "error"]);
    expect(logs[0].params).toEqual({ level: "warning", data: { level: "warning" }, logger: "test" });
    const none = await rpc(running.url, "tools/call", { name: "logs" });
    expect(none.headers.get("content-type")).toBe("application/json");
  });

  it("drops notifications when Accept admits only JSON", async () => {
    const res = await rpc(
      running.url,
      "tools/call",
      { name: "progress" },
      { meta: { progressToken: "t" }, headers: { accept: "application/json" } },
    );
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.json.result.content[0].text).toBe("done");
  });

  it("a closed SSE stream aborts the handler's signal", async () => {
    const before = aborted;
    const abortedNow = new Promise<void>((resolve) => (onAborted = resolve));
    const controller = new AbortController();
    const body = { jsonrpc: "2.0", id: 77, method: "tools/call", params: { name: "hang", _meta: meta({ progressToken: 1 }) } };
    const response = await fetch(running.url, {
      method: "POST",
      headers: headersFor(body),
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    // However long the server takes to see the connection gone (the hang guard bounds the wait).
    await abortedNow;
    expect(aborted).toBe(before + 1);
  });
});

describe("transport rules", () => {
  it("echoes the request id with its exact type", async () => {
    expect((await rpc(running.url, "tools/list", {}, { id: "7" })).json.id).toBe("7");
    expect((await rpc(running.url, "tools/list", {}, { id: 7 })).json.id).toBe(7);
    const mismatch = await rpc(running.url, "tools/list", {}, { id: "x1", headers: { "mcp-method": "tools/call" } });
    expect(mismatch.json.id).toBe("x1");
  });

  it("accepts Accept wildcards and refuses an Accept that admits neither JSON nor SSE", async () => {
    for (const accept of ["*/*", "application/*, text/*", "text/event-stream, application/json", "application/json;q=0.9"]) {
      expect((await rpc(running.url, "tools/list", {}, { headers: { accept } })).status, accept).toBe(200);
    }
    const refused = await rpc(running.url, "tools/list", {}, { headers: { accept: "text/html" } });
    expect(refused.status).toBe(406);
  });

  it("ignores Mcp-Session-Id on a 2026-07-28 request and never mints one, serving one era or both; an unknown session is 404 to the earlier era", async () => {
    const only = await listen(new McpServer({ name: "only", version: "1" }, { protocolVersions: ["2026-07-28"] }), { port: 0 });
    try {
      const res = await rpc(only.url, "server/discover", {}, { headers: { "mcp-session-id": "abc" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("mcp-session-id")).toBeNull();
    } finally {
      await only.close();
    }
    // The dual-era rule: the envelope makes it a 2026-07-28 request, whatever session it names.
    const dual = await rpc(running.url, "tools/list", {}, { headers: { "mcp-session-id": "abc" } });
    expect(dual.status).toBe(200);
    expect(dual.headers.get("mcp-session-id")).toBeNull();
    const earlier = await fetch(running.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "mcp-session-id": "abc" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(earlier.status).toBe(404);
    expect(earlier.headers.get("mcp-session-id")).toBeNull();
  });

  it("answers a CORS preflight for allowed origins and labels responses", async () => {
    const preflight = await fetch(running.url, {
      method: "OPTIONS",
      headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const res = await rpc(running.url, "tools/list", {}, { headers: { origin: "https://app.example.com" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    const foreign = await fetch(running.url, { method: "OPTIONS", headers: { origin: "https://evil.example.com" } });
    expect(foreign.status).toBe(403);
  });

  it("without CORS configured, OPTIONS is 405", async () => {
    const s = new McpServer({ name: "n", version: "1" });
    const r = await listen(s, { port: 0 });
    try {
      expect((await fetch(r.url, { method: "OPTIONS" })).status).toBe(405);
    } finally {
      await r.close();
    }
  });

  it("refuses JSON nested deeper than the limit with 400 and -32600", async () => {
    const deep = `${"[".repeat(100)}${"]".repeat(100)}`;
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"quiet","arguments":{"x":${deep}},"_meta":${JSON.stringify(meta())}}}`;
    const res = await fetch(running.url, {
      method: "POST",
      headers: headersFor({ method: "tools/call", params: { name: "quiet" } }),
      body,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32600);
    // Brackets inside strings do not count.
    const inString = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quiet","arguments":{"x":${JSON.stringify(deep)}},"_meta":${JSON.stringify(meta())}}}`;
    expect(
      (
        await fetch(running.url, {
          method: "POST",
          headers: headersFor({ method: "tools/call", params: { name: "quiet" } }),
          body: inString,
        })
      ).status,
    ).toBe(200);
  });

  it("answers 503 with Retry-After past the concurrent-request limit", async () => {
    const s = new McpServer({ name: "busy", version: "1" });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    s.registerTool("wait", {}, async () => {
      started();
      await gate;
      return "ok";
    });
    const r = await listen(s, { port: 0, maxConcurrentRequests: 1 });
    try {
      const first = rpc(r.url, "tools/call", { name: "wait" });
      // The first holds the one slot once its handler runs (a fixed sleep races a loaded machine).
      await running;
      const second = await rpc(r.url, "tools/call", { name: "wait" });
      expect(second.status).toBe(503);
      expect(second.headers.get("retry-after")).toBe("1");
      expect(second.json.error.code).toBe(-32000);
      release();
      expect((await first).status).toBe(200);
    } finally {
      await r.close();
    }
  });
});

describe("graceful shutdown", () => {
  it("lets a running request finish within the deadline", async () => {
    const s = new McpServer({ name: "g", version: "1" });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    s.registerTool("slow", {}, async () => {
      started();
      await finishing;
      return "finished";
    });
    const r = await listen(s, { port: 0 });
    const pending = rpc(r.url, "tools/call", { name: "slow" });
    // Close only once the request is running (a fixed sleep races a loaded machine); it ends after the
    // close began, within a deadline no machine's answer comes near.
    await running;
    const closing = r.close(120_000);
    finish();
    await closing;
    expect((await pending).json.result.content[0].text).toBe("finished");
  });

  it("aborts what is still running at the deadline", async () => {
    const before = aborted;
    released = undefined;
    const hanging = new Promise<void>((resolve) => (onHang = resolve));
    const pending = rpc(running.url, "tools/call", { name: "hang" }, { meta: { progressToken: 9 } }).catch(() => undefined);
    // Close only once the handler runs.
    await hanging;
    expect(released).toBeDefined();
    const s = server;
    expect(s).toBeDefined();
    await running.close(50);
    expect(aborted).toBe(before + 1);
    await pending;
    (released as (() => void) | undefined)?.();
    // Restart for any test that follows.
    running = await listen(streamingServer(), { port: 0 });
  });
});
