// An MCP client: lists a server's tools and, given a tool's name, calls it.
//   node client.js [url] [tool] [arguments as JSON]
//   node client.js http://127.0.0.1:3000/mcp add '{"a":2,"b":3}'
// The URL defaults to http://127.0.0.1:3000/mcp (the http template's server).
import { Client, isMcpClientError, StreamableHttpTransport } from "@x/client";

const [url = "http://127.0.0.1:3000/mcp", tool, args = "{}"] = process.argv.slice(2);

const client = new Client({ name: "my-mcp-client", version: "0.1.0" });
try {
  // Speaks 2026-07-28 or the initialize era, whichever the server does.
  await client.connect(new StreamableHttpTransport(url));
  console.log(`${client.serverInfo?.name ?? "server"} (${client.protocolVersion})`);
  for (const { name, description } of await client.listAllTools()) console.log(`  ${name}${description ? `: ${description}` : ""}`);
  if (tool) {
    const result = await client.callTool(tool, JSON.parse(args));
    // A tool that fails is not an exception: its result says isError and its content says why.
    for (const block of result.content) console.log(block.type === "text" ? block.text : JSON.stringify(block));
    if (result.structuredContent !== undefined) console.log(JSON.stringify(result.structuredContent));
    if (result.isError) process.exitCode = 1;
  }
} catch (error) {
  console.error(isMcpClientError(error) ? `${error.message} (code ${error.code})` : error);
  process.exitCode = 1;
} finally {
  await client.close();
}
