// The official @modelcontextprotocol/server under test, wired as its
// documentation shows: createMcpHandler(factory) mounted on node:http with
// toNodeHandler and the localhost Host/Origin guards from
// @modelcontextprotocol/node, tools declared with zod.
//
//   node official.mjs                 a new McpServer per request (the documented factory)
//   node official.mjs --once          one McpServer built at start, returned by the factory
//   node official.mjs --stdio         serveStdio(factory)
import { createServer } from "node:http";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";
import { add, echo, SERVER_INFO } from "./tools.mjs";

function build() {
  const server = new McpServer(SERVER_INFO);
  server.registerTool("echo", { description: "Echoes the text", inputSchema: z.object({ text: z.string() }) }, echo);
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    add,
  );
  return server;
}

if (process.argv.includes("--stdio")) {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  serveStdio(build);
} else {
  let factory = build;
  if (process.argv.includes("--once")) {
    const shared = build();
    factory = () => shared;
  }
  const handler = createMcpHandler(factory);
  const nodeHandler = toNodeHandler(handler);
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void nodeHandler(req, res);
  });
  http.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` })}\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}
