#!/usr/bin/env node
// An MCP server over stdio: a client starts this file as a process and speaks
// JSON-RPC on its stdin and stdout. stdout is the protocol's channel, so
// anything meant for a person goes to stderr (console.error).
import { McpServer, serveStdio } from "@x/server";

const server = new McpServer({ name: "my-mcp-server", version: "0.1.0" });

server.registerTool(
  "add",
  {
    description: "Adds two numbers",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { sum: { type: "number" } },
      required: ["sum"],
    },
  },
  ({ a, b }) => ({
    resultType: "complete",
    content: [{ type: "text", text: String(a + b) }],
    structuredContent: { sum: a + b },
  }),
);

await serveStdio(server);
