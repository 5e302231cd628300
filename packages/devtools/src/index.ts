/**
 * `@x/devtools`: a devtools page for an `@x/server` MCP server. One call,
 * `attachDevtools(server)`, serves on loopback the live traffic of every
 * client (both eras, HTTP and stdio: the diagnostics channel
 * `x-mcp:traffic`) and forms to try every tool, prompt and resource through
 * an in-process client. Nothing of it is loaded by a server that does not
 * import it.
 * @module @x/devtools
 */
export { attachDevtools, type Devtools } from "./attach.js";
export { type Truncated, HEARTBEAT_MS, MAX_PAGE_BACKLOG, MAX_PAGES, PREVIEW_CHARS } from "./feed.js";
export { MAX_BODY_BYTES } from "./http.js";
export {
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_EVENTS,
  type DevtoolsHost,
  type DevtoolsOptions,
  MIN_EVENT_BYTES,
  MIN_TOKEN_LENGTH,
} from "./options.js";
export { ASK_TIMEOUT_MS, DEVTOOLS_CLIENT_NAME } from "./playground.js";
