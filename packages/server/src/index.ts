/**
 * `@x/server`: the MCP server (revision 2026-07-28) with everything,
 * action tools included. `@x/server/core` is the same without action tools.
 */
export * from "./core.js";
export {
  type ActionError,
  type ActionOk,
  type ActionResult,
  type ActionSchema,
  ActionTool,
  type ActionToolDefinition,
  ANY_STRING_KEY,
  Bound,
  ConfigurationError,
  defineActionTool,
  error,
  type HelpPointer,
  type Hint,
  hint,
  helpPointer,
  type InvalidValue,
  type InvalidValues,
  isActionTool,
  type JsonSchema,
  ok,
} from "./actions/index.js";
// This McpServer (with registerActionTool) takes the place of the core one exported above.
export { McpServer } from "./actions/server.js";
