import { describe, expect, it } from "vitest";
import { LegacySession, MemoryEventStore, MemorySessionStore } from "../../../src/index.js";
import { revision2511 } from "../../../src/revisions/initialize/index.js";
import { loadVersionTables } from "../../../src/revisions/initialize/versions/index.js";

describe("MemoryEventStore", () => {
  it("replays the events after an id on that id's stream only, and forgets a session", () => {
    const store = new MemoryEventStore();
    const a1 = store.append("s", "p1", undefined);
    store.append("s", "get", { n: 1 });
    store.append("s", "p1", { n: 2 });
    store.append("s", "p1", { n: 3 });
    expect(store.replay("s", a1)).toEqual({
      streamId: "p1",
      events: [
        { id: "p1.3", streamId: "p1", message: { n: 2 } },
        { id: "p1.4", streamId: "p1", message: { n: 3 } },
      ],
    });
    expect(store.replay("s", "nope")).toBeUndefined();
    expect(store.replay("other", a1)).toBeUndefined();
    store.forget("s");
    expect(store.sessions).toBe(0);
    expect(store.replay("s", a1)).toBeUndefined();
  });

  it("holds at most maxEventsPerSession events, dropping the oldest", () => {
    const store = new MemoryEventStore(3);
    const first = store.append("s", "get", { n: 0 });
    for (let i = 1; i < 10; i++) store.append("s", "get", { n: i });
    expect(store.replay("s", first)).toBeUndefined();
    const kept = store.replay("s", "get.8");
    expect(kept?.events.map((e) => e.message)).toEqual([{ n: 8 }, { n: 9 }]);
    expect(() => new MemoryEventStore(0)).toThrow(RangeError);
  });

  it("keeps the newest maxEventsPerSession events across many drops (the log is compacted in steps)", () => {
    const store = new MemoryEventStore(5);
    const ids: string[] = [];
    for (let i = 0; i < 1003; i++) ids.push(store.append("s", i % 2 === 0 ? "p1" : "get", { n: i }));
    // Only the last five are known: the sixth newest was dropped.
    expect(store.replay("s", ids[1003 - 6]!)).toBeUndefined();
    expect(store.replay("s", ids[1003 - 5]!)).toEqual({
      streamId: "p1",
      events: [
        { id: ids[1000], streamId: "p1", message: { n: 1000 } },
        { id: ids[1002], streamId: "p1", message: { n: 1002 } },
      ],
    });
    expect(store.replay("s", ids[1002]!)).toEqual({ streamId: "p1", events: [] });
  });
});

describe("MemorySessionStore", () => {
  it("keeps sessions by id until deleted", async () => {
    // A session reads its version's table, which the first initialize loads.
    await loadVersionTables();
    const store = new MemorySessionStore();
    const session = new LegacySession("abc", { protocolVersion: "2025-11-25", clientCapabilities: {}, clientInfo: undefined }, () => true);
    store.set(session);
    expect(store.get("abc")).toBe(session);
    expect([...store.values()]).toEqual([session]);
    expect(store.delete("abc")).toBe(true);
    expect(store.size).toBe(0);
  });
});

describe("revision2511.stamp", () => {
  it("takes the 2026-07-28 fields off a result and leaves the handler's object as it was", () => {
    const result = Object.freeze({
      resultType: "complete",
      ttlMs: 5,
      cacheScope: "public",
      tools: [],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "x", version: "1" }, mine: 1 },
    });
    expect(revision2511.stamp(result, { name: "x", version: "1" })).toEqual({ tools: [], _meta: { mine: 1 } });
    expect(revision2511.stamp({ content: [], _meta: { "io.modelcontextprotocol/serverInfo": {} } }, { name: "x", version: "1" })).toEqual({
      content: [],
    });
    expect(result.resultType).toBe("complete");
  });
});
