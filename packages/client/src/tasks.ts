/**
 * The client's side of the tasks extension (`io.modelcontextprotocol/tasks`)
 * over revision 2026-07-28: a {@link TaskHandle} on a task a server made for
 * a `tools/call`, which polls `tasks/get` at the server's suggested interval
 * (clamped to {@link MIN_TASK_POLL_INTERVAL_MS} and
 * {@link MAX_TASK_POLL_INTERVAL_MS}), answers an `input_required` task's
 * `inputRequests` through the client's input handlers with `tasks/update`
 * (each key once over the task's life), cancels with `tasks/cancel`, and, when
 * asked, hears `notifications/tasks` on a `subscriptions/listen` stream with
 * polling kept as the fallback.
 *
 * What the server sends is checked with the shared rules of
 * `@x/mcp-v2607/tasks` (`taskProblem`, `detailedTaskProblem`): a malformed
 * answer rejects with -32094 (`InvalidResult`), never a hang; every wait is
 * bounded by the caller's signal and `maxWaitMs`.
 *
 * Extension: "Task Polling", "Task Update Requests", "Task Cancellation",
 * "Task Status Notifications", "Task Execution Errors".
 */
import type { CallToolResult, InputRequests, InputResponses, JSONRPCNotification, SubscriptionFilter } from "@x/mcp-v2607";
import {
  type DetailedTask,
  detailedTaskProblem,
  isTerminalTaskStatus,
  type Task,
  TaskMethod,
  type TaskStatus,
  taskProblem,
} from "@x/mcp-v2607/tasks";
import { JsonRpcErrorCode, SERVER_BUSY } from "@x/jsonrpc";
import { ClientErrorCode, clip, isMcpClientError, McpClientError } from "./errors.js";
import type { InputContext } from "./mrtr.js";

/** The polling interval used when the server suggests none (`pollIntervalMs` absent), in milliseconds. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1000;
/** Default lower bound on the polling interval, in milliseconds: a smaller suggestion (0 included) is raised to it. */
export const MIN_TASK_POLL_INTERVAL_MS = 100;
/** Default upper bound on the polling interval, in milliseconds: a larger suggestion is cut to it, so that a finished task is seen soon enough. */
export const MAX_TASK_POLL_INTERVAL_MS = 30_000;
/** Default bound on one wait for a task to end, in milliseconds (one hour, the server's default time to live). */
export const DEFAULT_TASK_WAIT_MS = 3_600_000;
/** Longest wait for the acknowledgement of the `tasks/cancel` that an aborted `callTool` sends, in milliseconds. */
export const TASK_CANCEL_TIMEOUT_MS = 10_000;
/**
 * Default number of times a wait sends one `tasks/get` (or `tasks/update`)
 * that fails transiently (see {@link isTransientTaskFailure}) before it gives
 * up with the last failure: the first attempt and four retries.
 */
export const TASK_POLL_ATTEMPTS = 5;
/**
 * Default delay before the first retry of a transiently failed task request,
 * in milliseconds; each further retry waits twice as long, at most the
 * client's `maxPollIntervalMs` (so 500, 1000, 2000, 4000 ms by default:
 * about 7.5 s of an outage are ridden out).
 */
export const TASK_POLL_RETRY_DELAY_MS = 500;

/**
 * The client's tasks settings (`ClientOptions.tasks`). `true` is all the
 * defaults. Times in milliseconds.
 */
export interface TasksOptions {
  /** Lower bound on the polling interval. Default {@link MIN_TASK_POLL_INTERVAL_MS} (100). At least 1. */
  minPollIntervalMs?: number;
  /** Upper bound on the polling interval. Default {@link MAX_TASK_POLL_INTERVAL_MS} (30 000). At least `minPollIntervalMs`. */
  maxPollIntervalMs?: number;
  /** Most time one wait for a task to end may take; 0 for no bound but the caller's signal. Default {@link DEFAULT_TASK_WAIT_MS} (one hour). */
  maxWaitMs?: number;
  /**
   * Hear the task's statuses on a `subscriptions/listen` stream
   * (`notifications: { taskIds }`) while waiting, polling only as a safety
   * net (at `maxPollIntervalMs`); a server that refuses the stream, or does
   * not list the task in its acknowledgement, is polled as usual. Default
   * false: polling only.
   */
  stream?: boolean;
  /**
   * How many times a wait sends one `tasks/get` or `tasks/update` that fails
   * transiently (an -32603 or -32000 answer, an HTTP 5xx or 429, a network
   * failure, that request's own timeout) before it gives up with the last
   * failure; 1 for no retry. Default {@link TASK_POLL_ATTEMPTS} (5).
   */
  pollAttempts?: number;
  /** Delay before the first such retry, doubled for each next one up to `maxPollIntervalMs`. Default {@link TASK_POLL_RETRY_DELAY_MS} (500). At least 1. */
  pollRetryDelayMs?: number;
}

/** Options of {@link TaskHandle.wait} and {@link TaskHandle.result}. */
export interface TaskWaitOptions {
  /** Stops the wait: it rejects with -32800 (`RequestCancelled`). The task itself runs on (see {@link TaskHandle.cancel}). */
  signal?: AbortSignal;
  /** Milliseconds each `tasks/get` or `tasks/update` may take; 0 for no limit. Default: the client's `timeout`. */
  timeout?: number;
  /** Most milliseconds the whole wait may take (-32001 past it); 0 for no bound. Default: the client's `tasks.maxWaitMs`. */
  maxWaitMs?: number;
  /** Called with each new state of the task seen (a new status, status message or `lastUpdatedAt`), in order. */
  onStatus?: (task: DetailedTask) => void;
  /**
   * `"resolve"` (default): answer the task's new `inputRequests` through the
   * client's input handlers and go on waiting. `"return"`: resolve with the
   * `input_required` task as soon as it asks something not yet answered.
   */
  inputRequired?: "resolve" | "return";
  /** Most `tasks/update` rounds this wait sends before failing with -32090. Default: the client's `maxInputRounds`. */
  maxInputRounds?: number;
  /** Hear statuses on a `subscriptions/listen` stream (see {@link TasksOptions.stream}). Default: the client's `tasks.stream`. */
  stream?: boolean;
  /** Validate a completed result's `structuredContent` against the tool's `outputSchema` ({@link TaskHandle.result} only). Default: the client's. */
  validateOutput?: boolean;
}

/** Options of the single requests of a task (`get`, `update`, `cancel`). */
export interface TaskRequestOptions {
  /** Cancels the request (-32800). */
  signal?: AbortSignal;
  /** Milliseconds to wait for the answer; 0 for no limit. Default: the client's `timeout`. */
  timeout?: number;
}

/** The settings a {@link TaskHandle} reads, resolved from {@link TasksOptions} and the client's options. */
export interface TaskSettings {
  minPollIntervalMs: number;
  maxPollIntervalMs: number;
  maxWaitMs: number;
  stream: boolean;
  maxInputRounds: number;
  pollAttempts: number;
  pollRetryDelayMs: number;
}

/** A `subscriptions/listen` stream as a task watches it (the client's `Subscription`). */
interface TaskSubscription extends AsyncIterable<JSONRPCNotification> {
  readonly acknowledged: Promise<SubscriptionFilter>;
  close(): Promise<void>;
}

/**
 * What a {@link TaskHandle} needs of its client. Internal: handles come from
 * `Client.callToolAsTask` and `Client.resumeTask`.
 */
export interface TaskPort {
  /** Sends a `tasks/*` request declaring the extension in its client capabilities; resolves with the result object. */
  send(method: string, params: Record<string, unknown>, options: TaskRequestOptions): Promise<Record<string, unknown>>;
  /** Fulfils input requests through the client's handlers (see `answerInputRequests`). */
  answer(inputRequests: InputRequests, context: Omit<InputContext, "key">): Promise<InputResponses>;
  /** Opens a `subscriptions/listen` stream declaring the extension. */
  listen(filter: SubscriptionFilter, options: { signal: AbortSignal }): TaskSubscription;
  /** Checks a completed task's result as `callTool` checks a result (content array, output schema). */
  finish(result: Record<string, unknown>, tool: string | undefined, validateOutput: boolean | undefined): CallToolResult;
  readonly settings: TaskSettings;
  warn(message: string): void;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

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

/**
 * True when `error` is what a task wait rejected with after every attempt
 * of a request failed transiently: the task itself may be fine, so
 * `callTool` does not cancel it.
 */
export function gaveUpTransiently(error: unknown): boolean {
  return typeof error === "object" && error !== null && gaveUp.has(error);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function invalidTask(message: string, data: Record<string, unknown>): McpClientError {
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
function readAck(result: Record<string, unknown>, method: string): void {
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
 * (else {@link DEFAULT_TASK_POLL_INTERVAL_MS}) clamped to `[min, max]`.
 */
export function pollDelay(task: Pick<Task, "pollIntervalMs">, min: number, max: number): number {
  const suggested = Number.isSafeInteger(task.pollIntervalMs) ? (task.pollIntervalMs as number) : DEFAULT_TASK_POLL_INTERVAL_MS;
  return Math.min(max, Math.max(min, suggested));
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

/**
 * Sends one request of a task wait (`what` names it in warnings), again after
 * a transient failure ({@link isTransientTaskFailure}): at most
 * `settings.pollAttempts` times, the n-th retry after `pollRetryDelayMs * 2^(n-1)`
 * ms (at most `maxPollIntervalMs`), each retry reported through `warn`. The
 * last failure is then marked as given up on ({@link gaveUpTransiently}) and
 * thrown. A definite failure, or one once `signal` aborted, is thrown at once.
 * Shared by the extension's {@link TaskHandle} and the 2025-11-25 task calls.
 */
export async function retryTransient<T>(
  port: Pick<TaskPort, "settings" | "warn">,
  what: string,
  send: () => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  const { pollAttempts, pollRetryDelayMs, maxPollIntervalMs } = port.settings;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (signal.aborted || !isTransientTaskFailure(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= pollAttempts) {
        port.warn(`${what} failed ${attempt} times in a row; giving up: ${message}`);
        if (typeof error === "object" && error !== null) gaveUp.add(error);
        throw error;
      }
      const wait = Math.min(pollRetryDelayMs * 2 ** (attempt - 1), maxPollIntervalMs);
      port.warn(`${what} failed (${message}); attempt ${attempt + 1} of ${pollAttempts} in ${wait} ms`);
      await delay(wait, signal);
    }
  }
}

/**
 * The signal of one wait for task `taskId`: it aborts with -32800
 * (`RequestCancelled`) when `outer` aborts, and with -32001
 * (`RequestTimeout`) once `maxWaitMs` milliseconds passed (0: no bound).
 * Call `release` when the wait ends. Shared by the extension's
 * {@link TaskHandle} and the 2025-11-25 task calls.
 * @throws TypeError for a `maxWaitMs` that is not a non-negative integer;
 *   the -32800 error at once when `outer` already aborted.
 */
export function waitBound(taskId: string, outer: AbortSignal | undefined, maxWaitMs: number): { signal: AbortSignal; release: () => void } {
  if (!Number.isSafeInteger(maxWaitMs) || maxWaitMs < 0) throw new TypeError(`maxWaitMs must be a non-negative integer, got ${maxWaitMs}`);
  const id = clip(JSON.stringify(taskId), 80);
  const cancelled = (reason: unknown) =>
    new McpClientError(
      ClientErrorCode.RequestCancelled,
      `The wait for task ${id} was cancelled`,
      { taskId, reason: reason instanceof Error ? reason.message : reason },
      "client",
      { cause: reason },
    );
  if (outer?.aborted) throw cancelled(outer.reason);
  const stop = new AbortController();
  const onAbort = () => stop.abort(cancelled(outer?.reason));
  outer?.addEventListener("abort", onAbort, { once: true });
  const timer =
    maxWaitMs > 0
      ? setTimeout(
          () =>
            stop.abort(
              new McpClientError(ClientErrorCode.RequestTimeout, `Task ${id} did not end within ${maxWaitMs} ms`, { taskId, maxWaitMs }),
            ),
          maxWaitMs,
        )
      : undefined;
  return {
    signal: stop.signal,
    release: () => {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/**
 * Between two polls: resolves after a delay, or at once when a status
 * notification (or a change of the stream's state) wakes it; rejects when
 * the signal aborts or the stream delivered something malformed.
 */
class Waker {
  private latest: DetailedTask | undefined;
  private failure: unknown;
  private wakeNow: (() => void) | undefined;
  /** True once the server acknowledged a status stream for the task. */
  streaming = false;

  deliver(task: DetailedTask): void {
    this.latest = task;
    this.wake();
  }

  fail(error: unknown): void {
    this.failure ??= error;
    this.wake();
  }

  wake(): void {
    this.wakeNow?.();
    this.wakeNow = undefined;
  }

  /** The newest notified state not yet taken. */
  take(): DetailedTask | undefined {
    if (this.failure !== undefined) throw this.failure;
    const task = this.latest;
    this.latest = undefined;
    return task;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.latest !== undefined || this.failure !== undefined) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.wakeNow = undefined;
      };
      const timer = setTimeout(() => {
        done();
        resolve();
      }, ms);
      const onAbort = () => {
        done();
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.wakeNow = () => {
        done();
        resolve();
      };
    });
  }
}

/** True when two views of a task differ in what {@link TaskWaitOptions.onStatus} reports. */
function changed(before: DetailedTask | undefined, after: DetailedTask): boolean {
  return (
    before === undefined ||
    before.status !== after.status ||
    before.statusMessage !== after.statusMessage ||
    before.lastUpdatedAt !== after.lastUpdatedAt
  );
}

/**
 * A task the server made for a `tools/call` (extension "Task Creation"):
 * its id, the last state seen, and the lifecycle requests. Get one from
 * `Client.callToolAsTask`, or `Client.resumeTask(taskId)` for a task id kept
 * across a restart. A handle remembers the `inputRequests` keys it answered
 * and never answers one twice.
 */
export class TaskHandle {
  /** The server's id of the task: what `tasks/*` requests name (and `Mcp-Name` carries). Keep it to resume later. */
  readonly taskId: string;
  /** The tool the task runs, when known: its `outputSchema` checks the result. */
  readonly tool: string | undefined;
  private readonly port: TaskPort;
  private readonly call: Record<string, unknown>;
  private last: Task | DetailedTask;
  private detailed: DetailedTask | undefined;
  private readonly answered = new Set<string>();
  /** Keys being answered now (by another wait on this handle): not asked twice, asked again if that answer fails. */
  private readonly answering = new Set<string>();

  /** @internal Handles come from `Client.callToolAsTask` and `Client.resumeTask`. */
  constructor(port: TaskPort, seed: Task, detailed: DetailedTask | undefined, tool: string | undefined, call: Record<string, unknown>) {
    this.port = port;
    this.taskId = seed.taskId;
    this.tool = tool;
    this.call = call;
    this.last = seed;
    this.detailed = detailed;
  }

  /** The last state seen: the `CreateTaskResult` at first, then each `tasks/get` result or status notification. */
  get task(): Task | DetailedTask {
    return this.last;
  }

  /** The last status seen. */
  get status(): TaskStatus {
    return this.last.status;
  }

  /** The interval this handle polls at now, in milliseconds: the server's last `pollIntervalMs`, clamped (see {@link pollDelay}). */
  get pollIntervalMs(): number {
    return pollDelay(this.last, this.port.settings.minPollIntervalMs, this.port.settings.maxPollIntervalMs);
  }

  /** Takes a new view of the task, refusing one that leaves a terminal status (terminal statuses are never left). */
  private accept(view: DetailedTask, where: string): void {
    if (isTerminalTaskStatus(this.last.status) && view.status !== this.last.status) {
      throw invalidTask(`The ${where} of task ${clip(JSON.stringify(this.taskId), 80)} left the terminal status ${this.last.status}`, {
        taskId: this.taskId,
        problem: `status went from ${this.last.status} to ${view.status}`,
      });
    }
    this.last = view;
    this.detailed = view;
  }

  /**
   * One `tasks/get`: the task's current state, with what its status inlines
   * (`inputRequests`, `result` or `error`).
   * @throws McpClientError -32094 for a malformed answer; the server's error
   *   (-32602 for an unknown or expired task, -32021 ...); transport errors.
   */
  async get(options: TaskRequestOptions = {}): Promise<DetailedTask> {
    const result = await this.port.send(TaskMethod.Get, { taskId: this.taskId }, options);
    const view = readDetailedTask(result, this.taskId, TaskMethod.Get);
    this.accept(view, TaskMethod.Get);
    return view;
  }

  /**
   * One `tasks/update` with answers to the task's `inputRequests`, by key;
   * the keys count as answered from then on. Input requests are usually
   * answered by {@link wait} through the client's handlers; this is for
   * applications that answer them themselves (`inputRequired: "return"`).
   * @throws McpClientError -32094 for an acknowledgement that is not
   *   `resultType: "complete"`; the server's error; transport errors.
   */
  async update(inputResponses: InputResponses, options: TaskRequestOptions = {}): Promise<void> {
    if (!isObject(inputResponses)) throw new TypeError("update: inputResponses must be an object of answers by key");
    readAck(await this.port.send(TaskMethod.Update, { taskId: this.taskId, inputResponses }, options), TaskMethod.Update);
    for (const key of Object.keys(inputResponses)) this.answered.add(key);
  }

  /**
   * One `tasks/cancel`. The server acknowledges at once and may take time to
   * stop the work, or finish it anyway (the extension makes cancellation
   * cooperative): a later {@link get} tells which.
   * @throws as {@link update}.
   */
  async cancel(options: TaskRequestOptions = {}): Promise<void> {
    await cancelTask(this.port, this.taskId, options);
  }

  /**
   * Waits until the task reaches a terminal status (`completed`, `failed`,
   * `cancelled`) and resolves with that state; with `inputRequired:
   * "return"`, also as soon as it asks for input not yet answered. Polls
   * `tasks/get` at {@link pollIntervalMs} (read afresh from each answer),
   * first after one interval when the task is `working`, at once otherwise;
   * answers new `inputRequests` keys through the client's handlers with one
   * `tasks/update`, keys already answered being skipped (the server lists
   * them until it has read the answers).
   *
   * A `tasks/get` or `tasks/update` that fails transiently
   * ({@link isTransientTaskFailure}) is sent again, at most
   * `tasks.pollAttempts` times with a doubling delay from
   * `tasks.pollRetryDelayMs`, each retry reported to the client's
   * `onWarning`.
   *
   * @throws McpClientError -32800 when `signal` aborts; -32001 past
   *   `maxWaitMs` (both at once, even while an input handler is still
   *   answering: its `context.signal` aborts and its late answer is
   *   dropped); -32090 past `maxInputRounds`; -32091 from the handlers;
   *   -32094 for a malformed answer; the server's errors; the last transient
   *   failure once the attempts ran out. The task runs on after any of them:
   *   cancel it, or resume the wait later.
   */
  async wait(options: TaskWaitOptions = {}): Promise<DetailedTask> {
    const settings = this.port.settings;
    const bound = waitBound(this.taskId, options.signal, options.maxWaitMs ?? settings.maxWaitMs);
    const waker = new Waker();
    const watching = new AbortController();
    try {
      if (options.stream ?? settings.stream) this.watch(watching.signal, waker);
      return await this.drive(options, bound.signal, waker);
    } catch (error) {
      if (bound.signal.aborted) throw bound.signal.reason;
      throw error;
    } finally {
      bound.release();
      watching.abort();
    }
  }

  private async drive(options: TaskWaitOptions, signal: AbortSignal, waker: Waker): Promise<DetailedTask> {
    const settings = this.port.settings;
    const maxRounds = options.maxInputRounds ?? settings.maxInputRounds;
    const request = { signal, timeout: options.timeout };
    let rounds = 0;
    let reported: DetailedTask | undefined;
    let view = this.detailed;
    // A task just made is working: the server needs time before a poll can tell more.
    let sleepFirst = view === undefined && this.last.status === "working";
    // Bounded by `signal`: the caller's, and `maxWaitMs` unless the caller turned it off.
    for (;;) {
      if (view === undefined) {
        if (sleepFirst) await waker.sleep(waker.streaming ? settings.maxPollIntervalMs : this.pollIntervalMs, signal);
        const notified = waker.take();
        if (notified !== undefined) {
          this.accept(notified, TaskMethod.Status);
          view = notified;
        } else view = await this.retrying(TaskMethod.Get, () => this.get(request), signal);
      }
      if (options.onStatus && changed(reported, view)) {
        reported = view;
        try {
          options.onStatus(view);
        } catch (error) {
          this.port.warn(`A task status listener threw: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      if (isTerminalTaskStatus(view.status)) return view;
      if (view.status === "input_required") {
        const fresh: InputRequests = {};
        for (const [key, entry] of Object.entries(view.inputRequests)) {
          if (!this.answered.has(key) && !this.answering.has(key)) fresh[key] = entry;
        }
        const keys = Object.keys(fresh);
        if (keys.length > 0) {
          if (options.inputRequired === "return") return view;
          if (rounds >= maxRounds) {
            throw new McpClientError(
              ClientErrorCode.InputRoundsExceeded,
              `Task ${clip(JSON.stringify(this.taskId), 80)} still asked for input after ${maxRounds} rounds`,
              { taskId: this.taskId, rounds: maxRounds },
            );
          }
          rounds++;
          for (const key of keys) this.answering.add(key);
          try {
            const responses = await this.port.answer(fresh, {
              method: "tools/call",
              params: this.call,
              round: rounds,
              signal,
              taskId: this.taskId,
            });
            // Keys the server already took are ignored, so sending the same answers again is safe.
            await this.retrying(TaskMethod.Update, () => this.update(responses, request), signal);
          } finally {
            for (const key of keys) this.answering.delete(key);
          }
        }
      }
      view = undefined;
      sleepFirst = true;
    }
  }

  /**
   * Sends one request of the wait, again after a transient failure (see
   * {@link isTransientTaskFailure}), at most `pollAttempts` times with a
   * doubling delay; the last failure is then marked as given up on
   * ({@link gaveUpTransiently}) and thrown. A definite failure, or one once
   * `signal` aborted, is thrown at once.
   */
  private retrying<T>(method: string, send: () => Promise<T>, signal: AbortSignal): Promise<T> {
    return retryTransient(this.port, `${method} of task ${clip(JSON.stringify(this.taskId), 80)}`, send, signal);
  }

  /**
   * Opens a status stream for this task in the background: its
   * notifications wake the poll loop with the new state; an acknowledgement
   * that lists the task slows polling to the safety-net rate; an end or
   * refusal of the stream goes back to polling at the server's rate.
   */
  private watch(signal: AbortSignal, waker: Waker): void {
    let subscription: TaskSubscription;
    try {
      subscription = this.port.listen({ taskIds: [this.taskId] }, { signal });
    } catch {
      return;
    }
    subscription.acknowledged.then(
      (agreed) => {
        if (!signal.aborted && Array.isArray(agreed.taskIds) && agreed.taskIds.includes(this.taskId)) {
          waker.streaming = true;
          // A status that changed before the stream was up was not notified: poll once now.
          waker.wake();
        }
      },
      () => {},
    );
    void (async () => {
      try {
        for await (const notification of subscription) {
          if (notification.method !== TaskMethod.Status) continue;
          const params = isObject(notification.params) ? notification.params : {};
          if (params.taskId !== this.taskId) continue;
          const { _meta: _, ...task } = params;
          try {
            waker.deliver(readDetailedTask(task, this.taskId, TaskMethod.Status));
          } catch (error) {
            waker.fail(error);
            return;
          }
        }
      } catch {
        // A stream that failed leaves polling to carry on.
      } finally {
        if (!signal.aborted && waker.streaming) {
          waker.streaming = false;
          waker.wake();
        }
        await subscription.close().catch(() => {});
      }
    })();
  }

  /**
   * Waits for the end (input requests answered through the client's
   * handlers) and returns the tool's result: a `completed` task's `result`,
   * checked as `callTool` checks a result (a tool error is a result with
   * `isError`, not a throw).
   * @throws McpClientError: for a `failed` task its JSON-RPC error, with the
   *   server's code, message and data (`source: "server"`); -32098
   *   (`TaskCancelled`) for a task that ended `cancelled`; -32092/-32093 for
   *   `structuredContent` that does not match the tool's `outputSchema`;
   *   everything {@link wait} throws.
   */
  async result(options: TaskWaitOptions = {}): Promise<CallToolResult> {
    const task = await this.wait({ ...options, inputRequired: "resolve" });
    if (task.status === "failed") throw failedTaskError(task);
    if (task.status === "cancelled") throw cancelledTaskError(task);
    if (task.status !== "completed")
      throw invalidTask(`Task ${clip(JSON.stringify(this.taskId), 80)} ended without a terminal status`, { taskId: this.taskId });
    return this.port.finish(task.result, this.tool, options.validateOutput);
  }
}
