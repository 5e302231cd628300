/**
 * Reading what a server answers to the tasks extension's requests (the
 * shared rules of `@x/mcp-v2607/tasks`: a malformed answer is -32094), which
 * failures are transient, `tasks/cancel`, the poll interval, and the errors
 * of a task that failed or was cancelled.
 */
import { isObject, JsonRpcErrorCode, SERVER_BUSY } from "@x/jsonrpc";
import { type DetailedTask, detailedTaskProblem, type Task, TaskMethod, taskProblem } from "@x/mcp-v2607/tasks";
import { ClientErrorCode, clip, isMcpClientError, McpClientError } from "./errors.js";
import type { TaskPort, TaskRequestOptions, TaskSettings } from "./task-options.js";

/** The `TransportFailed` reasons that a later attempt may not meet: the network or the server's front failed, not the request. */
const TRANSIENT_TRANSPORT_REASONS: ReadonlySet<unknown> = new Set(["connection_failed", "stream_broken"]);

/**
 * True for a failure of one task request that says nothing about the task
 * and that the same request may not meet a moment later: the server's
 * -32603 (`InternalError`, e.g. its task store briefly unreachable) or
 * -32000 (server busy, sent with HTTP 503); a transport failure of the
 * network (`connection_failed`, `stream_broken`) or an HTTP 5xx or 429
 * without a JSON-RPC body (`http_error`, e.g. a proxy's 502); and the
 * request's own timeout (-32001). Everything else (-32602 for an unknown
 * task, a malformed answer, a closed transport) is definite.
 */
export function isTransientTaskFailure(error: unknown): boolean {
  if (!isMcpClientError(error)) return false;
  const source = (error as McpClientError).source;
  if (source === "server") return error.code === JsonRpcErrorCode.InternalError || error.code === SERVER_BUSY;
  if (error.code === ClientErrorCode.RequestTimeout) return true;
  if (error.code !== ClientErrorCode.TransportFailed) return false;
  const data = isObject(error.data) ? error.data : {};
  if (TRANSIENT_TRANSPORT_REASONS.has(data.reason)) return true;
  return data.reason === "http_error" && typeof data.status === "number" && (data.status >= 500 || data.status === 429);
}

/** Failures a wait gave up on after {@link TaskSettings.pollAttempts} transient attempts (see {@link gaveUpTransiently}). */
const gaveUp = new WeakSet<object>();

/** Marks `error` as one a wait gave up on (see {@link gaveUpTransiently}). */
export function markGaveUp(error: object): void {
  gaveUp.add(error);
}

/**
 * True when `error` is what a task wait rejected with after every attempt
 * of a request failed transiently: the task itself may be fine, so
 * `callTool` does not cancel it.
 */
export function gaveUpTransiently(error: unknown): boolean {
  return typeof error === "object" && error !== null && gaveUp.has(error);
}

export function invalidTask(message: string, data: Record<string, unknown>): McpClientError {
  return new McpClientError(ClientErrorCode.InvalidResult, message, data);
}

/**
 * Reads a task handle (`CreateTaskResult`, `resultType: "task"`) with the
 * shared {@link taskProblem} rule.
 * @throws McpClientError -32094 (`InvalidResult`) naming what is wrong.
 */
export function readCreateTaskResult(result: Record<string, unknown>, method: string): Task {
  const problem = taskProblem(result);
  if (problem !== undefined) throw invalidTask(`The server answered ${method} with a malformed task handle: ${problem}`, { problem });
  return result as unknown as Task;
}

/**
 * Reads a detailed task (a `tasks/get` result, or the params of a
 * `notifications/tasks`) with the shared {@link detailedTaskProblem} rule,
 * for the task `taskId`. A `tasks/get` result must have `resultType`
 * `"complete"` (or none, as every complete result may).
 * @throws McpClientError -32094 (`InvalidResult`) naming what is wrong.
 */
export function readDetailedTask(value: unknown, taskId: string, where: string): DetailedTask {
  const problem = detailedTaskProblem(value);
  if (problem !== undefined)
    throw invalidTask(`The ${where} of task ${clip(JSON.stringify(taskId), 80)} is malformed: ${problem}`, { taskId, problem });
  const task = value as Record<string, unknown>;
  if (task.taskId !== taskId) {
    throw invalidTask(`The ${where} of task ${clip(JSON.stringify(taskId), 80)} describes another task`, {
      taskId,
      problem: "taskId does not match",
    });
  }
  if (where === TaskMethod.Get && Object.hasOwn(task, "resultType") && task.resultType !== "complete") {
    const kind = clip(JSON.stringify(task.resultType) ?? String(task.resultType), 40);
    throw invalidTask(`The tasks/get result of task ${clip(JSON.stringify(taskId), 80)} has resultType ${kind}; it must be "complete"`, {
      taskId,
      problem: "resultType must be complete",
    });
  }
  return value as DetailedTask;
}

/** Checks the empty acknowledgement of `tasks/update` and `tasks/cancel`. @throws McpClientError -32094. */
export function readAck(result: Record<string, unknown>, method: string): void {
  if (Object.hasOwn(result, "resultType") && result.resultType !== "complete") {
    const kind = clip(JSON.stringify(result.resultType) ?? String(result.resultType), 40);
    throw invalidTask(`The ${method} acknowledgement has resultType ${kind}; it must be "complete"`, {
      problem: "resultType must be complete",
    });
  }
}

/**
 * One `tasks/cancel` of `taskId` through `port`, its acknowledgement checked.
 * @throws McpClientError -32094 for an acknowledgement that is not `resultType: "complete"`; the server's error.
 */
export async function cancelTask(port: TaskPort, taskId: string, options: TaskRequestOptions): Promise<void> {
  readAck(await port.send(TaskMethod.Cancel, { taskId }, options), TaskMethod.Cancel);
}

/**
 * The interval to wait before the next poll: the task's `pollIntervalMs`
 * (else the `pollIntervalMs` setting) clamped to the bounds of the settings.
 */
export function pollDelay(
  task: Pick<Task, "pollIntervalMs">,
  settings: Pick<TaskSettings, "pollIntervalMs" | "minPollIntervalMs" | "maxPollIntervalMs">,
): number {
  const suggested = Number.isSafeInteger(task.pollIntervalMs) ? (task.pollIntervalMs as number) : settings.pollIntervalMs;
  return Math.min(Math.max(suggested, settings.minPollIntervalMs), settings.maxPollIntervalMs);
}

/**
 * The error a `failed` task ends with: its inlined JSON-RPC error as the
 * error the server would have answered the request with (`source:
 * "server"`, the server's code, message and data).
 */
export function failedTaskError(task: DetailedTask & { status: "failed" }): McpClientError {
  const { code, message, data } = task.error as { code: number; message: string; data?: unknown };
  return new McpClientError(code, message, data, "server");
}

/** The error a task that ended `cancelled` (by anyone but this wait's caller) rejects its result with: -32098. */
export function cancelledTaskError(task: DetailedTask): McpClientError {
  const reason = task.statusMessage === undefined ? "" : `: ${clip(task.statusMessage)}`;
  return new McpClientError(ClientErrorCode.TaskCancelled, `Task ${clip(JSON.stringify(task.taskId), 80)} was cancelled${reason}`, {
    taskId: task.taskId,
    statusMessage: task.statusMessage,
  });
}
