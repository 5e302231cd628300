// The server object (src/server.ts) and its dispatch of a message: the options checked when it is built, the envelope.
// Each feature's methods are tested in test/features/.
import { describe, expect, it } from "vitest";
import { McpServer } from "../src/index.js";
import { statusOf } from "../src/transports/http/status.js";
import { meta, request, testServer } from "./helpers.js";

const server = testServer();

describe("configuration is checked when configured, not when served", () => {
  it("refuses invalid cache hints, page sizes and keys when the server is built", () => {
    expect(() => new McpServer({ name: "c", version: "1" }, { cache: { ttlMs: -1 } })).toThrow(RangeError);
    expect(() => new McpServer({ name: "c", version: "1" }, { cache: { cacheScope: "shared" as never } })).toThrow(/cacheScope/);
    expect(() => new McpServer({ name: "c", version: "1" }, { cache: { methods: { "tools/call": { ttlMs: 1 } } as never } })).toThrow(
      /carries no cache hints/,
    );
    expect(() => new McpServer({ name: "c", version: "1" }, { pageSize: 0 })).toThrow(RangeError);
    expect(() => new McpServer({ name: "c", version: "1" }, { requestStateKeys: [Buffer.alloc(8)] })).toThrow(/at least 32 bytes/);
    expect(() => new McpServer({ name: "c", version: "1", title: 5 as never })).toThrow(/title must be a string/);
    expect(() => new McpServer({ name: "c", version: "1", websiteUrl: new URL("https://example.com") as never })).toThrow(
      /websiteUrl must be a string/,
    );
    expect(new McpServer({ name: "c", version: "1", websiteUrl: "https://example.com" }).info.websiteUrl).toBe("https://example.com");
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
