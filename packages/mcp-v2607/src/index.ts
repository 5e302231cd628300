/**
 * `@x/mcp-v2607`: the types, validators and constants of MCP protocol
 * revision 2026-07-28, generated from the spec's schema.json.
 *
 * Entry points:
 * - `@x/mcp-v2607`: everything below (named exports only);
 * - `@x/mcp-v2607/wire`: the wire rules a server and a client share (header
 *   codec, `Mcp-Name`, `x-mcp-header`, the request `_meta` envelope), with
 *   only the few validators the envelope needs (a small generated group);
 * - `@x/mcp-v2607/validators`: one validator per schema definition, for
 *   programs that want a bundler to keep only the ones they use;
 * - `@x/mcp-v2607/strict`: `validateStrict`, the same checks with unknown
 *   members refused, for conformance tests;
 * - `@x/mcp-v2607/members`: each definition's members and each side's
 *   methods as data, to reduce a message to what this revision defines;
 * - `@x/mcp-v2607/types`: the generated types alone (and the method table
 *   over them), including the schema's own `ResultType` (a plain `string`).
 *
 * @module @x/mcp-v2607
 */

// One type per schema definition (`#/$defs/*`), plus `JSONValue`. Each
// carries the schema's description as its doc comment.
export type * from "./generated/types.js";
// The method table: params and result types by method string (`ResultOf<"tools/call">`).
export type * from "./generated/methods.js";
export type { Validator } from "./generated/validators.js";

// Constants and the wire rules through their own entries: the built index.js imports those files.
export {
  ErrorCode,
  isCompleteResult,
  isInputRequiredResult,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  Method,
  PROTOCOL_VERSION,
  ResultType,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./constants-entry.js";
export {
  checkRequestHeaders,
  decodeHeaderValue,
  type EnvelopeCheck,
  encodeHeaderValue,
  type HeaderParam,
  MAX_HEADER_SCHEMA_DEPTH,
  MCP_NAME_FIELDS,
  mcpNameField,
  mcpParamHeaders,
  type ParamHeaders,
  paramHeaderText,
  type RequestEnvelope,
  type RequestMetaFields,
  readEnvelope,
  requestHeaders,
  requestMeta,
  standardHeaders,
  type ToolHeaderCheck,
  toolHeaderParams,
} from "./wire.js";
export {
  type DefinitionName,
  type DefinitionType,
  type ValidationProblem,
  type ValidationResult,
  validate,
} from "./generated/validate.js";
