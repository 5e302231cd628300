// The smallest useful tmcp HTTP server, as its docs show: one tool with a
// valibot input schema (the valibot adapter), the HTTP transport mounted on
// node:http with @remix-run/node-fetch-server.
import { createServer } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { HttpTransport } from "@tmcp/transport-http";
import { McpServer } from "tmcp";
import * as v from "valibot";

const server = new McpServer(
  { name: "minimal", version: "1.0.0" },
  { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool({ name: "echo", description: "Echoes the text", schema: v.object({ text: v.string() }) }, ({ text }) => ({
  content: [{ type: "text", text }],
}));
const transport = new HttpTransport(server, { path: "/mcp", allowedOrigins: [] });
createServer(createRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 }))).listen(
  0,
  "127.0.0.1",
);
