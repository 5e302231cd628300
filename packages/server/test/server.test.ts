import { META_SERVER_INFO } from "@x/mcp-v2607";
import { validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { McpError, McpServer } from "../src/index.js";
import { statusOf } from "../src/transports/http/status.js";
import { meta, request, testServer } from "./helpers.js";

const server = testServer();

async function result(method: string, params: Record<string, unknown> = {}) {
  const outcome = await server.handle(request(method, params));
  expect(statusOf(outcome)).toBe(200);
  const response = outcome.response as unknown as { result: Record<string, unknown> };
  expect(response.result).toBeDefined();
  return response.result;
}

describe("server/discover", () => {
  it("answers a valid DiscoverResult with the implied capabilities and server info", async () => {
    const r = await result("server/discover");
    expect(validate("DiscoverResult", r).ok).toBe(true);
    expect(r.capabilities).toEqual({ tools: { listChanged: true } });
    expect(r.supportedVersions).toEqual(["2026-07-28"]);
    expect((r._meta as Record<string, unknown>)[META_SERVER_INFO]).toEqual({ name: "test-server", version: "1.2.3" });
  });

  it("advertises no tools capability without tools, and tools/list is then -32601", async () => {
    const empty = new McpServer({ name: "empty", version: "1" });
    const discover = await empty.handle(request("server/discover"));
    expect((discover.response as unknown as { result: { capabilities: unknown } }).result.capabilities).toEqual({});
    const list = await empty.handle(request("tools/list"));
    expect(statusOf(list)).toBe(404);
    expect((list.response as unknown as { error: { code: number } }).error.code).toBe(-32601);
  });
});

describe("tools/list", () => {
  it("lists every tool in registration order with cache hints and server info", async () => {
    const r = await result("tools/list");
    expect(validate("ListToolsResult", r).ok).toBe(true);
    const tools = r.tools as { name: string; outputSchema?: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(["echo", "sum", "bad_output", "throws", "rejects_non_error", "returns_junk", "region"]);
    expect(tools[1]!.outputSchema).toEqual({ type: "object", properties: { sum: { type: "number" } }, required: ["sum"] });
    expect(r.ttlMs).toBe(0);
    expect(r.cacheScope).toBe("private");
    expect(r.resultType).toBe("complete");
    expect((r._meta as Record<string, unknown>)[META_SERVER_INFO]).toBeDefined();
  });

  it("uses configured cache hints and refuses invalid ones when the server is built", async () => {
    const s = new McpServer({ name: "c", version: "1" }, { cache: { methods: { "tools/list": { ttlMs: 60000, cacheScope: "public" } } } });
    s.registerTool("t", {}, () => "t");
    const r = (await s.handle(request("tools/list"))).response as unknown as { result: { ttlMs: number; cacheScope: string } };
    expect(r.result).toMatchObject({ ttlMs: 60000, cacheScope: "public" });
    expect(() => new McpServer({ name: "c", version: "1" }, { cache: { methods: { "tools/list": { ttlMs: -1 } } } })).toThrow(RangeError);
  });
});

describe("tools/call", () => {
  it("runs a tool and stamps resultType and server info", async () => {
    const r = await result("tools/call", { name: "echo", arguments: { text: "hi" } });
    expect(r.content).toEqual([{ type: "text", text: "hi" }]);
    expect(r.resultType).toBe("complete");
    expect("isError" in r).toBe(false);
    expect(validate("CallToolResult", r).ok).toBe(true);
  });

  it("returns structuredContent that matches the outputSchema", async () => {
    const r = await result("tools/call", { name: "sum", arguments: { a: 2, b: 3 } });
    expect(r.structuredContent).toEqual({ sum: 5 });
  });

  it("answers invalid arguments with an isError result saying what is wrong", async () => {
    const r = await result("tools/call", { name: "echo", arguments: { text: 5, extra: true } });
    expect(r.isError).toBe(true);
    const text = (r.content as { text: string }[])[0]!.text;
    expect(text).toContain("/text: must be string");
    expect(text).toContain('unknown property "extra"');
  });

  it("answers missing arguments with an isError result naming the property", async () => {
    const r = await result("tools/call", { name: "echo" });
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]!.text).toContain('missing required property "text"');
  });

  it("never sends structuredContent that fails the outputSchema", async () => {
    const r = await result("tools/call", { name: "bad_output" });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect((r.content as { text: string }[])[0]!.text).toContain("does not match its outputSchema");
  });

  it("contains a throw, a rejected non-Error and a junk return as isError results", async () => {
    const thrown = await result("tools/call", { name: "throws" });
    expect(thrown.isError).toBe(true);
    expect(thrown.structuredContent).toEqual({ errorType: "tool_fault", tool: "throws", exception: "Error", message: "kaboom" });
    const rejected = await result("tools/call", { name: "rejects_non_error" });
    expect(rejected.isError).toBe(true);
    // The text block is the same diagnostic body as JSON; a thrown non-Error value is reported as "throw".
    expect(JSON.parse((rejected.content as { text: string }[])[0]!.text)).toEqual({
      errorType: "tool_fault",
      tool: "rejects_non_error",
      exception: "throw",
      message: '{"weird":true}',
    });
    const junk = await result("tools/call", { name: "returns_junk" });
    expect(junk.isError).toBe(true);
    // The server keeps serving.
    expect((await result("tools/call", { name: "echo", arguments: { text: "still here" } })).content).toEqual([
      { type: "text", text: "still here" },
    ]);
  });

  it("answers an unknown tool with -32602 naming it", async () => {
    const outcome = await server.handle(request("tools/call", { name: "nope" }));
    expect(statusOf(outcome)).toBe(200);
    expect(outcome.response).toMatchObject({ error: { code: -32602, message: "Unknown tool: nope", data: { name: "nope" } } });
  });

  it("answers a missing name or non-object arguments with -32602", async () => {
    expect((await server.handle(request("tools/call", {}))).response).toMatchObject({ error: { code: -32602 } });
    expect((await server.handle(request("tools/call", { name: "echo", arguments: [1] }))).response).toMatchObject({
      error: { code: -32602 },
    });
  });

  it("answers with the JSON-RPC error a tool throws on purpose (McpError), with its HTTP status", async () => {
    const s = new McpServer({ name: "e", version: "1" });
    s.registerTool("needs_sampling", {}, () => {
      throw new McpError(-32021, "needs sampling", { requiredCapabilities: { sampling: {} } });
    });
    s.registerTool("app_code", {}, () => {
      throw Object.assign(new Error("app failure"), { code: 42 });
    });
    const outcome = await s.handle(request("tools/call", { name: "needs_sampling" }));
    expect(statusOf(outcome)).toBe(400);
    expect(outcome.response).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: { sampling: {} } } } });
    // An application error code outside the JSON-RPC range is still a tool fault.
    const app = (await s.handle(request("tools/call", { name: "app_code" }))).response as unknown as { result: { isError: boolean } };
    expect(app.result.isError).toBe(true);
  });

  it("refuses bad registrations with a clear error", () => {
    const s = new McpServer({ name: "r", version: "1" });
    s.registerTool("a", {}, () => "a");
    expect(() => s.registerTool("a", {}, () => "a")).toThrow(/already registered/);
    expect(() =>
      s.registerTool("b", { inputSchema: { type: "object", properties: { x: { $ref: "#/$defs/missing" } } } }, () => "b"),
    ).toThrow(/tool b: inputSchema does not compile/);
    expect(() =>
      s.registerTool("c", { inputSchema: { type: "object", properties: { x: { $ref: "https://example.com/schema.json" } } } }, () => "c"),
    ).toThrow(/tool c: inputSchema/);
    expect(() => s.registerTool("d", { inputSchema: { type: "string" } as never }, () => "d")).toThrow(/type "object"/);
    expect(() => s.registerTool("", {}, () => "e")).toThrow(/breaks the spec.s rule/);
    expect(() => new McpServer({ name: "r", version: "1" }, { strictToolNames: false }).registerTool("", {}, () => "e")).toThrow(
      /non-empty/,
    );
  });

  it("resolves local $ref in an input schema", async () => {
    const s = new McpServer({ name: "r", version: "1" });
    s.registerTool(
      "ref",
      { inputSchema: { type: "object", $defs: { n: { type: "integer" } }, properties: { x: { $ref: "#/$defs/n" } } } },
      (a) => String(a.x),
    );
    const ok = (await s.handle(request("tools/call", { name: "ref", arguments: { x: 3 } }))).response as unknown as {
      result: { isError?: boolean };
    };
    expect(ok.result.isError).toBeUndefined();
    const bad = (await s.handle(request("tools/call", { name: "ref", arguments: { x: "3" } }))).response as unknown as {
      result: { isError?: boolean };
    };
    expect(bad.result.isError).toBe(true);
  });
});

describe("envelope", () => {
  it("refuses a request without _meta, protocol version or client capabilities with -32602", async () => {
    for (const params of [{}, { _meta: {} }, { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }]) {
      const outcome = await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params });
      expect(statusOf(outcome)).toBe(400);
      expect(outcome.response).toMatchObject({ id: 1, error: { code: -32602 } });
    }
  });

  it("refuses an unsupported protocol version with -32022 listing the supported ones", async () => {
    const outcome = await server.handle({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/list",
      params: { _meta: meta({ "io.modelcontextprotocol/protocolVersion": "2020-01-01" }) },
    });
    expect(statusOf(outcome)).toBe(400);
    expect(outcome.response).toMatchObject({
      id: 9,
      error: { code: -32022, data: { supported: ["2026-07-28"], requested: "2020-01-01" } },
    });
  });

  it("answers removed and unknown methods with -32601", async () => {
    for (const method of ["initialize", "ping", "logging/setLevel", "nope/nope"]) {
      const outcome = await server.handle(request(method));
      expect(statusOf(outcome)).toBe(404);
      expect(outcome.response).toMatchObject({ error: { code: -32601 } });
    }
  });

  it("refuses messages that are not requests with -32600", async () => {
    for (const message of [
      null,
      3,
      "x",
      { jsonrpc: "1.0", id: 1, method: "x" },
      { jsonrpc: "2.0", id: 1 },
      { jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" },
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: [] },
    ]) {
      const outcome = await server.handle(message);
      expect(statusOf(outcome)).toBe(400);
      expect(outcome.response).toMatchObject({ error: { code: -32600 } });
    }
  });

  it("accepts a notification with no response", async () => {
    const outcome = await server.handle({ jsonrpc: "2.0", method: "notifications/whatever" });
    expect(outcome.response).toBeUndefined();
    expect(statusOf(outcome)).toBe(202);
  });
});
