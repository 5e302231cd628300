// tmcp under test (`tmcp` 1.20 with `@tmcp/transport-http`, `@tmcp/transport-stdio`
// and the valibot adapter), wired as its documentation shows: the tools
// declared with valibot schemas through `ValibotJsonSchemaAdapter`, the HTTP
// transport's `respond(Request)` mounted on node:http with
// `@remix-run/node-fetch-server`'s `createRequestListener` (the Node example
// of the transport's README), and `StdioTransport#listen()` for stdio. It
// serves both eras: 2026-07-28 per request, and 2025-11-25 on a session it
// keeps in its default in-memory session managers.
//
//   node tmcp.mjs           HTTP on 127.0.0.1, a free port; prints {"url": ...}
//   node tmcp.mjs --stdio   stdio
//
// The transport is given `path: "/mcp"` (what every other server answers on)
// and `allowedOrigins: []` (cross-origin requests refused, as the other
// servers' localhost guards do); both are options its README documents.
import { createServer } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { ValibotJsonSchemaAdapter } from "@tmcp/adapter-valibot";
import { McpServer } from "tmcp";
import * as v from "valibot";
import { add, echo, SERVER_INFO } from "./tools.mjs";

const server = new McpServer(SERVER_INFO, { adapter: new ValibotJsonSchemaAdapter(), capabilities: { tools: {} } });
server.tool({ name: "echo", description: "Echoes the text", schema: v.object({ text: v.string() }) }, echo);
server.tool(
  {
    name: "add",
    description: "Adds two numbers",
    schema: v.object({ a: v.number(), b: v.number() }),
    outputSchema: v.object({ sum: v.number() }),
  },
  add,
);

if (process.argv.includes("--stdio")) {
  const { StdioTransport } = await import("@tmcp/transport-stdio");
  new StdioTransport(server).listen();
} else {
  const { HttpTransport } = await import("@tmcp/transport-http");
  const transport = new HttpTransport(server, { path: "/mcp", allowedOrigins: [] });
  const http = createServer(
    createRequestListener(async (request) => (await transport.respond(request)) ?? new Response(null, { status: 404 })),
  );
  http.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` })}\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}
