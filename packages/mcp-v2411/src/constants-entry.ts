/**
 * `@x/mcp-v2411/constants`: the constants of revision 2024-11-05 without the
 * validators (importing the main entry also loads every generated
 * validator). Same layout as `@x/mcp-v2511/constants`.
 *
 * @module @x/mcp-v2411/constants
 */
export { ErrorCode, META_PROGRESS_TOKEN, Method, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./constants.js";
