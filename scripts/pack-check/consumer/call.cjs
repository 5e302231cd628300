// CommonJS consumer: the same real call as call.mjs, through require().
// Bounded: exits 1 after 20 s.
setTimeout(() => {
  console.log("FAIL call (CJS): no answer within 20 s");
  process.exit(1);
}, 20_000).unref();

async function main() {
  const { Client, StreamableHttpTransport } = require("@x/client");
  const { listen, McpServer } = require("@x/server");
  const server = new McpServer({ name: "pack-check", version: "1.0.0" });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    },
    async ({ a, b }) => ({ resultType: "complete", content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  const running = await listen(server, { host: "127.0.0.1", port: 0 });
  try {
    const client = new Client({ name: "pack-check-client", version: "1.0.0" });
    await client.connect(new StreamableHttpTransport(running.url));
    try {
      const result = await client.callTool("add", { a: 2, b: 40 });
      if (result.structuredContent?.sum !== 42) throw new Error(`unexpected answer ${JSON.stringify(result)}`);
      console.log(
        `ok   call (CJS): tools/call add(2, 40) = ${result.structuredContent.sum} over ${running.url} (${client.protocolVersion})`,
      );
    } finally {
      await client.close();
    }
  } finally {
    await running.close(1000);
  }
}

main().catch((error) => {
  console.log(`FAIL call (CJS): ${error.code ?? ""} ${error.stack}`);
  process.exitCode = 1;
});
