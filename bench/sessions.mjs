// Memory of abandoned initialize-era sessions: opens N sessions (default
// 10 000) over Streamable HTTP against an @x/server child process (on
// 127.0.0.1, a free port, started with --expose-gc and stopped by its PID),
// each with one tools/call, abandons them, lets the idle timeout end them,
// and prints the server's heap (after a forced GC, asked over IPC) and RSS
// before, with the sessions open, and after. `pnpm bench:sessions`, or
// `node sessions.mjs --n 2000` for fewer. A figure to read, never asserted.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const IDLE_MS = 1000;
const at = process.argv.indexOf("--n");
const n = at === -1 ? 10_000 : Number(process.argv[at + 1]);

if (process.argv.includes("--serve")) {
  const { listen, McpServer } = await import("@x/server");
  const { echo, echoInput, SERVER_INFO } = await import("./servers/tools.mjs");
  const server = new McpServer(SERVER_INFO);
  server.registerTool("echo", { description: "Echoes the text", inputSchema: echoInput }, echo);
  const running = await listen(server, { port: 0, host: "127.0.0.1", maxSessions: n + 100, sessionIdleTimeoutMs: IDLE_MS });
  process.on("message", async (m) => {
    if (m !== "measure") return;
    for (let i = 0; i < 3; i++) {
      globalThis.gc();
      await new Promise((r) => setImmediate(r));
    }
    const { heapUsed, rss } = process.memoryUsage();
    process.send({ heapUsed, rss });
  });
  process.send({ url: running.url });
} else {
  await drive();
}

async function drive() {
  const child = fork(fileURLToPath(import.meta.url), ["--serve", "--n", String(n)], { execArgv: ["--expose-gc"] });
  const replies = [];
  let wake;
  child.on("message", (m) => {
    replies.push(m);
    wake?.();
  });
  const reply = async () => {
    while (replies.length === 0) await new Promise((r) => (wake = r));
    return replies.shift();
  };
  const { url } = await reply();
  const running = { url };
  const measure = async () => {
    child.send("measure");
    return reply();
  };
  const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

  async function post(body, headers = {}) {
    const res = await fetch(running.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { res, text };
  }

  async function openOne(i) {
    const { res } = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: `c${i}`, version: "1" } },
    });
    const headers = { "mcp-session-id": res.headers.get("mcp-session-id"), "mcp-protocol-version": "2025-11-25" };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "x" } } }, headers);
  }

  // Warm up (validators loaded, code paths compiled), and let those sessions expire too.
  for (let i = 0; i < 50; i++) await openOne(i);
  await new Promise((r) => setTimeout(r, IDLE_MS * 2.5));
  const before = await measure();
  for (let done = 0; done < n; ) {
    const batch = Math.min(50, n - done);
    await Promise.all(Array.from({ length: batch }, (_, k) => openOne(done + k)));
    done += batch;
  }
  const open = await measure();
  await new Promise((r) => setTimeout(r, IDLE_MS * 2.5));
  const after = await measure();
  child.kill("SIGTERM");

  console.log(`| initialize-era sessions | heap used (MiB, after GC) | RSS (MiB) |`);
  console.log(`|---|---:|---:|`);
  console.log(`| before | ${mib(before.heapUsed)} | ${mib(before.rss)} |`);
  console.log(
    `| ${n} opened and abandoned, each after one tools/call (the 1 s idle timeout already ends the earliest) | ${mib(open.heapUsed)} | ${mib(open.rss)} |`,
  );
  console.log(`| after the idle timeout ended them | ${mib(after.heapUsed)} | ${mib(after.rss)} |`);
  console.log(
    `heap retained after: ${mib(after.heapUsed - before.heapUsed)} MiB (${((after.heapUsed - before.heapUsed) / n) | 0} bytes per session)`,
  );
}
