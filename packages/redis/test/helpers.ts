/** Shared by this package's tests: a redis-server per test file, and bounded waiting. */
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { type RedisServer, startRedis } from "../../../test-support/redis.js";

/**
 * Starts a redis-server for the test file (before its tests, stopped by PID
 * after them) and answers a getter for it.
 */
export function useRedis(): () => RedisServer {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedis();
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error("redis-server is not running");
    return server;
  };
}

/** A plain ioredis client of a test (ioredis' defaults); close it with `quit`. */
export function client(url: string): Redis {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on("error", () => {});
  return redis;
}

/**
 * Checks `check` until it holds, at most `ms / stepMs` times more, `stepMs`
 * apart; answers whether it did. Bounded by a count: a busy machine's slow
 * checks make the wait longer, never its attempts fewer.
 */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000, stepMs = 50): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      if (await check()) return true;
    } catch {
      // not yet
    }
    if (attempt >= Math.ceil(ms / stepMs)) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** A random key prefix, so the tests of one file never see each other's keys. */
export function freshPrefix(): string {
  return `test-${Math.random().toString(36).slice(2)}:`;
}
