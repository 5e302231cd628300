import { MAX_SESSION_RECORD_CHARS, type SessionRecord, SessionRecordError, type SessionSignal } from "@x/server";
import { afterAll, describe, expect, it } from "vitest";
import { RedisEventStore, RedisSessionStore } from "../src/index.js";
import { client, eventually, freshPrefix, useRedis } from "./helpers.js";

const redis = useRedis();

const record = (id: string, extra: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  protocolVersion: "2025-11-25",
  clientCapabilities: { elicitation: {} },
  clientInfo: { name: "c", version: "1" },
  initialized: false,
  subscriptions: [],
  ...extra,
});

describe("RedisSessionStore", () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close().catch(() => {});
  });
  const store = (prefix: string, instance?: string, ttlMs?: number) => {
    const s = new RedisSessionStore({ url: redis().url, prefix, instance, ttlMs, onError: () => {} });
    closers.push(() => s.close());
    return s;
  };

  it("keeps a record as one JSON string key that expires ttlMs after the last load, and forgets it on delete", async () => {
    const prefix = freshPrefix();
    const s = store(prefix, "a", 60_000);
    const r = client(redis().url);
    closers.push(() => r.quit());
    expect(s.shared).toBe(true);
    expect(s.instance).toBe("a");
    await s.save(record("s1", { principal: "p", logLevel: "info", subscriptions: ["memo://x"], initialized: true }));
    expect(JSON.parse((await r.get(`${prefix}session:s1`))!)).toMatchObject({ id: "s1", principal: "p", subscriptions: ["memo://x"] });
    expect(await r.pttl(`${prefix}session:s1`)).toBeGreaterThan(59_000 - 10_000);
    await r.pexpire(`${prefix}session:s1`, 5_000);
    expect(await s.load("s1")).toEqual(record("s1", { principal: "p", logLevel: "info", subscriptions: ["memo://x"], initialized: true }));
    // The load renewed it.
    expect(await r.pttl(`${prefix}session:s1`)).toBeGreaterThan(5_000);
    await s.delete("s1");
    expect(await s.load("s1")).toBeUndefined();
    // JSON is handed back as read (the server checks records); what cannot be one is a SessionRecordError.
    await r.set(`${prefix}session:s2`, '{"id":"s2"}');
    expect(await s.load("s2")).toEqual({ id: "s2" });
    await r.set(`${prefix}session:s3`, "not json");
    await expect(s.load("s3")).rejects.toThrow(SessionRecordError);
    await r.rpush(`${prefix}session:s4`, "x");
    await expect(s.load("s4")).rejects.toThrow(/WRONGTYPE/);
    await r.set(`${prefix}session:s5`, "x".repeat(3 * MAX_SESSION_RECORD_CHARS + 1));
    await expect(s.load("s5")).rejects.toThrow(/bytes, more than/);
  });

  it("tells the other instances of a signal, not itself, and only while they listen", async () => {
    const prefix = freshPrefix();
    const a = store(prefix, "a");
    const b = store(prefix, "b");
    const heardA: SessionSignal[] = [];
    const heardB: SessionSignal[] = [];
    a.listen((s) => heardA.push(s));
    const stopB = b.listen((s) => heardB.push(s));
    // Subscribed once the first signal gets through (a bounded number of tries).
    expect(
      await eventually(() => {
        a.signal({ kind: "end", session: "probe" });
        return heardB.length > 0;
      }),
    ).toBe(true);
    a.signal({ kind: "answer", session: "s", message: { jsonrpc: "2.0", id: "x-mcp-a-1", result: { big: 9007199254740993n } } });
    const answers = () => heardB.filter((s) => s.kind === "answer");
    expect(await eventually(() => answers().length === 1)).toBe(true);
    expect(answers()[0]).toMatchObject({ kind: "answer", session: "s", message: { id: "x-mcp-a-1", result: { big: 9007199254740993n } } });
    expect(heardA).toEqual([]);
    stopB();
    b.signal({ kind: "end", session: "s" });
    expect(await eventually(() => heardA.some((s) => s.session === "s"))).toBe(true);
    expect(heardB.filter((s) => s.session === "s")).toHaveLength(1);
  });

  it("refuses options that are not as documented", () => {
    expect(() => new RedisSessionStore({ url: redis().url, ttlMs: 0 })).toThrow(RangeError);
    expect(() => new RedisSessionStore({ url: redis().url, instance: "a b" })).toThrow(RangeError);
    expect(() => new RedisSessionStore({})).toThrow(TypeError);
  });
});

describe("RedisEventStore", () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close().catch(() => {});
  });
  const store = (prefix: string, maxEventsPerSession?: number) => {
    const s = new RedisEventStore({ url: redis().url, prefix, maxEventsPerSession, onError: () => {} });
    closers.push(() => s.close());
    return s;
  };

  it("replays, on any instance, the events after an id on that id's stream, in the order Redis got them", async () => {
    const prefix = freshPrefix();
    const a = store(prefix);
    const b = store(prefix);
    const primed = a.append("s", "get", undefined);
    const one = a.append("s", "get", { n: 1 });
    a.append("s", "p1", { n: 2 });
    expect(await eventually(async () => (await b.replay("s", one))?.events.length === 0)).toBe(true);
    const two = b.append("s", "get", { n: 3 });
    expect(two).not.toBe(one);
    expect(await eventually(async () => (await a.replay("s", primed))?.events.length === 2)).toBe(true);
    expect(await a.replay("s", primed)).toEqual({
      streamId: "get",
      events: [
        { id: one, streamId: "get", message: { n: 1 } },
        { id: two, streamId: "get", message: { n: 3 } },
      ],
    });
    expect(await a.replay("s", "get.nope.1")).toBeUndefined();
    a.forget("s");
    expect(await eventually(async () => (await b.replay("s", primed)) === undefined)).toBe(true);
  });

  it("keeps at most maxEventsPerSession events per session, the oldest dropped, with an expiry", async () => {
    const prefix = freshPrefix();
    const s = store(prefix, 3);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(s.append("s", "get", { n: i }));
    expect(await eventually(async () => (await s.replay("s", ids[7]!))?.events.length === 2)).toBe(true);
    expect(await s.replay("s", ids[6]!)).toBeUndefined();
    const r = client(redis().url);
    closers.push(() => r.quit());
    expect(await r.llen(`${prefix}events:s`)).toBe(3);
    expect(await r.pttl(`${prefix}events:s`)).toBeGreaterThan(0);
    expect(() => new RedisEventStore({ url: redis().url, maxEventsPerSession: 0 })).toThrow(RangeError);
  });
});
