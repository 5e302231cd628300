/**
 * Where the tasks plug-in keeps tasks (the tasks extension,
 * `io.modelcontextprotocol/tasks`, and the tasks of revision 2025-11-25 on
 * `initialize`-era sessions): the in-memory default of the
 * {@link TaskStore} interface (`src/task-store.ts`), and the error a full
 * store throws. A task outlives the request that made it and may be read
 * through any instance of a deployment, so a store shared by every instance
 * (`@x/redis`) serves several; {@link MemoryTaskStore} serves one process.
 */
import type { TaskStatus } from "@x/mcp-v2607/tasks";
import type { TaskPage, TaskPatch, TaskRecord, TaskStore, TaskUpdate } from "../task-store.js";

export type { TaskPage, TaskPatch, TaskRecord, TaskStore, TaskUpdate };

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
