import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, defaultTextMapGetter, diag, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { Client, McpClientError, StreamableHttpTransport } from "@x/client";
import { createNodeHandler, listen, McpError, McpServer, type RunningHttpServer } from "@x/server";
import { defineActionTool, error, ok, registerActionTool } from "@x/server/actions";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { instrumentServers, type Uninstrument } from "../src/index.js";
import { callerSpan, histogramPoints, memorySdk, postRaw, seconds, sumPoints, useContextManager } from "./helpers.js";

let sdk = memorySdk();
let gate: { entered: () => void; release: Promise<void> } | undefined;

function otelServer(): McpServer {
  const server = new McpServer({ name: "otel-test", version: "1" });
  server.registerTool(
    "add",
    { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
    ({ a, b }) => String(a + b),
  );
  server.registerTool("fails", {}, () => ({ resultType: "complete", content: [{ type: "text", text: "no luck" }], isError: true }));
  server.registerTool("throws", {}, () => {
    throw new RangeError("kaboom");
  });
  server.registerTool("refuses", {}, () => {
    throw new McpError(-32602, "not that one");
  });
  // Starts a span of the application's own inside the handler, after an await, and reports the baggage it sees.
  server.registerTool("nested", {}, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    sdk.tracerProvider.getTracer("app").startSpan("db.query").end();
    return propagation.getBaggage(context.active())?.getEntry("user")?.value ?? "no baggage";
  });
  registerActionTool(
    server,
    defineActionTool({
      name: "notes",
      description: "Notes",
      actions: {
        add: { description: "Add a note", properties: { text: { type: "string" } }, required: ["text"] },
        fail: { description: "Always fails", properties: {} },
      },
      runAction: (action, data) => (action === "add" ? ok({ added: data.text }) : error({ code: 42 })),
    }),
  );
  server.registerTool("gated", {}, async () => {
    gate?.entered();
    await gate?.release;
    return "through";
  });
  return server;
}

let running: RunningHttpServer;
let stopContextManager: () => void;
let uninstrument: Uninstrument | undefined;
const clients: Client[] = [];

async function client(url = running.url, options: { protocol?: "2026-07-28" | "2025-11-25"; headers?: Record<string, string> } = {}) {
  const c = new Client({ name: "otel-test-client", version: "1" }, { protocol: options.protocol ?? "2026-07-28" });
  const transport = new StreamableHttpTransport(url, { headers: options.headers ?? {} });
  await c.connect(transport);
  clients.push(c);
  return { client: c, transport };
}

beforeAll(async () => {
  stopContextManager = useContextManager();
  running = await listen(otelServer(), { port: 0 });
});
afterAll(async () => {
  await running.close();
  stopContextManager();
});
beforeEach(() => {
  sdk = memorySdk();
});
afterEach(async () => {
  uninstrument?.();
  uninstrument = undefined;
  for (const c of clients.splice(0)) await c.close();
  await sdk.shutdown();
});

function instrument(options: Parameters<typeof instrumentServers>[0] = {}) {
  uninstrument = instrumentServers({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, ...options });
}

describe("tool calls become spans", () => {
  it("a call is a SERVER span named after the tool, the child of the traceparent in _meta, with the conventions' attributes", async () => {
    instrument();
    const caller = callerSpan();
    const { client: c } = await client();
    const result = await c.callTool("add", { a: 2, b: 40 }, { meta: { traceparent: caller.traceparent, tracestate: "vendor=abc" } });
    expect(result.content).toEqual([{ type: "text", text: "42" }]);
    const spans = sdk.spans();
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span.name).toBe("tools/call add");
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(caller.traceId);
    expect(span.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.parentSpanContext?.traceState?.get("vendor")).toBe("abc");
    expect(span.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "add",
      "jsonrpc.request.id": expect.any(String),
      "mcp.protocol.version": "2026-07-28",
      "x_mcp.tool.outcome": "ok",
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.links).toEqual([]);
    expect(span.instrumentationScope.name).toBe("@x/otel");
  });

  it("records the call's duration in mcp.server.operation.duration, in seconds, the span's own duration", async () => {
    instrument();
    const { client: c } = await client();
    await c.callTool("add", { a: 1, b: 1 });
    await c.callTool("add", { a: 1, b: 2 });
    const metrics = await sdk.metrics();
    const duration = metrics.get("mcp.server.operation.duration");
    expect(duration?.descriptor.unit).toBe("s");
    const points = histogramPoints(duration);
    expect(points).toHaveLength(1);
    expect(points[0]!.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "add",
      "mcp.protocol.version": "2026-07-28",
      "x_mcp.tool.outcome": "ok",
    });
    expect(points[0]!.count).toBe(2);
    const spanSeconds = sdk.spans().reduce((sum, span) => sum + seconds(span.duration), 0);
    expect(points[0]!.sum).toBeGreaterThan(0);
    const sum = points[0]!.sum ?? 0;
    // The same measurement, once as nanoseconds of two spans and once as seconds.
    expect(Math.abs(sum - spanSeconds)).toBeLessThan(1e-5);
    // The bucket boundaries the conventions give.
    const data = duration as unknown as { dataPoints: { value: { buckets: { boundaries: number[] } } }[] };
    expect(data.dataPoints[0]!.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
  });

  it("an isError result is status ERROR with error.type tool_error, and says which side the error is on", async () => {
    instrument();
    const { client: c } = await client();
    expect((await c.callTool("fails")).isError).toBe(true);
    // Arguments that fail the input schema: refused before the handler ran.
    expect((await c.callTool("add", { a: "two" })).isError).toBe(true);
    const [fails, invalid] = sdk.spans();
    expect(fails!.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(fails!.attributes).toMatchObject({ "error.type": "tool_error", "x_mcp.error.kind": "tool", "x_mcp.tool.outcome": "error" });
    expect(invalid!.status.code).toBe(SpanStatusCode.ERROR);
    expect(invalid!.attributes).toMatchObject({ "error.type": "tool_error", "x_mcp.error.kind": "dispatch" });
    const points = histogramPoints((await sdk.metrics()).get("mcp.server.operation.duration"));
    expect(points.map((p) => [p.attributes["gen_ai.tool.name"], p.attributes["error.type"], p.count])).toEqual([
      ["fails", "tool_error", 1],
      ["add", "tool_error", 1],
    ]);
  });

  it("a fault is status ERROR with its message and an exception event with its name, message and stack", async () => {
    instrument();
    const { client: c } = await client();
    const result = await c.callTool("throws");
    expect(result.isError).toBe(true);
    const span = sdk.spans()[0]!;
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "kaboom" });
    expect(span.attributes).toMatchObject({ "error.type": "tool_error", "x_mcp.error.kind": "tool" });
    expect(span.events).toHaveLength(1);
    expect(span.events[0]!.name).toBe("exception");
    expect(span.events[0]!.attributes).toMatchObject({ "exception.type": "RangeError", "exception.message": "kaboom" });
    expect(String(span.events[0]!.attributes?.["exception.stacktrace"])).toContain("RangeError: kaboom");
  });

  it("a JSON-RPC error thrown by the tool is status ERROR with its message, error.type and rpc.response.status_code its code", async () => {
    instrument();
    const { client: c } = await client();
    const failure = await c.callTool("refuses").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(McpClientError);
    expect((failure as McpClientError).code).toBe(-32602);
    const span = sdk.spans()[0]!;
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "not that one" });
    expect(span.attributes).toMatchObject({
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
      "x_mcp.tool.outcome": "protocol_error",
    });
    expect(span.events).toEqual([]);
    const points = histogramPoints((await sdk.metrics()).get("mcp.server.operation.duration"));
    expect(points[0]!.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
  });

  it("an action tool's span names the action; a failing action and the help tool are spans like any other", async () => {
    instrument();
    const { client: c } = await client();
    await c.callTool("notes", { action: "add", data: { text: "hi" } });
    await c.callTool("notes", { action: "fail", data: {} });
    await c.callTool("help", { tool: "notes", action: "add" });
    const [add, fail, help] = sdk.spans();
    expect(add!.name).toBe("tools/call notes");
    expect(add!.attributes).toMatchObject({ "gen_ai.tool.name": "notes", "x_mcp.tool.action": "add", "x_mcp.tool.outcome": "ok" });
    expect(fail!.attributes).toMatchObject({ "x_mcp.tool.action": "fail", "error.type": "tool_error", "x_mcp.error.kind": "tool" });
    expect(fail!.status.code).toBe(SpanStatusCode.ERROR);
    expect(help!.name).toBe("tools/call help");
    expect(help!.attributes).toMatchObject({ "gen_ai.tool.name": "help", "x_mcp.tool.action": "add", "x_mcp.tool.outcome": "ok" });
    // The action is the client's string: on spans only, never on a metric.
    const points = histogramPoints((await sdk.metrics()).get("mcp.server.operation.duration"));
    expect(points.map((p) => p.attributes["gen_ai.tool.name"]).sort()).toEqual(["help", "notes", "notes"]);
    expect(points.every((p) => p.attributes["x_mcp.tool.action"] === undefined)).toBe(true);
  });

  it("a caller that did not sample the trace gets no recorded span; its call is still measured", async () => {
    instrument();
    const { client: c } = await client();
    await c.callTool("add", { a: 1, b: 2 }, { meta: { traceparent: callerSpan("00").traceparent } });
    expect(sdk.spans()).toEqual([]);
    expect(histogramPoints((await sdk.metrics()).get("mcp.server.operation.duration"))[0]?.count).toBe(1);
  });

  it("without a traceparent and with no ambient span, the span starts a trace of its own", async () => {
    instrument();
    const { client: c } = await client();
    await c.callTool("add", { a: 1, b: 2 });
    const span = sdk.spans()[0]!;
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("the tool span is the active span in the handler, after an await too: the handler's own spans are its children", async () => {
    instrument();
    const caller = callerSpan();
    const { client: c } = await client();
    await c.callTool("nested", {}, { meta: { traceparent: caller.traceparent } });
    const [db, tool] = sdk.spans();
    expect(db!.name).toBe("db.query");
    expect(tool!.name).toBe("tools/call nested");
    expect(db!.parentSpanContext?.spanId).toBe(tool!.spanContext().spanId);
    expect(db!.spanContext().traceId).toBe(caller.traceId);
  });

  it("activateSpans: false leaves the handler in the context it had", async () => {
    instrument({ activateSpans: false });
    const caller = callerSpan();
    const { client: c } = await client();
    await c.callTool("nested", {}, { meta: { traceparent: caller.traceparent } });
    const [db, tool] = sdk.spans();
    expect(tool!.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(db!.parentSpanContext).toBeUndefined();
    expect(db!.spanContext().traceId).not.toBe(caller.traceId);
  });

  it("with the W3C propagators registered, tracestate and baggage from _meta are read by them and the handler sees the baggage", async () => {
    propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    );
    try {
      instrument();
      const caller = callerSpan();
      const { client: c } = await client();
      const result = await c.callTool(
        "nested",
        {},
        { meta: { traceparent: caller.traceparent, tracestate: "congo=t61rcWkgMzE", baggage: "user=alice" } },
      );
      expect(result.content).toEqual([{ type: "text", text: "alice" }]);
      const tool = sdk.spans().find((s) => s.name === "tools/call nested")!;
      expect(tool.parentSpanContext?.spanId).toBe(caller.spanId);
      expect(tool.parentSpanContext?.traceState?.get("congo")).toBe("t61rcWkgMzE");
    } finally {
      propagation.disable();
    }
  });

  it("attributes given as an option are on every span and every metric point", async () => {
    instrument({ attributes: { "network.transport": "tcp" } });
    const { client: c } = await client();
    await c.callTool("add", { a: 1, b: 2 });
    await postRaw(running.url, { jsonrpc: "2.0", id: 9, method: "no/such/method", params: {} });
    expect(sdk.spans()[0]!.attributes["network.transport"]).toBe("tcp");
    const metrics = await sdk.metrics();
    expect(histogramPoints(metrics.get("mcp.server.operation.duration"))[0]!.attributes["network.transport"]).toBe("tcp");
    expect(sumPoints(metrics.get("x_mcp.server.requests.rejected"))[0]!.attributes["network.transport"]).toBe("tcp");
  });
});

describe("the ambient context: what the HTTP layer started", () => {
  // The application's HTTP instrumentation, as @opentelemetry/instrumentation-http does it: the
  // HTTP request's own traceparent header is extracted and an HTTP server span is active while
  // the MCP handler runs.
  let http: Server;
  let url: string;
  beforeAll(async () => {
    const handler = createNodeHandler(otelServer());
    const w3c = new W3CTraceContextPropagator();
    http = createServer((req, res) => {
      const remote = w3c.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const httpSpan = sdk.tracerProvider
        .getTracer("app")
        .startSpan("POST /mcp", { kind: SpanKind.SERVER, attributes: { "test.mcp_method": String(req.headers["mcp-method"]) } }, remote);
      res.on("finish", () => httpSpan.end());
      context.with(trace.setSpan(remote, httpSpan), () => handler(req, res));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it("without a traceparent in _meta, the span is a child of the ambient span (from the client's traceparent header)", async () => {
    instrument();
    const header = callerSpan();
    const { client: c } = await client(url, { headers: { traceparent: header.traceparent } });
    sdk.reset();
    await c.callTool("add", { a: 1, b: 2 });
    const tool = sdk.spans().find((s) => s.name === "tools/call add")!;
    const httpSpan = sdk.spans().find((s) => s.name === "POST /mcp" && s.attributes["test.mcp_method"] === "tools/call")!;
    expect(httpSpan.parentSpanContext?.spanId).toBe(header.spanId);
    expect(tool.parentSpanContext?.spanId).toBe(httpSpan.spanContext().spanId);
    expect(tool.spanContext().traceId).toBe(header.traceId);
    expect(tool.links).toEqual([]);
  });

  it("with a traceparent in _meta, that is the parent and the ambient span is linked", async () => {
    instrument();
    const header = callerSpan();
    const caller = callerSpan();
    const { client: c } = await client(url, { headers: { traceparent: header.traceparent } });
    sdk.reset();
    await c.callTool("add", { a: 1, b: 2 }, { meta: { traceparent: caller.traceparent } });
    const tool = sdk.spans().find((s) => s.name === "tools/call add")!;
    const httpSpan = sdk.spans().find((s) => s.name === "POST /mcp" && s.attributes["test.mcp_method"] === "tools/call")!;
    expect(tool.spanContext().traceId).toBe(caller.traceId);
    expect(tool.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(tool.links.map((l) => l.context.spanId)).toEqual([httpSpan.spanContext().spanId]);
    expect(tool.links[0]!.context.traceId).toBe(header.traceId);
  });
});

describe("refused requests and ignored messages become counters", () => {
  it("x_mcp.server.requests.rejected counts JSON-RPC errors by code, with the method only when the protocol defines it", async () => {
    instrument();
    const { client: c } = await client();
    await expect(c.callTool("no_such_tool")).rejects.toMatchObject({ code: -32602 });
    const unknown = await postRaw(running.url, { jsonrpc: "2.0", id: 7, method: "made/up/method", params: {} });
    expect(unknown.body.error.code).toBe(-32601);
    const points = sumPoints((await sdk.metrics()).get("x_mcp.server.requests.rejected"));
    expect(points).toEqual(
      expect.arrayContaining([
        { attributes: { "mcp.method.name": "tools/call", "rpc.response.status_code": "-32602", "error.type": "-32602" }, value: 1 },
        { attributes: { "mcp.method.name": "_OTHER", "rpc.response.status_code": "-32601", "error.type": "-32601" }, value: 1 },
      ]),
    );
    expect(points.every((p) => p.attributes["mcp.method.name"] !== "made/up/method")).toBe(true);
    // A refused request reached no tool: no span.
    expect(sdk.spans()).toEqual([]);
  });

  it("x_mcp.server.messages.ignored counts JSON-RPC responses the server never asked for", async () => {
    instrument();
    const answer = await postRaw(running.url, { jsonrpc: "2.0", id: 5, result: {} });
    expect(answer.status).toBe(202);
    await postRaw(running.url, { jsonrpc: "2.0", id: 6, error: { code: -32000, message: "x" } });
    const points = sumPoints((await sdk.metrics()).get("x_mcp.server.messages.ignored"));
    expect(points).toEqual([{ attributes: { "x_mcp.ignored.reason": "unsolicited-response" }, value: 2 }]);
  });
});

describe("the initialize era", () => {
  it("a call on a session carries the session id and the negotiated version; _meta's traceparent is honoured there too", async () => {
    instrument();
    const caller = callerSpan();
    const { client: c, transport } = await client(running.url, { protocol: "2025-11-25" });
    expect(c.era).toBe("legacy");
    await c.callTool("add", { a: 1, b: 2 }, { meta: { traceparent: caller.traceparent } });
    const span = sdk.spans()[0]!;
    expect(transport.sessionId).toMatch(/./);
    expect(span.attributes).toMatchObject({ "mcp.session.id": transport.sessionId, "mcp.protocol.version": "2025-11-25" });
    expect(span.parentSpanContext?.spanId).toBe(caller.spanId);
    const point = histogramPoints((await sdk.metrics()).get("mcp.server.operation.duration"))[0]!;
    // No session id on a metric: one series per session would grow without bound.
    expect(point.attributes["mcp.session.id"]).toBeUndefined();
    expect(point.attributes["mcp.protocol.version"]).toBe("2025-11-25");
    // The client's first connect of that era loads the era's validators: slow on a loaded machine.
  });
});

describe("stopping and failing", () => {
  it("the returned function stops recording; a call already running still gets its span ended", async () => {
    instrument();
    const { client: c } = await client();
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    gate = { entered, release: new Promise<void>((resolve) => (release = resolve)) };
    const call = c.callTool("gated");
    await inside;
    uninstrument!();
    release();
    expect((await call).content).toEqual([{ type: "text", text: "through" }]);
    expect(sdk.spans().map((s) => s.name)).toEqual(["tools/call gated"]);
    await c.callTool("add", { a: 1, b: 2 });
    await postRaw(running.url, { jsonrpc: "2.0", id: 8, method: "made/up/method", params: {} });
    expect(sdk.spans().map((s) => s.name)).toEqual(["tools/call gated"]);
    const metrics = await sdk.metrics();
    expect(histogramPoints(metrics.get("mcp.server.operation.duration")).map((p) => [p.attributes["gen_ai.tool.name"], p.count])).toEqual([
      ["gated", 1],
    ]);
    expect(sumPoints(metrics.get("x_mcp.server.requests.rejected"))).toEqual([]);
    // Calling it again does nothing.
    uninstrument!();
    gate = undefined;
  });

  it("uses the global providers when given none", async () => {
    trace.setGlobalTracerProvider(sdk.tracerProvider);
    try {
      uninstrument = instrumentServers({ meterProvider: sdk.meterProvider });
      const { client: c } = await client();
      await c.callTool("add", { a: 1, b: 2 });
      expect(sdk.spans().map((s) => s.name)).toEqual(["tools/call add"]);
    } finally {
      trace.disable();
    }
  });

  it("an SDK that throws is reported through diag, and the server answers as if nothing was subscribed", async () => {
    const reported: unknown[][] = [];
    const logger = { error: (...args: unknown[]) => reported.push(args), warn() {}, info() {}, debug() {}, verbose() {} };
    diag.setLogger(logger);
    try {
      const broken = {
        getTracer() {
          throw new Error("broken tracer provider");
        },
      };
      uninstrument = instrumentServers({ tracerProvider: broken, meterProvider: sdk.meterProvider });
      const { client: c } = await client();
      expect((await c.callTool("add", { a: 20, b: 22 })).content).toEqual([{ type: "text", text: "42" }]);
      expect(reported.some((args) => String(args[0]).includes("@x/otel") && String(args[1]).includes("broken tracer provider"))).toBe(true);
    } finally {
      diag.disable();
    }
  });
});
