/**
 * The demo client (`pnpm demo`): starts the example server
 * (examples/dist/server.js) as a child process, connects @x/client to it,
 * and walks through discover, tools/list and a few tool calls. When the
 * server offers a tool that asks questions, the questions are answered at
 * this terminal through the suspension bridge (`waitFor`).
 *
 *   node dist/client.js            over Streamable HTTP (the server on a free port)
 *   node dist/client.js --stdio    over stdio (the client spawns the server)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StdioTransport, StreamableHttpTransport, type Transport } from "@x/client";
import { type DemoIO, runDemo, terminalWaitFor } from "./client-demo.js";

const serverEntry = fileURLToPath(new URL("./server.js", import.meta.url));

/** A terminal: lines from stdin (buffered, so piped answers are not lost), prompts to stdout. */
function terminal(): DemoIO & { close(): void } {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    print: (line) => process.stdout.write(`${line}\n`),
    ask: async (question) => {
      process.stdout.write(question);
      const next = await lines.next();
      if (next.done) {
        process.stdout.write("\n");
        return undefined;
      }
      if (!process.stdin.isTTY) process.stdout.write(`${next.value}\n`);
      return next.value;
    },
    close: () => rl.close(),
  };
}

async function startHttpServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [serverEntry, "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  let seen = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk) => {
      seen += String(chunk);
      const match = /listening on (\S+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the example server exited with code ${code}: ${seen.trim()}`)));
  });
  return { url, child };
}

const io = terminal();
const useStdio = process.argv.includes("--stdio");
let child: ChildProcess | undefined;
let transport: Transport;
if (useStdio) {
  transport = new StdioTransport({ command: process.execPath, args: [serverEntry, "--stdio"], stderr: "ignore" });
} else {
  const started = await startHttpServer();
  child = started.child;
  io.print(`Started the example server (PID ${child.pid}) at ${started.url}`);
  transport = new StreamableHttpTransport(started.url);
}

const client = new Client(
  { name: "x-demo-client", version: "0.1.0", title: "@x demo client" },
  { waitFor: terminalWaitFor(io), tasks: true },
);
let code = 0;
try {
  await client.connect(transport);
  await runDemo(client, io);
} catch (error) {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  code = 1;
} finally {
  await client.close();
  io.close();
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
}
process.exit(code);
