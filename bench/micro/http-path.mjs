#!/usr/bin/env node
// In-process cost of one HTTP `tools/call` echo through @x/server's
// `node:http` handler, against the bare responder's handler, with no sockets
// and no load generator: Node's own IncomingMessage and ServerResponse on a
// socket stand-in that swallows the bytes. What the two handlers cost beyond
// that (parsing HTTP, the syscalls) is the same for both and left out, so the
// difference is what @x does per request beyond bare, with little noise.
//
//   node bench/micro/http-path.mjs [requests=200000] [in flight=32] [only=x|bare]   (after `pnpm build`)
//
// Prints CPU µs per request (process.cpuUsage, so GC included) for each,
// three alternating rounds. `only=x` (or `bare`) runs one of them, for
// `node --cpu-prof` or `--trace-gc`.
import { IncomingMessage, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import { createNodeHandler, McpServer } from "@x/server";
import { echo, echoInput, SERVER_INFO } from "../servers/tools.mjs";
import { headersOf, WORKLOADS } from "../workloads.mjs";

const N = Number(process.argv[2] ?? 200_000);
const WIDTH = Number(process.argv[3] ?? 32);
const ONLY = process.argv[4];
const workload = WORKLOADS.find((w) => w.key === "echo");
const body = Buffer.from(JSON.stringify(workload.message));
const headers = { host: "127.0.0.1:3000", "content-length": String(body.length), ...headersOf(workload) };
const rawHeaders = Object.entries(headers).flat();
const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

/** A socket stand-in: takes every write at once, reads nothing. */
class Sink extends Writable {
  bytes = 0;
  readable = false;
  _write(chunk, _encoding, callback) {
    this.bytes += chunk.length;
    callback();
  }
  _writev(chunks, callback) {
    for (const c of chunks) this.bytes += c.chunk.length;
    callback();
  }
  resume() {}
  pause() {}
  setTimeout() {}
}
// One per request in flight: a response writes only to the socket it is assigned.
const sinks = Array.from({ length: WIDTH }, () => new Sink().setMaxListeners(0));

/** One request/response pair as node:http hands it to a listener; resolves when the response finished. */
function exchange(listener, sink = sinks[0]) {
  const req = new IncomingMessage(sink);
  req.method = "POST";
  req.url = "/mcp";
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = "1.1";
  req.headers = lower;
  req.rawHeaders = rawHeaders;
  const res = new ServerResponse(req);
  res.shouldKeepAlive = true;
  res.assignSocket(sink);
  return new Promise((resolve) => {
    res.on("finish", () => {
      res.detachSocket(sink);
      res.emit("close");
      resolve(res.statusCode);
    });
    listener(req, res);
    req.push(body);
    req.complete = true;
    req.push(null);
  });
}

// The bare responder's listener (servers/bare.mjs), answering @x's bytes at the end of the turn as it does.
let answerBytes;
let due = [];
const writeDue = () => {
  const list = due;
  due = [];
  for (let i = 0; i < list.length; i += 2) {
    list[i].writeHead(200, { "content-type": "application/json" });
    list[i].end(list[i + 1]);
  }
};
const bare = (req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const text = answerBytes[0] + JSON.stringify(message.id) + answerBytes[1];
    if (due.length === 0) setImmediate(writeDue);
    due.push(res, text);
  });
};

const server = new McpServer(SERVER_INFO);
server.registerTool("echo", { description: "Echoes the text", inputSchema: echoInput }, echo);
const x = createNodeHandler(server, { path: "/mcp" });

// Capture @x's answer once for bare (as run.mjs does), and check it.
{
  const status = await exchange(x);
  if (status !== 200) throw new Error(`@x answered ${status}`);
  answerBytes = [
    '{"jsonrpc":"2.0","id":',
    ',"result":{"content":[{"type":"text","text":"hello"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"1.0.0"}}}}',
  ];
}

async function round(listener, n) {
  const start = process.cpuUsage();
  for (let done = 0; done < n; done += WIDTH) {
    const batch = [];
    for (let i = 0; i < WIDTH; i++) batch.push(exchange(listener, sinks[i]));
    await Promise.all(batch);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

await round(x, 20_000);
await round(bare, 20_000);
console.log(`node ${process.version}, ${N.toLocaleString("en")} requests per round, ${WIDTH} in flight`);
const rows = { x: [], bare: [] };
for (let r = 0; r < 3; r++) {
  for (const [name, listener] of [
    ["x", x],
    ["bare", bare],
  ]) {
    if (ONLY !== undefined && ONLY !== name) continue;
    const m = await round(listener, N);
    rows[name].push(m);
    console.log(`  ${name.padEnd(4)} ${m.toFixed(2).padStart(6)} µs CPU/request`);
  }
}
const median = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
if (ONLY !== undefined) process.exit(0);
const mx = median(rows.x);
const mb = median(rows.bare);
console.log(`median: x ${mx.toFixed(2)} µs, bare ${mb.toFixed(2)} µs, x - bare ${(mx - mb).toFixed(2)} µs per request`);
