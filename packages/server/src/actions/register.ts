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
 * `defineActionTool`), and serves what this check built. The `help` tool is
 * registered with the first action tool and removed with the last
 * (`server.removeTool(name)` removes an action tool like any other); from the
 * first one on, the name `help` is reserved on `server` (`registerTool`
 * refuses it).
 *
 * @returns `server`, for chaining.
 * @throws ConfigurationError naming the tool, the field and what was wrong;
 *   Error when the name is taken, or when `help` is a tool registered with
 *   `registerTool` on `server`; TypeError when it breaks the spec's rule
 *   (unless `strictToolNames: false`).
 */
export function registerActionTool<A extends string>(server: McpServer, tool: ActionTool<A> | ActionToolDefinition<A>): McpServer {
  const built = new ActionTool((isActionTool(tool) ? tool.source : tool) as ActionToolDefinition);
  const { tools } = partsOf(server);
  // A server without action tools may use the name `help` itself; then it can have none.
  if (!tools.isReserved(HELP_TOOL) && tools.get(HELP_TOOL)) {
    throw new Error(
      `tool name ${HELP_TOOL} is taken by a tool registered with registerTool: action tools serve their introspection tool under that name, so rename that tool to register action tools`,
    );
  }
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
  // From the first action tool on, `help` is the plug-in's.
  tools.reserve(HELP_TOOL, `tool name ${HELP_TOOL} is reserved for the introspection tool of the action tools registered on this server`);
  return server;
}
