/**
 * What the server keeps tasks in (the tasks plug-in, `@x/server/tasks`, and
 * the stores that implement it, such as `@x/redis`'s): the {@link TaskStore}
 * interface and its records. Types only: the core names them (for
 * `McpServer.taskStore`) and carries no code of the plug-in; the in-memory
 * store is the plug-in's (`tasks/store.ts`).
 */
import type { Error as JSONRPCErrorObject, InputRequests } from "@x/mcp-v2607";
import type { TaskStatus } from "@x/mcp-v2607/tasks";
import type { JsonObject } from "./objects.js";

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
