/**
 * `@x/mcp-v2607/constants`: the constants and result guards of revision
 * 2026-07-28 without the validators. Importing the package's main entry
 * also loads every generated validator (about 20 ms at start-up); code that
 * needs only `PROTOCOL_VERSION`, `Method`, the `_meta` keys, `ErrorCode` or
 * the `resultType` guards imports them from here.
 *
 * @module @x/mcp-v2607/constants
 */
export {
  ErrorCode,
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
} from "./constants.js";
export { isCompleteResult, isInputRequiredResult } from "./guards.js";
