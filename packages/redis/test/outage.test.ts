/**
 * Redis killed (SIGKILL, as a crash) and started again on the same port in
 * the middle of a test: while it is down the bus and the store fail fast and
 * report the outage once; afterwards they serve again by themselves, the
 * bus resubscribed.
 */
import { BusTopic, McpServer } from "@x/server";
import { tasks } from "@x/server/tasks";
import { describe, expect, it } from "vitest";
import { RedisEventBus, RedisTaskStore, RedisUnavailableError } from "../src/index.js";
import { client, eventually, freshPrefix, useRedis } from "./helpers.js";
import { taskOf } from "./store-contract.js";
import { requestOf } from "./wire.js";

const redis = useRedis();

describe("a Redis outage", () => {
  it("publish and every store method reject while Redis is down; each part reports it once; both serve again after the restart", async () => {
    const prefix = freshPrefix();
    const errors: { part: string; error: Error }[] = [];
    const bus = (part: string) => new RedisEventBus({ url: redis().url, prefix, onError: (error) => errors.push({ part, error }) });
    const a = bus("bus a");
    const b = bus("bus b");
    const store = new RedisTaskStore({ url: redis().url, prefix, onError: (error) => errors.push({ part: "store", error }) });
    try {
      const heard: Record<string, unknown>[] = [];
      await b.subscribe(BusTopic.ResourceUpdated, (m) => heard.push(m));
      const record = taskOf("alice");
      await store.create(record);
      await a.publish(BusTopic.ResourceUpdated, { uri: "before" });
      expect(await eventually(() => heard.length === 1)).toBe(true);

      await redis().kill();
      // Every part noticed, and none reported twice however many reconnection attempts it made meanwhile.
      expect(await eventually(() => new Set(errors.map((e) => e.part)).size === 3)).toBe(true);
      await expect(a.publish(BusTopic.ResourceUpdated, { uri: "during" })).rejects.toThrow();
      await expect(b.subscribe(BusTopic.ListChanged, () => {})).rejects.toThrow();
      await expect(store.get(record.taskId)).rejects.toThrow();
      await expect(store.create(taskOf("alice"))).rejects.toThrow();
      await expect(store.update(record.taskId, { status: "failed" })).rejects.toThrow();
      await expect(store.countOwned("alice")).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 1_000));
      expect(errors.map((e) => e.part).sort()).toEqual(["bus a", "bus b", "store"]);
      for (const { error } of errors) {
        expect(error).toBeInstanceOf(RedisUnavailableError);
        expect(error.message).toMatch(/lost Redis at 127\.0\.0\.1:\d+/);
      }

      await redis().start();
      // Nothing was saved: the task is gone with the old process; the store serves again.
      expect(await eventually(async () => (await store.get(record.taskId)) === undefined, 15_000)).toBe(true);
      const again = taskOf("alice");
      await store.create(again);
      expect(await store.countOwned("alice")).toBe(1);
      expect((await store.update(again.taskId, { status: "completed", result: { content: [] } }))?.applied).toBe(true);
      // The bus resubscribed by itself: a publish after the restart is heard on the other instance.
      expect(
        await eventually(
          async () => {
            await a.publish(BusTopic.ResourceUpdated, { uri: "after" });
            return heard.some((m) => m.uri === "after");
          },
          15_000,
          200,
        ),
      ).toBe(true);
      expect(heard.some((m) => m.uri === "during")).toBe(false);
      expect(errors).toHaveLength(3);

      // A second outage is reported again, once per part.
      await redis().kill();
      expect(await eventually(() => errors.length === 6)).toBe(true);
      await redis().start();
      expect(await eventually(async () => (await store.countOwned("nobody")) === 0, 15_000)).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await store.close();
    }
  });

  it("the default report is one line on stderr per outage", async () => {
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      if (String(chunk).startsWith("@x/redis:")) {
        lines.push(String(chunk));
        return true;
      }
      return write(chunk, ...rest);
    }) as typeof process.stderr.write;
    const bus = new RedisEventBus({ url: redis().url, prefix: freshPrefix() });
    try {
      await bus.subscribe(BusTopic.ListChanged, () => {});
      await redis().kill();
      await expect(bus.publish(BusTopic.ListChanged, { kind: "tools" })).rejects.toThrow();
      expect(await eventually(() => lines.length === 1)).toBe(true);
      // ioredis retries every 50 ms at first, then more slowly: a second's worth of attempts, still one line.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^@x\/redis: event bus: lost Redis at 127\.0\.0\.1:\d+ \(.+\); reconnecting/);
      expect(lines[0]!.endsWith("\n")).toBe(true);
      await redis().start();
      expect(await eventually(async () => bus.publish(BusTopic.ListChanged, { kind: "tools" }).then(() => true), 15_000)).toBe(true);
    } finally {
      process.stderr.write = write;
      await bus.close();
    }
  });

  it("requests that need the store during an outage print one line per outage, its part's, and no stack trace each", async () => {
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    // Everything written to stderr meanwhile is kept (and not shown): the server's default reporting writes there.
    process.stderr.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    const store = new RedisTaskStore({ url: redis().url, prefix: freshPrefix() });
    const server = new McpServer({ name: "outage", version: "1" }, { tasks: tasks({ store }) });
    // A tool with task support turns the extension (and tasks/get) on.
    server.registerTool("report", { taskSupport: "optional" }, () => "done");
    const get = async () => {
      const outcome = await server.handle(requestOf("tasks/get", { taskId: "t-1" }));
      return (outcome.response as { error?: { code: number } }).error?.code;
    };
    const failing = async (n: number) => {
      for (let i = 0; i < n; i++) expect(await get()).toBe(-32603);
    };
    try {
      expect(await store.countOwned("nobody")).toBe(0);
      await redis().kill();
      await failing(5);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^@x\/redis: task store: lost Redis at 127\.0\.0\.1:\d+ \(.+\); reconnecting/);
      expect(lines.join("")).not.toMatch(/\n\s+at /);

      await redis().start();
      // Served again once reconnected: an unknown task is -32602, not -32603.
      expect(await eventually(async () => (await get()) === -32602, 15_000)).toBe(true);
      expect(lines).toHaveLength(1);
      await redis().kill();
      await failing(5);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^@x\/redis: task store: lost Redis at /);
      expect(lines.join("")).not.toMatch(/\n\s+at |x-mcp: /);
      await redis().start();
      expect(await eventually(async () => (await get()) === -32602, 15_000)).toBe(true);
    } finally {
      process.stderr.write = write;
      server.close();
      await store.close();
    }
  }, 60_000);

  it("a part made while Redis is down waits for the first connection, at most connectTimeoutMs", async () => {
    await redis().kill();
    const errors: Error[] = [];
    const impatient = new RedisTaskStore({
      url: redis().url,
      prefix: freshPrefix(),
      connectTimeoutMs: 300,
      onError: (e) => errors.push(e),
    });
    const patient = new RedisEventBus({
      url: redis().url,
      prefix: freshPrefix(),
      connectTimeoutMs: 20_000,
      onError: (e) => errors.push(e),
    });
    try {
      await expect(impatient.get("x")).rejects.toThrow(/was not ready within 300 ms/);
      const heard: Record<string, unknown>[] = [];
      const subscribed = patient.subscribe(BusTopic.ListChanged, (m) => heard.push(m));
      const published = patient.publish(BusTopic.ListChanged, { kind: "tools" });
      await redis().start();
      await subscribed;
      await published;
      expect(await impatient.countOwned("alice")).toBe(0);
      expect(errors).toHaveLength(2);
      expect(errors.every((e) => e instanceof RedisUnavailableError)).toBe(true);
      expect(errors.map((e) => e.message).sort()).toEqual([
        expect.stringMatching(/^event bus: cannot reach Redis at 127\.0\.0\.1:\d+ \(connect ECONNREFUSED/),
        expect.stringMatching(/^task store: cannot reach Redis at 127\.0\.0\.1:\d+ \(connect ECONNREFUSED/),
      ]);
    } finally {
      await impatient.close();
      await patient.close();
    }
  });

  it("a subscription Redis refuses after a reconnection is reported, and tried again until it is made", async () => {
    const prefix = freshPrefix();
    const errors: Error[] = [];
    const a = new RedisEventBus({ url: redis().url, prefix, onError: (e) => errors.push(e) });
    const b = new RedisEventBus({ url: redis().url, prefix, onError: (e) => errors.push(e) });
    const admin = client(redis().url);
    try {
      const heard: Record<string, unknown>[] = [];
      await b.subscribe(BusTopic.ResourceUpdated, (m) => heard.push(m));
      // Channels forbidden to the default user, then its subscribers cut off: the bus's SUBSCRIBE on its new connection is refused.
      await admin.call("ACL", "SETUSER", "default", "resetchannels");
      await admin.call("CLIENT", "KILL", "TYPE", "pubsub");
      expect(await eventually(() => errors.some((e) => /could not subscribe again to .*resource-updated.*NOPERM/.test(e.message)))).toBe(
        true,
      );
      // Allowed again: the bus tries again by itself on the connection it has.
      await admin.call("ACL", "SETUSER", "default", "allchannels");
      expect(
        await eventually(
          async () => {
            await a.publish(BusTopic.ResourceUpdated, { uri: "again" });
            return heard.length > 0;
          },
          15_000,
          200,
        ),
      ).toBe(true);
      expect(heard[0]).toEqual({ uri: "again" });
      expect(errors.filter((e) => /could not subscribe again/.test(e.message))).toHaveLength(1);
    } finally {
      await admin.call("ACL", "SETUSER", "default", "allchannels").catch(() => {});
      await admin.quit().catch(() => {});
      await a.close();
      await b.close();
    }
  });
});
