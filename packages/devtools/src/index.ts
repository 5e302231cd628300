/**
 * `@x/devtools`: a devtools page for an `@x/server` MCP server (placeholder).
 * @packageDocumentation
 */
export { APP_CSS, APP_JS } from "./ui-bundle.generated.js";
