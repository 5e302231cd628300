// server/discover (src/features/discover.ts): who the server is, the capabilities every feature adds up to, its versions.
import { META_SERVER_INFO, validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { listen, McpServer } from "../../src/index.js";
import { rpc, send, testServer } from "../helpers.js";

describe("server/discover", () => {
  it("answers a valid DiscoverResult with the implied capabilities and server info", async () => {
    const r = (await send(testServer(), "server/discover")).result;
    expect(validate("DiscoverResult", r).ok).toBe(true);
    expect(r.capabilities).toEqual({ tools: { listChanged: true } });
    expect(r.supportedVersions).toEqual(["2026-07-28"]);
    expect((r._meta as Record<string, unknown>)[META_SERVER_INFO]).toEqual({ name: "test-server", version: "1.2.3" });
  });

  it("advertises no tools capability without tools, and tools/list is then -32601", async () => {
    const empty = new McpServer({ name: "empty", version: "1" });
    expect((await send(empty, "server/discover")).result.capabilities).toEqual({});
    expect((await send(empty, "tools/list")).error).toMatchObject({ code: -32601, data: { method: "tools/list" } });
  });

  it("advertises exactly what the registrations imply", async () => {
    const s = new McpServer({ name: "features", version: "1.0.0" });
    s.registerResource("readme", "file:///readme.md", {}, () => "# Hello");
    s.registerPrompt("greet", { arguments: [{ name: "tone" }], complete: { tone: () => ["warm"] } }, () => "hi");
    const running = await listen(s, { port: 0 });
    try {
      const caps = (await rpc(running.url, "server/discover")).json.result.capabilities;
      expect(caps).toEqual({ prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, completions: {} });
      // No tools registered: tools/list is -32601.
      expect((await rpc(running.url, "tools/list")).status).toBe(404);
    } finally {
      await running.close();
    }
  });

  it("adds logging only when declared, and tools only with tools", async () => {
    const s = new McpServer({ name: "l", version: "1" }, { logging: true });
    s.registerTool("t", {}, () => "t");
    expect((await send(s, "server/discover")).result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
    const quiet = new McpServer({ name: "l", version: "1" });
    quiet.registerTool("t", {}, () => "t");
    expect((await send(quiet, "server/discover")).result.capabilities).toEqual({ tools: { listChanged: true } });
  });

  it("follows registrations made and removed at run time, in the features' order", async () => {
    const s = new McpServer({ name: "live", version: "1" }, { logging: true });
    const caps = async () => (await send(s, "server/discover")).result.capabilities as Record<string, unknown>;
    expect(Object.keys(await caps())).toEqual(["logging"]);
    s.registerResourceTemplate("t", "x://{a}", { complete: { a: () => [] } }, () => "");
    s.registerPrompt("p", {}, () => "p");
    s.registerTool("t", {}, () => "t");
    expect(Object.keys(await caps())).toEqual(["tools", "prompts", "resources", "completions", "logging"]);
    expect(s.removeTool("t")).toBe(true);
    expect(s.removePrompt("p")).toBe(true);
    expect(await caps()).toEqual({ resources: { listChanged: true, subscribe: true }, completions: {}, logging: {} });
    expect(s.removeResourceTemplate("t")).toBe(true);
    expect(await caps()).toEqual({ logging: {} });
    // What server/discover answers is what the server object says.
    expect(s.capabilities()).toEqual(await caps());
  });

  it("publishes the whole Implementation, the instructions and the versions the server answers", async () => {
    const s = new McpServer(
      { name: "named", version: "2.0.0", title: "Named Server", websiteUrl: "https://example.com" },
      { instructions: "Use the tools." },
    );
    const r = (await send(s, "server/discover")).result;
    expect(validate("DiscoverResult", r).ok).toBe(true);
    expect(r._meta[META_SERVER_INFO]).toEqual({
      name: "named",
      version: "2.0.0",
      title: "Named Server",
      websiteUrl: "https://example.com",
    });
    expect(r.instructions).toBe("Use the tools.");
    expect(r.supportedVersions).toEqual(s.supportedVersions);
    expect("instructions" in (await send(new McpServer({ name: "n", version: "1" }), "server/discover")).result).toBe(false);
  });

  it("carries the no-reuse cache hints by default and the configured ones for server/discover", async () => {
    const plain = (await send(new McpServer({ name: "c", version: "1" }), "server/discover")).result;
    expect(plain).toMatchObject({ ttlMs: 0, cacheScope: "private" });
    const configured = new McpServer(
      { name: "c", version: "1" },
      { cache: { ttlMs: 5, methods: { "server/discover": { ttlMs: 60_000, cacheScope: "public" } } } },
    );
    expect((await send(configured, "server/discover")).result).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
    const defaulted = new McpServer({ name: "c", version: "1" }, { cache: { ttlMs: 5 } });
    expect((await send(defaulted, "server/discover")).result).toMatchObject({ ttlMs: 5, cacheScope: "private" });
  });
});
