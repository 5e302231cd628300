// The smallest useful @x/server HTTP server: one tool with an input schema.
// Action tools are a plug-in on @x/server/actions, so this bundle carries none of them.
import { listen, McpServer } from "@x/server";

const server = new McpServer({ name: "minimal", version: "1.0.0" });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
await listen(server, { port: 0 });
