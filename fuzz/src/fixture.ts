/**
 * The server under test: a real @x/server process with a few tools.
 *
 *   node --expose-gc dist/fixture.js            Streamable HTTP on 127.0.0.1, a free port
 *   node --expose-gc dist/fixture.js --stdio    stdio
 *
 * `--client-request-timeout-ms N` sets how long the server waits for the
 * client's answer to its questions (default 1500, so that unanswered asks of
 * the fuzzer end soon; the session flood passes the server's own default).
 *
 * Over HTTP it prints {"url": ...} as one line on stdout once listening. With
 * an IPC channel (the driver forks it so) it answers {type: "memory", gc}
 * with its process.memoryUsage(), after a forced GC when asked: memory is
 * read beside the protocol, so no fuzzed message can reach it.
 *
 * With --stdio it also serves fresh stdio connections on a loopback TCP
 * port (`serveStdio` of a new fixture server over each socket: the same
 * transport and framing), announced as {type: "side", port} on the IPC
 * channel: a stdio opening can be played once per connection, and the
 * process's own stdin/stdout give only one.
 */
import { createServer } from "node:net";
import { Writable } from "node:stream";
import { callToolResult } from "@x/builders";
import { listen, McpServer, serveStdio } from "@x/server";
import { ENDPOINT_PATH, PROMPT, RESOURCE_URI, ROUTE_INPUT_SCHEMA, TEMPLATE_PREFIX, TOOLS } from "./config.js";

/** `--client-request-timeout-ms`, else 1500. */
function clientRequestTimeoutMs(): number {
  const k = process.argv.indexOf("--client-request-timeout-ms");
  const ms = k === -1 ? 1500 : Number(process.argv[k + 1]);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`--client-request-timeout-ms must be an integer >= 0, got ${process.argv[k + 1]}`);
  return ms;
}

/** Builds the fixture server. */
function createFixtureServer(): McpServer {
  const server = new McpServer(
    { name: "x-fuzz-fixture", version: "0.0.0" },
    { logging: true, toolTimeoutMs: 10_000, clientRequestTimeoutMs: clientRequestTimeoutMs() },
  );

  server.registerTool(
    TOOLS.echo,
    {
      description: "Returns its arguments",
      // Exact integers: the probe checks every digit comes back.
      bigIntegers: "bigint",
      inputSchema: { type: "object", properties: { text: { type: "string" } } },
    },
    (args) =>
      callToolResult([
        ["text", JSON.stringify(args)],
        ["_data", args],
      ]),
  );
  server.registerTool<{ a: number; b: number }>(
    TOOLS.add,
    {
      description: "Adds two numbers",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    },
    ({ a, b }) => callToolResult([["data", { sum: a + b }]]),
  );
  server.registerTool(
    TOOLS.route,
    {
      description: "Arguments mirrored in headers",
      inputSchema: ROUTE_INPUT_SCHEMA,
    },
    (args) =>
      callToolResult([
        ["text", JSON.stringify(args)],
        ["_data", args],
      ]),
  );
  server.registerTool<{ topic?: string }>(
    TOOLS.ask,
    { description: "Asks the user a question", inputSchema: { type: "object", properties: { topic: { type: "string" } } } },
    async ({ topic }, ctx) => {
      const answer = await ctx.elicit(`Your name, for ${topic ?? "the fuzzer"}?`, {
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
      });
      if (answer.action !== "accept") return callToolResult([["text", `no answer (${answer.action})`]]);
      return callToolResult([["text", `hello ${String(answer.content?.name)}`]]);
    },
  );
  server.registerTool<{ ms?: number; steps?: number }>(
    TOOLS.slow,
    {
      description: "Sleeps, reporting progress",
      inputSchema: {
        type: "object",
        properties: { ms: { type: "integer", minimum: 0, maximum: 2000 }, steps: { type: "integer", minimum: 0, maximum: 20 } },
      },
    },
    async ({ ms = 10, steps = 2 }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await new Promise((resolve) => setTimeout(resolve, ms / Math.max(1, steps)));
        if (ctx.signal.aborted) break;
        ctx.progress(i, steps);
        ctx.log("info", { step: i });
      }
      return `slept ${ms} ms`;
    },
  );
  server.registerResource("fuzz", RESOURCE_URI, { mimeType: "text/plain" }, () => "fuzz resource");
  server.registerResourceTemplate("item", `${TEMPLATE_PREFIX}{id}`, { mimeType: "application/json" }, (_uri, { id }) =>
    JSON.stringify({ id }),
  );
  server.registerPrompt(
    PROMPT,
    { description: "Greets someone", arguments: [{ name: "name", required: true }] },
    ({ name }) => `Say hello to ${name}`,
  );
  return server;
}

/** Answers the driver's memory questions on the IPC channel, when there is one. */
function answerMemoryQuestions(): void {
  if (!process.send) return;
  process.on("message", (message: { type?: string; gc?: boolean; seq?: number }) => {
    if (message?.type !== "memory") return;
    const gc = (globalThis as { gc?: () => void }).gc;
    if (message.gc && gc) {
      gc();
      gc();
    }
    process.send?.({ type: "memory", seq: message.seq, gced: Boolean(message.gc && gc), usage: process.memoryUsage() });
  });
  // The channel must not keep a stdio server alive once its input ended.
  process.channel?.unref();
}

/** Serves a fresh stdio connection per TCP connection on 127.0.0.1; resolves with the port, announced on the IPC channel. */
async function serveSideConnections(): Promise<void> {
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  const side = createServer({ allowHalfOpen: true }, (socket) => {
    socket.on("error", () => socket.destroy());
    // Each connection is a process of its own as far as the protocol goes: its own server, its own era.
    serveStdio(createFixtureServer(), { input: socket, output: socket, errors: quiet }).then(
      () => socket.end(),
      () => socket.destroy(),
    );
  });
  await new Promise<void>((resolve) => side.listen(0, "127.0.0.1", resolve));
  // The side port must not keep the process alive once its own stdin ended.
  side.unref();
  const address = side.address();
  process.send?.({ type: "side", port: typeof address === "object" && address ? address.port : 0 });
}

async function main(): Promise<void> {
  const server = createFixtureServer();
  answerMemoryQuestions();
  if (process.argv.includes("--stdio")) {
    await serveSideConnections();
    await serveStdio(server);
    process.exit(0);
  }
  const running = await listen(server, { port: 0, host: "127.0.0.1", path: ENDPOINT_PATH });
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
  const stop = () => {
    running.close(500).then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.on("disconnect", stop);
}

await main();
