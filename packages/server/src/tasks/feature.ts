/**
 * The tasks extension's methods (`io.modelcontextprotocol/tasks`):
 * `tasks/get`, `tasks/update`, `tasks/cancel`, and its capability in
 * `server/discover`. Each request must declare the extension in its own
 * client capabilities (else -32021, before the task is looked up), and
 * reaches only tasks of its own principal (another's is "not found").
 */
import type { ServerCapabilities } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { declaresTasks, readTaskId, TASKS_EXTENSION, TaskMethod, tasksRequiredData } from "@x/mcp-v2607/tasks";
import type { RequestContext } from "../context.js";
import { McpError } from "../errors.js";
import type { Feature, MethodTable } from "../features/feature.js";
import { readInputResponses } from "../revisions/2026-07-28/state.js";
import type { JsonObject } from "../objects.js";
import type { TaskRunner } from "./runner.js";

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
export class TasksFeature implements Feature {
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
