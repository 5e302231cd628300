/**
 * The tasks extension (`io.modelcontextprotocol/tasks`), the tasks plug-in's
 * wire on revision 2026-07-28: how a `tools/call` becomes a task (the client
 * declares the extension; the answer is the flat task handle), the methods
 * `tasks/get`, `tasks/update`, `tasks/cancel`, its capability in
 * `server/discover`, and the task ids a `subscriptions/listen` may name.
 * Each request must declare the extension in its own client capabilities
 * (else -32021, before the task is looked up), and reaches only tasks of its
 * own principal (another's is "not found").
 */
import type { ServerCapabilities } from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import { declaresTasks, readTaskId, TASKS_EXTENSION, TaskMethod, tasksRequiredData } from "@x/mcp-v2607/tasks";
import type { RequestContext } from "../context.js";
import { McpError } from "../errors.js";
import type { Feature, MethodTable } from "../features/feature.js";
import type { ListenTasks } from "../features/subscriptions.js";
import type { RegisteredTool } from "../features/tools/define.js";
import { readInputResponses } from "../revisions/2026-07-28/state.js";
import type { JsonObject } from "../objects.js";
import type { TaskStart, TaskWire } from "./calls.js";
import type { TaskRunner } from "./runner.js";

/** The most task ids one `subscriptions/listen` may name. */
export const MAX_LISTEN_TASK_IDS = 100;

/** Refuses a request whose client capabilities lack the extension. @throws McpError(-32021) with `requiredCapabilities`. */
export function requireTasksExtension(ctx: RequestContext, what: string): void {
  if (!declaresTasks(ctx.clientCapabilities)) {
    throw new McpError(
      ErrorCode.MissingRequiredClientCapability,
      `Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension in the request's client capabilities`,
      tasksRequiredData(),
    );
  }
}

function taskIdOf(params: JsonObject): string {
  const read = readTaskId(params);
  if (!read.ok) throw new McpError(ErrorCode.InvalidParams, read.message);
  return read.taskId;
}

/** The tasks extension's part of the server. */
export class TasksFeature implements Feature, TaskWire, ListenTasks {
  readonly #runner: TaskRunner;
  readonly #offered: () => boolean;
  readonly #owner: (ctx: RequestContext) => string;

  /** `offered`: whether any tool supports tasks (the methods and the capability exist only then). */
  constructor(runner: TaskRunner, offered: () => boolean, owner: (ctx: RequestContext) => string) {
    this.#runner = runner;
    this.#offered = offered;
    this.#owner = owner;
  }

  /** Once a tool has offered tasks, their methods stay: tasks outlive the removal of their tool. */
  #everOffered = false;

  #enabled(): boolean {
    if (!this.#everOffered && this.#offered()) this.#everOffered = true;
    return this.#everOffered;
  }

  /**
   * A call of a tool that allows tasks becomes one when the request declares
   * the extension; a `"required"` tool's call that does not is refused.
   * @throws McpError(-32021) naming the extension, for a `"required"` tool called without it.
   */
  start(tool: RegisteredTool, _params: JsonObject, ctx: RequestContext): TaskStart | undefined {
    if (tool.taskSupport === undefined) return undefined;
    if (declaresTasks(ctx.clientCapabilities)) {
      const owner = this.#owner(ctx);
      return { create: () => this.#runner.create(owner, Method.ToolsCall), handle: (local) => this.#runner.handle(local) };
    }
    if (tool.taskSupport === "required") requireTasksExtension(ctx, `tool ${tool.name}`);
    return undefined;
  }

  /**
   * The task ids a `subscriptions/listen` names (`notifications.taskIds`)
   * that its caller may hear of: its own, others left out as if unknown.
   * @throws McpError(-32021) when the request lacks the extension; McpError(-32602) for a list that is not
   *   of strings or longer than {@link MAX_LISTEN_TASK_IDS}.
   */
  grant(taskIds: unknown, ctx: RequestContext): Promise<{ owner: string; taskIds: string[] }> {
    if (!declaresTasks(ctx.clientCapabilities)) {
      throw new McpError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capability: task status notifications need the ${TASKS_EXTENSION} extension`,
        tasksRequiredData(),
      );
    }
    if (!Array.isArray(taskIds) || taskIds.some((id) => typeof id !== "string")) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid params: notifications.taskIds must be an array of strings");
    }
    if (taskIds.length > MAX_LISTEN_TASK_IDS) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: at most ${MAX_LISTEN_TASK_IDS} taskIds per listen`);
    }
    const owner = this.#owner(ctx);
    const wanted = taskIds as string[];
    return Promise.all(wanted.map((id) => this.#runner.owns(id, owner))).then((owned) => ({
      owner,
      taskIds: [...new Set(wanted.filter((_, i) => owned[i]))],
    }));
  }

  readonly methods: MethodTable = {
    [TaskMethod.Get]: {
      enabled: () => this.#enabled(),
      handle: (params, ctx) => {
        requireTasksExtension(ctx, TaskMethod.Get);
        return this.#runner.get(taskIdOf(params), this.#owner(ctx));
      },
    },
    [TaskMethod.Update]: {
      enabled: () => this.#enabled(),
      handle: async (params, ctx) => {
        requireTasksExtension(ctx, TaskMethod.Update);
        const taskId = taskIdOf(params);
        if (params.inputResponses === undefined) throw new McpError(ErrorCode.InvalidParams, "Invalid params: inputResponses is required");
        // The same rule as a Multi Round-Trip retry's: an object of objects.
        const responses = readInputResponses(params.inputResponses);
        await this.#runner.update(taskId, this.#owner(ctx), responses);
        return { resultType: "complete" };
      },
    },
    [TaskMethod.Cancel]: {
      enabled: () => this.#enabled(),
      handle: async (params, ctx) => {
        requireTasksExtension(ctx, TaskMethod.Cancel);
        await this.#runner.cancel(taskIdOf(params), this.#owner(ctx));
        return { resultType: "complete" };
      },
    },
  };

  capabilities(caps: ServerCapabilities): void {
    if (!this.#enabled()) return;
    caps.extensions = { ...(caps.extensions ?? {}), [TASKS_EXTENSION]: {} };
  }
}
