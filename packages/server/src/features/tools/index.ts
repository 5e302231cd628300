/**
 * The tools feature (spec 2026-07-28, server/tools): the registry of tools,
 * the `tools` capability, `tools/list` and `tools/call`. A tool with
 * `taskSupport` runs as a task of the tasks extension (2026-07-28), or, on
 * an `initialize`-era session, of revision 2025-11-25 (`tasks/legacy.ts`).
 */
import type { JsonSchemaValidator } from "@x/json-schema";
import type { ServerCapabilities, Tool } from "@x/mcp-v2607";
import { ErrorCode, Method, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { declaresTasks } from "@x/mcp-v2607/tasks";
import type { RequestContext } from "../../context.js";
import { McpError } from "../../errors.js";
import { frozenJsonCopy, isObject } from "../../objects.js";
import { PageCache, pageTextOf } from "../../pagination.js";
import { checkRequiredCapabilities, type Feature, type MethodTable, type ServerHost } from "../feature.js";
import { defineTool, type RegisteredTool, type ToolConfig, type ToolHandler } from "./define.js";
import { type RunToolOptions, runTool, type ToolRunResult } from "./run.js";
import type { LocalTask, TaskRunner } from "../../tasks/runner.js";
import { InputRequiredSignal, runEnded } from "../../route.js";
import { joinTask, type RunScope } from "../../scope.js";
import { requireTasksExtension } from "../../tasks/feature.js";
import { type LegacyTasks, legacyToolDefinition, readTaskMetadata } from "../../tasks/legacy.js";
import type { JsonObject } from "../../objects.js";

/** How a call becomes a task in its era: the task made (stored), and the answer that hands it to the client. */
interface TaskStart {
  create(): Promise<LocalTask>;
  handle(local: LocalTask): JsonObject;
}

/** `ctx.startTask` of a call that cannot become a task (the client did not declare the extension, or sent no `params.task`). */
const NO_TASK = () => Promise.resolve(false);

/** The spec's tool name rule (server/tools, "Tool names"). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Options of the tools feature (from `ServerOptions`). */
export interface ToolsOptions {
  /** Refuse names outside {@link TOOL_NAME_PATTERN}; default true. */
  strictToolNames?: boolean;
  /** Refuse unknown keywords in tool schemas; default true (see `ServerOptions.strictSchemas`). */
  strictSchemas?: boolean;
  /** The validator of tool schemas (see `ServerOptions.validator`). */
  validator?: JsonSchemaValidator;
  /** The server's run limit of a call, in milliseconds. */
  toolTimeoutMs?: number;
}

/** A registered tool's hook, run when it is removed (plug-ins keep their own bookkeeping in step). */
export type OnRemove = (name: string) => void;

/** The tools of one server. */
export class ToolsFeature implements Feature {
  readonly #host: ServerHost;
  readonly #strict: boolean;
  readonly #strictSchemas: boolean;
  readonly #validator: JsonSchemaValidator | undefined;
  readonly #run: RunToolOptions;
  readonly #tools = new Map<string, RegisteredTool>();
  /** Names a plug-in keeps for itself (`help`, once action tools are registered); registerTool refuses them. */
  readonly #reserved = new Map<string, string>();
  readonly #onRemove = new Map<string, OnRemove>();
  #definitions: Tool[] | undefined;
  /** The definitions as the `initialize` era lists them (`execution.taskSupport`). */
  #legacyDefinitions: Tool[] | undefined;
  /** The pages of each era's list (see PageCache), dropped with the definitions. */
  #pages: PageCache<Tool> | undefined;
  #legacyPages: PageCache<Tool> | undefined;
  #tasks: { runner: TaskRunner; owner: (ctx: RequestContext) => string; legacy: LegacyTasks | undefined } | undefined;
  #taskTools = 0;
  /** The tools whose definition is not plain JSON data (see frozenJsonCopy): while any is registered, no page text is kept. */
  readonly #unfrozen = new Set<string>();

  constructor(host: ServerHost, options: ToolsOptions) {
    this.#host = host;
    this.#strict = options.strictToolNames !== false;
    this.#strictSchemas = options.strictSchemas !== false;
    this.#validator = options.validator;
    this.#run = { timeoutMs: options.toolTimeoutMs };
  }

  readonly methods: MethodTable = {
    [Method.ToolsList]: {
      enabled: () => this.#tools.size > 0,
      // The page results a PageCache made keep their text.
      textOf: pageTextOf,
      handle: (params, ctx) => {
        const pages = this.#pagesOf(ctx.protocolVersion === PROTOCOL_VERSION);
        return pages.result(this.#host.keys, Method.ToolsList, "tools", params.cursor, this.#host.hints(Method.ToolsList));
      },
    },
    [Method.ToolsCall]: {
      enabled: () => this.#tools.size > 0,
      asks: true,
      headerParams: (params) => this.#named(params)?.headerParams,
      requiredScopes: (params) => this.#named(params)?.requiredScopes,
      handle: (params, ctx, _transport, scope) => {
        const name: unknown = params.name;
        if (typeof name !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
        const args: unknown = params.arguments === undefined ? {} : params.arguments;
        if (!isObject(args)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: arguments must be an object");
        const tool = this.#tools.get(name);
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
        checkRequiredCapabilities(tool.requiredClientCapabilities, ctx);
        const tasks = this.#tasks;
        if (tasks !== undefined && ctx.protocolVersion !== PROTOCOL_VERSION && tasks.legacy !== undefined) {
          // The initialize era: 2025-11-25's own tasks, asked for with params.task ("Tool-Level Negotiation").
          const legacy = tasks.legacy;
          // Without the capability declared (no tool allows tasks), params.task is ignored ("Task Support and Handling").
          const wanted = this.offersTasks ? readTaskMetadata(params) : undefined;
          if (tool.taskSupport === undefined) {
            if (wanted) {
              throw new McpError(ErrorCode.MethodNotFound, `Tool ${name} does not run as a task (execution.taskSupport is forbidden)`, {
                name,
              });
            }
          } else if (wanted) {
            const start: TaskStart = {
              create: () => legacy.create(ctx, scope, wanted.ttlMs),
              handle: (local) => legacy.handle(local),
            };
            return tool.taskStart === "deferred"
              ? this.#deferred(tool, args, ctx, scope, start)
              : this.#immediate(tool, args, ctx, scope, start);
          } else if (tool.taskSupport === "required") {
            throw new McpError(ErrorCode.MethodNotFound, `Tool ${name} must be called as a task (execution.taskSupport is required)`, {
              name,
            });
          }
        } else if (tool.taskSupport !== undefined && tasks !== undefined) {
          // The extension is of the 2026-07-28 wire.
          const later = ctx.protocolVersion === PROTOCOL_VERSION;
          if (later && declaresTasks(ctx.clientCapabilities)) {
            const owner = tasks.owner;
            const start: TaskStart = {
              create: () => tasks.runner.create(owner(ctx), Method.ToolsCall),
              handle: (local) => tasks.runner.handle(local),
            };
            return tool.taskStart === "deferred"
              ? this.#deferred(tool, args, ctx, scope, start)
              : this.#immediate(tool, args, ctx, scope, start);
          }
          if (tool.taskSupport === "required") {
            if (later) requireTasksExtension(ctx, `tool ${name}`);
            throw new McpError(ErrorCode.MethodNotFound, `Tool ${name} runs only as a task (tasks extension of 2026-07-28)`, { name });
          }
        }
        // A plain call of a deferred tool: startTask says so, and the run goes on.
        if (tool.taskStart === "deferred") scope.startTask = NO_TASK;
        return runTool(tool, args, ctx, scope, this.#run);
      },
    },
  };

  /** The registered tool a request's `params.name` names, if any. */
  #named(params: JsonObject): RegisteredTool | undefined {
    const name = params.name;
    return typeof name === "string" ? this.#tools.get(name) : undefined;
  }

  /**
   * Lets task-supporting tools run as tasks (the server's runner, who owns a
   * request's tasks, and the initialize era's tasks; without `legacy` an
   * initialize-era call is a plain call).
   */
  useTasks(runner: TaskRunner, owner: (ctx: RequestContext) => string, legacy?: LegacyTasks): void {
    this.#tasks = { runner, owner, legacy };
  }

  /** True while some registered tool allows tasks. */
  get offersTasks(): boolean {
    return this.#taskTools > 0;
  }

  /** The whole handler in a task: the handle is answered once the task is stored, the run goes on. */
  async #immediate(tool: RegisteredTool, args: JsonObject, ctx: RequestContext, scope: RunScope, start: TaskStart): Promise<ToolRunResult> {
    const { runner } = this.#tasks!;
    const local = await start.create();
    joinTask(scope, local);
    let run: Promise<ToolRunResult>;
    try {
      // No call limit in a task: its time to live bounds it.
      run = Promise.resolve(runTool(tool, args, ctx, scope, { ...this.#run, timeoutMs: 0 }));
    } catch (error) {
      run = Promise.reject(error);
    }
    runner.finish(local, run);
    // A task handle in lieu of the tool's result (the extension's polymorphic result; the initialize era's CreateTaskResult).
    return start.handle(local) as unknown as ToolRunResult;
  }

  /**
   * The handler runs in the call until it calls `ctx.startTask()`; from then
   * on in the task. A run that ends while its task is being made (a
   * `startTask()` not awaited) ends the task, not the call.
   */
  #deferred(tool: RegisteredTool, args: JsonObject, ctx: RequestContext, scope: RunScope, start: TaskStart): Promise<ToolRunResult> {
    const { runner } = this.#tasks!;
    return new Promise((resolve, reject) => {
      let starting: Promise<LocalTask> | undefined;
      scope.startTask = () => {
        if (starting) return Promise.reject(new Error("ctx.startTask: this call already started its task"));
        // A round that ended on an unanswered ask is answered input_required: no task may start behind it.
        if (runEnded(scope)) return Promise.reject(new InputRequiredSignal());
        starting = start.create().then((local) => {
          joinTask(scope, local);
          scope.limit?.follow(local.signal);
          resolve(start.handle(local) as unknown as ToolRunResult);
          return local;
        });
        const started = starting.then(() => true);
        // Awaited by the handler, or not: a refusal must not become an unhandled rejection.
        started.catch(() => {});
        return started;
      };
      let run: ToolRunResult | Promise<ToolRunResult>;
      try {
        run = runTool(tool, args, ctx, scope, this.#run);
      } catch (error) {
        reject(error);
        return;
      }
      const settle = (outcome: Promise<ToolRunResult>) => {
        if (!starting) {
          outcome.then(resolve, reject);
          return;
        }
        starting.then(
          (local) => runner.finish(local, outcome),
          // The task could not be made: the call answers with the run's own outcome, else that refusal.
          (refusal) => outcome.then(resolve, () => reject(refusal)),
        );
      };
      Promise.resolve(run).then(
        (result) => settle(Promise.resolve(result)),
        (error) => settle(Promise.reject(error)),
      );
    });
  }

  capabilities(caps: ServerCapabilities): void {
    if (this.#tools.size > 0) caps.tools = { listChanged: true };
  }

  /** The published definitions, in registration order (cached until the registry changes). */
  list(): readonly Tool[] {
    this.#definitions ??= Object.freeze([...this.#tools.values()].map((t) => t.definition)) as Tool[];
    return this.#definitions;
  }

  /** The definitions as the `initialize` era lists them: `execution.taskSupport` on the tools that allow tasks. */
  #legacyList(): readonly Tool[] {
    this.#legacyDefinitions ??= Object.freeze(
      [...this.#tools.values()].map((t) => {
        const definition = legacyToolDefinition(t.definition, t.taskSupport);
        // Only its top level and `execution` are new; below, it is the (frozen) published definition.
        if (definition !== t.definition && Object.isFrozen(t.definition)) {
          Object.freeze(definition.execution);
          Object.freeze(definition);
        }
        return definition;
      }),
    ) as Tool[];
    return this.#legacyDefinitions;
  }

  /**
   * The pages of an era's list, kept until the registry changes. Text only
   * for 2026-07-28: the `initialize` era writes its answers from the response.
   */
  #pagesOf(modern: boolean): PageCache<Tool> {
    const size = this.#host.pageSize;
    if (modern) {
      this.#pages ??= new PageCache(this.list(), size, this.#unfrozen.size === 0);
      return this.#pages;
    }
    this.#legacyPages ??= new PageCache(this.#legacyList(), size, false);
    return this.#legacyPages;
  }

  /** The registered tool of that name. */
  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  /**
   * Reserves `name` for the server or a plug-in: registerTool refuses it with `why`.
   */
  reserve(name: string, why: string): void {
    this.#reserved.set(name, why);
  }

  /** True for a reserved name (its tool is mounted and removed by its owner only). */
  isReserved(name: string): boolean {
    return this.#reserved.has(name);
  }

  /** Registers a tool from its configuration (see `McpServer.registerTool`). */
  register(name: string, config: ToolConfig, handler: ToolHandler<any>): void {
    const reserved = this.#reserved.get(name);
    if (reserved !== undefined) throw new Error(reserved);
    // The name first: a taken or ill-formed name is refused before its schemas are compiled.
    this.#checkName(name);
    this.mount([defineTool(name, config, handler, { strictSchemas: this.#strictSchemas, validator: this.#validator })]);
  }

  /** @throws Error when `name` is taken; TypeError when it breaks the spec's rule (unless reserved or `strictToolNames: false`). */
  #checkName(name: string): void {
    if (this.#tools.has(name)) throw new Error(`tool ${name} is already registered`);
    if (!this.#reserved.has(name) && this.#strict && typeof name === "string" && !TOOL_NAME_PATTERN.test(name)) {
      throw new TypeError(
        `tool name ${JSON.stringify(name)} breaks the spec's rule: 1 to 128 characters of A-Z, a-z, 0-9, _, - and . (set strictToolNames: false to allow it)`,
      );
    }
  }

  /**
   * Serves tools built elsewhere (a plug-in's), all or none, with one
   * notification; `onRemove` runs when one of them is removed.
   * @throws Error when a name is taken; TypeError when it breaks the spec's rule (unless reserved).
   */
  mount(tools: readonly RegisteredTool[], onRemove?: OnRemove): void {
    for (const tool of tools) this.#checkName(tool.name);
    for (const tool of tools) {
      // Published as a frozen copy: the kept pages (and their text) cannot drift from it, and no
      // answer, handler (`ctx.tools`) or later change to the registered objects reaches the registry.
      const definition = frozenJsonCopy(tool.definition);
      if (definition === undefined) this.#unfrozen.add(tool.name);
      else this.#unfrozen.delete(tool.name);
      this.#tools.set(tool.name, definition === undefined ? tool : { ...tool, definition });
      if (tool.taskSupport !== undefined) this.#taskTools++;
      if (onRemove) this.#onRemove.set(tool.name, onRemove);
    }
    this.#changed(true);
  }

  /**
   * Removes a tool; `notify: false` removes it silently (a plug-in taking
   * away its own helper in the same change). Returns false when there was none.
   */
  remove(name: string, notify = true): boolean {
    const removed = this.#tools.get(name);
    if (!removed || !this.#tools.delete(name)) return false;
    if (removed.taskSupport !== undefined) this.#taskTools--;
    this.#unfrozen.delete(name);
    const hook = this.#onRemove.get(name);
    this.#onRemove.delete(name);
    // The plug-in's bookkeeping first (it may take its helper tool away too): one notification for both.
    hook?.(name);
    this.#changed(notify);
    return true;
  }

  #changed(notify: boolean): void {
    this.#definitions = undefined;
    this.#legacyDefinitions = undefined;
    this.#pages = undefined;
    this.#legacyPages = undefined;
    if (notify) this.#host.listChanged("tools");
  }
}
