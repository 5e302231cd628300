// minimal/x-cfworker.mjs served by the 2026-07-28-only entry: no initialize
// handshake, no sessions; its bundle must carry no ajv and none of the
// initialize era (the McpServer of @x/server/v2607 has no plug-in for it).
import { cfworkerValidator, listen, McpServer } from "@x/server/v2607";

const server = new McpServer({ name: "minimal", version: "1.0.0" }, { validator: cfworkerValidator });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
await listen(server, { port: 0 });
