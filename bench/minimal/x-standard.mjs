// minimal/x.mjs with its tool declared by a Standard Schema library (valibot,
// as minimal/tmcp.mjs declares it) and no JSON Schema validator named: its
// bundle must carry none (the library checks the arguments).
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { listen, McpServer } from "@x/server";
import * as v from "valibot";

const server = new McpServer({ name: "minimal", version: "1.0.0" });
server.registerTool("echo", { inputSchema: toStandardJsonSchema(v.object({ text: v.string() })) }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
await listen(server, { port: 0 });
