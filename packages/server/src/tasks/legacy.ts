/**
 * The tasks of revision 2025-11-25 (spec 2025-11-25: basic/utilities/tasks,
 * experimental in that revision), the tasks plug-in's wire on the
 * `initialize` era's sessions, served from
 * the same {@link TaskRunner} and task store as the tasks extension: one
 * place for a task's state, time to live, owner, limits and lease. What the
 * revision does differently is all here:
 *
 * - a `tools/call` asks for a task with `params.task` (`{ ttl? }`) and is
 *   answered with a `CreateTaskResult` (`{ task }`, whose members are named
 *   `ttl` and `pollInterval`);
 * - `tasks/get`, `tasks/result` (blocks until the task is terminal, then
 *   answers what the call would have: its result with the related-task
 *   `_meta`, or its JSON-RPC error), `tasks/list`, `tasks/cancel` (a
 *   terminal task is refused with -32602);
 * - the task's asks (`ctx.elicit`, ...) keep it `input_required` and reach
 *   the client as server-to-client requests (related-task `_meta`) on the
 *   stream of a `tasks/result` waiting for the task;
 * - `notifications/tasks/status` on the session that made the task, and the
 *   task's progress and log messages there with the related-task `_meta`;
 * - a tool result with `isError` shows the task as `failed` (the extension
 *   shows it `completed`).
 */
import type { ServerCapabilities as LegacyCapabilities, Task as LegacyTask } from "@x/mcp-v2511";
import { ErrorCode, META_RELATED_TASK, Method } from "@x/mcp-v2511/constants";
import type { JSONRPCNotification, Tool } from "@x/mcp-v2607";
import { isTerminalTaskStatus, readTaskId, type TaskStatus } from "@x/mcp-v2607/tasks";
import type { RequestContext } from "../context.js";
import type { RunScope } from "../scope.js";
import { ClientRequestError, McpError } from "../errors.js";
import type { MethodEntry } from "../features/feature.js";
import type { RegisteredTool } from "../features/tools/define.js";
import { b64url, fromB64url, type KeyRing } from "../keys.js";
import { checkClientAnswer } from "../revisions/initialize/era.js";
import { sessionOf } from "../revisions/initialize/methods.js";
import type { LegacySession } from "../revisions/initialize/session.js";
import { copyOwn, isObject, type JsonObject } from "../objects.js";
import type { TaskStart, TaskWire } from "./calls.js";
import type { LocalTask, TaskRunner } from "./runner.js";
import type { TaskRecord } from "./store.js";

/** The members of a stored (or detailed) task that the revision shows. */
export type TaskView = Pick<
  TaskRecord,
  "taskId" | "status" | "statusMessage" | "createdAt" | "lastUpdatedAt" | "ttlMs" | "pollIntervalMs"
> & {
  result?: unknown;
};

/** True for a task whose tool answered with `isError`: `failed` in this revision ("Task Status"). */
function toolFailed(task: TaskView): boolean {
  return task.status === "completed" && isObject(task.result) && task.result.isError === true;
}

/** How the revision shows a task's status. */
export function legacyStatus(task: TaskView): TaskStatus {
  return toolFailed(task) ? "failed" : task.status;
}

/**
 * A task as revision 2025-11-25 shows it (`Task`): `ttl` (`null` for
 * unlimited) and `pollInterval` in milliseconds, and `failed` for a tool
 * result with `isError`.
 */
export function legacyTask(task: TaskView): LegacyTask {
  const out: LegacyTask = {
    taskId: task.taskId,
    status: legacyStatus(task),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
  };
  const message = task.statusMessage ?? (toolFailed(task) ? "The tool reported an error (isError)" : undefined);
  if (message !== undefined) out.statusMessage = message;
  if (task.pollIntervalMs !== undefined) out.pollInterval = task.pollIntervalMs;
  return out;
}

/**
 * What a request's `params.task` (`TaskMetadata`) asks for: `undefined`
 * without one (a plain call), else the time to live requested (`undefined`:
 * the server's).
 * @throws McpError(-32602) when `task` is not an object, or its `ttl` is not a positive integer of milliseconds.
 */
export function readTaskMetadata(params: JsonObject): { ttlMs: number | undefined } | undefined {
  const task = params.task;
  if (task === undefined) return undefined;
  if (!isObject(task)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: task must be an object (TaskMetadata)");
  const ttl = task.ttl;
  if (ttl === undefined) return { ttlMs: undefined };
  if (!Number.isSafeInteger(ttl) || (ttl as number) < 1) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid params: task.ttl must be a positive integer number of milliseconds");
  }
  return { ttlMs: ttl as number };
}

/**
 * A tool's definition in this revision: `execution.taskSupport` for a tool
 * that allows tasks (absent means forbidden, "Tool-Level Negotiation").
 */
export function legacyToolDefinition(definition: Tool, taskSupport: "optional" | "required" | undefined): Tool {
  if (taskSupport === undefined) return definition;
  const copy = copyOwn(definition);
  copy.execution = { taskSupport };
  return copy as Tool;
}

/** The params of a message of task `taskId`: a copy with the related-task `_meta`. */
function related(params: JsonObject | undefined, taskId: string): JsonObject {
  const copy = params ? copyOwn(params) : {};
  const meta = isObject(copy._meta) ? copyOwn(copy._meta) : {};
  meta[META_RELATED_TASK] = { taskId };
  copy._meta = meta;
  return copy;
}

const CURSOR_PURPOSE = "x-mcp:tasks-cursor";

function taskIdOf(params: JsonObject): string {
  const read = readTaskId(params);
  if (!read.ok) throw new McpError(ErrorCode.InvalidParams, read.message);
  return read.taskId;
}

/**
 * The revision's tasks of one server: how a call becomes a task, and the
 * `tasks/*` methods of an `initialize`-era session. Tasks are owned as in
 * the extension (`ServerOptions.principal`, by default the verified
 * token's principal, `principalOf`): another owner's task is "not found".
 */
export class LegacyTasks implements TaskWire {
  readonly #runner: TaskRunner;
  readonly #owner: (ctx: RequestContext) => string;
  readonly #offered: () => boolean;
  readonly #keys: KeyRing;
  readonly #pageSize: number;
  /** The asks sent to a client and not answered yet (`taskId` NUL key): one request per ask, whatever waits on the task. */
  readonly #delivering = new Set<string>();

  /** `offered`: whether any tool allows tasks (the capability and methods exist only then). */
  constructor(
    runner: TaskRunner,
    owner: (ctx: RequestContext) => string,
    offered: () => boolean,
    settings: { keys: KeyRing; pageSize: number },
  ) {
    this.#runner = runner;
    this.#owner = owner;
    this.#offered = offered;
    this.#keys = settings.keys;
    this.#pageSize = settings.pageSize;
  }

  /**
   * The `tasks` capability of an `InitializeResult`, or `undefined` while no
   * tool allows tasks. `list` only when the store can list and the client
   * that opens the session is identified (`identified`): a server that
   * cannot tell requestors apart must not list one's tasks to another.
   */
  capabilities(identified: boolean): NonNullable<LegacyCapabilities["tasks"]> | undefined {
    if (!this.#offered()) return undefined;
    const caps: NonNullable<LegacyCapabilities["tasks"]> = {};
    if (identified && this.#runner.store.list !== undefined) caps.list = {};
    caps.cancel = {};
    caps.requests = { tools: { call: {} } };
    return caps;
  }

  /**
   * A call becomes a task when it carries `params.task` and its tool allows
   * tasks ("Tool-Level Negotiation"); while no tool allows tasks (the
   * capability is not declared), `params.task` is ignored ("Task Support and Handling").
   * @throws McpError(-32601) for `params.task` on a tool without `taskSupport`, or a `"required"` tool
   *   called without it; McpError(-32602) for a malformed `params.task`.
   */
  start(tool: RegisteredTool, params: JsonObject, ctx: RequestContext, scope: RunScope): TaskStart | undefined {
    const wanted = this.#offered() ? readTaskMetadata(params) : undefined;
    const name = tool.name;
    if (tool.taskSupport === undefined) {
      if (wanted) {
        throw new McpError(ErrorCode.MethodNotFound, `Tool ${name} does not run as a task (execution.taskSupport is forbidden)`, { name });
      }
      return undefined;
    }
    if (wanted) return { create: () => this.create(ctx, scope, wanted.ttlMs), handle: (local) => this.handle(local) };
    if (tool.taskSupport === "required") {
      throw new McpError(ErrorCode.MethodNotFound, `Tool ${name} must be called as a task (execution.taskSupport is required)`, { name });
    }
    return undefined;
  }

  /** A tool that allows tasks is listed with `execution.taskSupport`. */
  listed(definition: Tool, taskSupport: "optional" | "required"): Tool {
    return legacyToolDefinition(definition, taskSupport);
  }

  /**
   * Makes the task of a call (`params.task` read by {@link readTaskMetadata}):
   * stored before the call is answered; its progress and log messages and
   * its status changes go to the session the call (run by `scope`) came on.
   * @throws McpError(-32000) when the caller holds too many tasks or the store is full.
   */
  async create(ctx: RequestContext, scope: RunScope, ttlMs: number | undefined): Promise<LocalTask> {
    const local = await this.#runner.create(this.#owner(ctx), Method.ToolsCall, ttlMs);
    const session = sessionOf(scope);
    if (session) {
      const taskId = local.taskId;
      local.notify = (notification: JSONRPCNotification) =>
        session.notify(notification.method, related(notification.params as JsonObject | undefined, taskId));
      this.#follow(session, taskId);
    }
    return local;
  }

  /** The `CreateTaskResult` of a task just made. */
  handle(local: LocalTask): JsonObject {
    return { task: legacyTask(local.record) };
  }

  /** The revision's `tasks/*` methods, which it contributes to the `initialize` era's sessions. */
  readonly methods: ReadonlyMap<string, MethodEntry> = new Map<string, MethodEntry>([
    [
      Method.TasksGet,
      {
        enabled: () => this.#offered(),
        handle: async (params, ctx) => legacyTask((await this.#runner.get(taskIdOf(params), this.#owner(ctx))) as TaskView),
      },
    ],
    [Method.TasksResult, { enabled: () => this.#offered(), handle: (params, ctx, _transport, scope) => this.#result(params, ctx, scope) }],
    [
      Method.TasksList,
      { enabled: () => this.#offered() && this.#runner.store.list !== undefined, handle: (params, ctx) => this.#list(params, ctx) },
    ],
    [Method.TasksCancel, { enabled: () => this.#offered(), handle: (params, ctx) => this.#cancel(params, ctx) }],
  ]);

  /**
   * Sends `notifications/tasks/status` to `session` when the task's status
   * (as this revision shows it) changes, until it is terminal or the session ends.
   */
  #follow(session: LegacySession, taskId: string): void {
    let last: TaskStatus = "working";
    const stop = this.#runner.watch(taskId, (task) => {
      if (session.closed) {
        stop();
        return;
      }
      const shown = legacyTask(task as TaskView);
      if (shown.status !== last) {
        last = shown.status;
        session.notify(Method.NotificationsTasksStatus, shown as JsonObject);
      }
      if (isTerminalTaskStatus(shown.status)) stop();
    });
  }

  /**
   * `tasks/result`: waits until the task is terminal, delivering its asks
   * meanwhile, then answers what the call would have answered. Each turn
   * waits for a new state of the task (or its polling interval, for a
   * state no message announced: a worker lost, a task expired), so the loop
   * ends with the task.
   * @throws McpError(-32602) for a task unknown, expired or another's, or one cancelled (it has no result);
   *   the task's own JSON-RPC error for a failed task.
   */
  async #result(params: JsonObject, ctx: RequestContext, scope: RunScope): Promise<JsonObject> {
    const taskId = taskIdOf(params);
    const owner = this.#owner(ctx);
    const session = sessionOf(scope);
    // Aborted when this request ends, however: the asks it sent are then withdrawn.
    const over = new AbortController();
    const outer = ctx.signal;
    const onAbort = () => over.abort();
    outer.addEventListener("abort", onAbort, { once: true });
    if (outer.aborted) over.abort();
    try {
      for (;;) {
        let wake!: () => void;
        const changed = new Promise<void>((resolve) => {
          wake = resolve;
        });
        // Watching before reading: a change between the read and the wait still wakes it.
        const unwatch = this.#runner.watch(taskId, () => wake());
        let timer: ReturnType<typeof setTimeout> | undefined;
        const stopped = () => wake();
        over.signal.addEventListener("abort", stopped, { once: true });
        try {
          const task = (await this.#runner.get(taskId, owner)) as TaskView & { error?: unknown; inputRequests?: unknown };
          if (isTerminalTaskStatus(task.status)) return this.#payload(task);
          if (over.signal.aborted) throw new McpError(ErrorCode.InvalidRequest, "tasks/result was cancelled");
          if (task.status === "input_required" && session && isObject(task.inputRequests)) {
            this.#deliver(session, ctx.requestId, taskId, owner, task.inputRequests, over.signal);
          }
          timer = setTimeout(wake, Math.max(100, task.pollIntervalMs ?? 1000));
          await changed;
          if (over.signal.aborted) throw new McpError(ErrorCode.InvalidRequest, "tasks/result was cancelled");
        } finally {
          if (timer !== undefined) clearTimeout(timer);
          over.signal.removeEventListener("abort", stopped);
          unwatch();
        }
      }
    } finally {
      outer.removeEventListener("abort", onAbort);
      over.abort();
    }
  }

  /** What a terminal task's call would have answered: its result (with the related-task `_meta`) or its error. */
  #payload(task: TaskView & { error?: unknown }): JsonObject {
    if (task.status === "completed") return related(isObject(task.result) ? task.result : {}, task.taskId);
    if (task.status === "failed") {
      const error = isObject(task.error) ? task.error : {};
      const code = Number.isInteger(error.code) ? (error.code as number) : ErrorCode.InternalError;
      throw new McpError(code, typeof error.message === "string" ? error.message : "Internal error", error.data);
    }
    throw new McpError(ErrorCode.InvalidParams, `Task ${task.taskId} was cancelled: it has no result`, { taskId: task.taskId });
  }

  /**
   * Sends each outstanding ask not already on its way as a request of the
   * session, on the stream of the `tasks/result` request `relatedId`. An
   * answer goes to the task (as `tasks/update` would bring it); a client's
   * error fails the ask; a request that never reached an answer (the
   * session ended, the `tasks/result` was cancelled or ended) leaves the ask
   * outstanding for the next `tasks/result`.
   */
  #deliver(
    session: LegacySession,
    relatedId: RequestContext["requestId"],
    taskId: string,
    owner: string,
    inputRequests: JsonObject,
    signal: AbortSignal,
  ): void {
    for (const [key, ask] of Object.entries(inputRequests)) {
      if (!isObject(ask) || typeof ask.method !== "string") continue;
      const mark = `${taskId}\0${key}`;
      if (this.#delivering.has(mark)) continue;
      this.#delivering.add(mark);
      const params = related(isObject(ask.params) ? ask.params : undefined, taskId);
      void this.#ask(session, relatedId, taskId, owner, key, ask.method, params, signal).finally(() => this.#delivering.delete(mark));
    }
  }

  /** One ask of a task as a request of the session, and what its answer does to the task. */
  async #ask(
    session: LegacySession,
    relatedId: RequestContext["requestId"],
    taskId: string,
    owner: string,
    key: string,
    method: string,
    params: JsonObject,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      let answer: unknown;
      try {
        // Checked with the revision's validator first, as an answer of a call's own ask is.
        answer = checkClientAnswer(method, await session.request(method, params, relatedId, signal));
      } catch (error) {
        // -32000 is the session's "not delivered" (ended, withdrawn, no room): the ask stays for the next tasks/result.
        if (error instanceof ClientRequestError && error.code !== -32000) {
          await this.#runner.refuse(taskId, owner, key, error.code, error.message);
        }
        return;
      }
      await this.#runner.update(taskId, owner, { [key]: answer });
    } catch {
      // The task ended, expired or went away meanwhile: nothing waits for this answer any more.
    }
  }

  /**
   * `tasks/list`: the caller's tasks, a page at a time, oldest first. The
   * cursor is the store's, signed for the caller: another caller's cursor,
   * or one this server did not make, is refused with -32602.
   * @throws McpError(-32601) when the caller is not identified (no principal): one anonymous caller must not list another's tasks.
   */
  async #list(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const owner = this.#owner(ctx);
    if (owner === "") {
      throw new McpError(ErrorCode.MethodNotFound, "Method not found: tasks/list needs a requestor this server can identify", {
        method: Method.TasksList,
      });
    }
    const cursor = params.cursor === undefined ? undefined : this.#readCursor(owner, params.cursor);
    const page = await this.#runner.store.list!(owner, { cursor, limit: this.#pageSize });
    const result: JsonObject = { tasks: page.tasks.map((record) => legacyTask(record)) };
    if (page.nextCursor !== undefined) result.nextCursor = this.#makeCursor(owner, page.nextCursor);
    return result;
  }

  #makeCursor(owner: string, storeCursor: string): string {
    const body = b64url(Buffer.from(storeCursor, "utf8"));
    return `${body}.${b64url(this.#keys.sign(CURSOR_PURPOSE, `${owner}\n${body}`).subarray(0, 16))}`;
  }

  /** @throws McpError(-32602) for a cursor that is not a string this server made for `owner`. */
  #readCursor(owner: string, cursor: unknown): string {
    if (typeof cursor !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid cursor: must be a string");
    const dot = cursor.indexOf(".");
    const body = dot === -1 ? "" : cursor.slice(0, dot);
    const tag = dot === -1 ? undefined : fromB64url(cursor.slice(dot + 1));
    const bytes = fromB64url(body);
    if (
      bytes === undefined ||
      tag === undefined ||
      tag.length !== 16 ||
      !this.#keys.verifyPrefix(CURSOR_PURPOSE, `${owner}\n${body}`, tag)
    ) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid cursor: not a tasks/list cursor this server issued to you");
    }
    return bytes.toString("utf8");
  }

  /**
   * `tasks/cancel`: the task becomes `cancelled` before the answer (its run's
   * signal is aborted), and the answer is the task.
   * @throws McpError(-32602) for a task unknown, expired or another's, or already terminal.
   */
  async #cancel(params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    const taskId = taskIdOf(params);
    const owner = this.#owner(ctx);
    const terminal = (task: TaskView) =>
      new McpError(ErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${legacyStatus(task)}'`, {
        taskId,
        status: legacyStatus(task),
      });
    const before = (await this.#runner.get(taskId, owner)) as TaskView;
    if (isTerminalTaskStatus(before.status)) throw terminal(before);
    await this.#runner.cancel(taskId, owner);
    const after = (await this.#runner.get(taskId, owner)) as TaskView;
    // The run may have ended between the two reads: that task was not cancelled.
    if (after.status !== "cancelled") throw terminal(after);
    return legacyTask(after);
  }
}
