/**
 * The `McpServer` of `@x/server`: the server of `server.ts` with the
 * `initialize` era plugged in (`revisions/initialize/plugin.ts`), so that it
 * serves both eras. `@x/server/v2607` exports the server without it.
 */
import { initializeEra } from "./revisions/initialize/plugin.js";
import type { RevisionPlugin } from "./revisions/plugin.js";
import { McpServer as PerRequestServer } from "./server.js";

/**
 * An MCP server for protocol revision 2026-07-28 and for the versions of
 * the `initialize` handshake (2025-11-25, 2025-06-18, 2025-03-26,
 * 2024-11-05; `ServerOptions.protocolVersions` chooses among them): a client
 * of the earlier era opens a session with `initialize`, and every request of
 * its session is answered by the same registrations.
 *
 * Register tools, prompts, resources and resource templates, then serve it
 * with a transport: `createFetchHandler` / `createNodeHandler` / `listen`
 * (Streamable HTTP) or `serveStdio`. The same object serves every request
 * and every transport at once. Registering or removing anything at run time
 * notifies `subscriptions/listen` streams and the sessions that asked to
 * hear of it. Action tools plug in from `@x/server/actions`
 * (`registerActionTool(server, tool)`).
 *
 * @example
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
 *   ({ text }) => String(text));
 */
export class McpServer extends PerRequestServer {
  /** @internal */
  protected static override revisionPlugins(): readonly RevisionPlugin[] {
    return [initializeEra];
  }
}
