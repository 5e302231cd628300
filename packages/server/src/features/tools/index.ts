/**
 * The tools feature (spec 2026-07-28, server/tools): the registry of tools,
 * the `tools` capability, `tools/list` and `tools/call`. A tool with
 * `taskSupport` needs the tasks plug-in (`@x/server/tasks`), which this
 * feature asks, through {@link TaskCalls}, whether a call becomes a task:
 * nothing here knows a task's wire.
 */
import type { JsonSchemaValidator } from "@x/json-schema";
import type { ServerCapabilities, Tool } from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import type { RequestContext, TransportInfo } from "../../context.js";
import { McpError } from "../../errors.js";
import { frozenJsonCopy, isObject, type JsonObject } from "../../objects.js";
import { PageCache, pageTextOf } from "../../pagination.js";
import type { Revision } from "../../revisions/revision.js";
import type { RunScope } from "../../scope.js";
import { checkRequiredCapabilities, type Feature, type MethodTable, type ServerHost } from "../feature.js";
import { defineTool, type RegisteredTool, type ToolConfig, type ToolHandler } from "./define.js";
import { type RunToolOptions, runTool, type ToolRunResult } from "./run.js";

/**
 * Runs the tool of a call: `limited` under its call limit (`timeoutMs`, the
 * server's `toolTimeoutMs`), else with none (a run inside a task, which its
 * time to live bounds).
 */
export type RunCall = (limited: boolean) => ToolRunResult | Promise<ToolRunResult>;

/**
 * How a call may become a task: what the tasks plug-in (`@x/server/tasks`)
 * installs on the tools feature ({@link ToolsFeature.useTasks}), asked of
 * every `tools/call` once installed. It decides from the request (its
 * revision: `scope.revision`) and the tool's `taskSupport`, and answers in
 * the request's revision's terms.
 */
export interface TaskCalls {
  /**
   * Makes the call a task and answers it with the task's handle, running the
   * tool (`run`) in the task; `undefined` for a plain call (the tools feature
   * then runs it).
   * @throws McpError refusing the call (a task its revision cannot ask for, a
   *   `"required"` tool called plainly, a task asked of a tool without `taskSupport`).
   */
  call(
    tool: RegisteredTool,
    params: JsonObject,
    ctx: RequestContext,
    scope: RunScope,
    transport: TransportInfo,
    run: RunCall,
  ): Promise<ToolRunResult> | undefined;
  /**
   * The definition `revision` lists for a tool that allows tasks (the
   * published `definition` itself where the revision adds nothing).
   */
  listed(definition: Tool, taskSupport: "optional" | "required", revision: Revision | undefined): Tool;
}

/** `ctx.startTask` of a call that does not become a task (no plug-in, or the request did not ask for one). */
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
  /** A run in a task: no call limit. */
  readonly #inTask: RunToolOptions;
  readonly #tools = new Map<string, RegisteredTool>();
  /** Names a plug-in keeps for itself (`help`, once action tools are registered); registerTool refuses them. */
  readonly #reserved = new Map<string, string>();
  readonly #onRemove = new Map<string, OnRemove>();
  #definitions: Tool[] | undefined;
  /** The pages of each revision's list (see PageCache), dropped with the definitions. */
  readonly #pages = new Map<Revision | undefined, PageCache<Tool>>();
  /** The tasks plug-in's say in calls (see {@link TaskCalls}); `undefined` without it. */
  #calls: TaskCalls | undefined;
  #taskTools = 0;
  /** The tools whose definition is not plain JSON data (see frozenJsonCopy): while any is registered, no page text is kept. */
  readonly #unfrozen = new Set<string>();

  constructor(host: ServerHost, options: ToolsOptions) {
    this.#host = host;
    this.#strict = options.strictToolNames !== false;
    this.#strictSchemas = options.strictSchemas !== false;
    this.#validator = options.validator;
    this.#run = { timeoutMs: options.toolTimeoutMs };
    this.#inTask = { ...this.#run, timeoutMs: 0 };
  }

  readonly methods: MethodTable = {
    [Method.ToolsList]: {
      enabled: () => this.#tools.size > 0,
      // The page results a PageCache made keep their text.
      textOf: pageTextOf,
      handle: (params, _ctx, _transport, scope) => {
        const pages = this.#pagesOf(scope.revision);
        return pages.result(this.#host.keys, Method.ToolsList, "tools", params.cursor, this.#host.hints(Method.ToolsList));
      },
    },
    [Method.ToolsCall]: {
      enabled: () => this.#tools.size > 0,
      asks: true,
      headerParams: (params) => this.#named(params)?.headerParams,
      requiredScopes: (params) => this.#named(params)?.requiredScopes,
      handle: (params, ctx, transport, scope) => {
        const name: unknown = params.name;
        if (typeof name !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
        const args: unknown = params.arguments === undefined ? {} : params.arguments;
        if (!isObject(args)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: arguments must be an object");
        const tool = this.#tools.get(name);
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
        checkRequiredCapabilities(tool.requiredClientCapabilities, ctx);
        const calls = this.#calls;
        if (calls !== undefined) {
          const run: RunCall = (limited) => runTool(tool, args, ctx, scope, limited ? this.#run : this.#inTask);
          const handle = calls.call(tool, params, ctx, scope, transport, run);
          if (handle !== undefined) return handle;
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
   * Lets tools with `taskSupport` be registered and their calls become tasks
   * (the tasks plug-in installs it once, as the server is built).
   * @throws TypeError when a plug-in already did.
   */
  useTasks(calls: TaskCalls): void {
    if (this.#calls !== undefined) throw new TypeError("this server's tools already have a tasks plug-in");
    this.#calls = calls;
  }

  /** True while some registered tool allows tasks. */
  get offersTasks(): boolean {
    return this.#taskTools > 0;
  }

  capabilities(caps: ServerCapabilities): void {
    if (this.#tools.size > 0) caps.tools = { listChanged: true };
  }

  /** The published definitions, in registration order (cached until the registry changes). */
  list(): readonly Tool[] {
    this.#definitions ??= Object.freeze([...this.#tools.values()].map((t) => t.definition)) as Tool[];
    return this.#definitions;
  }

  /**
   * The definitions `revision` lists: the published ones, but for a tool that
   * allows tasks the one the tasks plug-in says the revision lists.
   */
  #listedBy(revision: Revision | undefined): readonly Tool[] {
    const calls = this.#calls;
    if (calls === undefined || this.#taskTools === 0) return this.list();
    return Object.freeze(
      [...this.#tools.values()].map((t) => {
        if (t.taskSupport === undefined) return t.definition;
        const listed = calls.listed(t.definition, t.taskSupport, revision);
        // Only its top level and the members it added are new; below, it is the (frozen) published definition.
        if (listed !== t.definition && Object.isFrozen(t.definition)) {
          for (const value of Object.values(listed)) if (typeof value === "object" && value !== null) Object.freeze(value);
          Object.freeze(listed);
        }
        return listed;
      }),
    ) as Tool[];
  }

  /**
   * The pages of a revision's list, kept until the registry changes. Text
   * only where the revision writes its stamped answer around the handler's
   * own text (`Revision.stampText`): another writes its answers from the response.
   */
  #pagesOf(revision: Revision | undefined): PageCache<Tool> {
    let pages = this.#pages.get(revision);
    if (pages === undefined) {
      const keepText = revision?.stampText !== undefined && this.#unfrozen.size === 0;
      pages = new PageCache(this.#listedBy(revision), this.#host.pageSize, keepText);
      this.#pages.set(revision, pages);
    }
    return pages;
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
   * @throws Error when a name is taken; TypeError when it breaks the spec's rule (unless reserved),
   *   or a tool allows tasks on a server without the tasks plug-in.
   */
  mount(tools: readonly RegisteredTool[], onRemove?: OnRemove): void {
    for (const tool of tools) {
      this.#checkName(tool.name);
      if (tool.taskSupport !== undefined && this.#calls === undefined) {
        throw new TypeError(
          `tool ${tool.name}: taskSupport needs the tasks plug-in: import { tasks } from "@x/server/tasks" and build the server with new McpServer(info, { tasks: tasks() })`,
        );
      }
    }
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
    this.#pages.clear();
    if (notify) this.#host.listChanged("tools");
  }
}
