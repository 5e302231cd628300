/**
 * The client's side of the tasks extension (`io.modelcontextprotocol/tasks`)
 * over revision 2026-07-28: a {@link TaskHandle} on a task a server made for
 * a `tools/call`, which polls `tasks/get` at the server's suggested interval
 * (clamped to `tasks.minPollIntervalMs` and
 * `tasks.maxPollIntervalMs`), answers an `input_required` task's
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
import type { CallToolResult, InputRequests, InputResponses } from "@x/mcp-v2607";
import { type DetailedTask, isTerminalTaskStatus, type Task, TaskMethod, type TaskStatus } from "@x/mcp-v2607/tasks";
import { ClientErrorCode, clip, McpClientError } from "./errors.js";
import type { TaskPort, TaskRequestOptions, TaskSubscription, TaskWaitOptions } from "./task-options.js";
import { retryTransient, waitBound } from "./task-waits.js";
import { isObject } from "@x/jsonrpc";
import {
  cancelTask,
  cancelledTaskError,
  invalidTask,
  failedTaskError,
  isTransientTaskFailure,
  pollDelay,
  readAck,
  readDetailedTask,
} from "./task-reads.js";

export * from "./task-options.js";
export * from "./task-reads.js";
export * from "./task-waits.js";

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

  /** The interval this handle polls at now, in milliseconds: the server's last `pollIntervalMs` (else `tasks.pollIntervalMs`), clamped to `tasks.minPollIntervalMs` and `tasks.maxPollIntervalMs`. */
  get pollIntervalMs(): number {
    return pollDelay(this.last, this.port.settings);
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
