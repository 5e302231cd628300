/**
 * A task store in Redis (the tasks extension, `io.modelcontextprotocol/tasks`):
 * every instance of a deployment that reads the same Redis sees the same
 * tasks, so a task made through one instance is polled, answered and
 * cancelled through any other.
 */
import { parseJson, stringifyJson } from "@x/jsonrpc";
import { TERMINAL_TASK_STATUSES, type TaskStatus } from "@x/mcp-v2607/tasks";
import { TaskLimitError, type TaskPatch, type TaskRecord, type TaskStore, type TaskUpdate } from "@x/server/tasks";
import type { Redis } from "ioredis";
import { createHash } from "node:crypto";
import {
  closeOwned,
  type Connection,
  connectionOf,
  DEFAULT_CONNECT_TIMEOUT_MS,
  OutageWatch,
  prefixOf,
  type RedisConnectionOptions,
  reportToStderr,
} from "./connection.js";

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions extends RedisConnectionOptions {
  /**
   * Most unexpired tasks the store holds at once, over every owner; past it
   * `create` rejects with `TaskLimitError` (the server answers -32000).
   * Default {@link DEFAULT_MAX_REDIS_TASKS}.
   */
  maxTasks?: number;
}

/** Default most tasks a {@link RedisTaskStore} holds at once. */
export const DEFAULT_MAX_REDIS_TASKS = 100_000;

/** The members the store keeps a task by; a patch may not change them. */
const FIXED_MEMBERS: ReadonlySet<string> = new Set(["taskId", "owner", "method", "createdAt"]);

// Why a hash: each member of the record is its own field holding that
// member's JSON (written by stringifyJson, read by parseJson), so the update
// script changes members without decoding or re-encoding their values. Lua's
// cjson would turn an empty array into an object and round integers beyond
// 2^53; here the script only ever decodes the status, a JSON string.
//
// Times: a script reads the clock of Redis (TIME), the clock its key expiry
// (PEXPIREAT) runs on, so a task is gone from `get` and from `countOwned`
// at the same moment.

/** Shared by the scripts: keeps an index key alive exactly as long as its longest-lived member. */
const EXPIRE_INDEX = `
local function expireIndex(key)
  local top = redis.call('ZREVRANGE', key, 0, 0, 'WITHSCORES')
  if top[2] == nil then return end
  if top[2] == 'inf' then redis.call('PERSIST', key) else redis.call('PEXPIREAT', key, top[2]) end
end
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * KEYS: task, owner index, store index, finished index. ARGV: taskId,
 * expiry score ("inf" or epoch ms), maxTasks, "1" when the task is running
 * (it then counts against its owner), the task key prefix, then
 * field/value pairs.
 * Returns 1 (stored), 0 (full) or -1 (the id exists).
 */
const CREATE = `${EXPIRE_INDEX}
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local t = now()
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', t)
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[3]) then
  -- Full: the finished task that expires first makes room, so one caller's finished tasks cannot lock the others out.
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', t)
  local oldest = redis.call('ZRANGE', KEYS[4], 0, 0)
  while oldest[1] ~= nil and redis.call('EXISTS', ARGV[5] .. oldest[1]) == 0 do
    redis.call('ZREM', KEYS[4], oldest[1])
    redis.call('ZREM', KEYS[3], oldest[1])
    oldest = redis.call('ZRANGE', KEYS[4], 0, 0)
  end
  if oldest[1] == nil then return 0 end
  redis.call('DEL', ARGV[5] .. oldest[1])
  redis.call('ZREM', KEYS[4], oldest[1])
  redis.call('ZREM', KEYS[3], oldest[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', t)
redis.call('HSET', KEYS[1], unpack(ARGV, 6))
if ARGV[2] ~= 'inf' then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
if ARGV[4] == '1' then redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1]) else redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1]) end
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
expireIndex(KEYS[2])
expireIndex(KEYS[3])
expireIndex(KEYS[4])
return 1
`;

/**
 * KEYS: task, and when the expiry changes, owner index and store index.
 * ARGV: control JSON { terminal, onlyIf (null for any), remove, expiry
 * ("keep", "inf" or epoch ms) }, taskId, then field/value pairs to set.
 * Returns false (no such task) or { applied (0/1), the hash's fields and values }.
 */
const UPDATE = `${EXPIRE_INDEX}
local stored = redis.call('HGET', KEYS[1], 'status')
if not stored then return false end
local ctl = cjson.decode(ARGV[1])
local status = cjson.decode(stored)
local applied = 1
for _, s in ipairs(ctl.terminal) do if s == status then applied = 0 end end
if applied == 1 and type(ctl.onlyIf) == 'table' then
  local allowed = 0
  for _, s in ipairs(ctl.onlyIf) do if s == status then allowed = 1 end end
  applied = allowed
end
local ended = false
if applied == 1 then
  if #ARGV > 2 then redis.call('HSET', KEYS[1], unpack(ARGV, 3)) end
  if #ctl.remove > 0 then redis.call('HDEL', KEYS[1], unpack(ctl.remove)) end
  local now_status = cjson.decode(redis.call('HGET', KEYS[1], 'status'))
  for _, s in ipairs(ctl.terminal) do if s == now_status then ended = true end end
  -- The owner's index holds running tasks only: a task that ended no longer counts against its owner.
  if ended then
    local owner = cjson.decode(redis.call('HGET', KEYS[1], 'owner'))
    redis.call('ZREM', ctl.ownerPrefix .. owner, ARGV[2])
    redis.call('ZADD', ctl.finishedKey, redis.call('ZSCORE', ctl.indexKey, ARGV[2]) or 'inf', ARGV[2])
    expireIndex(ctl.finishedKey)
  end
end
local record = redis.call('HGETALL', KEYS[1])
if applied == 1 and ctl.expiry ~= 'keep' then
  if ctl.expiry == 'inf' then redis.call('PERSIST', KEYS[1]) else redis.call('PEXPIREAT', KEYS[1], ctl.expiry) end
  if not ended then redis.call('ZADD', KEYS[2], ctl.expiry, ARGV[2]) end
  redis.call('ZADD', KEYS[3], ctl.expiry, ARGV[2])
  expireIndex(KEYS[2])
  expireIndex(KEYS[3])
end
return { applied, record }
`;

/** KEYS: owner index. Returns how many of its running tasks have not expired. */
const COUNT = `${EXPIRE_INDEX}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now())
return redis.call('ZCARD', KEYS[1])
`;

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

const SCRIPTS = { create: script(CREATE), update: script(UPDATE), count: script(COUNT) };

/** The score of an expiry in the indexes (and the `expiry` of the update script). */
function scoreOf(expiresAt: number | null | undefined): string {
  if (expiresAt === null || expiresAt === undefined) return "inf";
  if (!Number.isSafeInteger(expiresAt))
    throw new TypeError(`expiresAt must be an integer number of epoch milliseconds or null, got ${String(expiresAt)}`);
  return String(expiresAt);
}

/** A record from a hash's flat `[field, value, ...]` list; `undefined` for an empty one. */
function recordOf(flat: readonly string[]): TaskRecord | undefined {
  if (flat.length === 0) return undefined;
  const record: Record<string, unknown> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) record[flat[i] as string] = parseJson(flat[i + 1] as string);
  return record as unknown as TaskRecord;
}

/**
 * A {@link TaskStore} in Redis, for several server instances sharing their
 * tasks (the `store` of the tasks plug-in: `tasks({ store })` of `@x/server/tasks`).
 *
 * Layout, under `prefix` (default `x-mcp:`):
 * - `<prefix>task:<taskId>`: a hash, one field per member of the record
 *   holding that member's JSON (integers beyond 2^53 kept); expires at the
 *   record's `expiresAt` (PEXPIREAT), never when it is `null`.
 * - `<prefix>owner:<owner>`: a sorted set of the owner's running task ids
 *   scored by expiry (`inf` for none), for `countOwned`: a task leaves it
 *   when it ends; expired entries are pruned when counted and when the
 *   owner makes a task.
 * - `<prefix>tasks`: the same for every task, for the `maxTasks` bound.
 * - `<prefix>finished`: finished task ids scored by expiry: a full store
 *   pushes out the one expiring first to take a new task.
 * Index keys expire with their longest-lived task.
 *
 * Every write is one Lua script (atomic); `create` resolves once Redis
 * answered it, so every instance reading that Redis finds the task. Reads
 * go to the same server: do not point instances at replicas, which may lag.
 * Not for Redis Cluster (the scripts touch keys of several slots).
 *
 * While Redis is unreachable every method rejects (at once on a connection
 * the store made; a given client follows its own options) with a
 * `RedisUnavailableError` marked `reported`, the server answers -32603, and
 * `onError` is told once per outage (the server's default reporting prints
 * nothing more per request). A write whose
 * connection broke while it was in flight rejects without telling whether
 * it was applied; the record in Redis is the truth.
 */
export class RedisTaskStore implements TaskStore {
  readonly #connection: Connection;
  readonly #prefix: string;
  readonly #max: number;
  readonly #connectTimeoutMs: number;
  readonly #watch: OutageWatch;
  #closed = false;

  /** @throws TypeError for options that are not as documented; RangeError when `maxTasks` is not a positive integer. */
  constructor(options: RedisTaskStoreOptions) {
    const max = options.maxTasks ?? DEFAULT_MAX_REDIS_TASKS;
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxTasks must be a positive integer, got ${String(max)}`);
    this.#max = max;
    this.#prefix = prefixOf(options);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.#connection = connectionOf(options, "RedisTaskStore");
    this.#watch = new OutageWatch("task store", options.onError ?? reportToStderr);
    this.#watch.watch(this.#connection.redis);
    if (this.#connection.owned) this.#connection.redis.connect().catch(() => {});
  }

  /** The key of a task's record. */
  taskKey(taskId: string): string {
    return `${this.#prefix}task:${taskId}`;
  }

  /** The key of an owner's index. */
  ownerKey(owner: string): string {
    return `${this.#prefix}owner:${owner}`;
  }

  /** The key of the index of finished tasks, scored by expiry: what a full store pushes out, soonest expiring first. */
  get finishedKey(): string {
    return `${this.#prefix}finished`;
  }

  /** The key of the index of every task. */
  get indexKey(): string {
    return `${this.#prefix}tasks`;
  }

  /**
   * Stores a new task (its `undefined` members left out).
   * @throws (rejects) TaskLimitError when `maxTasks` unexpired tasks are held;
   *   Error when a task with that id exists (a task is never replaced);
   *   RedisUnavailableError (marked `reported`) while Redis is unreachable.
   */
  async create(record: TaskRecord): Promise<void> {
    const fields: string[] = [];
    for (const [key, value] of Object.entries(record)) {
      if (value === undefined) continue;
      fields.push(key, stringifyJson(value) as string);
    }
    const keys = [this.taskKey(record.taskId), this.ownerKey(record.owner), this.indexKey, this.finishedKey];
    const running = TERMINAL_TASK_STATUSES.has(record.status) ? "0" : "1";
    const outcome = await this.#run(SCRIPTS.create, keys, [
      record.taskId,
      scoreOf(record.expiresAt),
      String(this.#max),
      running,
      this.taskKey(""),
      ...fields,
    ]);
    if (outcome === 0) throw new TaskLimitError(`the task store is full (${this.#max} tasks)`);
    if (outcome === -1) throw new Error(`a task with id ${record.taskId} already exists`);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const redis = await this.#redis();
    return recordOf((await this.#watch.command(redis, () => redis.call("HGETALL", this.taskKey(taskId)))) as string[]);
  }

  /**
   * Applies `patch` in one script: nothing changes when the stored status is
   * terminal or not in `onlyIf`. A member set to `undefined` is removed. A
   * new `expiresAt` moves the key's expiry and the indexes' scores.
   * @throws (rejects) TypeError when the patch names `taskId`, `owner`,
   *   `method` or `createdAt`, or removes `status`; RedisUnavailableError
   *   (marked `reported`) while Redis is unreachable.
   */
  async update(taskId: string, patch: TaskPatch, onlyIf?: readonly TaskStatus[]): Promise<TaskUpdate | undefined> {
    const fields: string[] = [];
    const remove: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      if (FIXED_MEMBERS.has(key)) throw new TypeError(`a task's ${key} never changes`);
      if (value === undefined) {
        if (key === "status") throw new TypeError("a task always has a status");
        remove.push(key);
      } else fields.push(key, stringifyJson(value) as string);
    }
    const expiry = Object.hasOwn(patch, "expiresAt") ? scoreOf(patch.expiresAt) : "keep";
    const keys = [this.taskKey(taskId)];
    if (expiry !== "keep") {
      // The owner never changes, so reading it first leaves the script atomic.
      const redis = await this.#redis();
      const owner = (await this.#watch.command(redis, () => redis.call("HGET", this.taskKey(taskId), "owner"))) as string | null;
      if (owner === null) return undefined;
      keys.push(this.ownerKey(parseJson(owner) as string), this.indexKey);
    }
    const control = {
      terminal: [...TERMINAL_TASK_STATUSES],
      onlyIf: onlyIf ? [...onlyIf] : null,
      remove,
      expiry,
      ownerPrefix: this.ownerKey(""),
      finishedKey: this.finishedKey,
      indexKey: this.indexKey,
    };
    const outcome = (await this.#run(SCRIPTS.update, keys, [JSON.stringify(control), taskId, ...fields])) as [number, string[]] | null;
    if (!outcome) return undefined;
    const record = recordOf(outcome[1]);
    // The patch itself may have expired the task (an expiresAt in the past): what it was when patched is the answer.
    return record ? { record, applied: outcome[0] === 1 } : undefined;
  }

  async countOwned(owner: string): Promise<number> {
    return Number(await this.#run(SCRIPTS.count, [this.ownerKey(owner)], []));
  }

  /** Closes the connection the store made from `url`; a given client stays open. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watch.detach();
    if (this.#connection.owned) await closeOwned(this.#connection.redis);
  }

  async #redis(): Promise<Redis> {
    if (this.#closed) throw new Error("RedisTaskStore: the store is closed");
    const redis = this.#connection.redis;
    await this.#watch.ready(redis, this.#connectTimeoutMs);
    return redis;
  }

  /** EVALSHA, and EVAL when Redis does not know the script (first use, or after a restart). */
  async #run(s: Script, keys: string[], args: string[]): Promise<unknown> {
    const redis = await this.#redis();
    return this.#watch.command(redis, async () => {
      try {
        return await redis.call("EVALSHA", s.sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
        return await redis.call("EVAL", s.source, keys.length, ...keys, ...args);
      }
    });
  }
}
