/**
 * Task-augmented `tools/call` of revision 2025-11-25 (spec 2025-11-25:
 * basic/utilities/tasks, experimental in that revision), the whole wire of
 * that design on the client's side:
 *
 * - a call becomes a task only where "Tool-Level Negotiation" allows it: the
 *   server declares `tasks.requests.tools.call` and the tool's
 *   `execution.taskSupport` is `"required"` (or `"optional"`, when the caller
 *   asks with `CallToolOptions.task`);
 * - `tools/call` carries `params.task` (`TaskMetadata`, `{ ttl? }`) and is
 *   answered with a `CreateTaskResult` (`{ task }`);
 * - `tasks/get` is polled at the task's `pollInterval` (clamped as for the
 *   tasks extension) until the task is terminal or `input_required`, then
 *   `tasks/result` takes what the call would have answered. Its asks
 *   (`elicitation/create`, ...) come as requests of the session with the
 *   related-task `_meta`, answered by the client's input handlers as every
 *   request of the session is;
 * - a call abandoned before the task ends (the caller's signal, the wait's
 *   bound, an error) sends `tasks/cancel` when the server declares
 *   `tasks.cancel`.
 *
 * The waiting pieces (the bound, the poll interval, the retries of a
 * transiently failed request, the one `delay`) are the tasks extension's,
 * from `../tasks.ts`. This client declares no `tasks` capability of its own:
 * it receives no task-augmented requests.
 */
import { isObject } from "@x/jsonrpc";
import { Method } from "@x/mcp-v2511/constants";
import type { CallToolResult } from "@x/mcp-v2607";
import { integerOption, rejectUnknown } from "../../auth/options.js";
import { loadLegacyValidate } from "./handshake.js";
import { ClientErrorCode, clip, isMcpClientError, McpClientError } from "../../errors.js";
import { delay } from "../../delay.js";
import type { TaskRequestOptions, TaskSettings } from "../../task-options.js";
import { gaveUpTransiently, pollDelay } from "../../task-reads.js";
import { retryTransient, waitBound } from "../../task-waits.js";

/** The revision that has this task design. */
const TASKS_REVISION = "2025-11-25";

/** A task as revision 2025-11-25 shows it (`Task`): `ttl` and `pollInterval` in milliseconds. */
export interface LegacyTask {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

/** The options of `callTool` that concern 2025-11-25 tasks. */
export interface LegacyTaskCallOptions {
  /**
   * Revision 2025-11-25 only: call a tool whose `execution.taskSupport` is
   * `"optional"` as a task (`true`, or the `TaskMetadata` to send: `ttl`, the
   * time in milliseconds the server should keep the task: a non-negative
   * integer). A `"required"` tool is always called as a task, with this
   * `ttl` when given. Ignored where the server does not declare
   * `tasks.requests.tools.call`; a `ttl` that is no such integer, or another
   * member, is refused with a TypeError on any 2025-11-25 session.
   */
  task?: true | { ttl?: number };
}

/** What a 2025-11-25 task call needs of its client. */
export interface LegacyTaskPort {
  /** Sends one request of the session; resolves with the result object. */
  send(method: string, params: Record<string, unknown>, options: TaskRequestOptions): Promise<Record<string, unknown>>;
  /** Checks the tool's result as `callTool` checks a result (content array, output schema). */
  finish(result: Record<string, unknown>): CallToolResult;
  /** The server's `InitializeResult` capabilities. */
  readonly serverCapabilities: Record<string, unknown> | undefined;
  readonly settings: TaskSettings;
  warn(message: string): void;
}

function member(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) at = isObject(at) ? at[key] : undefined;
  return at;
}

/**
 * True when `callTool` must (or, asked to with `task`, may) send `tool` as a
 * task: the session speaks 2025-11-25, the server declares
 * `tasks.requests.tools.call`, and the tool's `execution.taskSupport` is
 * `"required"`, or `"optional"` with `task` given (spec 2025-11-25:
 * basic/utilities/tasks "Tool-Level Negotiation").
 * @throws TypeError on a 2025-11-25 session when `task` is neither `true` nor a `TaskMetadata` (`{ ttl? }`, `ttl` a non-negative integer).
 */
export function callsAsLegacyTask(
  protocolVersion: string,
  serverCapabilities: Record<string, unknown> | undefined,
  tool: unknown,
  task: LegacyTaskCallOptions["task"],
): boolean {
  if (protocolVersion !== TASKS_REVISION) return false;
  checkTaskOption(task);
  if (!isObject(member(serverCapabilities, "tasks", "requests", "tools", "call"))) return false;
  const support = member(tool, "execution", "taskSupport");
  return support === "required" || (support === "optional" && task !== undefined);
}

/** Refuses a `task` option the spec's `TaskMetadata` cannot carry, so that a misspelt or wrong `ttl` is not sent or dropped quietly. */
function checkTaskOption(task: unknown): void {
  if (task === undefined || task === true) return;
  if (!isObject(task)) throw new TypeError(`callTool: task must be true or { ttl }, got ${JSON.stringify(task)}`);
  rejectUnknown("callTool's task", task, ["ttl"]);
  if (task.ttl !== undefined) integerOption("callTool: task.ttl", task.ttl, 0, 0);
}

function invalid(message: string, data: Record<string, unknown>): McpClientError {
  return new McpClientError(ClientErrorCode.InvalidResult, message, data);
}

/**
 * Reads a `Task` of revision 2025-11-25 (`definition`: the schema definition
 * `value` must match) and checks it names `taskId` when one is expected.
 * @throws McpClientError -32094 (`InvalidResult`) naming what is wrong.
 */
export async function readLegacyTask(
  value: Record<string, unknown>,
  definition: "CreateTaskResult" | "GetTaskResult",
  taskId?: string,
): Promise<LegacyTask> {
  const validate = await loadLegacyValidate();
  const checked = validate(definition, value);
  const where = definition === "CreateTaskResult" ? "tools/call task handle" : "tasks/get result";
  if (!checked.ok) {
    const problems = checked.problems
      .slice(0, 5)
      .map((p) => `${p.path || "(root)"}: ${p.message}`)
      .join("; ");
    throw invalid(`The ${where} breaks the 2025-11-25 schema: ${problems}`, { problems: checked.problems });
  }
  const task = (definition === "CreateTaskResult" ? value.task : value) as LegacyTask;
  if (taskId !== undefined && task.taskId !== taskId)
    throw invalid(`The ${where} of task ${clip(JSON.stringify(taskId), 80)} describes another task`, { taskId });
  return task;
}

const isTerminal = (status: LegacyTask["status"]) => status === "completed" || status === "failed" || status === "cancelled";

/**
 * Calls tool `name` as a 2025-11-25 task and follows it to its result (see
 * the module's comment). `timeout` bounds each `tools/call` and `tasks/get`;
 * `tasks/result`, which the server holds until the task ends, is bounded
 * only by the wait: `signal` and `maxTaskWaitMs` (default the client's
 * `tasks.maxWaitMs`, one hour).
 * @returns the tool's result (a tool error is a result with `isError`).
 * @throws McpClientError: a failed task's JSON-RPC error as the server gives
 *   it on `tasks/result` (`source: "server"`); -32098 (`TaskCancelled`) for
 *   a task that ended cancelled; -32800 when `signal` aborts; -32001 past
 *   `maxTaskWaitMs` (`data.taskId` names the task); -32094 for a malformed
 *   task; the server's and transport's errors. Whenever it throws before the
 *   task ended, it has sent `tasks/cancel` first (unless the server declares
 *   no `tasks.cancel`, or polling gave up on transient failures).
 */
export async function callToolAsLegacyTask(
  port: LegacyTaskPort,
  name: string,
  args: Record<string, unknown>,
  options: LegacyTaskCallOptions & { signal?: AbortSignal; timeout?: number; maxTaskWaitMs?: number },
): Promise<CallToolResult> {
  if (!isObject(args)) throw new TypeError("callTool: args must be an object");
  const metadata = isObject(options.task) && options.task.ttl !== undefined ? { ttl: options.task.ttl } : {};
  const request = { signal: options.signal, timeout: options.timeout };
  const created = await port.send(Method.ToolsCall, { name, arguments: args, task: metadata }, request);
  const task = await readLegacyTask(created, "CreateTaskResult");
  const bound = waitBound(task.taskId, options.signal, options.maxTaskWaitMs ?? port.settings.maxWaitMs);
  const state = { last: task, ended: false };
  try {
    return port.finish(await follow(port, state, bound.signal, options.timeout));
  } catch (error) {
    const thrown = bound.signal.aborted ? bound.signal.reason : error;
    if (!state.ended && !isTerminal(state.last.status)) await abandon(port, task.taskId, thrown, options.timeout);
    throw thrown;
  } finally {
    bound.release();
  }
}

/** Polls until the task is terminal or asks for input, then takes its result with `tasks/result`. */
async function follow(
  port: LegacyTaskPort,
  state: { last: LegacyTask; ended: boolean },
  signal: AbortSignal,
  timeout: number | undefined,
): Promise<Record<string, unknown>> {
  const { taskId } = state.last;
  const id = clip(JSON.stringify(taskId), 80);
  // Bounded by `signal`: the caller's, and the wait's bound unless the caller turned it off.
  for (;;) {
    const view = state.last;
    if (view.status === "cancelled") {
      const reason = view.statusMessage === undefined ? "" : `: ${clip(view.statusMessage)}`;
      throw new McpClientError(ClientErrorCode.TaskCancelled, `Task ${id} was cancelled${reason}`, {
        taskId,
        statusMessage: view.statusMessage,
      });
    }
    if (isTerminal(view.status) || view.status === "input_required") {
      // Held by the server until the task ends; the task's asks come meanwhile as requests of the session.
      // Of a task seen ended, the server's error is the task's own answer (a tool's -32603, say): final, not retried.
      let answer: McpClientError | undefined;
      const ended = isTerminal(view.status);
      const send = () =>
        port.send(Method.TasksResult, { taskId }, { signal, timeout: 0 }).catch((error: unknown) => {
          if (!ended || !isMcpClientError(error) || (error as McpClientError).source !== "server") throw error;
          answer = error as McpClientError;
          return undefined;
        });
      try {
        const result = await retryTransient(port, `tasks/result of task ${id}`, send, signal);
        if (answer) throw answer;
        return result as Record<string, unknown>;
      } catch (error) {
        // The server's own answer (a failed task's error): the task has ended.
        if (isMcpClientError(error) && (error as McpClientError).source === "server") state.ended = true;
        throw error;
      }
    }
    await delay(pollDelay({ pollIntervalMs: view.pollInterval }, port.settings), signal);
    const send = () => port.send(Method.TasksGet, { taskId }, { signal, timeout });
    state.last = await readLegacyTask(await retryTransient(port, `tasks/get of task ${id}`, send, signal), "GetTaskResult", taskId);
  }
}

/** Cancels a task the call no longer waits for, unless nothing says it failed (a transient give-up) or the server cannot. */
async function abandon(port: LegacyTaskPort, taskId: string, error: unknown, timeout: number | undefined): Promise<void> {
  const id = JSON.stringify(taskId);
  if (gaveUpTransiently(error)) {
    port.warn(`Task ${id} was left running: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  if (!isObject(member(port.serverCapabilities, "tasks", "cancel"))) {
    port.warn(`Task ${id} was left running: the server does not declare tasks.cancel`);
    return;
  }
  await port
    .send(Method.TasksCancel, { taskId }, { timeout: Math.min(port.settings.cancelTimeoutMs, timeout || port.settings.cancelTimeoutMs) })
    .catch((e) => port.warn(`Could not cancel task ${id}: ${e instanceof Error ? e.message : String(e)}`));
}
