// @x/server for the tasks bench (tasks-fanout.mjs): `node tasks.mjs` serves
// Streamable HTTP on 127.0.0.1, a free port, tasks in this process's memory;
// `node tasks.mjs --redis URL` keeps them in a RedisTaskStore and sends its
// notifications on a RedisEventBus there. Prints {"url": ...} as one line on stdout.
// Tools: `quick` (a task that completes at once), `touch` (notifyResourceUpdated(uri)).
import { listen, McpServer } from "@x/server";
import { tasks } from "@x/server/tasks";

const at = process.argv.indexOf("--redis");
const redisUrl = at === -1 ? undefined : process.argv[at + 1];
// Every run of the bench makes a task of the same (anonymous) principal: the per-principal bound is raised above its count.
const taskOptions = { pollIntervalMs: 100, maxTasksPerOwner: 5000 };
const options = { maxListenStreams: 5000 };
const closers = [];
if (redisUrl) {
  const { RedisEventBus, RedisTaskStore } = await import("@x/redis");
  const store = new RedisTaskStore({ url: redisUrl, prefix: "bench:" });
  const eventBus = new RedisEventBus({ url: redisUrl, prefix: "bench:" });
  taskOptions.store = store;
  options.eventBus = eventBus;
  closers.push(
    () => store.close(),
    () => eventBus.close(),
  );
}
const server = new McpServer({ name: "bench-tasks", version: "1.0.0" }, { ...options, tasks: tasks(taskOptions) });
server.registerResource("board", "memo://board", { mimeType: "text/plain" }, () => ({ text: "board" }));
server.registerTool("quick", { description: "A task that completes at once", taskSupport: "required" }, () => "done");
server.registerTool(
  "touch",
  {
    description: "Announces that a resource changed",
    inputSchema: { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] },
  },
  (args) => {
    server.notifyResourceUpdated(String(args.uri));
    return "touched";
  },
);
const running = await listen(server, { port: 0, host: "127.0.0.1" });
process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
process.on("SIGTERM", async () => {
  server.close();
  await running.close(500);
  await Promise.all(closers.map((close) => close()));
  process.exit(0);
});
