// The tools feature (src/features/tools/index.ts): the registry, the tools capability, tools/list and tools/call's lookup.
import { META_SERVER_INFO, validate } from "@x/mcp-v2607";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer, TOOL_NAME_PATTERN } from "../../../src/index.js";
import { listenTo, rpc, send, testServer } from "../../helpers.js";

const server = testServer();

describe("tools/list", () => {
  it("lists every tool in registration order with cache hints and server info", async () => {
    const r = (await send(server, "tools/list")).result;
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
    expect((await send(s, "tools/list")).result).toMatchObject({ ttlMs: 60000, cacheScope: "public" });
    expect(() => new McpServer({ name: "c", version: "1" }, { cache: { methods: { "tools/list": { ttlMs: -1 } } } })).toThrow(RangeError);
  });

  it("shows a tool registered or removed at run time, and a removed tool is an unknown tool", async () => {
    const s = new McpServer({ name: "live", version: "1" });
    s.registerTool("a", {}, () => "a").registerTool("b", {}, () => "b");
    const names = async () => ((await send(s, "tools/list")).result.tools as { name: string }[]).map((t) => t.name);
    expect(await names()).toEqual(["a", "b"]);
    expect(s.removeTool("a")).toBe(true);
    expect(s.removeTool("a")).toBe(false);
    s.registerTool("c", {}, () => "c");
    expect(await names()).toEqual(["b", "c"]);
    expect((await send(s, "tools/call", { name: "a" })).error).toMatchObject({ code: -32602, message: "Unknown tool: a" });
    // The last tool gone, the feature has nothing to serve: both methods are unknown again.
    s.removeTool("b");
    s.removeTool("c");
    expect((await send(s, "tools/list")).error.code).toBe(-32601);
    expect((await send(s, "tools/call", { name: "b" })).error.code).toBe(-32601);
  });

  describe("pagination", () => {
    const paged = new McpServer({ name: "p", version: "1" }, { pageSize: 2 });
    for (const name of ["a", "b", "c", "d", "e"]) paged.registerTool(name, {}, () => name);
    let url: string;
    let pagedRunning: RunningHttpServer;
    beforeAll(async () => {
      pagedRunning = await listen(paged, { port: 0 });
      url = pagedRunning.url;
    });
    afterAll(() => pagedRunning.close());

    it("walks every page in order, each page with the same cacheScope, the last without nextCursor", async () => {
      const names: string[] = [];
      let cursor: string | undefined;
      const scopes = new Set<string>();
      for (let i = 0; i < 10; i++) {
        const result = (await rpc(url, "tools/list", cursor === undefined ? {} : { cursor })).json.result;
        names.push(...result.tools.map((t: { name: string }) => t.name));
        scopes.add(result.cacheScope);
        cursor = result.nextCursor;
        if (cursor === undefined) {
          expect("nextCursor" in result).toBe(false);
          break;
        }
      }
      expect(names).toEqual(["a", "b", "c", "d", "e"]);
      expect(scopes.size).toBe(1);
    });
  });
});

describe("tools/call: finding the tool", () => {
  it("answers an unknown tool with -32602 naming it", async () => {
    expect((await send(server, "tools/call", { name: "nope" })).error).toEqual({
      code: -32602,
      message: "Unknown tool: nope",
      data: { name: "nope" },
    });
  });

  it("answers a missing name or non-object arguments with -32602", async () => {
    expect((await send(server, "tools/call", {})).error).toMatchObject({ code: -32602 });
    expect((await send(server, "tools/call", { name: "echo", arguments: [1] })).error).toMatchObject({ code: -32602 });
    expect((await send(server, "tools/call", { name: "echo", arguments: "text" })).error).toMatchObject({ code: -32602 });
  });
});

describe("registration", () => {
  it("refuses a name that is taken", () => {
    const s = new McpServer({ name: "r", version: "1" });
    s.registerTool("a", {}, () => "a");
    expect(() => s.registerTool("a", {}, () => "a")).toThrow(/already registered/);
  });

  it("checks tool names against the spec's rule unless told not to", () => {
    const s = new McpServer({ name: "n", version: "1" });
    expect(() => s.registerTool("admin.tools.list", {}, () => "")).not.toThrow();
    expect(() => s.registerTool("a".repeat(128), {}, () => "")).not.toThrow();
    for (const name of ["a".repeat(129), "has space", "slash/name", "ünicode"]) {
      expect(TOOL_NAME_PATTERN.test(name), name).toBe(false);
      expect(() => s.registerTool(name, {}, () => "")).toThrow(/spec's rule/);
    }
    expect(() => s.registerTool("", {}, () => "e")).toThrow(/breaks the spec.s rule/);
    const loose = new McpServer({ name: "n", version: "1" }, { strictToolNames: false });
    expect(() => loose.registerTool("slash/name", {}, () => "")).not.toThrow();
  });
});

describe("tools capability and notifications/tools/list_changed", () => {
  it("tells toolsListChanged listeners of every registration and removal, and no one when nothing changed", async () => {
    const s = new McpServer({ name: "n", version: "1" });
    s.registerTool("first", {}, () => "1");
    const listener = listenTo(s, { toolsListChanged: true });
    const other = listenTo(s, { promptsListChanged: true });
    expect(listener.granted()).toEqual({ toolsListChanged: true });
    s.registerTool("second", {}, () => "2");
    expect(s.removeTool("first")).toBe(true);
    expect(s.removeTool("first")).toBe(false);
    expect(() => s.registerTool("second", {}, () => "again")).toThrow(/already registered/);
    // The acknowledgement, then one notification a change.
    expect(listener.methods()).toEqual(["notifications/subscriptions/acknowledged", ...Array(2).fill("notifications/tools/list_changed")]);
    expect(other.methods()).toEqual(["notifications/subscriptions/acknowledged"]);
    s.close();
    await Promise.all([listener.response, other.response]);
  });

  it("grants toolsListChanged only while the server announces tools", async () => {
    const s = new McpServer({ name: "n", version: "1" });
    s.registerPrompt("p", {}, () => "p");
    const listener = listenTo(s, { toolsListChanged: true });
    expect(listener.granted()).toEqual({});
    s.registerTool("t", {}, () => "t");
    expect(listener.methods()).toEqual(["notifications/subscriptions/acknowledged"]);
    await listener.close();
  });
});
