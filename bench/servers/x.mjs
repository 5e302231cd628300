// @x/server under test: `node x.mjs` serves Streamable HTTP on 127.0.0.1, a
// free port, and prints {"url": ...} as one line on stdout; `node x.mjs --stdio`
// serves stdio. Both eras are served (its default). For the sessions rows:
// `--max-sessions=N` and `--idle-ms=N` set `maxSessions` and
// `sessionIdleTimeoutMs`; with an IPC channel it answers memory questions.
import { listen, McpServer, serveStdio } from "@x/server";
import { answerMemoryQuestions, numberFlag } from "./memory.mjs";
import { add, addInput, addOutput, echo, echoInput, SERVER_INFO } from "./tools.mjs";

const server = new McpServer(SERVER_INFO);
server.registerTool("echo", { description: "Echoes the text", inputSchema: echoInput }, echo);
server.registerTool("add", { description: "Adds two numbers", inputSchema: addInput, outputSchema: addOutput }, add);
answerMemoryQuestions();

if (process.argv.includes("--stdio")) {
  await serveStdio(server);
} else {
  const options = { port: 0, host: "127.0.0.1" };
  const maxSessions = numberFlag("max-sessions");
  const idleMs = numberFlag("idle-ms");
  if (maxSessions !== undefined) options.maxSessions = maxSessions;
  if (idleMs !== undefined) options.sessionIdleTimeoutMs = idleMs;
  const running = await listen(server, options);
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
  process.on("SIGTERM", () => running.close(500).then(() => process.exit(0)));
}
