/**
 * Action tools as a plug-in of `McpServer`: `registerActionTool(server, tool)`
 * serves one action tool, and the reserved `help` tool with the first one.
 * Kept on its own subpath (`@x/server/actions`) so that a server without
 * action tools bundles none of this code.
 */
import { partsOf, type McpServer } from "../server.js";
import { HELP_TOOL } from "./gates.js";
import { createHelpTool, registeredActionTool } from "./help.js";
import { ActionTool, type ActionToolDefinition, isActionTool } from "./tool.js";

/** The action tools of each server, by name. */
const registries = new WeakMap<McpServer, Map<string, ActionTool>>();

/**
 * Registers an action tool on `server` (one tool name, many actions; see
 * `defineActionTool`): checks its definition again, now (the registration
 * moment, which also catches a definition never passed through
 * `defineActionTool`), and serves what this check built. The reserved `help`
 * tool is registered with the first action tool and removed with the last
 * (`server.removeTool(name)` removes an action tool like any other).
 *
 * @returns `server`, for chaining.
 * @throws ConfigurationError naming the tool, the field and what was wrong;
 *   Error when the name is taken; TypeError when it breaks the spec's rule
 *   (unless `strictToolNames: false`).
 */
export function registerActionTool<A extends string>(server: McpServer, tool: ActionTool<A> | ActionToolDefinition<A>): McpServer {
  const built = new ActionTool((isActionTool(tool) ? tool.source : tool) as ActionToolDefinition);
  const { tools } = partsOf(server);
  let registry = registries.get(server);
  if (!registry) {
    registry = new Map();
    registries.set(server, registry);
  }
  const own = registry;
  const mounted = [registeredActionTool(built)];
  if (own.size === 0 && !tools.get(HELP_TOOL)) mounted.push(createHelpTool((n) => own.get(n)));
  tools.mount(mounted, (name) => {
    if (name === HELP_TOOL || !own.delete(name)) return;
    // help goes with the last action tool, in the same list change.
    if (own.size === 0) tools.remove(HELP_TOOL, false);
  });
  own.set(built.name, built);
  return server;
}
