// @x/server for the cost-growth rows (growth.mjs): one process that lives
// through every phase of them, so that its memory can be followed from
// start to idle. Two McpServer instances share the process and the same
// registrations: `url` lists tools in pages (the default pageSize, 100),
// `urlOnePage` with a pageSize above any count (one page). Prints
// {"url", "urlOnePage"} as one line on stdout. It needs an IPC channel and
// --expose-gc for the memory questions (memory.mjs); over IPC it also:
//
//   {type: "tools", count}   registers (or removes) filler tools t0..t(count-1)
//                            on both instances; answers the ms it took
//   {type: "cpu"}            answers process.cpuUsage() (µs)
//
// Tools: echo; text-K and struct-K for K in 1, 100, 1000 (a K KB text block,
// or K KB of structuredContent checked against an outputSchema); ask (one
// elicitation, then a greeting); touch (notifyResourceUpdated(uri), answers
// the ms it took). Resource: memo://board.
import { listen, McpServer } from "@x/server";
import { registerLargeTools } from "./large-tools.mjs";
import { registerBoard } from "./board.mjs";
import { answerMemoryQuestions } from "./memory.mjs";
import { echo, echoInput, SERVER_INFO } from "./tools.mjs";

const SIZES_KB = [1, 100, 1000];
const NAME_SCHEMA = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const FILLER_INPUT = { type: "object", properties: { text: { type: "string" }, n: { type: "integer" } }, required: ["text"] };

const servers = [
  new McpServer(SERVER_INFO, { maxListenStreams: 20_000 }),
  new McpServer(SERVER_INFO, { maxListenStreams: 20_000, pageSize: 1_000_000 }),
];
for (const server of servers) {
  server.registerTool("echo", { description: "Echoes the text", inputSchema: echoInput }, echo);
  registerLargeTools(server, SIZES_KB);
  server.registerTool("ask", { description: "Asks for a name, then greets" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", NAME_SCHEMA);
    return answer.action === "accept" ? `Hello, ${answer.content?.name}!` : `No name (${answer.action})`;
  });
  registerBoard(server);
}

let fillers = 0;
function setFillers(count) {
  const t0 = performance.now();
  for (; fillers < count; fillers++) {
    for (const server of servers) {
      server.registerTool(`t${fillers}`, { description: `Filler tool number ${fillers}`, inputSchema: FILLER_INPUT }, echo);
    }
  }
  for (; fillers > count; ) {
    fillers--;
    for (const server of servers) server.removeTool(`t${fillers}`);
  }
  return performance.now() - t0;
}

answerMemoryQuestions();
process.on("message", (message) => {
  if (message?.type === "tools") {
    try {
      const ms = setFillers(message.count);
      process.send({ type: "tools", seq: message.seq, ms });
    } catch (error) {
      process.send({ type: "tools", seq: message.seq, error: String(error?.stack ?? error) });
    }
  } else if (message?.type === "cpu") {
    process.send({ type: "cpu", seq: message.seq, usage: process.cpuUsage() });
  }
});

// Open listen streams count against maxConcurrentRequests (default 1024): raised above the listen rows' count.
const running = await Promise.all(servers.map((server) => listen(server, { port: 0, host: "127.0.0.1", maxConcurrentRequests: 20_000 })));
process.stdout.write(`${JSON.stringify({ url: running[0].url, urlOnePage: running[1].url })}\n`);
process.on("SIGTERM", async () => {
  for (const server of servers) server.close();
  await Promise.all(running.map((r) => r.close(500)));
  process.exit(0);
});
