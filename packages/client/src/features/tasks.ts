/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28): the
 * port a `TaskHandle` drives a task through, a task handle answered to
 * `tools/call` followed to its result (extension "Backwards
 * Compatibility"), and the lifecycle requests (`callToolAsTask`,
 * `resumeTask`, `tasks/get`, `tasks/cancel`). Whether the extension may be
 * used is the revision's say (`ClientRevision.tasks`).
 */
import { stringifyJson } from "@x/jsonrpc";
import type { CallToolResult, ClientCapabilities } from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import { type DetailedTask, declaresTasks, isTerminalTaskStatus, TASKS_EXTENSION, TaskMethod } from "@x/mcp-v2607/tasks";
import type { Channel } from "../channel.js";
import { rejectUnknown } from "../auth/options.js";
import { ClientErrorCode, clip, McpClientError } from "../errors.js";
import {
  type CallToolAsTaskOptions,
  type CallToolOptions,
  type ClientOptions,
  DECLARE_TASKS,
  type ResumeTaskOptions,
  type Result,
  type SendingOptions,
  type ToolCallStart,
} from "../options.js";
import { invalidResult, isObject, kindOf } from "../results.js";
import { TASKS_OPTIONS } from "../task-options.js";
import {
  cancelTask,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_WAIT_MS,
  gaveUpTransiently,
  MAX_TASK_POLL_INTERVAL_MS,
  MIN_TASK_POLL_INTERVAL_MS,
  readCreateTaskResult,
  readDetailedTask,
  TASK_CANCEL_TIMEOUT_MS,
  TASK_POLL_ATTEMPTS,
  TASK_POLL_RETRY_DELAY_MS,
  TaskHandle,
  type TaskPort,
  type TaskRequestOptions,
  type TaskSettings,
  type TasksOptions,
} from "../tasks.js";
import type { Answering } from "./answering.js";
import type { ToolsFeature } from "./tools.js";

/** `capabilities` with the tasks extension declared. */
export function withTasks(capabilities: ClientCapabilities): ClientCapabilities {
  if (declaresTasks(capabilities)) return capabilities;
  return { ...capabilities, extensions: { ...(isObject(capabilities.extensions) ? capabilities.extensions : {}), [TASKS_EXTENSION]: {} } };
}

/** Resolves {@link ClientOptions.tasks} and `maxInputRounds` into what a task handle reads. @throws TypeError for a bad bound. */
export function taskSettings(tasks: ClientOptions["tasks"], maxInputRounds: number): TaskSettings {
  const given: TasksOptions = isObject(tasks) ? tasks : {};
  rejectUnknown("tasks", given, Object.keys(TASKS_OPTIONS));
  const settings: TaskSettings = {
    minPollIntervalMs: given.minPollIntervalMs ?? MIN_TASK_POLL_INTERVAL_MS,
    maxPollIntervalMs: given.maxPollIntervalMs ?? MAX_TASK_POLL_INTERVAL_MS,
    maxWaitMs: given.maxWaitMs ?? DEFAULT_TASK_WAIT_MS,
    stream: given.stream === true,
    maxInputRounds,
    pollAttempts: given.pollAttempts ?? TASK_POLL_ATTEMPTS,
    pollRetryDelayMs: given.pollRetryDelayMs ?? TASK_POLL_RETRY_DELAY_MS,
    pollIntervalMs: given.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS,
    cancelTimeoutMs: given.cancelTimeoutMs ?? TASK_CANCEL_TIMEOUT_MS,
  };
  for (const key of [
    "minPollIntervalMs",
    "maxPollIntervalMs",
    "maxWaitMs",
    "pollAttempts",
    "pollRetryDelayMs",
    "pollIntervalMs",
    "cancelTimeoutMs",
  ] as const) {
    const value = settings[key];
    if (!Number.isSafeInteger(value) || value < (key === "maxWaitMs" ? 0 : 1))
      throw new TypeError(`tasks.${key} must be ${key === "maxWaitMs" ? "a non-negative" : "a positive"} integer, got ${value}`);
  }
  if (settings.maxPollIntervalMs < settings.minPollIntervalMs)
    throw new TypeError(
      `tasks.maxPollIntervalMs (${settings.maxPollIntervalMs}) is below tasks.minPollIntervalMs (${settings.minPollIntervalMs})`,
    );
  return settings;
}

/** The tasks feature of one client (see the module comment). */
export class TasksFeature {
  private readonly port: TaskPort;

  constructor(
    private readonly options: ClientOptions,
    private readonly channel: () => Channel,
    private readonly tools: ToolsFeature,
    answering: Answering,
    listen: TaskPort["listen"],
    settings: TaskSettings,
    private readonly warn: (message: string) => void,
  ) {
    this.port = {
      send: (method, params, options) => this.channel().send(method, params, { ...options, [DECLARE_TASKS]: true } as SendingOptions),
      answer: (inputRequests, context) => answering.answer(inputRequests, context),
      listen,
      finish: (result, tool, validateOutput) => {
        if (Object.hasOwn(result, "resultType") && result.resultType !== "complete") {
          throw invalidResult(`The result inlined in a completed task has resultType ${clip(stringifyJson(result.resultType) ?? "")}`, {
            resultType: result.resultType,
          });
        }
        return this.tools.finish(tool, result, tool === undefined ? undefined : this.tools.knownTool(tool), validateOutput);
      },
      settings,
      warn: (message) => this.warn(message),
    };
  }

  /**
   * `tools/call`: a task handle the server answers is followed to its result
   * (a call that fails while its task runs sends `tasks/cancel` first).
   */
  async call(name: string, args: Record<string, unknown>, options: CallToolOptions, declared: boolean): Promise<CallToolResult | Result> {
    const { result, known } = await this.tools.send(name, args, options, declared);
    const kind = kindOf(result, Method.ToolsCall, declared);
    if (kind === "input_required") return result;
    if (kind !== "task") return this.tools.finish(name, result, known, options.validateOutput);
    // The extension's backward compatibility: a caller of callTool sees only the final result.
    const task = this.handle(result, name, args);
    try {
      options.onTask?.(task);
    } catch (error) {
      this.warn(`An onTask listener threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      return await task.result({
        signal: options.signal,
        timeout: options.timeout,
        maxWaitMs: options.maxTaskWaitMs,
        maxInputRounds: options.maxInputRounds,
        onStatus: options.onTaskStatus,
        validateOutput: options.validateOutput,
      });
    } catch (error) {
      if (gaveUpTransiently(error)) {
        // The server could not be reached or read for a while; nothing says the task failed, and a
        // tasks/cancel would most likely fail the same way: it is left running for a later resume.
        this.warn(`Task ${JSON.stringify(task.taskId)} was left running: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
      // Nobody else knows of the task unless onTask kept it: do not leave it running.
      if (!isTerminalTaskStatus(task.status)) {
        await task
          .cancel({ timeout: Math.min(this.port.settings.cancelTimeoutMs, this.options.timeout || this.port.settings.cancelTimeoutMs) })
          .catch((e) => this.warn(`Could not cancel task ${JSON.stringify(task.taskId)}: ${e instanceof Error ? e.message : String(e)}`));
      }
      throw error;
    }
  }

  /** `tools/call` declaring the extension; the server decides whether to make a task. */
  async callAsTask(name: string, args: Record<string, unknown> = {}, options: CallToolAsTaskOptions = {}): Promise<ToolCallStart> {
    this.require("callToolAsTask");
    const { result, known } = await this.tools.send(name, args, { ...options, inputRequired: "resolve" }, true);
    if (kindOf(result, Method.ToolsCall, true) === "task") return { task: this.handle(result, name, args) };
    // Resolved above: never an InputRequiredResult here.
    return { result: this.tools.finish(name, result as CallToolResult, known, options.validateOutput) };
  }

  /** A handle on a task known by its id. */
  async resume(taskId: string, options: ResumeTaskOptions = {}): Promise<TaskHandle> {
    const view = await this.get(taskId, options);
    // The definition (its outputSchema) checks the result, as for callTool.
    if (options.tool !== undefined) await this.tools.lookup(options.tool, options);
    return new TaskHandle(this.port, view, view, options.tool, options.tool === undefined ? {} : { name: options.tool });
  }

  async get(taskId: string, options: TaskRequestOptions = {}): Promise<DetailedTask> {
    this.require(TaskMethod.Get);
    if (typeof taskId !== "string" || taskId.length === 0) throw new TypeError("getTask: taskId must be a non-empty string");
    return readDetailedTask(await this.port.send(TaskMethod.Get, { taskId }, options), taskId, TaskMethod.Get);
  }

  async cancel(taskId: string, options: TaskRequestOptions = {}): Promise<void> {
    this.require(TaskMethod.Cancel);
    if (typeof taskId !== "string" || taskId.length === 0) throw new TypeError("cancelTask: taskId must be a non-empty string");
    await cancelTask(this.port, taskId, options);
  }

  private require(what: string): void {
    const revision = this.channel().revision();
    if (!revision.tasks) {
      throw new McpClientError(
        ClientErrorCode.VersionUnsupported,
        `${what}: the tasks extension (${TASKS_EXTENSION}) is a 2026-07-28 extension, which protocol version ${revision.protocolVersion}, spoken with this server, does not carry`,
        { protocolVersion: revision.protocolVersion, extension: TASKS_EXTENSION },
      );
    }
  }

  /** Reads a task handle answered to `tools/call` of `name` and makes its {@link TaskHandle}. @throws McpClientError -32094. */
  private handle(result: Result, name: string, args: Record<string, unknown>): TaskHandle {
    return new TaskHandle(this.port, readCreateTaskResult(result, Method.ToolsCall), undefined, name, { name, arguments: args });
  }
}
