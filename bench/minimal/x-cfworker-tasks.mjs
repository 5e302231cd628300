// minimal/x-cfworker.mjs with the tasks plug-in and its tool allowing tasks:
// what the plug-in adds to a server is this bundle less that one.
import { cfworkerValidator, listen, McpServer } from "@x/server";
import { tasks } from "@x/server/tasks";

const server = new McpServer({ name: "minimal", version: "1.0.0" }, { validator: cfworkerValidator, tasks: tasks() });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, taskSupport: "optional" },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
await listen(server, { port: 0 });
