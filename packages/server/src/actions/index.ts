/**
 * `@x/server/actions`: action tools (one tool name, many actions, refusals
 * that tell the model how to correct its call), the reserved `help` tool,
 * hints, and `registerActionTool(server, tool)`, which plugs them into an
 * `McpServer`.
 *
 * @module @x/server/actions
 */
export { Bound } from "./bound.js";
export { ConfigurationError } from "./config.js";
export { HELP_TOOL, type HelpPointer, helpPointer } from "./gates.js";
export { type Hint, hint } from "./hints.js";
export { ANY_STRING_KEY } from "./keyset.js";
export { registerActionTool } from "./register.js";
export {
  type ActionError,
  type ActionOk,
  type ActionResult,
  type ActionSchema,
  ActionTool,
  type ActionToolDefinition,
  defineActionTool,
  error,
  isActionTool,
  type JsonSchema,
  ok,
} from "./tool.js";
export type { InvalidValue, InvalidValues } from "./value-gate.js";
