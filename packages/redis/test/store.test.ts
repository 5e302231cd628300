import { MemoryTaskStore, TaskLimitError } from "@x/server/tasks";
import { afterAll, describe, expect, it } from "vitest";
import { RedisTaskStore } from "../src/index.js";
import { client, freshPrefix, useRedis } from "./helpers.js";
import { describeTaskStoreContract, taskOf } from "./store-contract.js";

const redis = useRedis();

describeTaskStoreContract("MemoryTaskStore", (options) => new MemoryTaskStore(options));
describeTaskStoreContract(
  "RedisTaskStore",
  (options) => new RedisTaskStore({ url: redis().url, prefix: freshPrefix(), onError: () => {}, ...options }),
);

describe("RedisTaskStore", () => {
  const clients: ReturnType<typeof client>[] = [];
  const raw = () => {
    const c = client(redis().url);
    clients.push(c);
    return c;
  };
  afterAll(async () => {
    for (const c of clients) await c.quit().catch(() => {});
  });

  it("keeps a task as one hash of JSON members that expires at expiresAt, and indexes it by owner", async () => {
    const prefix = freshPrefix();
    const store = new RedisTaskStore({ url: redis().url, prefix });
    const r = raw();
    try {
      const record = taskOf("alice", { result: { content: [{ type: "text", text: "hi" }], big: 9007199254740993n } });
      await store.create(record);
      const key = `${prefix}task:${record.taskId}`;
      expect(store.taskKey(record.taskId)).toBe(key);
      expect(await r.type(key)).toBe("hash");
      expect(await r.hget(key, "status")).toBe('"working"');
      expect(await r.hget(key, "result")).toBe('{"content":[{"type":"text","text":"hi"}],"big":9007199254740993}');
      expect(await r.call("PEXPIRETIME", key)).toBe(record.expiresAt);
      expect(await r.zscore(`${prefix}owner:alice`, record.taskId)).toBe(String(record.expiresAt));
      expect(await r.zscore(`${prefix}tasks`, record.taskId)).toBe(String(record.expiresAt));
      expect(await r.call("PEXPIRETIME", `${prefix}owner:alice`)).toBe(record.expiresAt);

      const forever = taskOf("alice", { expiresAt: null, ttlMs: null });
      await store.create(forever);
      expect(await r.pttl(`${prefix}task:${forever.taskId}`)).toBe(-1);
      expect(await r.zscore(`${prefix}owner:alice`, forever.taskId)).toBe("inf");
      expect(await r.pttl(`${prefix}owner:alice`)).toBe(-1);

      const later = Date.now() + 7_200_000;
      await store.update(record.taskId, { expiresAt: later, ttlMs: 7_200_000 });
      expect(await r.call("PEXPIRETIME", key)).toBe(later);
      expect(await r.zscore(`${prefix}owner:alice`, record.taskId)).toBe(String(later));
    } finally {
      await store.close();
    }
  });

  it("a task created through one store is at once found through another connection (another instance)", async () => {
    const prefix = freshPrefix();
    const a = new RedisTaskStore({ url: redis().url, prefix });
    const b = new RedisTaskStore({ client: raw(), prefix });
    try {
      const record = taskOf("alice");
      await a.create(record);
      expect(await b.get(record.taskId)).toEqual(record);
      expect((await b.update(record.taskId, { status: "cancelled" }))?.applied).toBe(true);
      expect((await a.get(record.taskId))?.status).toBe("cancelled");
      // Ended through b, it no longer counts against its owner for a either.
      expect(await a.countOwned("alice")).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("prefixes keep deployments apart: tasks, counts and limits", async () => {
    const one = new RedisTaskStore({ url: redis().url, prefix: freshPrefix(), maxTasks: 1 });
    const two = new RedisTaskStore({ url: redis().url, prefix: freshPrefix(), maxTasks: 1 });
    try {
      const record = taskOf("alice");
      await one.create(record);
      expect(await two.get(record.taskId)).toBeUndefined();
      expect(await two.update(record.taskId, { status: "failed" })).toBeUndefined();
      expect(await two.countOwned("alice")).toBe(0);
      await two.create(taskOf("alice"));
      await expect(one.create(taskOf("alice"))).rejects.toBeInstanceOf(TaskLimitError);
      expect((await one.get(record.taskId))?.status).toBe("working");
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("never replaces a task, and refuses a patch of what never changes", async () => {
    const store = new RedisTaskStore({ url: redis().url, prefix: freshPrefix() });
    try {
      const record = taskOf("alice");
      await store.create(record);
      await expect(store.create({ ...record, owner: "mallory" })).rejects.toThrow(/already exists/);
      await expect(store.update(record.taskId, { owner: "mallory" } as never)).rejects.toThrow(TypeError);
      await expect(store.update(record.taskId, { status: undefined })).rejects.toThrow(TypeError);
      expect(await store.get(record.taskId)).toEqual(record);
    } finally {
      await store.close();
    }
  });

  it("works again after Redis forgot its scripts (SCRIPT FLUSH, as after a restart)", async () => {
    const store = new RedisTaskStore({ url: redis().url, prefix: freshPrefix() });
    try {
      const record = taskOf("alice");
      await store.create(record);
      await raw().script("FLUSH");
      expect(await store.countOwned("alice")).toBe(1);
      expect((await store.update(record.taskId, { status: "completed", result: { content: [] } }))?.applied).toBe(true);
      expect(await store.countOwned("alice")).toBe(0);
    } finally {
      await store.close();
    }
  });

  it("closes the connection it made, and leaves a given client open", async () => {
    const given = raw();
    const mine = new RedisTaskStore({ url: redis().url, prefix: freshPrefix() });
    const theirs = new RedisTaskStore({ client: given, prefix: freshPrefix() });
    await mine.get("x");
    await theirs.get("x");
    await mine.close();
    await theirs.close();
    await mine.close();
    expect(given.status).toBe("ready");
    expect(await given.ping()).toBe("PONG");
    await expect(mine.get("x")).rejects.toThrow(/closed/);
  });

  it("refuses options that are not as documented", () => {
    expect(() => new RedisTaskStore({} as never)).toThrow(TypeError);
    expect(() => new RedisTaskStore({ url: redis().url, client: raw() })).toThrow(TypeError);
    expect(() => new RedisTaskStore({ url: redis().url, maxTasks: 0 })).toThrow(RangeError);
    expect(() => new RedisTaskStore({ url: redis().url, prefix: 3 as never })).toThrow(TypeError);
  });
});
