// An MCP server over Streamable HTTP, on 127.0.0.1 only.
// PORT picks the port (default 3000; 0 picks a free one); the URL is printed once listening.
import { listen, McpServer } from "@x/server";

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

const running = await listen(server, { port: Number(process.env.PORT ?? 3000) });
console.log(running.url);
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => void running.close());
