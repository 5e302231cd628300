/**
 * The tasks of one server (tasks extension, `io.modelcontextprotocol/tasks`):
 * making a task durable before its handle is answered, running a tool
 * inside it, turning the run's asks into `inputRequests`, and answering
 * `tasks/get`, `tasks/update` and `tasks/cancel` for a task wherever it
 * runs. State lives in the {@link TaskStore}; what only the running instance
 * has (the run's abort controller, the asks it awaits) is reached through the
 * {@link EventBus} when the request lands on another instance. That local
 * state is `local-task.ts`'s, the waits for a status from the bus
 * `status-waiters.ts`'s; this file keeps the store in step with them.
 */
import { trafficObserved } from "../traffic.js";
import { publishTaskStatus } from "./traffic.js";
import type { Error as JSONRPCErrorObject, Implementation } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { type DetailedTask, isTerminalTaskStatus, type TaskStatus } from "@x/mcp-v2607/tasks";
import { BusTopic, type EventBus } from "../bus.js";
import { isProtocolError, McpError, SERVER_BUSY } from "../errors.js";
import { isObject, type JsonObject } from "../objects.js";
import { stamp } from "../revisions/2026-07-28/stamp.js";
import { RequestRoute } from "../route.js";
import { MAX_TIMER_MS, type TaskLimits } from "./limits.js";
import { abortRun, answerAsks, holdAsk, inputRequestsOf, type LocalTask, localTask, refuseAsk, rejectAsks } from "./local-task.js";
import { MemoryTaskStore, type TaskPatch, type TaskRecord, type TaskStore } from "./store.js";
import { StatusWaiters } from "./status-waiters.js";

export type { LocalTask } from "./local-task.js";

const LIVE: readonly TaskStatus[] = ["working", "input_required"];
/** How long an expired task is kept (at most its own time to live again), so that its `failed` status can be read. */
const EXPIRED_TASK_GRACE_MS = 60_000;

/** What the runner needs from the plug-in and the server. */
export interface TaskSettings {
  store: TaskStore;
  bus: EventBus;
  limits: TaskLimits;
  info: Implementation;
  /** Reports a failure nobody awaits (a store write after the response, a bus message). */
  report: (error: unknown, what: string) => void;
}

function notFound(): McpError {
  return new McpError(ErrorCode.InvalidParams, "Task not found (unknown, expired, or not yours)");
}

/** The detailed task of a record: what `tasks/get` answers and `notifications/tasks` carries. */
export function detailedTask(record: TaskRecord): DetailedTask {
  const task: JsonObject = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttlMs: record.ttlMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollIntervalMs !== undefined) task.pollIntervalMs = record.pollIntervalMs;
  if (record.status === "input_required") task.inputRequests = record.inputRequests ?? {};
  if (record.status === "completed") task.result = record.result ?? {};
  if (record.status === "failed") task.error = record.error ?? { code: ErrorCode.InternalError, message: "Internal error" };
  return task as unknown as DetailedTask;
}

/** The tasks of one server. */
export class TaskRunner {
  /** This instance's id: the `worker` of the tasks it runs. */
  readonly worker: string = globalThis.crypto.randomUUID();
  readonly store: TaskStore;
  readonly #bus: EventBus;
  readonly #ttlMs: number | null;
  readonly #pollIntervalMs: number;
  readonly #maxPerOwner: number;
  /** The lease of a shared store's tasks; `undefined` for a store of this process only. */
  readonly #leaseMs: number | undefined;
  readonly #info: Implementation;
  readonly #report: TaskSettings["report"];
  readonly #local = new Map<string, LocalTask>();
  /** Creations under way per owner: counted with the store's, so concurrent calls cannot pass the limit together. */
  readonly #creating = new Map<string, number>();
  #closed = false;
  /** Waiters for a task's next status from the bus (a remote `tasks/update`). */
  readonly #statusWaiters = new StatusWaiters();
  #leaseTimer: ReturnType<typeof setInterval> | undefined;

  constructor(settings: TaskSettings) {
    this.store = settings.store;
    this.#bus = settings.bus;
    const limits = settings.limits;
    this.#ttlMs = limits.ttlMs;
    this.#pollIntervalMs = limits.pollIntervalMs;
    this.#maxPerOwner = limits.maxTasksPerOwner;
    this.#leaseMs = this.store instanceof MemoryTaskStore ? undefined : limits.leaseMs;
    this.#info = settings.info;
    this.#report = settings.report;
  }

  /** Tasks this instance is running now. */
  get running(): number {
    return this.#local.size;
  }

  /** A control message from the bus: answers or a cancellation for a task that may run here. */
  control(message: JsonObject): void {
    const taskId = message.taskId;
    if (typeof taskId !== "string") return;
    const local = this.#local.get(taskId);
    if (!local) return;
    if (message.kind === "cancel") abortRun(local, "cancelled");
    else if (message.kind === "input" && isObject(message.inputResponses)) void this.#deliver(local, message.inputResponses);
    else if (message.kind === "refuse" && typeof message.key === "string" && Number.isInteger(message.code)) {
      this.#refuse(local, message.key, message.code as number, String(message.message));
    }
  }

  /**
   * Calls `listener` with each new state of `taskId` that reaches this
   * instance (every status the bus carries, this instance's own included)
   * until the returned function is called.
   */
  watch(taskId: string, listener: (task: DetailedTask) => void): () => void {
    return this.#statusWaiters.watch(taskId, listener);
  }

  /** A status message from the bus: wakes a remote `tasks/update` waiting for it. */
  status(task: DetailedTask): void {
    this.#statusWaiters.wake(task);
  }

  /**
   * Makes a task for `owner` and starts running it here: the record is in
   * the store when this resolves (so a `tasks/get` anywhere finds it).
   * `requestedTtlMs` (a positive integer, the client's wish where its
   * revision lets it ask) is honoured up to the server's `ttlMs`, or up to
   * the longest timer (2 147 483 647 ms, about 24.8 days) when the server
   * sets no limit.
   * @throws McpError(-32000) when `owner` holds too many tasks or the store is full.
   */
  async create(owner: string, method: string, requestedTtlMs?: number): Promise<LocalTask> {
    if (this.#closed) throw new McpError(SERVER_BUSY, "Server is closing: no new tasks");
    const creating = this.#creating.get(owner) ?? 0;
    this.#creating.set(owner, creating + 1);
    try {
      if (creating + (await this.store.countOwned(owner)) >= this.#maxPerOwner) {
        throw new McpError(SERVER_BUSY, `Too many tasks: at most ${this.#maxPerOwner} running per principal`, { limit: this.#maxPerOwner });
      }
      return await this.#make(owner, method, requestedTtlMs);
    } finally {
      const left = (this.#creating.get(owner) ?? 1) - 1;
      if (left === 0) this.#creating.delete(owner);
      else this.#creating.set(owner, left);
    }
  }

  async #make(owner: string, method: string, requestedTtlMs: number | undefined): Promise<LocalTask> {
    const ttlMs = requestedTtlMs === undefined ? this.#ttlMs : Math.min(requestedTtlMs, this.#ttlMs ?? MAX_TIMER_MS);
    const now = Date.now();
    const at = new Date(now).toISOString();
    const record: TaskRecord = {
      taskId: globalThis.crypto.randomUUID(),
      owner,
      method,
      status: "working",
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs,
      // Kept a while past its time to live, so that a poll learns it expired (failed) rather than "not found".
      expiresAt: ttlMs === null ? null : now + ttlMs + Math.min(ttlMs, EXPIRED_TASK_GRACE_MS),
      pollIntervalMs: this.#pollIntervalMs,
      worker: this.worker,
    };
    if (this.#leaseMs !== undefined) record.leaseUntil = now + this.#leaseMs;
    try {
      await this.store.create(record);
    } catch (error) {
      if (error instanceof Error && error.name === "TaskLimitError") throw new McpError(SERVER_BUSY, `Too many tasks: ${error.message}`);
      throw error;
    }
    const local = localTask(record, this.#route(record.taskId));
    this.#local.set(record.taskId, local);
    if (ttlMs !== null) {
      local.ttlTimer = setTimeout(() => this.#expire(local), ttlMs);
      local.ttlTimer.unref?.();
    }
    this.#renewLeases();
    return local;
  }

  /** The task handle a call is answered with (`CreateTaskResult`), from a task just made. */
  handle(local: LocalTask): JsonObject {
    const handle = detailedTask(local.record) as unknown as JsonObject;
    delete handle.result;
    delete handle.error;
    delete handle.inputRequests;
    handle.resultType = "task";
    return handle;
  }

  /** Records how a task's run ended: its result (`completed`, tool errors included) or its protocol error (`failed`). */
  finish(local: LocalTask, run: Promise<unknown>): void {
    run.then(
      (result) => {
        if (isObject(result) && result.resultType === "input_required") {
          // A task asks through its status, not through an InputRequiredResult (which no retry would answer).
          const message = "The task's run answered input_required: inside a task, ask with ctx.elicit (or ctx.all) instead";
          this.#report(new Error(message), `task ${local.taskId}`);
          return this.#end(local, { status: "failed", statusMessage: message, error: { code: ErrorCode.InternalError, message } });
        }
        const stamped = stamp(isObject(result) ? result : {}, this.#info);
        return this.#end(local, { status: "completed", result: stamped });
      },
      (error) => {
        let failure: JSONRPCErrorObject;
        if (isProtocolError(error)) {
          failure = { code: error.code, message: error.message };
          if (error.data !== undefined) failure.data = error.data as JSONRPCErrorObject["data"];
        } else {
          this.#report(error, `task ${local.taskId}`);
          failure = { code: ErrorCode.InternalError, message: "Internal error" };
        }
        return this.#end(local, { status: "failed", error: failure, statusMessage: failure.message });
      },
    );
  }

  /**
   * `tasks/get`: the detailed task of `owner`. A task that is not terminal
   * and whose worker's lease ran out is marked failed first.
   * @throws McpError(-32602) when the task is unknown, expired or another owner's.
   */
  async get(taskId: string, owner: string): Promise<JsonObject> {
    let record = await this.#owned(taskId, owner);
    if (
      !isTerminalTaskStatus(record.status) &&
      record.leaseUntil !== undefined &&
      record.leaseUntil < Date.now() &&
      !this.#local.has(taskId)
    ) {
      const update = await this.store.update(
        taskId,
        {
          status: "failed",
          statusMessage: "The server instance running this task stopped before it finished",
          error: { code: ErrorCode.InternalError, message: "The server instance running this task stopped before it finished" },
          inputRequests: undefined,
          lastUpdatedAt: new Date().toISOString(),
        },
        LIVE,
      );
      if (update) {
        record = update.record;
        if (update.applied) this.#publish(record);
      }
    }
    const result = detailedTask(record) as unknown as JsonObject;
    result.resultType = "complete";
    return result;
  }

  /**
   * `tasks/update`: hands answers to the run that asked. Keys that are not
   * outstanding are ignored (the extension's SHOULD). Resolves once the
   * answers show in the store (or, when another instance runs the task,
   * after at most two seconds).
   * @throws McpError(-32602) when the task is unknown, expired or another owner's.
   */
  async update(taskId: string, owner: string, inputResponses: JsonObject): Promise<void> {
    const record = await this.#owned(taskId, owner);
    if (isTerminalTaskStatus(record.status)) return;
    const local = this.#local.get(taskId);
    if (local) {
      await this.#deliver(local, inputResponses);
      return;
    }
    const keys = Object.keys(inputResponses).filter(
      (key) => record.inputRequests !== undefined && Object.hasOwn(record.inputRequests, key),
    );
    if (keys.length === 0) return;
    const taken = this.#statusWaiters.waitFor(
      taskId,
      (task) =>
        isTerminalTaskStatus(task.status) ||
        task.status !== "input_required" ||
        keys.every((key) => !Object.hasOwn(task.inputRequests, key)),
    );
    await this.#bus.publish(BusTopic.TaskControl, { taskId, kind: "input", inputResponses });
    await taken;
  }

  /**
   * `tasks/cancel`: a task that is not terminal becomes `cancelled` now and
   * its run's signal is aborted (wherever it runs). Idempotent.
   * @throws McpError(-32602) when the task is unknown, expired or another owner's.
   */
  async cancel(taskId: string, owner: string): Promise<void> {
    const record = await this.#owned(taskId, owner);
    if (isTerminalTaskStatus(record.status)) return;
    const update = await this.store.update(
      taskId,
      { status: "cancelled", statusMessage: "Cancelled by the client", inputRequests: undefined, lastUpdatedAt: new Date().toISOString() },
      LIVE,
    );
    if (update?.applied) this.#publish(update.record);
    const local = this.#local.get(taskId);
    if (local) abortRun(local, "cancelled");
    else await this.#bus.publish(BusTopic.TaskControl, { taskId, kind: "cancel" });
  }

  /**
   * Fails one outstanding ask of a task, wherever it runs: the run's ask
   * rejects with a `ClientRequestError` of `code` (the initialize era, where
   * the client may answer a server-to-client request with an error). A key
   * that is not outstanding is ignored.
   * @throws McpError(-32602) when the task is unknown, expired or another owner's.
   */
  async refuse(taskId: string, owner: string, key: string, code: number, message: string): Promise<void> {
    const record = await this.#owned(taskId, owner);
    if (isTerminalTaskStatus(record.status)) return;
    const local = this.#local.get(taskId);
    if (local) this.#refuse(local, key, code, message);
    else await this.#bus.publish(BusTopic.TaskControl, { taskId, kind: "refuse", key, code, message });
  }

  /** Whether `owner` may hear about `taskId` (a `subscriptions/listen` filter). */
  async owns(taskId: string, owner: string): Promise<boolean> {
    const record = await this.store.get(taskId);
    return record !== undefined && record.owner === owner;
  }

  /** The server closes: tasks running here end `failed` (no other instance can resume them). */
  close(): void {
    this.#closed = true;
    if (this.#leaseTimer) clearInterval(this.#leaseTimer);
    this.#leaseTimer = undefined;
    for (const local of [...this.#local.values()]) {
      void this.#end(local, {
        status: "failed",
        statusMessage: "The server shut down before the task finished",
        error: { code: ErrorCode.InternalError, message: "The server shut down before the task finished" },
      });
      abortRun(local, "server closed");
    }
  }

  async #owned(taskId: string, owner: string): Promise<TaskRecord> {
    const record = await this.store.get(taskId);
    if (!record || record.owner !== owner) throw notFound();
    return record;
  }

  /**
   * The route of a task's run's asks: each becomes an entry of
   * `inputRequests` under a key never used before in the task, all of one
   * `ctx.all` outstanding together.
   */
  #route(taskId: string): RequestRoute {
    return new RequestRoute((method, params, signal, key) => {
      const local = this.#local.get(taskId);
      if (!local || local.done) return Promise.reject(new Error("the task is over: it cannot ask any more"));
      if (signal.aborted) return Promise.reject(signal.reason);
      let answer: Promise<unknown>;
      try {
        answer = holdAsk(local, method, params, key);
      } catch (error) {
        return Promise.reject(error);
      }
      void this.#sync(local);
      return answer;
    }, true);
  }

  /** Resolves the asks `inputResponses` answers, then writes the task's new state. */
  #deliver(local: LocalTask, inputResponses: JsonObject): Promise<unknown> {
    answerAsks(local, inputResponses);
    return this.#sync(local);
  }

  #refuse(local: LocalTask, key: string, code: number, message: string): void {
    if (refuseAsk(local, key, code, message)) void this.#sync(local);
  }

  /** Writes the outstanding asks (and the status they imply) after any write in flight; writes queued meanwhile become one. */
  #sync(local: LocalTask): Promise<unknown> {
    if (local.syncQueued) return local.chain;
    local.syncQueued = true;
    local.chain = local.chain.then(async () => {
      local.syncQueued = false;
      if (local.done) return;
      const inputRequests = inputRequestsOf(local);
      const asking = local.pending.size > 0;
      const patch: TaskPatch = {
        status: asking ? "input_required" : "working",
        inputRequests: asking ? inputRequests : undefined,
        statusMessage: asking ? "Waiting for input from the client" : undefined,
        lastUpdatedAt: new Date().toISOString(),
      };
      try {
        const update = await this.store.update(local.taskId, patch, LIVE);
        if (update?.applied) this.#publish(update.record);
      } catch (error) {
        this.#report(error, `task ${local.taskId}: writing its state`);
      }
    });
    return local.chain;
  }

  /** The run ended (or must end): the final state is written unless the task is already terminal. */
  #end(local: LocalTask, patch: TaskPatch): Promise<unknown> {
    if (local.done) return local.chain;
    local.done = true;
    if (local.ttlTimer) clearTimeout(local.ttlTimer);
    rejectAsks(local, new Error("the task ended"));
    local.chain = local.chain.then(async () => {
      try {
        const update = await this.store.update(
          local.taskId,
          { ...patch, inputRequests: undefined, leaseUntil: undefined, lastUpdatedAt: new Date().toISOString() },
          LIVE,
        );
        if (update?.applied) this.#publish(update.record);
      } catch (error) {
        this.#report(error, `task ${local.taskId}: writing its end`);
      } finally {
        this.#local.delete(local.taskId);
      }
    });
    return local.chain;
  }

  /** Stops a run whose task is over or gone from the store, without writing anything. */
  #drop(local: LocalTask, why: string): void {
    if (local.done) return;
    local.done = true;
    if (local.ttlTimer) clearTimeout(local.ttlTimer);
    abortRun(local, why);
    this.#local.delete(local.taskId);
  }

  #expire(local: LocalTask): void {
    const message = `The task's time to live (${local.record.ttlMs} ms) passed before it finished`;
    void this.#end(local, { status: "failed", statusMessage: message, error: { code: ErrorCode.InternalError, message } });
    abortRun(local, "expired");
  }

  #publish(record: TaskRecord): void {
    const origin = this.#local.get(record.taskId)?.traffic;
    if (origin !== undefined && trafficObserved()) publishTaskStatus(origin, record);
    const task = detailedTask(record);
    this.#bus.publish(BusTopic.TaskStatus, { owner: record.owner, task: task as unknown as JsonObject }).catch((error) => {
      this.#report(error, `task ${record.taskId}: publishing its status`);
    });
  }

  /** Renews the lease of every task running here, every third of the lease, while there are any. */
  #renewLeases(): void {
    const lease = this.#leaseMs;
    if (lease === undefined || this.#leaseTimer !== undefined) return;
    this.#leaseTimer = setInterval(
      () => {
        if (this.#local.size === 0) {
          clearInterval(this.#leaseTimer);
          this.#leaseTimer = undefined;
          return;
        }
        const until = Date.now() + lease;
        for (const local of this.#local.values()) {
          if (local.done) continue;
          this.store.update(local.taskId, { leaseUntil: until }, LIVE).then(
            (update) => {
              // The task ended elsewhere (cancelled, or failed by a reader who found the lease out) or the
              // store lost it: its run here has nothing left to do.
              if (update === undefined || !update.applied)
                this.#drop(local, update === undefined ? "lost by the store" : "ended elsewhere");
            },
            (error) => this.#report(error, `task ${local.taskId}: renewing its lease`),
          );
        }
      },
      Math.floor(lease / 3),
    );
    this.#leaseTimer.unref?.();
  }
}
