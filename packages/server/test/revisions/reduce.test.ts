// The version tables of the initialize era (revisions/initialize/versions/)
// and the reducer under them, on the versions' real member lists: what a
// message keeps, what it loses, what becomes text, and what cannot be sent.
import { describe, expect, it } from "vitest";
import { loadVersionTables, versionTable } from "../../src/revisions/initialize/versions/index.js";
import { reduce } from "@x/json-schema/reduce";

await loadVersionTables();
const v2511 = versionTable("2025-11-25");
const v2506 = versionTable("2025-06-18");
const v2503 = versionTable("2025-03-26");
const v2411 = versionTable("2024-11-05");

describe("a result reduced to its version", () => {
  it("leaves out what a closed definition does not list, keeps what an open one holds, and never changes the input", () => {
    const tool = {
      name: "t",
      title: "T",
      icons: [{ src: "https://example.com/i.png" }],
      inputSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a"], $defs: { x: {} } },
      outputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
      execution: { taskSupport: "optional" },
      _meta: { "example.com/k": { deep: [1] } },
    };
    const input = Object.freeze({ tools: [Object.freeze(tool)], nextCursor: "c", ttlMs: 5 });
    expect(v2411.result("tools/list", input)).toEqual({ tools: [{ name: "t", inputSchema: tool.inputSchema }], nextCursor: "c" });
    expect(v2503.result("tools/list", input)).toEqual({
      tools: [{ name: "t", inputSchema: tool.inputSchema, annotations: { readOnlyHint: true } }],
      nextCursor: "c",
    });
    expect(v2506.result("tools/list", input).tools).toEqual([
      {
        name: "t",
        title: "T",
        inputSchema: tool.inputSchema,
        outputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
        _meta: tool._meta,
      },
    ]);
    expect(v2511.result("tools/list", input).tools).toEqual([{ ...tool }]);
    expect(input.ttlMs).toBe(5);
  });

  it("turns a content block the version lacks into a text block holding its JSON, in place", () => {
    const link = { type: "resource_link", uri: "file:///a", name: "a" };
    const result = v2503.result("tools/call", { content: [{ type: "text", text: "x" }, link], structuredContent: { a: 1 } });
    expect(result).toEqual({
      content: [
        { type: "text", text: "x" },
        { type: "text", text: JSON.stringify(link) },
      ],
    });
    expect(v2506.result("tools/call", { content: [link] })).toEqual({ content: [link] });
  });

  it("keeps a member named __proto__ as data, never as the prototype", () => {
    const meta = JSON.parse('{"__proto__": {"polluted": true}, "k": 1}');
    const reduced = v2411.result("tools/call", { content: [], _meta: meta }) as { _meta: Record<string, unknown> };
    expect(Object.getPrototypeOf(reduced._meta)).toBe(Object.prototype);
    expect(Object.hasOwn(reduced._meta, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("leaves a result that fits none of the version's results as it is (2025-11-25's task handle)", () => {
    const handle = { task: { taskId: "t1", status: "working", createdAt: "2025-01-01T00:00:00Z", ttl: null } };
    expect(v2511.result("tools/call", handle)).toEqual(handle);
  });

  it("reads the initialize result's capabilities and server info as the version defines them", () => {
    const result = {
      protocolVersion: "2024-11-05",
      capabilities: { tools: { listChanged: true }, completions: {}, logging: {}, tasks: { list: {} } },
      serverInfo: { name: "s", version: "1", title: "S", icons: [], websiteUrl: "https://example.com" },
      instructions: "hi",
    };
    expect(v2411.initializeResult(result)).toEqual({
      protocolVersion: "2024-11-05",
      capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo: { name: "s", version: "1" },
      instructions: "hi",
    });
    expect(v2506.initializeResult(result).capabilities).toEqual({ tools: { listChanged: true }, completions: {}, logging: {} });
    expect(v2506.initializeResult(result).serverInfo).toEqual({ name: "s", version: "1", title: "S" });
  });
});

describe("what a session of a version is sent", () => {
  it("never a notification the version lacks; a notification's params reduced", () => {
    expect(v2506.notification("notifications/tasks/status", { taskId: "t" })).toBeUndefined();
    expect(v2506.notification("notifications/elicitation/complete", { elicitationId: "e" })).toBeUndefined();
    expect(v2511.notification("notifications/elicitation/complete", { elicitationId: "e" })).toEqual({ elicitationId: "e" });
    expect(v2411.notification("notifications/progress", { progressToken: 1, progress: 1, message: "m" })).toEqual({
      progressToken: 1,
      progress: 1,
    });
    expect(v2503.notification("notifications/progress", { progressToken: 1, progress: 1, message: "m" })).toMatchObject({ message: "m" });
  });

  it("a request only where the version can carry it: elicitation from 2025-06-18, URL mode from 2025-11-25 (with its elicitationId)", () => {
    const form = { message: "Name?", requestedSchema: { type: "object", properties: { n: { type: "string", enum: ["a", "b"] } } } };
    const url = { mode: "url", message: "Sign in", url: "https://example.com" };
    expect(v2503.request("elicitation/create", form)).toBeUndefined();
    expect(v2506.request("elicitation/create", form)).toEqual(form);
    expect(v2506.request("elicitation/create", url)).toBeUndefined();
    const carried = v2511.request("elicitation/create", url);
    expect(carried).toMatchObject(url);
    expect(typeof carried?.elicitationId).toBe("string");
    // 2025-11-25's multi-select has no form in 2025-06-18: that question cannot be asked there.
    const multi = {
      message: "Pick",
      requestedSchema: { type: "object", properties: { p: { type: "array", items: { type: "string", enum: ["a"] } } } },
    };
    expect(v2511.request("elicitation/create", multi)).toEqual(multi);
    expect(v2506.request("elicitation/create", multi)).toBeUndefined();
    expect(v2411.request("roots/list", {})).toEqual({});
    // Alternatives that look alike at the top (both multi-selects are arrays with items) are told apart by what they hold.
    const titled = {
      message: "Pick",
      requestedSchema: {
        type: "object",
        properties: {
          t: { type: "array", items: { anyOf: [{ const: "a", title: "A" }] } },
          u: { type: "array", items: { type: "string", enum: ["a"] } },
        },
      },
    };
    expect(v2511.request("elicitation/create", titled)).toEqual(titled);
  });

  it("a method the version lacks is not the client's to call", () => {
    expect(v2511.hasClientRequest("tasks/get")).toBe(true);
    expect(v2506.hasClientRequest("tasks/get")).toBe(false);
    expect(v2411.hasClientRequest("completion/complete")).toBe(true);
  });
});

describe("reduce", () => {
  it("follows a recursive shape no deeper than its bound: past it a value is kept as it is, never a stack overflow", () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 20_000; i++) deep = { next: deep, extra: i };
    const reduced = reduce<Record<string, any>>(deep, "Node", { Node: { p: { next: "Node" } } });
    expect(reduced.value).not.toHaveProperty("extra");
    let at = reduced.value;
    let depth = 0;
    while (at.next !== undefined && !("extra" in at) && depth < 30_000) {
      at = at.next;
      depth++;
    }
    // Reduced down to the bound, kept whole below it.
    expect(depth).toBeGreaterThan(10);
    expect(depth).toBeLessThan(20_000);
  });

  it("says whether the value fitted: a required member missing or a union unmatched does not", () => {
    const shape = { p: { a: 0, kind: { u: [{ c: "x" }, { c: "y" }] } }, r: ["a"] } as const;
    expect(reduce({ a: 1, kind: "x", extra: 2 }, shape, {})).toEqual({ value: { a: 1, kind: "x" }, fits: true });
    expect(reduce({ kind: "x" }, shape, {}).fits).toBe(false);
    expect(reduce({ a: 1, kind: "z" }, shape, {})).toEqual({ value: { a: 1 }, fits: false });
  });
});
