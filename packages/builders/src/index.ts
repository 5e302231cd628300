export { type CacheHintOptions, type CacheHints, type CacheScope, cacheHints, defaultCacheControl } from "./cache.js";
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
export { type DescribesTool, type ListResultOptions, listToolsResult } from "./lists.js";
