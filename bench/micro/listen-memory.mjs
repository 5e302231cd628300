// Heap per idle subscriptions/listen stream: @x/server against the bare
// node:http SSE server (servers/sse-bare.mjs). Each server runs in its own
// process (--expose-gc, an IPC channel); this process opens N streams, each
// its own socket, waits for every acknowledgement, then asks the server for
// its heap used after two forced GCs, and reads the growth per stream (the
// level before is read after a warm-up: 200 streams opened and closed).
// With --snapshot, @x also writes a heap snapshot before and after opening
// the streams, and the objects that grew are listed by constructor name
// (count and self size per stream).
//
//   node bench/micro/listen-memory.mjs [--count=2000] [--snapshot] [--only=x|bare]
import { fork } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];

/** The @x server: one resource, the limits raised past the stream count; answers memory and snapshot questions. */
async function serveX() {
  const { listen, McpServer } = await import("@x/server");
  const v8 = await import("node:v8");
  const server = new McpServer({ name: "listen-memory", version: "0.0.0" }, { maxListenStreams: 20_000 });
  server.registerResource("board", "memo://board", { mimeType: "text/plain" }, () => ({ text: "board" }));
  const running = await listen(server, { port: 0, host: "127.0.0.1", maxConcurrentRequests: 20_000 });
  process.on("message", (m) => {
    if (m?.type === "memory") {
      globalThis.gc();
      globalThis.gc();
      process.send({ type: "memory", usage: process.memoryUsage() });
    } else if (m?.type === "snapshot") {
      globalThis.gc();
      globalThis.gc();
      process.send({ type: "snapshot", file: v8.writeHeapSnapshot(m.file) });
    }
  });
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
}

function start(script, args) {
  const child = fork(script, args, { execArgv: ["--expose-gc"], stdio: ["ignore", "pipe", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.indexOf("\n");
      if (line !== -1) resolve({ child, url: JSON.parse(out.slice(0, line)).url });
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${code})`)));
  });
}

function ask(child, message) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m?.type !== message.type) return;
      child.off("message", on);
      resolve(m);
    };
    child.on("message", on);
    child.send(message);
  });
}

const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const headers = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "subscriptions/listen",
};
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** Opens one stream; resolves with its request once acknowledged (rejects after 30 s or on a non-200). */
function openStream(url) {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "subscriptions/listen",
    params: { notifications: { resourceSubscriptions: ["memo://board"] }, _meta: META },
  });
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("not acknowledged within 30 s")), 30_000);
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        agent,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        if (res.statusCode !== 200) {
          clearTimeout(timer);
          reject(new Error(`answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding("utf8");
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
          if (text.includes("notifications/subscriptions/acknowledged")) {
            clearTimeout(timer);
            text = "";
            resolve(req);
          }
        });
        res.on("error", () => {});
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function openAll(url, count) {
  const reqs = [];
  for (let i = 0; i < count; i += 200) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 200); j++) batch.push(openStream(url));
    reqs.push(...(await Promise.all(batch)));
  }
  return reqs;
}

/** Node counts and self sizes by constructor name (object nodes) or node type. */
function census(file) {
  const snap = JSON.parse(readFileSync(file, "utf8"));
  const f = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [iType, iName, iSize] = [f.indexOf("type"), f.indexOf("name"), f.indexOf("self_size")];
  const stride = f.length;
  const out = new Map();
  const nodes = snap.nodes;
  for (let i = 0; i < nodes.length; i += stride) {
    const type = types[nodes[i + iType]];
    const name = type === "object" || type === "closure" ? `${type}:${snap.strings[nodes[i + iName]]}` : `(${type})`;
    const e = out.get(name) ?? { count: 0, size: 0 };
    e.count++;
    e.size += nodes[i + iSize];
    out.set(name, e);
  }
  return out;
}

async function measure(label, server, count, snapshot) {
  // A warm-up first: the code compiled for the first streams is not a cost per stream.
  for (const req of await openAll(server.url, Math.min(200, count))) req.destroy();
  await new Promise((r) => setTimeout(r, 500));
  const before = (await ask(server.child, { type: "memory" })).usage.heapUsed;
  const files = snapshot
    ? [join(tmpdir(), `lm-before-${process.pid}.heapsnapshot`), join(tmpdir(), `lm-after-${process.pid}.heapsnapshot`)]
    : [];
  if (snapshot) await ask(server.child, { type: "snapshot", file: files[0] });
  const reqs = await openAll(server.url, count);
  await new Promise((r) => setTimeout(r, 300));
  const after = (await ask(server.child, { type: "memory" })).usage.heapUsed;
  console.log(`${label}: ${count} streams, heap +${((after - before) / 1024 / count).toFixed(2)} KB/stream (after GC)`);
  if (snapshot) {
    await ask(server.child, { type: "snapshot", file: files[1] });
    const a = census(files[0]);
    const b = census(files[1]);
    const rows = [];
    for (const [name, e] of b) {
      const o = a.get(name) ?? { count: 0, size: 0 };
      if (e.count - o.count >= count * 0.9 || e.size - o.size >= count * 32)
        rows.push({ name, n: (e.count - o.count) / count, bytes: (e.size - o.size) / count });
    }
    rows.sort((x, y) => y.bytes - x.bytes);
    let total = 0;
    for (const r of rows) total += r.bytes;
    console.log(`  per stream, by constructor (count, self bytes); listed total ${total.toFixed(0)} B`);
    for (const r of rows.slice(0, 40)) console.log(`  ${r.n.toFixed(2).padStart(6)} ${r.bytes.toFixed(0).padStart(6)} B  ${r.name}`);
    if (process.argv.includes("--keep")) console.log(`  snapshots kept: ${files.join(" ")}`);
    else for (const file of files) rmSync(file, { force: true });
  }
  for (const req of reqs) req.destroy();
}

async function main() {
  const count = Number(flag("count") ?? 2000);
  const only = flag("only");
  const snapshot = process.argv.includes("--snapshot");
  if (only !== "bare") {
    const x = await start(fileURLToPath(import.meta.url), ["--serve-x"]);
    try {
      await measure("@x", x, count, snapshot);
    } finally {
      x.child.removeAllListeners("exit");
      x.child.kill();
    }
  }
  if (only !== "x") {
    const bare = await start(fileURLToPath(import.meta.url), ["--serve-bare"]);
    try {
      await measure("bare", bare, count, snapshot);
    } finally {
      bare.child.removeAllListeners("exit");
      bare.child.kill();
    }
  }
}

/** The bare server (servers/sse-bare.mjs, which answers memory questions), plus snapshot questions. */
async function serveBare() {
  const v8 = await import("node:v8");
  process.on("message", (m) => {
    if (m?.type !== "snapshot") return;
    globalThis.gc();
    globalThis.gc();
    process.send({ type: "snapshot", file: v8.writeHeapSnapshot(m.file) });
  });
  await import(join(here, "../servers/sse-bare.mjs"));
}

if (process.argv.includes("--serve-x")) await serveX();
else if (process.argv.includes("--serve-bare")) await serveBare();
else await main();
