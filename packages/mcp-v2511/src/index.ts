/**
 * `@x/mcp-v2511`: the types, validators and constants of MCP protocol
 * revision 2025-11-25, generated from the spec's schema.json.
 *
 * Entry points:
 * - `@x/mcp-v2511`: everything below (named exports only);
 * - `@x/mcp-v2511/validators`: one validator per schema definition, for
 *   programs that want a bundler to keep only the ones they use;
 * - `@x/mcp-v2511/strict`: `validateStrict`, the same checks with unknown
 *   members refused, for conformance tests;
 * - `@x/mcp-v2511/members`: each definition's members and each side's
 *   methods as data, to reduce a message to what this revision defines;
 * - `@x/mcp-v2511/types`: the generated types alone (and the method table
 *   over them).
 *
 * Revision 2025-11-25 has no `resultType`: every result is final, so this
 * package has no result guards (see its README).
 *
 * @module @x/mcp-v2511
 */

// One type per schema definition (`#/$defs/*`), plus `JSONValue`. Each
// carries the schema's description as its doc comment.
export type * from "./generated/types.js";
// The method table: params and result types by method string (`ResultOf<"tools/call">`).
export type * from "./generated/methods.js";
export type { Validator } from "./generated/validators.js";

// Through the ./constants entry: the built index.js imports that file.
export {
  ErrorCode,
  META_PROGRESS_TOKEN,
  META_RELATED_TASK,
  Method,
  PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./constants-entry.js";
export {
  type DefinitionName,
  type DefinitionType,
  type ValidationProblem,
  type ValidationResult,
  validate,
} from "./generated/validate.js";
