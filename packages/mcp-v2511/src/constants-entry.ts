/**
 * `@x/mcp-v2511/constants`: the constants of revision 2025-11-25 without the
 * validators (importing the main entry also loads every generated
 * validator). Same layout as `@x/mcp-v2607/constants`.
 *
 * @module @x/mcp-v2511/constants
 */
export { ErrorCode, META_PROGRESS_TOKEN, META_RELATED_TASK, Method, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./constants.js";
