// minimal/x-standard.mjs served by the 2026-07-28-only entry: a Standard
// Schema tool (valibot) and no JSON Schema validator named, so its bundle
// carries none, and none of the initialize era.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { listen, McpServer } from "@x/server/v2607";
import * as v from "valibot";

const server = new McpServer({ name: "minimal", version: "1.0.0" });
server.registerTool("echo", { inputSchema: toStandardJsonSchema(v.object({ text: v.string() })) }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
await listen(server, { port: 0 });
