// The prompts feature (src/features/prompts.ts): the registry, the prompts capability, prompts/list and prompts/get.
import { validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/index.js";
import { listenTo, send } from "../helpers.js";

function promptServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: "prompts", version: "1.0.0" }, options);
  server.registerPrompt(
    "greet",
    {
      description: "Greets someone",
      arguments: [
        { name: "name", required: true },
        { name: "tone", required: false },
      ],
    },
    ({ name, tone }) => `Say hello to ${name}${tone ? ` in a ${tone} tone` : ""}`,
  );
  server.registerPrompt("pair", { description: "Two messages" }, () => [
    { role: "user", content: { type: "text", text: "Q" } },
    { role: "assistant", content: { type: "text", text: "A" } },
  ]);
  return server;
}

const server = promptServer({
  cache: { ttlMs: 1000, cacheScope: "private", methods: { "prompts/list": { ttlMs: 30_000, cacheScope: "public" } } },
});

describe("prompts/list", () => {
  it("lists prompts with declared arguments and per-method cache hints", async () => {
    const list = (await send(server, "prompts/list")).result;
    expect(validate("ListPromptsResult", list).ok).toBe(true);
    expect(list.prompts[0]).toEqual({
      name: "greet",
      description: "Greets someone",
      arguments: [
        { name: "name", required: true },
        { name: "tone", required: false },
      ],
    });
    expect(list).toMatchObject({ ttlMs: 30_000, cacheScope: "public" });
  });

  it("publishes a prompt's title, icons and _meta only when given", async () => {
    const s = new McpServer({ name: "p", version: "1" });
    s.registerPrompt("bare", {}, () => "b");
    s.registerPrompt(
      "decorated",
      { title: "Decorated", icons: [{ src: "https://example.com/i.png" }], _meta: { "example.com/k": 1 }, requiredClientCapabilities: {} },
      () => "d",
    );
    const prompts = (await send(s, "prompts/list")).result.prompts;
    expect(prompts).toEqual([
      { name: "bare" },
      { name: "decorated", title: "Decorated", icons: [{ src: "https://example.com/i.png" }], _meta: { "example.com/k": 1 } },
    ]);
  });

  it("pages with the server's pageSize, in registration order", async () => {
    const s = new McpServer({ name: "p", version: "1" }, { pageSize: 2 });
    for (const name of ["a", "b", "c"]) s.registerPrompt(name, {}, () => name);
    const first = (await send(s, "prompts/list")).result;
    expect(first.prompts.map((p: { name: string }) => p.name)).toEqual(["a", "b"]);
    expect(typeof first.nextCursor).toBe("string");
    const second = (await send(s, "prompts/list", { cursor: first.nextCursor })).result;
    expect(second.prompts.map((p: { name: string }) => p.name)).toEqual(["c"]);
    expect("nextCursor" in second).toBe(false);
    expect((await send(s, "prompts/list", { cursor: "junk" })).error.code).toBe(-32602);
  });
});

describe("prompts/get", () => {
  it("gets a prompt with its arguments", async () => {
    const result = (await send(server, "prompts/get", { name: "greet", arguments: { name: "Ada", tone: "warm" } })).result;
    expect(validate("GetPromptResult", result).ok).toBe(true);
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hello to Ada in a warm tone" } }]);
    expect(result.description).toBe("Greets someone");
    const pair = (await send(server, "prompts/get", { name: "pair" })).result;
    expect(pair.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
  });

  it("answers a missing required argument with -32602 naming it", async () => {
    const missing = await send(server, "prompts/get", { name: "greet", arguments: { tone: "dry" } });
    expect(missing.error).toMatchObject({ code: -32602, message: "Missing required argument: name", data: { argument: "name" } });
    const notString = await send(server, "prompts/get", { name: "greet", arguments: { name: 5 } });
    expect(notString.error).toMatchObject({ code: -32602, data: { argument: "name" } });
    const unknown = await send(server, "prompts/get", { name: "nope" });
    expect(unknown.error).toMatchObject({ code: -32602, message: "Unknown prompt: nope", data: { name: "nope" } });
  });

  it("answers a name that is not a string or arguments that are not an object with -32602", async () => {
    expect((await send(server, "prompts/get", {})).error.code).toBe(-32602);
    expect((await send(server, "prompts/get", { name: 5 })).error.code).toBe(-32602);
    for (const args of [[], "x", null]) {
      expect((await send(server, "prompts/get", { name: "pair", arguments: args })).error.code, JSON.stringify(args)).toBe(-32602);
    }
  });

  it("keeps a full GetPromptResult as the handler built it, and answers a return that is none with -32603", async () => {
    const errors: unknown[] = [];
    const s = new McpServer({ name: "p", version: "1" }, { onError: (error) => errors.push(error) });
    s.registerPrompt("full", { description: "registered" }, () => ({
      resultType: "complete",
      description: "its own",
      messages: [{ role: "assistant", content: { type: "text", text: "hello" } }],
    }));
    s.registerPrompt("junk", {}, () => 42 as never);
    s.registerPrompt("undescribed", {}, () => "x");
    expect((await send(s, "prompts/get", { name: "full" })).result).toMatchObject({
      description: "its own",
      messages: [{ role: "assistant", content: { type: "text", text: "hello" } }],
    });
    expect("description" in (await send(s, "prompts/get", { name: "undescribed" })).result).toBe(false);
    expect((await send(s, "prompts/get", { name: "junk" })).error).toEqual({ code: -32603, message: "Internal error" });
    expect(String(errors[0])).toMatch(/not a GetPromptResult/);
  });
});

describe("registration", () => {
  it("refuses a taken or empty name, an argument without a name, a handler that is no function, a completer of no argument", () => {
    const s = promptServer();
    expect(() => s.registerPrompt("greet", {}, () => "")).toThrow(/prompt greet is already registered/);
    expect(() => s.registerPrompt("", {}, () => "")).toThrow(/non-empty/);
    expect(() => s.registerPrompt("a", { arguments: [{ name: "" }] }, () => "")).toThrow(/prompt a: arguments\[0\]\.name/);
    expect(() => s.registerPrompt("h", {}, "x" as never)).toThrow(/prompt h: handler must be a function/);
    expect(() => s.registerPrompt("p", { arguments: [{ name: "a" }], complete: { b: () => [] } }, () => "")).toThrow(
      /names no declared argument/,
    );
  });
});

describe("prompts capability and notifications/prompts/list_changed", () => {
  it("is advertised while there is a prompt; registering and removing tell promptsListChanged listeners", async () => {
    const s = new McpServer({ name: "p", version: "1" });
    expect(s.capabilities().prompts).toBeUndefined();
    expect((await send(s, "prompts/list")).error.code).toBe(-32601);
    expect((await send(s, "prompts/get", { name: "a" })).error.code).toBe(-32601);
    s.registerPrompt("a", {}, () => "a");
    expect((await send(s, "server/discover")).result.capabilities.prompts).toEqual({ listChanged: true });
    const listener = listenTo(s, { promptsListChanged: true, toolsListChanged: true });
    expect(listener.granted()).toEqual({ promptsListChanged: true });
    s.registerPrompt("b", {}, () => "b");
    expect(s.removePrompt("a")).toBe(true);
    expect(s.removePrompt("a")).toBe(false);
    // The acknowledgement, then one notification a change.
    expect(listener.methods()).toEqual([
      "notifications/subscriptions/acknowledged",
      ...Array(2).fill("notifications/prompts/list_changed"),
    ]);
    expect((await send(s, "prompts/get", { name: "a" })).error).toMatchObject({ code: -32602, message: "Unknown prompt: a" });
    s.removePrompt("b");
    expect(s.capabilities().prompts).toBeUndefined();
    await listener.close();
  });
});
