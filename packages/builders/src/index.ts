/**
 * `@x/builders`: pure functions that build valid results of revision
 * 2026-07-28 (tool results, `server/discover`, lists and reads with their
 * cache hints, prompts, completions, `input_required` results and the
 * requests they carry, JSON-RPC errors). No I/O and no state; a wrong
 * argument throws a `TypeError` or `RangeError` that names it. Each reads its
 * arguments once into a copy of plain JSON data before checking it (README,
 * "Plain data"), so what it returns is what `JSON.stringify` writes.
 *
 * @module @x/builders
 */
export { type CacheHintOptions, type CacheHints, type CacheScope, cacheHints, defaultCacheControl } from "./cache.js";
export { type CompleteResultOptions, completeResult, MAX_COMPLETION_VALUES } from "./completion.js";
export {
  type CallToolResultEntry,
  type ContentShorthand,
  callToolResult,
  contentBlock,
  type LinkShorthand,
  type ResourceShorthand,
} from "./content.js";
export {
  type CapabilityFlags,
  capabilities,
  type DiscoverResultOptions,
  discoverResult,
  type ServerInfoOptions,
  serverInfo,
} from "./discover.js";
export {
  headerMismatch,
  internalError,
  invalidParams,
  invalidRequest,
  jsonRpcError,
  methodNotFound,
  missingRequiredClientCapability,
  parseError,
  unsupportedProtocolVersion,
} from "./errors.js";
export {
  type DescribesTool,
  type ListResultOptions,
  listPromptsResult,
  listResourcesResult,
  listResourceTemplatesResult,
  listToolsResult,
} from "./lists.js";
export {
  createMessageRequest,
  elicitRequest,
  elicitUrlRequest,
  type FormElicitRequest,
  type InputRequiredResultOptions,
  inputRequiredResult,
  listRootsRequest,
  type RequestedSchema,
  type UrlElicitRequest,
} from "./mrtr.js";
export { type GetPromptResultOptions, getPromptResult, type PromptEntry } from "./prompts.js";
export {
  type BlobResourceContentsOptions,
  type ReadResourceContentsOptions,
  type ReadResourceFlatOptions,
  type ReadResourceResultOptions,
  type ResourceContents,
  type ResourceContentsOptions,
  readResourceResult,
  resourceContents,
  type TextResourceContentsOptions,
} from "./resources.js";
export { audio, embeddedResource, image, json, resourceLink, text } from "./quick.js";
