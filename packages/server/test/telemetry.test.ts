import { AsyncLocalStorage } from "node:async_hooks";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterEach, describe, expect, it } from "vitest";
import {
  CHANNELS,
  dispatchError,
  type HelpEvent,
  type MessageIgnoredEvent,
  readTraceContext,
  type RequestRejectedEvent,
  type ToolCallEvent,
} from "../src/telemetry-entry.js";
import { McpError, McpServer } from "../src/index.js";
import { registerActionTool } from "../src/actions/index.js";
import { callTool, serve, tasks } from "./actions-fixture.js";
import { rpc } from "./helpers.js";
import { open, post, rq, start } from "./legacy/helpers.js";

const store = new AsyncLocalStorage<string>();

function telemetryServer(): McpServer {
  const server = new McpServer({ name: "telemetry", version: "1" });
  registerActionTool(server, tasks);
  server.registerTool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } } });
    return JSON.stringify(answer);
  });
  server.registerTool("protocol", {}, () => {
    throw new McpError(-32602, "no such thing");
  });
  server.registerTool("throws", {}, () => {
    throw new RangeError("kaboom");
  });
  server.registerTool("store", {}, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return String(store.getStore() ?? "none");
  });
  server.registerTool("own_check", { inputSchema: { type: "object" } }, (args) =>
    args.ok ? "fine" : dispatchError({ resultType: "complete", content: [{ type: "text", text: "send ok: true" }], isError: true }),
  );
  return server;
}

const srv = serve(telemetryServer);

const listeners: [string, (m: unknown) => void][] = [];
function collect<T>(name: string): T[] {
  const seen: T[] = [];
  const listener = (m: unknown) => seen.push(m as T);
  subscribe(name, listener);
  listeners.push([name, listener]);
  return seen;
}
afterEach(() => {
  for (const [name, listener] of listeners.splice(0)) unsubscribe(name, listener);
});

describe("telemetry on node:diagnostics_channel", () => {
  it("names every channel in one place", () => {
    expect(CHANNELS).toEqual({
      toolStart: "x-mcp:tool:start",
      toolStop: "x-mcp:tool:stop",
      toolError: "x-mcp:tool:error",
      help: "x-mcp:help",
      requestRejected: "x-mcp:request:rejected",
      messageIgnored: "x-mcp:message:ignored",
      traffic: "x-mcp:traffic",
    });
  });

  it("publishes one object through tool:start and tool:stop, with the action, the request id and the caller's trace context", async () => {
    const starts = collect<ToolCallEvent>(CHANNELS.toolStart);
    const stops = collect<ToolCallEvent>(CHANNELS.toolStop);
    // A subscriber may stash its own data (a span) on the event at start and find it at stop.
    const stash = (m: unknown) => {
      (m as ToolCallEvent).span = "span-from-a-subscriber";
    };
    subscribe(CHANNELS.toolStart, stash);
    listeners.push([CHANNELS.toolStart, stash]);
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";
    await rpc(
      srv.url,
      "tools/call",
      { name: "tasks", arguments: { action: "get", data: { id: 1 } } },
      { id: "t-1", meta: { traceparent } },
    );
    expect(starts).toHaveLength(1);
    expect(stops).toHaveLength(1);
    expect(stops[0]).toBe(starts[0]);
    expect(stops[0]).toMatchObject({
      tool: "tasks",
      action: "get",
      requestId: "t-1",
      outcome: "ok",
      isError: false,
      errorKind: undefined,
      span: "span-from-a-subscriber",
    });
    expect(stops[0]!.trace).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentId: "00f067aa0ba902b7", sampled: false });
    expect(stops[0]).toMatchObject({ protocolVersion: "2026-07-28", sessionId: undefined, errorCode: undefined });
    expect(typeof stops[0]!.durationMs).toBe("number");
    expect(stops[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("tool:stop reports input_required and protocol_error outcomes, and a handler's own dispatchError mark", async () => {
    const stops = collect<ToolCallEvent>(CHANNELS.toolStop);
    const asked = await rpc(
      srv.url,
      "tools/call",
      { name: "ask" },
      { meta: { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } },
    );
    expect(asked.json.result.resultType).toBe("input_required");
    await rpc(srv.url, "tools/call", { name: "protocol" });
    await callTool(srv.url, "own_check", { ok: false });
    await callTool(srv.url, "own_check", { ok: true });
    expect(stops.map((e) => [e.tool, e.outcome, e.isError, e.errorKind])).toEqual([
      ["ask", "input_required", false, undefined],
      ["protocol", "protocol_error", true, undefined],
      ["own_check", "error", true, "dispatch"],
      ["own_check", "ok", false, undefined],
    ]);
  });

  it("tool:stop of a protocol_error carries the JSON-RPC code and message the request is answered with", async () => {
    const stops = collect<ToolCallEvent>(CHANNELS.toolStop);
    const answer = await rpc(srv.url, "tools/call", { name: "protocol" });
    expect(answer.json.error).toMatchObject({ code: -32602, message: "no such thing" });
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatchObject({ outcome: "protocol_error", errorCode: -32602, error: "no such thing", exception: undefined });
    // A fault is no protocol error: no code, and its message is the fault's.
    expect((await callTool(srv.url, "throws")).result.isError).toBe(true);
    expect(stops[1]).toMatchObject({ outcome: "error", errorCode: undefined, error: "kaboom", exception: "RangeError" });
  });

  it("a start subscriber's within runs the handler inside its own async context; without one the handler runs as before", async () => {
    const starts = collect<ToolCallEvent>(CHANNELS.toolStart);
    expect((await callTool(srv.url, "store")).text).toBe("none");
    const enter = (m: unknown) => {
      (m as ToolCallEvent).within = (run) => store.run("from-the-subscriber", run);
    };
    subscribe(CHANNELS.toolStart, enter);
    listeners.push([CHANNELS.toolStart, enter]);
    // Read after an await inside the handler: the context follows the handler's own async work.
    expect((await callTool(srv.url, "store")).text).toBe("from-the-subscriber");
    expect(starts).toHaveLength(2);
  });

  it("a tool call on an initialize-era session carries the session id and the negotiated version", async () => {
    const running = await start(telemetryServer());
    try {
      const stops = collect<ToolCallEvent>(CHANNELS.toolStop);
      const session = await open(running.url, {}, "2025-06-18");
      const res = await post(running.url, rq("tools/call", { name: "store" }), session.headers);
      expect(res.status).toBe(200);
      await res.text();
      expect(stops).toHaveLength(1);
      expect(stops[0]).toMatchObject({ tool: "store", outcome: "ok", protocolVersion: "2025-06-18", sessionId: session.id });
      expect(session.id).toMatch(/./);
    } finally {
      await running.stop();
    }
  });

  it("x-mcp:help reports the level, the target and whether help answered an error", async () => {
    const helps = collect<HelpEvent>(CHANNELS.help);
    await callTool(srv.url, "help");
    await callTool(srv.url, "help", { tool: "tasks" });
    await callTool(srv.url, "help", { tool: "tasks", action: "create" });
    await callTool(srv.url, "help", { tool: "tasks", action: "nope" });
    await callTool(srv.url, "help", { topic: "x" });
    expect(helps.map((h) => [h.level, h.tool, h.action, h.isError])).toEqual([
      ["index", undefined, undefined, false],
      ["tool", "tasks", undefined, false],
      ["action", "tasks", "create", false],
      ["action", "tasks", "nope", true],
      ["index", undefined, undefined, true],
    ]);
    expect(typeof helps[0]!.requestId).not.toBe("undefined");
  });

  it("x-mcp:request:rejected reports every JSON-RPC error the server answers", async () => {
    const rejected = collect<RequestRejectedEvent>(CHANNELS.requestRejected);
    await rpc(srv.url, "tools/call", { name: "nope" }, { id: "r1" });
    await rpc(srv.url, "no/such/method", {}, { id: "r2" });
    await srv.server!.handle({ jsonrpc: "2.0", id: "r3", method: "tools/list", params: {} });
    await srv.server!.handle({ jsonrpc: "1.0", id: "r4", method: "tools/list" });
    expect(rejected.map((r) => [r.requestId, r.method, r.code, r.status])).toEqual([
      ["r1", "tools/call", -32602, 200],
      ["r2", "no/such/method", -32601, 404],
      // `handle` is no HTTP transport: no status.
      ["r3", "tools/list", -32602, undefined],
      ["r4", "tools/list", -32600, undefined],
    ]);
    expect(rejected[0]!.message).toContain("nope");
  });

  it("x-mcp:request:rejected carries the status the transport answered with: HTTP's own, 200 on an initialize-era session", async () => {
    const rejected = collect<RequestRejectedEvent>(CHANNELS.requestRejected);
    const bare = (body: unknown) =>
      fetch(srv.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      });
    expect((await bare({ jsonrpc: "2.0", id: "h3", method: "tools/list", params: {} })).status).toBe(400);
    expect((await bare({ jsonrpc: "1.0", id: "h4", method: "tools/list" })).status).toBe(400);
    const session = await open(srv.url, {}, "2025-11-25");
    const res = await post(srv.url, { jsonrpc: "2.0", id: "s1", method: "no/such/method", params: {} }, session.headers);
    expect(res.status).toBe(200);
    expect(rejected.map((r) => [r.requestId, r.code, r.status])).toEqual([
      ["h3", -32602, 400],
      ["h4", -32600, 400],
      ["s1", -32601, 200],
    ]);
  });

  it("x-mcp:message:ignored reports a JSON-RPC response, well formed or not, which is not answered and not reported as rejected", async () => {
    const ignored = collect<MessageIgnoredEvent>(CHANNELS.messageIgnored);
    const rejected = collect<RequestRejectedEvent>(CHANNELS.requestRejected);
    const outcomes = [
      await srv.server!.handle({ jsonrpc: "2.0", id: 7, result: {} }),
      await srv.server!.handle({ jsonrpc: "2.0", id: "e", error: { code: -32000, message: "x" } }),
      await srv.server!.handle({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
      await srv.server!.handle({ jsonrpc: "2.0", error: "not an error object" }),
    ];
    expect(outcomes.map((o) => o.response)).toEqual([undefined, undefined, undefined, undefined]);
    expect(ignored).toEqual([
      { reason: "unsolicited-response", requestId: 7, code: undefined },
      { reason: "unsolicited-response", requestId: "e", code: -32000 },
      { reason: "unsolicited-response", requestId: undefined, code: -32700 },
      { reason: "invalid-response", requestId: undefined, code: undefined },
    ]);
    expect(rejected).toEqual([]);
  });

  it("reads W3C trace context from _meta and ignores a malformed traceparent", () => {
    const valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    expect(readTraceContext({ traceparent: valid, tracestate: "a=1", baggage: "k=v" })).toEqual({
      traceparent: valid,
      tracestate: "a=1",
      baggage: "k=v",
      traceId: "0af7651916cd43dd8448eb211c80319c",
      parentId: "b7ad6b7169203331",
      traceFlags: 1,
      sampled: true,
    });
    // A future version may carry more fields; version 00 may not.
    expect(readTraceContext({ traceparent: `01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra` })?.traceId).toBe(
      "0af7651916cd43dd8448eb211c80319c",
    );
    for (const bad of [
      undefined,
      42,
      "",
      `${valid}-extra`,
      "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "00-00000000000000000000000000000000-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
      "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
      "00-0af7651916cd43dd8448eb211c8031-b7ad6b7169203331-01",
    ]) {
      expect(readTraceContext({ traceparent: bad, tracestate: "a=1" }), String(bad)).toBeUndefined();
    }
    expect(readTraceContext(undefined)).toBeUndefined();
  });

  it("answers normally when no one subscribes", async () => {
    const res = await callTool(srv.url, "tasks", { action: "get", data: { id: 3 } });
    expect(res.body).toEqual({ id: 3, name: "Write the docs" });
  });
});
