// A Redis that stops answering (paused with SIGSTOP: the connection stays up)
// costs one command timeout, then commands fail at once, but for one probe at
// a time, until Redis answers again. Counts, not durations: before the stall
// was remembered, each of these loads waited its own timeout and rejected
// with ioredis' "Command timed out".
import { afterAll, describe, expect, it } from "vitest";
import { RedisSessionStore, RedisUnavailableError } from "../src/index.js";
import { eventually, freshPrefix, useRedis } from "./helpers.js";

const redis = useRedis();

describe("a stalled Redis", () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    redis().child?.kill("SIGCONT");
    for (const close of closers) await close().catch(() => {});
  });

  it("fails the session store's reads at once after one timed out, reports it once, and recovers on the first answer", async () => {
    const errors: Error[] = [];
    const store = new RedisSessionStore({ url: redis().url, prefix: freshPrefix(), onError: (e) => errors.push(e) });
    closers.push(() => store.close());
    expect(await store.load("a")).toBeUndefined();
    const child = redis().child!;
    child.kill("SIGSTOP");
    try {
      const first = await store.load("a").catch((e: unknown) => e);
      expect((first as Error).message).toBe("Command timed out");
      // Twenty reads while the probe waits: none is sent, each is refused as an outage.
      const probe = store.load("a").catch((e: unknown) => e);
      const fast = await Promise.all(Array.from({ length: 20 }, () => store.load("a").catch((e: unknown) => e)));
      for (const e of fast) expect(e).toBeInstanceOf(RedisUnavailableError);
      expect(fast.every((e) => (e as RedisUnavailableError).reported)).toBe(true);
      expect(((await probe) as Error).message).toBe("Command timed out");
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message).toMatch(/did not answer a command in time/);
    } finally {
      child.kill("SIGCONT");
    }
    expect(await eventually(async () => (await store.load("a")) === undefined)).toBe(true);
    // Answered again: reads are sent as before.
    const again = await Promise.all(Array.from({ length: 5 }, () => store.load("a")));
    expect(again).toEqual([undefined, undefined, undefined, undefined, undefined]);
  }, 60_000);
});
