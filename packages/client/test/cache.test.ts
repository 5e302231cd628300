import { describe, expect, it } from "vitest";
import { ResponseCache } from "../src/index.js";
import { listResult, memoryClient, tool } from "./helpers.js";

function clock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("ResponseCache", () => {
  it("serves a result while now < received + ttlMs, and not after", () => {
    const time = clock();
    const cache = new ResponseCache({ now: time.now });
    expect(cache.set("tools/list", {}, undefined, { tools: [], ttlMs: 100, cacheScope: "public" })).toBe(true);
    time.advance(99);
    expect(cache.get("tools/list", {}, undefined)).toEqual({ tools: [], ttlMs: 100, cacheScope: "public" });
    time.advance(1);
    expect(cache.get("tools/list", {}, undefined)).toBeUndefined();
  });

  it("stores nothing for an absent, zero or negative ttlMs, or a method without cache hints", () => {
    const cache = new ResponseCache();
    expect(cache.set("tools/list", {}, undefined, { tools: [] })).toBe(false);
    expect(cache.set("tools/list", {}, undefined, { tools: [], ttlMs: 0 })).toBe(false);
    expect(cache.set("tools/list", {}, undefined, { tools: [], ttlMs: -5 })).toBe(false);
    expect(cache.set("tools/call", {}, undefined, { content: [], ttlMs: 500 })).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("never stores or serves a request carrying inputResponses or requestState", () => {
    const cache = new ResponseCache();
    expect(cache.set("resources/read", { uri: "a", requestState: "s" }, undefined, { contents: [], ttlMs: 500 })).toBe(false);
    expect(cache.set("resources/read", { uri: "a", inputResponses: {} }, undefined, { contents: [], ttlMs: 500 })).toBe(false);
    cache.set("resources/read", { uri: "a" }, undefined, { contents: [], ttlMs: 500, cacheScope: "public" });
    expect(cache.get("resources/read", { uri: "a", requestState: "s" }, undefined)).toBeUndefined();
  });

  it("keys by method and params (not _meta, not key order)", () => {
    const cache = new ResponseCache();
    cache.set("resources/read", { uri: "a", _meta: { x: 1 } }, undefined, { contents: ["a"], ttlMs: 500, cacheScope: "public" });
    cache.set("tools/list", { cursor: "" }, undefined, { tools: ["page2"], ttlMs: 500, cacheScope: "public" });
    expect(cache.get("resources/read", { uri: "a", _meta: { y: 2 } }, undefined)).toMatchObject({ contents: ["a"] });
    expect(cache.get("resources/read", { uri: "b" }, undefined)).toBeUndefined();
    expect(cache.get("tools/list", {}, undefined)).toBeUndefined();
    expect(cache.get("tools/list", { cursor: "" }, undefined)).toMatchObject({ tools: ["page2"] });
  });

  it("shares public entries across authorization contexts and keeps private ones to their own", () => {
    const cache = new ResponseCache();
    cache.set("tools/list", {}, "alice", { tools: ["public"], ttlMs: 500, cacheScope: "public" });
    cache.set("resources/read", { uri: "me" }, "alice", { contents: ["alice's"], ttlMs: 500, cacheScope: "private" });
    cache.set("prompts/list", {}, "alice", { prompts: ["no scope means private"], ttlMs: 500 });
    expect(cache.get("tools/list", {}, "bob")).toMatchObject({ tools: ["public"] });
    expect(cache.get("resources/read", { uri: "me" }, "bob")).toBeUndefined();
    expect(cache.get("resources/read", { uri: "me" }, undefined)).toBeUndefined();
    expect(cache.get("resources/read", { uri: "me" }, "alice")).toMatchObject({ contents: ["alice's"] });
    expect(cache.get("prompts/list", {}, "bob")).toBeUndefined();
  });

  it("hands out copies, drops the least recently used past maxEntries, and invalidates by method and params", () => {
    const cache = new ResponseCache({ maxEntries: 2 });
    cache.set("resources/read", { uri: "a" }, undefined, { contents: [1], ttlMs: 500, cacheScope: "public" });
    const copy = cache.get("resources/read", { uri: "a" }, undefined)!;
    (copy.contents as number[]).push(2);
    expect(cache.get("resources/read", { uri: "a" }, undefined)).toMatchObject({ contents: [1] });
    cache.set("resources/read", { uri: "b" }, undefined, { contents: [], ttlMs: 500, cacheScope: "public" });
    cache.get("resources/read", { uri: "a" }, undefined);
    cache.set("resources/read", { uri: "c" }, undefined, { contents: [], ttlMs: 500, cacheScope: "public" });
    expect(cache.get("resources/read", { uri: "b" }, undefined)).toBeUndefined();
    expect(cache.invalidate("resources/read", (p) => p.uri === "a")).toBe(1);
    expect(cache.size).toBe(1);
  });

  it("rejects a maxEntries that is not a positive integer", () => {
    expect(() => new ResponseCache({ maxEntries: 0 })).toThrow(RangeError);
  });
});

describe("the client's use of the cache", () => {
  const hinted = (ttlMs: number, cacheScope = "public") =>
    ({
      "tools/list": () => listResult("tools", [tool("a")], { ttlMs, cacheScope }),
      "resources/read": (p: Record<string, unknown>) => ({
        resultType: "complete",
        ttlMs,
        cacheScope,
        contents: [{ uri: p.uri, text: "x" }],
      }),
    }) as const;

  it("answers from the cache while fresh, and asks again once stale", async () => {
    const time = clock();
    const { client, requests } = await memoryClient(hinted(1000), { cache: { now: time.now } });
    await client.listTools();
    await client.listTools();
    expect(requests).toHaveLength(1);
    time.advance(1000);
    await client.listTools();
    expect(requests).toHaveLength(2);
  });

  it("refresh fetches and stores, bypass neither reads nor stores", async () => {
    const { client, requests } = await memoryClient(hinted(60_000));
    await client.readResource("file:///a");
    await client.readResource("file:///a", { cache: "refresh" });
    expect(requests).toHaveLength(2);
    await client.readResource("file:///a");
    expect(requests).toHaveLength(2);
    await client.readResource("file:///b", { cache: "bypass" });
    await client.readResource("file:///b");
    expect(requests).toHaveLength(4);
    client.clearCache();
    await client.readResource("file:///a");
    expect(requests).toHaveLength(5);
  });

  it("keeps private results to the authorization context they were fetched in", async () => {
    let who = "alice";
    const { client, requests } = await memoryClient(hinted(60_000, "private"), {}, { authContext: () => who });
    await client.readResource("file:///me");
    await client.readResource("file:///me");
    expect(requests).toHaveLength(1);
    who = "bob";
    await client.readResource("file:///me");
    expect(requests).toHaveLength(2);
  });

  it("can be shared by two clients, each learning the tools' headers from the shared entry", async () => {
    const shared = new ResponseCache();
    const scripts = {
      "tools/list": () =>
        listResult(
          "tools",
          [tool("sql", { inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } })],
          { ttlMs: 60_000, cacheScope: "public" },
        ),
      "tools/call": () => ({ resultType: "complete", content: [] }),
    };
    const first = await memoryClient(scripts, { cache: shared });
    await first.client.listTools();
    const second = await memoryClient(scripts, { cache: shared });
    await second.client.callTool("sql", { region: "eu" });
    expect(second.requests.map((r) => r.message.method)).toEqual(["tools/call"]);
    expect(second.requests[0]!.headers["mcp-param-region"]).toBe("eu");
  });

  it("is off with cache: false", async () => {
    const { client, requests } = await memoryClient(hinted(60_000), { cache: false });
    await client.listTools();
    await client.listTools();
    expect(requests).toHaveLength(2);
  });

  it("drops stale entries when a change notification arrives on a subscription", async () => {
    let release: () => void = () => {};
    const { client, requests } = await memoryClient({
      ...hinted(60_000),
      "subscriptions/listen": (_p, exchange, request) => {
        const meta = { "io.modelcontextprotocol/subscriptionId": request.id };
        exchange.notify({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: meta, notifications: { toolsListChanged: true } } as never,
        });
        exchange.notify({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: meta } as never });
        exchange.notify({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { _meta: meta, uri: "file:///a" } as never });
        return new Promise((resolve) => {
          release = () => resolve({ resultType: "complete", _meta: meta });
        });
      },
    });
    await client.listTools();
    await client.readResource("file:///a");
    await client.readResource("file:///b");
    const subscription = client.listen({ toolsListChanged: true, resourceSubscriptions: ["file:///a"] });
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
    const seen: string[] = [];
    for await (const notification of subscription) {
      seen.push(notification.method);
      if (seen.length === 2) release();
    }
    expect(seen).toEqual(["notifications/tools/list_changed", "notifications/resources/updated"]);
    expect(await subscription.ended).toEqual({ graceful: true });
    const before = requests.length;
    await client.listTools();
    await client.readResource("file:///a");
    await client.readResource("file:///b");
    expect(requests.slice(before).map((r) => r.message.method)).toEqual(["tools/list", "resources/read"]);
  });
});
