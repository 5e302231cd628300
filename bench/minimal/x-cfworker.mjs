// minimal/x.mjs with the validator that generates no code: its bundle must carry no ajv.
import { cfworkerValidator, listen, McpServer } from "@x/server";

const server = new McpServer({ name: "minimal", version: "1.0.0" }, { validator: cfworkerValidator });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
await listen(server, { port: 0 });
