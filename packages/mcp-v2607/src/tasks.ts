/**
 * The tasks extension (`io.modelcontextprotocol/tasks`) over revision
 * 2026-07-28: its identifier, methods, wire shapes and the rules a server and
 * a client must read alike (which statuses are terminal, how a task handle is
 * told from a complete result, what a `tasks/*` request must carry). Hand
 * written: the extension's schema is not part of the pinned spec schema, so
 * the generator has nothing to read; the shapes follow the extension's
 * published definitions member for member.
 *
 * Extension: specification/draft/tasks.md of modelcontextprotocol/ext-tasks.
 *
 * @module @x/mcp-v2607/tasks
 */
import { ErrorCode } from "./constants-entry.js";
import type { Error as JSONRPCError, InputRequests, InputResponses, Result } from "./generated/types.js";

/** The extension's identifier: a key of `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The methods and the notification the extension adds (its "tasks/" prefix is reserved). */
export const TaskMethod = /* @__PURE__ */ Object.freeze({
  Get: "tasks/get",
  Update: "tasks/update",
  Cancel: "tasks/cancel",
  Status: "notifications/tasks",
} as const);

/** The `resultType` of a task handle (`CreateTaskResult`); reserved for this extension. */
export const RESULT_TYPE_TASK = "task";

/** The methods a server may answer with a task handle. Only `tools/call` for now. */
export const TASK_AUGMENTABLE_METHODS: ReadonlySet<string> = /* @__PURE__ */ new Set(["tools/call"]);

/** Where a task stands (extension "Task Status"). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** The statuses a task never leaves. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = /* @__PURE__ */ new Set(["completed", "failed", "cancelled"]);

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminalTaskStatus(status: unknown): boolean {
  return TERMINAL_TASK_STATUSES.has(status as TaskStatus);
}

/** A task's metadata (extension "Tasks"). Times are ISO 8601 strings; `ttlMs` and `pollIntervalMs` are integer milliseconds. */
export interface Task {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Time to live from `createdAt`; `null` for unlimited. May change over the task's life. */
  ttlMs: number | null;
  /** How often the client should poll; may change over the task's life. */
  pollIntervalMs?: number;
}

/** A task with what its status carries inlined: `inputRequests`, `result` or `error`. */
export type DetailedTask =
  | (Task & { status: "working" })
  | (Task & { status: "input_required"; inputRequests: InputRequests })
  | (Task & { status: "completed"; result: { [key: string]: unknown } })
  | (Task & { status: "failed"; error: JSONRPCError })
  | (Task & { status: "cancelled" });

/** The task handle a server answers in lieu of the method's result: flat `Result & Task`, `resultType: "task"`. */
export type CreateTaskResult = Result & Task & { resultType: "task" };

/** The result of `tasks/get`: the detailed task, `resultType: "complete"`. */
export type GetTaskResult = Result & DetailedTask & { resultType: "complete" };

/** The empty acknowledgement of `tasks/update` and `tasks/cancel`. */
export type TaskAck = Result & { resultType: "complete" };

/** Params of `tasks/get` and `tasks/cancel`. */
export interface TaskIdParams {
  taskId: string;
}

/** Params of `tasks/update`: answers to outstanding `inputRequests`, by key. */
export interface UpdateTaskParams {
  taskId: string;
  inputResponses: InputResponses;
}

/** Params of `notifications/tasks`: the detailed task, as `tasks/get` would answer it then. */
export type TaskStatusNotificationParams = DetailedTask & { _meta?: { [key: string]: unknown } };

/** The extension's addition to a `subscriptions/listen` filter (and to its acknowledgement): the tasks to hear about. */
export interface TaskSubscriptionFilter {
  taskIds?: string[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when `capabilities` (a client's or a server's) declares the extension. */
export function declaresTasks(capabilities: unknown): boolean {
  if (!isObject(capabilities)) return false;
  const extensions = capabilities.extensions;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/** The `data` of the -32021 error for a client that lacks the extension (`requiredCapabilities`). */
export function tasksRequiredData(): { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: Record<string, never> } } } {
  return { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };
}

/** The code of every failure to find a task, unknown or expired alike (extension "Protocol Errors"). */
export const TASK_NOT_FOUND_CODE = ErrorCode.InvalidParams;

/** The most bytes of a `taskId` a server reads; a longer one is refused as invalid params. */
export const MAX_TASK_ID_LENGTH = 256;

/**
 * Reads the `taskId` of a `tasks/*` request's params.
 * @returns the id, or the message of the -32602 error to answer with.
 */
export function readTaskId(params: unknown): { ok: true; taskId: string } | { ok: false; message: string } {
  const taskId = isObject(params) ? params.taskId : undefined;
  if (typeof taskId !== "string" || taskId.length === 0) return { ok: false, message: "Invalid params: taskId must be a non-empty string" };
  if (taskId.length > MAX_TASK_ID_LENGTH)
    return { ok: false, message: `Invalid params: taskId is longer than ${MAX_TASK_ID_LENGTH} characters` };
  return { ok: true, taskId };
}

const STATUSES: ReadonlySet<string> = new Set(["working", "input_required", "completed", "failed", "cancelled"]);

/**
 * Checks a task as a client receives it (a `CreateTaskResult`, a
 * `tasks/get` result or a `notifications/tasks` payload): the members every
 * task carries, and what its status inlines (`inputRequests` for
 * `input_required`, `result` for `completed`, an `error` with a numeric code
 * and a string message for `failed`).
 * @returns `undefined` when it is a well-formed task, else what is wrong.
 */
export function taskProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "a task must be an object";
  if (typeof value.taskId !== "string" || value.taskId.length === 0) return "taskId must be a non-empty string";
  if (typeof value.status !== "string" || !STATUSES.has(value.status)) return `status must be one of ${[...STATUSES].join(", ")}`;
  if (typeof value.createdAt !== "string") return "createdAt must be an ISO 8601 string";
  if (typeof value.lastUpdatedAt !== "string") return "lastUpdatedAt must be an ISO 8601 string";
  if (value.ttlMs !== null && !Number.isSafeInteger(value.ttlMs)) return "ttlMs must be an integer or null";
  if (value.pollIntervalMs !== undefined && !Number.isSafeInteger(value.pollIntervalMs)) return "pollIntervalMs must be an integer";
  if (value.statusMessage !== undefined && typeof value.statusMessage !== "string") return "statusMessage must be a string";
  return undefined;
}

/** Like {@link taskProblem}, and also what the status must inline (a `tasks/get` result, a status notification). */
export function detailedTaskProblem(value: unknown): string | undefined {
  const base = taskProblem(value);
  if (base !== undefined) return base;
  const task = value as Record<string, unknown>;
  if (task.status === "input_required" && !isObject(task.inputRequests)) return "an input_required task must carry inputRequests";
  if (task.status === "completed" && !isObject(task.result)) return "a completed task must carry its result";
  if (task.status === "failed") {
    const error = task.error;
    if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
      return "a failed task must carry a JSON-RPC error (numeric code, string message)";
    }
  }
  return undefined;
}

/** True when a result is a task handle (`resultType: "task"`). */
export function isCreateTaskResult(result: unknown): result is CreateTaskResult {
  return isObject(result) && result.resultType === RESULT_TYPE_TASK;
}
