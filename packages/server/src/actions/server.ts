/**
 * The full `McpServer` of `@x/server`: the core server (`@x/server/core`)
 * plus action tools and their reserved `help` tool. Kept apart so that a
 * server without action tools, imported from `@x/server/core`, bundles
 * without this code (about 6 KB gzip).
 */
import { McpServer as CoreMcpServer, mountTool, unmountHelp } from "../server.js";
import { HELP_TOOL } from "./gates.js";
import { createHelpTool, registeredActionTool } from "./help.js";
import { ActionTool, type ActionToolDefinition, isActionTool } from "./tool.js";

/**
 * An MCP server for protocol revision 2026-07-28, with action tools.
 *
 * Everything the core server does (see `@x/server/core`: tools, prompts,
 * resources, templates, completion, subscriptions, Multi Round-Trip
 * Requests; served by `listen`, `createNodeHandler`, `createFetchHandler` or
 * `serveStdio`), plus {@link McpServer.registerActionTool}.
 *
 * @example
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
 *   ({ text }) => String(text));
 */
export class McpServer extends CoreMcpServer {
  readonly #actionTools = new Map<string, ActionTool>();

  /**
   * Registers an action tool (one tool name, many actions; see
   * `defineActionTool`): checks its definition again, now (the registration
   * moment, which also catches a definition never passed through
   * `defineActionTool`), and serves what this check built. The reserved
   * `help` tool is registered with the first action tool.
   *
   * @throws ConfigurationError naming the tool, the field and what was wrong;
   *   Error when the name is taken; TypeError when it breaks the spec's rule
   *   (unless `strictToolNames: false`).
   */
  registerActionTool<A extends string>(tool: ActionTool<A> | ActionToolDefinition<A>): this {
    const built = new ActionTool((isActionTool(tool) ? tool.source : tool) as ActionToolDefinition);
    const mounted = [registeredActionTool(built)];
    if (this.#actionTools.size === 0 && !this.tool(HELP_TOOL)) mounted.push(createHelpTool((n) => this.#actionTools.get(n)));
    mountTool(this, mounted);
    this.#actionTools.set(built.name, built);
    return this;
  }

  /**
   * Removes a tool; returns false when there was none. Listeners of
   * `toolsListChanged` are told. `help` goes with the last action tool and
   * cannot be removed on its own.
   */
  override removeTool(name: string): boolean {
    if (name !== HELP_TOOL && this.#actionTools.has(name)) {
      this.#actionTools.delete(name);
      if (this.#actionTools.size === 0) unmountHelp(this);
    }
    return super.removeTool(name);
  }
}
