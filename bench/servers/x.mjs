// @x/server under test: `node x.mjs` serves Streamable HTTP on 127.0.0.1, a
// free port, and prints {"url": ...} as one line on stdout; `node x.mjs --stdio`
// serves stdio.
import { listen, McpServer, serveStdio } from "@x/server";
import { add, addInput, addOutput, echo, echoInput, SERVER_INFO } from "./tools.mjs";

const server = new McpServer(SERVER_INFO);
server.registerTool("echo", { description: "Echoes the text", inputSchema: echoInput }, echo);
server.registerTool("add", { description: "Adds two numbers", inputSchema: addInput, outputSchema: addOutput }, add);

if (process.argv.includes("--stdio")) {
  await serveStdio(server);
} else {
  const running = await listen(server, { port: 0, host: "127.0.0.1" });
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
  process.on("SIGTERM", () => running.close(500).then(() => process.exit(0)));
}
