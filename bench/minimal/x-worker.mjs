// minimal/x.mjs naming no validator, bundled with the `worker` condition:
// the default there is the cfworker validator, carried by the bundle.
import { listen, McpServer } from "@x/server";

const server = new McpServer({ name: "minimal", version: "1.0.0" });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
await listen(server, { port: 0 });
