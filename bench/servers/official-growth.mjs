// The official @modelcontextprotocol/server for the tools/list growth rows:
// `node official-growth.mjs --tools=N` registers N tools (echo and N-1
// fillers with the same zod input schema as growth-x.mjs's), one McpServer
// built once and returned by createMcpHandler's factory (a server per
// request would register N tools per request), on node:http with the
// localhost guards, as official.mjs does. Prints {"url": ...}.
import { createServer } from "node:http";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";
import { numberFlag } from "./memory.mjs";
import { echo, SERVER_INFO } from "./tools.mjs";

const count = numberFlag("tools") ?? 10;
const server = new McpServer(SERVER_INFO);
server.registerTool("echo", { description: "Echoes the text", inputSchema: z.object({ text: z.string() }) }, echo);
for (let i = 0; i < count - 1; i++) {
  server.registerTool(
    `t${i}`,
    { description: `Filler tool number ${i}`, inputSchema: z.object({ text: z.string(), n: z.number().int().optional() }) },
    echo,
  );
}
const nodeHandler = toNodeHandler(createMcpHandler(() => server));
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
