/**
 * Action tools (one tool name, many actions, self-correcting errors), the
 * `help` tool, hints, and the bounded quoting of refusals.
 */
export { Bound, boundText, ECHO_LIMIT, MESSAGE_LIMIT } from "./bound.js";
export { ACTION_SCHEMA_KEYS, ConfigurationError } from "./config.js";
export { type ArgumentType, checkArguments, HELP_TOOL, type HelpPointer, helpPointer } from "./gates.js";
export { createHelpTool, HELP_DEFINITION, registeredActionTool } from "./help.js";
export { type Hint, hint } from "./hints.js";
export { ANY_STRING_KEY, closeProperties, findUnknownKeys, MAX_LISTED, type UnknownKeys } from "./keyset.js";
export {
  type ActionError,
  type ActionOk,
  type ActionResult,
  type ActionSchema,
  ActionTool,
  type ActionToolDefinition,
  defaultHandleError,
  defineActionTool,
  error,
  isActionTool,
  type JsonSchema,
  ok,
} from "./tool.js";
export type { InvalidValue, InvalidValues } from "./value-gate.js";
