import { BusTopic } from "@x/server";
import { afterAll, describe, expect, it } from "vitest";
import { RedisEventBus } from "../src/index.js";
import { client, eventually, freshPrefix, useRedis } from "./helpers.js";

const redis = useRedis();

type Message = Record<string, unknown>;

/** Two buses on the same Redis and prefix, each with its own connections: two instances of one deployment. */
function twoInstances(prefix = freshPrefix(), errors: Error[] = []) {
  const onError = (e: Error) => errors.push(e);
  return [new RedisEventBus({ url: redis().url, prefix, onError }), new RedisEventBus({ url: redis().url, prefix, onError })] as const;
}

describe("RedisEventBus", () => {
  const clients: ReturnType<typeof client>[] = [];
  const raw = () => {
    const c = client(redis().url);
    clients.push(c);
    return c;
  };
  afterAll(async () => {
    for (const c of clients) await c.quit().catch(() => {});
  });

  it("a message published by one instance reaches the subscribers of both, in order, integers beyond 2^53 kept", async () => {
    const [a, b] = twoInstances();
    try {
      const onA: Message[] = [];
      const onB: Message[] = [];
      await a.subscribe(BusTopic.ResourceUpdated, (m) => onA.push(m));
      await b.subscribe(BusTopic.ResourceUpdated, (m) => onB.push(m));
      for (let i = 0; i < 5; i++) await a.publish(BusTopic.ResourceUpdated, { uri: `file:///${i}`, big: 2n ** 70n });
      expect(await eventually(() => onA.length === 5 && onB.length === 5)).toBe(true);
      expect(onB.map((m) => m.uri)).toEqual(["file:///0", "file:///1", "file:///2", "file:///3", "file:///4"]);
      expect(onB[0]!.big).toBe(2n ** 70n);
      expect(onA).toEqual(onB);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("subscribe resolves once Redis confirmed it: a publish right after is heard", async () => {
    const [a, b] = twoInstances();
    try {
      const heard: Message[] = [];
      await b.subscribe(BusTopic.ListChanged, (m) => heard.push(m));
      expect(await raw().pubsub("NUMSUB", b.channelOf(BusTopic.ListChanged))).toEqual([b.channelOf(BusTopic.ListChanged), 1]);
      await a.publish(BusTopic.ListChanged, { kind: "tools" });
      expect(await eventually(() => heard.length === 1)).toBe(true);
      expect(heard[0]).toEqual({ kind: "tools" });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("topics are channels under the prefix: other topics and other prefixes are not heard", async () => {
    const prefix = freshPrefix();
    const [a, b] = twoInstances(prefix);
    const [other] = twoInstances();
    try {
      expect(a.channelOf(BusTopic.TaskStatus)).toBe(`${prefix}task-status`);
      const heard: Message[] = [];
      await b.subscribe(BusTopic.TaskStatus, (m) => heard.push({ on: "b", ...m }));
      await other.subscribe(BusTopic.TaskStatus, (m) => heard.push({ on: "other", ...m }));
      await a.publish(BusTopic.TaskControl, { taskId: "t", kind: "cancel" });
      await a.publish(BusTopic.TaskStatus, { owner: "", task: { taskId: "t" } });
      expect(await eventually(() => heard.length >= 1)).toBe(true);
      // The publish after the one that must not be heard arrived: so that one was not delivered.
      expect(heard).toEqual([{ on: "b", owner: "", task: { taskId: "t" } }]);
    } finally {
      await a.close();
      await b.close();
      await other.close();
    }
  });

  it("one SUBSCRIBE per topic; the last listener's removal unsubscribes", async () => {
    const [a, b] = twoInstances();
    try {
      const first: Message[] = [];
      const second: Message[] = [];
      const offFirst = await b.subscribe(BusTopic.ResourceUpdated, (m) => first.push(m));
      const offSecond = await b.subscribe(BusTopic.ResourceUpdated, (m) => second.push(m));
      const channel = b.channelOf(BusTopic.ResourceUpdated);
      expect(await raw().pubsub("NUMSUB", channel)).toEqual([channel, 1]);
      await a.publish(BusTopic.ResourceUpdated, { uri: "a" });
      expect(await eventually(() => first.length === 1 && second.length === 1)).toBe(true);
      offFirst();
      offFirst();
      await a.publish(BusTopic.ResourceUpdated, { uri: "b" });
      expect(await eventually(() => second.length === 2)).toBe(true);
      expect(first).toHaveLength(1);
      offSecond();
      expect(await eventually(async () => ((await raw().pubsub("NUMSUB", channel)) as unknown[])[1] === 0)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a listener that throws and a message that is not a JSON object are reported; the other listeners still hear", async () => {
    const errors: Error[] = [];
    const [a, b] = twoInstances(freshPrefix(), errors);
    try {
      const heard: Message[] = [];
      await b.subscribe(BusTopic.ResourceUpdated, () => {
        throw new Error("listener bug");
      });
      await b.subscribe(BusTopic.ResourceUpdated, (m) => heard.push(m));
      await a.publish(BusTopic.ResourceUpdated, { uri: "x" });
      await raw().publish(b.channelOf(BusTopic.ResourceUpdated), "not json");
      await raw().publish(b.channelOf(BusTopic.ResourceUpdated), "[1,2]");
      expect(await eventually(() => errors.length === 3)).toBe(true);
      expect(heard).toEqual([{ uri: "x" }]);
      expect(errors[0]!.message).toMatch(/listener .* threw: Error: listener bug/);
      expect(errors[1]!.message).toMatch(/not a JSON object: not json/);
      expect(errors[2]!.message).toMatch(/not a JSON object: \[1,2\]/);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a given client is used to publish and stays open; the bus closes what it made", async () => {
    const given = raw();
    const prefix = freshPrefix();
    const mine = new RedisEventBus({ url: redis().url, prefix });
    const theirs = new RedisEventBus({ client: given, prefix });
    const heard: Message[] = [];
    await mine.subscribe(BusTopic.ListChanged, (m) => heard.push(m));
    await theirs.publish(BusTopic.ListChanged, { kind: "prompts" });
    expect(await eventually(() => heard.length === 1)).toBe(true);
    await theirs.close();
    await mine.close();
    await mine.close();
    expect(given.status).toBe("ready");
    await expect(mine.publish(BusTopic.ListChanged, { kind: "tools" })).rejects.toThrow(/closed/);
    await expect(mine.subscribe(BusTopic.ListChanged, () => {})).rejects.toThrow(/closed/);
    expect(() => new RedisEventBus({} as never)).toThrow(TypeError);
  });
});
