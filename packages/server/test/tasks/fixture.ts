/**
 * What the tasks tests (test/tasks/) share: the capabilities that declare the
 * extension, gates a test opens to let a handler go on, bounded polling of
 * `tasks/get`, and a store that the runner treats as shared (it is not a
 * `MemoryTaskStore`, so leases are used) while keeping its tasks in one.
 */
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { expect } from "vitest";
import type { McpServer, TaskPatch, TaskRecord, TaskStore, TaskUpdate, TransportInfo } from "../../src/index.js";
import { MemoryTaskStore } from "../../src/tasks/index.js";
import { type Answer, capabilities, send } from "../helpers.js";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** `_meta` declaring the tasks extension and form elicitation. */
export const TASKS = capabilities({ extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} });
/** `_meta` declaring form elicitation only (no tasks extension). */
export const PLAIN = capabilities({ elicitation: {} });

export const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A promise a test settles by hand: a handler awaits `promise`, the test calls `open`. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Resolves when `signal` is aborted, with its reason. */
export function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener("abort", () => resolve(signal.reason), { once: true });
  });
}

/** Options of the in-process calls below. */
export interface CallOptions {
  meta?: Record<string, unknown>;
  transport?: TransportInfo;
}

/** `tools/call` in process, declaring the extension unless `options.meta` says otherwise. */
export function call(server: McpServer, name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<Answer> {
  return send(server, "tools/call", { name, arguments: args }, { meta: options.meta ?? TASKS, transport: options.transport });
}

/** A `tasks/*` request in process, declaring the extension unless `options.meta` says otherwise. */
export function tasks(
  server: McpServer,
  method: "get" | "update" | "cancel",
  params: Record<string, unknown>,
  options: CallOptions = {},
): Promise<Answer> {
  return send(server, `tasks/${method}`, params, { meta: options.meta ?? TASKS, transport: options.transport });
}

/** Calls a task tool and returns the new task's id (the call must answer a task handle). */
export async function start(server: McpServer, name: string, args: Record<string, unknown> = {}, options: CallOptions = {}) {
  const answer = await call(server, name, args, options);
  expect(answer.error).toBeUndefined();
  expect(answer.result.resultType).toBe("task");
  return answer.result.taskId as string;
}

/**
 * Polls `tasks/get` until the task's status is one of `statuses` (at most
 * `max` polls, 2 ms apart) and returns that `tasks/get` result.
 * @throws when it never gets there, or `tasks/get` answers an error.
 */
export async function waitFor(
  server: McpServer,
  taskId: string,
  statuses: TaskStatus | readonly TaskStatus[],
  options: CallOptions & { max?: number; where?: (task: any) => boolean } = {},
): Promise<any> {
  const wanted = typeof statuses === "string" ? [statuses] : statuses;
  let last: Answer | undefined;
  for (let i = 0; i < (options.max ?? 1000); i++) {
    last = await tasks(server, "get", { taskId }, options);
    if (last.error) throw new Error(`tasks/get ${taskId} answered ${JSON.stringify(last.error)}`);
    if (wanted.includes(last.result.status) && (options.where?.(last.result) ?? true)) return last.result;
    await sleep(2);
  }
  throw new Error(`task ${taskId} never reached ${wanted.join(" or ")}: last ${JSON.stringify(last?.result)}`);
}

/** Waits (bounded) until `check()` holds, then asserts it. */
export async function until(check: () => boolean, max = 1000): Promise<void> {
  for (let i = 0; i < max && !check(); i++) await sleep(2);
  expect(check()).toBe(true);
}

/** True for an ISO 8601 time as `Date#toISOString` writes it. */
export function isIsoTime(value: unknown): boolean {
  return typeof value === "string" && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;
}

/**
 * A task store the runner treats as shared (it is no `MemoryTaskStore`), kept
 * in one: what a store shared by several instances would be, in process. It
 * counts the lease renewals it sees.
 */
export class SharedStore implements TaskStore {
  readonly inner = new MemoryTaskStore();
  /** Updates whose patch only renews a lease. */
  renewals = 0;
  create(record: TaskRecord): Promise<void> {
    return this.inner.create(record);
  }
  get(taskId: string): Promise<TaskRecord | undefined> {
    return this.inner.get(taskId);
  }
  update(taskId: string, patch: TaskPatch, onlyIf?: readonly TaskStatus[]): Promise<TaskUpdate | undefined> {
    if (Object.keys(patch).length === 1 && "leaseUntil" in patch) this.renewals++;
    return this.inner.update(taskId, patch, onlyIf);
  }
  countOwned(owner: string): Promise<number> {
    return this.inner.countOwned(owner);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A stored record as a worker would write it (owner `""`, running elsewhere). */
export function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  const at = new Date(now).toISOString();
  return {
    taskId: globalThis.crypto.randomUUID(),
    owner: "",
    method: "tools/call",
    status: "working",
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: 60_000,
    expiresAt: now + 60_000,
    pollIntervalMs: 1000,
    worker: "elsewhere",
    ...overrides,
  };
}
