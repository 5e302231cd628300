#!/usr/bin/env node
// In-process cost of pipelined stdio `tools/call` echo through @x/server's
// serveStdio, against the bare responder's line handler: both read the same
// chunks of 64 request lines from a stream and write into a stream that
// swallows the bytes; no pipes, no child process, no load generator.
//
//   node bench/micro/stdio-path.mjs [requests=400000] [only=x|bare]   (after `pnpm build`)
//
// Prints CPU µs per request (process.cpuUsage, GC included), three alternating rounds.
import { PassThrough, Writable } from "node:stream";
import { McpServer, serveStdio } from "@x/server";
import { echo, echoInput, SERVER_INFO } from "../servers/tools.mjs";
import { ECHO, lineOf } from "../workloads.mjs";

const N = Number(process.argv[2] ?? 400_000);
const ONLY = process.argv[3];
const BATCH = 64;
const ANSWER = [
  '{"jsonrpc":"2.0","id":',
  ',"result":{"content":[{"type":"text","text":"hello"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"1.0.0"}}}}',
];

/** A stream that counts answer lines and wakes `onLines` with each count. */
class Counter extends Writable {
  lines = 0;
  onLines = () => {};
  _write(chunk, _encoding, callback) {
    const text = typeof chunk === "string" ? chunk : chunk.toString("latin1");
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.lines++;
    this.onLines(this.lines);
    callback();
  }
}

function x() {
  const server = new McpServer(SERVER_INFO);
  server.registerTool("echo", { description: "Echoes the text", inputSchema: echoInput }, echo);
  const input = new PassThrough();
  const output = new Counter();
  serveStdio(server, { input, output });
  return { input, output };
}

// servers/bare.mjs's stdio loop, on the same streams.
function bare() {
  const input = new PassThrough();
  const output = new Counter();
  let rest = "";
  input.setEncoding("utf8");
  input.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) if (line !== "") out += `${ANSWER[0]}${JSON.stringify(JSON.parse(line).id)}${ANSWER[1]}\n`;
    if (out !== "") output.write(out);
  });
  return { input, output };
}

let nextId = 1;
/** Writes `count` requests in chunks of BATCH lines, each after the previous chunk's answers came back. */
function drive({ input, output }, count) {
  return new Promise((resolve) => {
    const target = output.lines + count;
    const send = () => {
      let chunk = "";
      for (let i = 0; i < BATCH; i++) chunk += lineOf(ECHO, nextId++);
      input.write(chunk);
    };
    output.onLines = (lines) => {
      if (lines >= target) resolve();
      else if ((lines - (target - count)) % BATCH === 0) send();
    };
    send();
  });
}

async function round(pair, n) {
  const start = process.cpuUsage();
  await drive(pair, n);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const pairs = { x: x(), bare: bare() };
for (const p of Object.values(pairs)) await round(p, 40 * BATCH);
const rows = { x: [], bare: [] };
const n = Math.ceil(N / BATCH) * BATCH;
for (let r = 0; r < 3; r++) {
  for (const name of ["x", "bare"]) {
    if (ONLY !== undefined && ONLY !== name) continue;
    rows[name].push(await round(pairs[name], n));
    console.log(`  ${name.padEnd(4)} ${rows[name].at(-1).toFixed(2).padStart(6)} µs CPU/request`);
  }
}
const median = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
if (ONLY === undefined) {
  const mx = median(rows.x);
  const mb = median(rows.bare);
  console.log(
    `median: x ${mx.toFixed(2)} µs, bare ${mb.toFixed(2)} µs, x - bare ${(mx - mb).toFixed(2)} µs, bare/x ${(mb / mx).toFixed(2)}`,
  );
}
process.exit(0);
