/**
 * Where tasks live (the tasks extension, `io.modelcontextprotocol/tasks`,
 * and the tasks of revision 2025-11-25 on `initialize`-era sessions):
 * the {@link TaskStore} interface the server keeps tasks in, and its
 * in-memory default. A task outlives the request that made it and may be
 * read through any instance of a deployment, so a store shared by every
 * instance (`@x/redis`) serves several; {@link MemoryTaskStore} serves one
 * process.
 */
import type { Error as JSONRPCErrorObject, InputRequests } from "@x/mcp-v2607";
import type { TaskStatus } from "@x/mcp-v2607/tasks";
import type { JsonObject } from "../objects.js";

/**
 * One task as stored. Times are ISO 8601 strings (the wire's) except
 * `expiresAt` and `leaseUntil`, which are epoch milliseconds.
 */
export interface TaskRecord {
  taskId: string;
  /** Who made it (`ServerOptions.principal`, else the token's principal: its subject and client, or its digest); `""` for nobody in particular. Another owner is told the task does not exist. */
  owner: string;
  /** The request it augments (`tools/call`). */
  method: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Time to live from `createdAt`, in milliseconds; `null` for unlimited. */
  ttlMs: number | null;
  /** Epoch milliseconds after which the store may forget the task (`createdAt` + `ttlMs`); `null` for never. */
  expiresAt: number | null;
  pollIntervalMs?: number;
  /** The outstanding asks of an `input_required` task, by key. */
  inputRequests?: InputRequests;
  /** A `completed` task's result (the method's own result, e.g. `CallToolResult`). */
  result?: JsonObject;
  /** A `failed` task's JSON-RPC error. */
  error?: JSONRPCErrorObject;
  /** The instance running the task (a random id per server). */
  worker?: string;
  /**
   * Epoch milliseconds until which the worker is known to be alive (shared
   * stores only): a task that is not terminal past it lost its worker, and
   * the next reader marks it failed.
   */
  leaseUntil?: number;
}

/** The members of a record an update may change; a member set to `undefined` is removed. */
export type TaskPatch = Partial<Omit<TaskRecord, "taskId" | "owner" | "method" | "createdAt">>;

/** What {@link TaskStore.update} did: the record as it is now, and whether the patch was applied. */
export interface TaskUpdate {
  record: TaskRecord;
  /** False when the task was already terminal (a terminal task never changes) or `onlyIf` did not hold. */
  applied: boolean;
}

/**
 * What the server needs of a task store. Every method may reject (a shared
 * store that lost its connection): the request is then answered -32603 and
 * the error reported to `ServerOptions.onError`. A store that reports an
 * outage itself, once (as `@x/redis` does), rejects during it with errors
 * whose `reported` member is `true`: without an `onError`, the server then
 * prints nothing more for them, rather than a stack trace per request.
 */
export interface TaskStore {
  /**
   * Stores a new task. Resolves only once a `get` from any instance finds
   * it (the extension forbids a task handle before that).
   * @throws TaskLimitError when the store is full.
   */
  create(record: TaskRecord): Promise<void>;
  /** The task, or `undefined` when it is unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `patch` atomically, unless the task is terminal or its status
   * is not one of `onlyIf` (when given).
   * @returns the outcome, or `undefined` when the task is unknown or expired.
   */
  update(taskId: string, patch: TaskPatch, onlyIf?: readonly TaskStatus[]): Promise<TaskUpdate | undefined>;
  /** How many of `owner`'s unexpired tasks are still running (`working` or `input_required`). */
  countOwned(owner: string): Promise<number>;
  /**
   * One page of `owner`'s unexpired tasks, oldest first (by `createdAt`,
   * then `taskId`): at most `limit` of them, and the cursor of the next
   * page (absent on the last). `cursor` is a `nextCursor` this store
   * returned for the same owner (the server signs the cursors it hands out,
   * so the store never sees another); absent for the first page. A task
   * made or expired between two pages may be missed or not, but none is
   * listed twice. Optional: a store without it leaves `tasks/list` (the
   * initialize era's) unoffered.
   */
  list?(owner: string, page: { cursor?: string | undefined; limit: number }): Promise<TaskPage>;
  /** Releases the store's connections (called by `McpServer.close`). */
  close?(): Promise<void>;
}

/** One page of {@link TaskStore.list}. */
export interface TaskPage {
  tasks: TaskRecord[];
  /** Where the next page starts; absent on the last page. */
  nextCursor?: string;
}

/** Thrown by {@link TaskStore.create} when no more tasks fit. Answered -32000 (server busy). */
export class TaskLimitError extends Error {
  /** Thrown by a {@link TaskStore}'s `create`; `message` says which limit was reached. */
  constructor(message: string) {
    super(message);
    this.name = "TaskLimitError";
  }
}

/** Default most tasks a {@link MemoryTaskStore} holds at once. */
export const DEFAULT_MAX_STORED_TASKS = 10_000;

/**
 * The in-process store: a map with expiry. Holds at most `maxTasks`
 * unexpired tasks (default {@link DEFAULT_MAX_STORED_TASKS}); expired ones
 * are dropped when found and by a sweep every minute (an unref'd timer, so
 * it keeps no process alive). When it is full, a new task pushes out the
 * oldest finished one (before its time to live: a poll of it then answers
 * "not found"); only a store full of running tasks refuses a new one.
 * `list` sorts the owner's tasks on each page
 * (at most `maxTasks` of them), so a page costs O(n log n) in the tasks held.
 */
export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #max: number;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  /** @throws RangeError when `maxTasks` is not a positive integer. */
  constructor(options: { maxTasks?: number } = {}) {
    const max = options.maxTasks ?? DEFAULT_MAX_STORED_TASKS;
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`maxTasks must be a positive integer, got ${String(max)}`);
    this.#max = max;
  }

  /** Unexpired tasks held now. */
  get size(): number {
    this.#sweep(Date.now());
    return this.#tasks.size;
  }

  create(record: TaskRecord): Promise<void> {
    const now = Date.now();
    if (this.#tasks.size >= this.#max) this.#sweep(now);
    // Full of live tasks: the oldest finished one makes room (its result was kept as long as memory allowed),
    // so that one caller's finished tasks cannot lock every other caller out until they expire.
    if (this.#tasks.size >= this.#max) this.#evictFinished();
    if (this.#tasks.size >= this.#max) return Promise.reject(new TaskLimitError(`the task store is full (${this.#max} running tasks)`));
    this.#tasks.set(record.taskId, structuredClone(record));
    this.#sweeper ??= setInterval(() => this.#sweep(Date.now()), 60_000);
    this.#sweeper.unref?.();
    return Promise.resolve();
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    const found = this.#live(taskId, Date.now());
    return Promise.resolve(found ? structuredClone(found) : undefined);
  }

  update(taskId: string, patch: TaskPatch, onlyIf?: readonly TaskStatus[]): Promise<TaskUpdate | undefined> {
    const found = this.#live(taskId, Date.now());
    if (!found) return Promise.resolve(undefined);
    const terminal = found.status === "completed" || found.status === "failed" || found.status === "cancelled";
    if (terminal || (onlyIf && !onlyIf.includes(found.status))) {
      return Promise.resolve({ record: structuredClone(found), applied: false });
    }
    const next = { ...found, ...structuredClone(patch) } as TaskRecord;
    for (const key of Object.keys(patch) as (keyof TaskPatch)[]) if (patch[key] === undefined) delete next[key];
    this.#tasks.set(taskId, next);
    return Promise.resolve({ record: structuredClone(next), applied: true });
  }

  countOwned(owner: string): Promise<number> {
    const now = Date.now();
    let n = 0;
    for (const task of this.#tasks.values()) {
      if (task.owner !== owner || (task.expiresAt !== null && task.expiresAt <= now)) continue;
      if (task.status === "working" || task.status === "input_required") n++;
    }
    return Promise.resolve(n);
  }

  list(owner: string, page: { cursor?: string | undefined; limit: number }): Promise<TaskPage> {
    const now = Date.now();
    const after = page.cursor;
    const owned: [string, TaskRecord][] = [];
    for (const task of this.#tasks.values()) {
      if (task.owner !== owner || (task.expiresAt !== null && task.expiresAt <= now)) continue;
      // The cursor is the sort key of the last task listed: a page starts after it, even if that task is gone.
      const key = `${task.createdAt}|${task.taskId}`;
      if (after === undefined || key > after) owned.push([key, task]);
    }
    owned.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const taken = owned.slice(0, Math.max(1, page.limit));
    const result: TaskPage = { tasks: taken.map(([, task]) => structuredClone(task)) };
    if (owned.length > taken.length) result.nextCursor = taken[taken.length - 1]![0];
    return Promise.resolve(result);
  }

  close(): Promise<void> {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    return Promise.resolve();
  }

  #live(taskId: string, now: number): TaskRecord | undefined {
    const found = this.#tasks.get(taskId);
    if (found && found.expiresAt !== null && found.expiresAt <= now) {
      this.#tasks.delete(taskId);
      return undefined;
    }
    return found;
  }

  #evictFinished(): void {
    // A map iterates in insertion order: the first finished task found is the oldest.
    for (const [id, task] of this.#tasks) {
      if (task.status === "completed" || task.status === "failed" || task.status === "cancelled") {
        this.#tasks.delete(id);
        return;
      }
    }
  }

  #sweep(now: number): void {
    for (const [id, task] of this.#tasks) if (task.expiresAt !== null && task.expiresAt <= now) this.#tasks.delete(id);
  }
}
