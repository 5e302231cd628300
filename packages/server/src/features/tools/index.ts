/**
 * The tools feature (spec 2026-07-28, server/tools): the registry of tools,
 * the `tools` capability, `tools/list` and `tools/call`.
 */
import type { ServerCapabilities, Tool } from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import { McpError } from "../../errors.js";
import { isObject } from "../../objects.js";
import { listResult, page } from "../../pagination.js";
import { checkRequiredCapabilities, type Feature, type MethodTable, type ServerHost } from "../feature.js";
import { defineTool, type RegisteredTool, type ToolConfig, type ToolHandler } from "./define.js";
import { type RunToolOptions, runTool } from "./run.js";

/** The spec's tool name rule (server/tools, "Tool names"). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** Options of the tools feature (from `ServerOptions`). */
export interface ToolsOptions {
  /** Refuse names outside {@link TOOL_NAME_PATTERN}; default true. */
  strictToolNames?: boolean;
  /** The server's run limit of a call, in milliseconds. */
  toolTimeoutMs?: number;
  /** How handlers receive integers beyond 2^53 (see `ServerOptions.bigIntegers`). */
  bigIntegers?: "bigint" | "string";
}

/** A registered tool's hook, run when it is removed (plug-ins keep their own bookkeeping in step). */
export type OnRemove = (name: string) => void;

/** The tools of one server. */
export class ToolsFeature implements Feature {
  readonly #host: ServerHost;
  readonly #strict: boolean;
  readonly #run: RunToolOptions;
  readonly #tools = new Map<string, RegisteredTool>();
  /** Names the server keeps for itself or a plug-in (`help`); registerTool refuses them. */
  readonly #reserved = new Map<string, string>();
  readonly #onRemove = new Map<string, OnRemove>();
  #definitions: Tool[] | undefined;

  constructor(host: ServerHost, options: ToolsOptions) {
    this.#host = host;
    this.#strict = options.strictToolNames !== false;
    const big = options.bigIntegers;
    if (big !== undefined && big !== "bigint" && big !== "string")
      throw new TypeError(`bigIntegers must be "bigint" or "string", got ${String(big)}`);
    this.#run = { timeoutMs: options.toolTimeoutMs, bigIntegers: big };
  }

  readonly methods: MethodTable = {
    [Method.ToolsList]: {
      enabled: () => this.#tools.size > 0,
      handle: (params) => {
        const slice = page(this.#host.keys, Method.ToolsList, this.list(), params.cursor, this.#host.pageSize);
        return listResult("tools", slice, this.#host.hints(Method.ToolsList));
      },
    },
    [Method.ToolsCall]: {
      enabled: () => this.#tools.size > 0,
      handle: (params, ctx, _transport, scope) => {
        const name: unknown = params.name;
        if (typeof name !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
        const args: unknown = params.arguments === undefined ? {} : params.arguments;
        if (!isObject(args)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: arguments must be an object");
        const tool = this.#tools.get(name);
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
        checkRequiredCapabilities(tool.requiredClientCapabilities, ctx);
        return runTool(tool, args, ctx, scope, this.#run);
      },
    },
  };

  capabilities(caps: ServerCapabilities): void {
    if (this.#tools.size > 0) caps.tools = { listChanged: true };
  }

  /** The published definitions, in registration order (cached until the registry changes). */
  list(): readonly Tool[] {
    this.#definitions ??= [...this.#tools.values()].map((t) => t.definition);
    return this.#definitions;
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
    this.mount([defineTool(name, config, handler)]);
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
      this.#tools.set(tool.name, tool);
      if (onRemove) this.#onRemove.set(tool.name, onRemove);
    }
    this.#changed(true);
  }

  /**
   * Removes a tool; `notify: false` removes it silently (a plug-in taking
   * away its own helper in the same change). Returns false when there was none.
   */
  remove(name: string, notify = true): boolean {
    if (!this.#tools.delete(name)) return false;
    const hook = this.#onRemove.get(name);
    this.#onRemove.delete(name);
    // The plug-in's bookkeeping first (it may take its helper tool away too): one notification for both.
    hook?.(name);
    this.#changed(notify);
    return true;
  }

  #changed(notify: boolean): void {
    this.#definitions = undefined;
    if (notify) this.#host.listChanged("tools");
  }
}
