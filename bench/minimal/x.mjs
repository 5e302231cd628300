// The smallest useful @x/server HTTP server: one tool with an input schema.
// It imports the core entry, the server without action tools (a server that
// imports "@x/server" instead carries the action-tool code: see bench/README.md).
import { listen, McpServer } from "@x/server/core";

const server = new McpServer({ name: "minimal", version: "1.0.0" });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
await listen(server, { port: 0 });
