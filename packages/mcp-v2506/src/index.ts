/**
 * `@x/mcp-v2506`: the types, validators and constants of MCP protocol
 * revision 2025-06-18, generated from the spec's schema.json.
 *
 * Entry points:
 * - `@x/mcp-v2506`: everything below (named exports only);
 * - `@x/mcp-v2506/validators`: one validator per schema definition, for
 *   programs that want a bundler to keep only the ones they use;
 * - `@x/mcp-v2506/strict`: `validateStrict`, the same checks with unknown
 *   members refused, for conformance tests;
 * - `@x/mcp-v2506/members`: each definition's members and each side's
 *   methods as data, to reduce a message to what this revision defines;
 * - `@x/mcp-v2506/types`: the generated types alone (and the method table
 *   over them);
 * - `@x/mcp-v2506/wire`: the HTTP headers and framing of this revision.
 *
 * Revision 2025-06-18 has no `resultType`: every result is final, so this
 * package has no result guards.
 *
 * @module @x/mcp-v2506
 */

// One type per schema definition (`#/$defs/*`, `#/definitions/*` in the
// published draft-07 file), plus `JSONValue`. Each carries the schema's
// description as its doc comment.
export type * from "./generated/types.js";
// The method table: params and result types by method string (`ResultOf<"tools/call">`).
export type * from "./generated/methods.js";
export type { Validator } from "./generated/validators.js";

// Through the ./constants entry: the built index.js imports that file.
export { ErrorCode, META_PROGRESS_TOKEN, Method, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./constants-entry.js";
export {
  type DefinitionName,
  type DefinitionType,
  type ValidationProblem,
  type ValidationResult,
  validate,
} from "./generated/validate.js";
