// A session record read back from Redis is input: the server checks it, and
// a damaged one is an unknown session (404), reported once, never a 500 or a 503.
import { listen, McpServer, type RunningHttpServer } from "@x/server";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RedisSessionStore } from "../src/index.js";
import { client, freshPrefix, useRedis } from "./helpers.js";

const redis = useRedis();
const VERSION = "2025-11-25";

describe("session records read back from Redis", () => {
  const prefix = freshPrefix();
  const reports: unknown[] = [];
  let store: RedisSessionStore;
  let running: RunningHttpServer;
  let server: McpServer;
  let raw: Redis;
  let n = 0;

  beforeAll(async () => {
    server = new McpServer({ name: "records", version: "1" }, { onError: (error) => reports.push(error) });
    server.registerResource("memo", "memo://a", {}, () => "a");
    store = new RedisSessionStore({ url: redis().url, prefix, onError: () => {} });
    running = await listen(server, { port: 0, host: "127.0.0.1", sessionStore: store });
    raw = client(redis().url);
  });
  afterAll(async () => {
    await running?.close();
    server?.close();
    await store?.close();
    await raw?.quit();
  });
  beforeEach(() => {
    reports.length = 0;
  });

  const post = (sid: string | undefined, message: object) =>
    fetch(running.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": VERSION,
        ...(sid ? { "mcp-session-id": sid } : {}),
      },
      body: JSON.stringify(message),
    });
  const ping = (sid: string) => post(sid, { jsonrpc: "2.0", id: 1, method: "ping" });
  const freshId = () => `11111111-1111-4111-8111-${String(++n).padStart(12, "0")}`;
  const record = (id: string, extra: object = {}) => ({
    id,
    protocolVersion: VERSION,
    clientCapabilities: {},
    clientInfo: { name: "c", version: "1" },
    initialized: true,
    subscriptions: [],
    ...extra,
  });
  const put = (id: string, value: unknown) => raw.set(`${prefix}session:${id}`, typeof value === "string" ? value : JSON.stringify(value));
  const reported = () => reports.map((e) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)));

  it("serves a sound record written by hand (the checks refuse only damage)", async () => {
    const id = freshId();
    await put(id, record(id, { subscriptions: ["memo://a"], logLevel: "info" }));
    expect((await ping(id)).status).toBe(200);
    expect(reports).toEqual([]);
  });

  it("refuses a record of a version the server does not serve, 404, reported once", async () => {
    for (const version of ["2026-07-28", "1999-01-01"]) {
      const id = freshId();
      await put(id, record(id, { protocolVersion: version }));
      const first = await ping(id);
      expect(first.status).toBe(404);
      expect(((await first.json()) as { error: { code: number } }).error.code).toBe(-32001);
      expect((await ping(id)).status).toBe(404);
    }
    const said = reported();
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/^SessionRecordError: .*protocolVersion "2026-07-28"/);
    expect(said[1]).toMatch(/protocolVersion "1999-01-01"/);
  });

  it("refuses a record copied under another key: it does not reach, nor end, the session it names", async () => {
    const opened = await post(undefined, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    const v = opened.headers.get("mcp-session-id")!;
    expect(opened.status).toBe(200);
    expect((await post(v, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    const forged = freshId();
    await put(forged, (await raw.get(`${prefix}session:${v}`))!);
    expect((await ping(forged)).status).toBe(404);
    const ended = await fetch(running.url, { method: "DELETE", headers: { "mcp-session-id": forged, "mcp-protocol-version": VERSION } });
    expect(ended.status).toBe(404);
    expect((await ping(v)).status).toBe(200);
    expect(await raw.exists(`${prefix}session:${v}`)).toBe(1);
    expect(reported()).toEqual([expect.stringMatching(/is not the key it was read by/)]);
  });

  it("takes a key of another Redis type for a damaged record (404, reported), not an outage (503)", async () => {
    const id = freshId();
    await raw.rpush(`${prefix}session:${id}`, "x");
    const answer = await ping(id);
    expect(answer.status).toBe(404);
    expect(answer.headers.get("retry-after")).toBeNull();
    expect(reported()).toEqual([expect.stringMatching(/WRONGTYPE/)]);
  });

  it("refuses records past their bounds: subscriptions, client info, the whole record", async () => {
    const cases = {
      // 200 000 subscriptions, 7 MB: refused in Redis by its length, never read across.
      huge: record("", { subscriptions: Array.from({ length: 200_000 }, (_, i) => `file:///${i}`) }),
      overCount: record("", { subscriptions: Array.from({ length: 1001 }, (_, i) => `m://${i}`) }),
      overChars: record("", { subscriptions: Array.from({ length: 300 }, (_, i) => `m://${i}/${"x".repeat(1000)}`) }),
      bigInfo: record("", { clientInfo: { name: "c".repeat(70_000), version: "1" } }),
      badCaps: record("", { clientCapabilities: "x" }),
      badLevel: record("", { logLevel: "loud" }),
      notJson: "not json{",
    };
    for (const [name, value] of Object.entries(cases)) {
      const id = freshId();
      await put(id, typeof value === "string" ? value : { ...value, id });
      expect([name, (await ping(id)).status]).toEqual([name, 404]);
    }
    expect(reported()).toHaveLength(Object.keys(cases).length);
    for (const said of reported()) expect(said).toMatch(/^SessionRecordError: session record \S+ is damaged: /);
  });
});
