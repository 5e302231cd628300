#!/usr/bin/env node
// In-process cost of one HTTP `tools/call` echo through @x/server's
// `node:http` handler, against the bare responder's handler, with no sockets
// and no load generator: Node's own IncomingMessage and ServerResponse on a
// socket stand-in that swallows the bytes (paths.mjs). What the two handlers
// cost beyond that (parsing HTTP, the syscalls) is the same for both and left
// out, so the difference is what @x does per request beyond bare, with little noise.
//
//   node bench/micro/http-path.mjs [requests=200000] [in flight=32] [only=x|bare]   (after `pnpm build`)
//
// Prints CPU µs per request (process.cpuUsage, so GC included) for each,
// three alternating rounds. `only=x` (or `bare`) runs one of them, for
// `node --cpu-prof` or `--trace-gc`.
import * as x from "@x/server";
import { bareHttpListener, cpuPerRequest, echoServer, httpDriver, median, xHttpListener } from "./paths.mjs";

const N = Number(process.argv[2] ?? 200_000);
const WIDTH = Number(process.argv[3] ?? 32);
const ONLY = process.argv[4];

const runs = {
  x: await httpDriver(xHttpListener(x, echoServer(x)), WIDTH),
  bare: await httpDriver(bareHttpListener(), WIDTH),
};
await cpuPerRequest(runs.x, 20_000);
await cpuPerRequest(runs.bare, 20_000);
console.log(`node ${process.version}, ${N.toLocaleString("en")} requests per round, ${WIDTH} in flight`);
const rows = { x: [], bare: [] };
for (let r = 0; r < 3; r++) {
  for (const name of ["x", "bare"]) {
    if (ONLY !== undefined && ONLY !== name) continue;
    const m = await cpuPerRequest(runs[name], N);
    rows[name].push(m);
    console.log(`  ${name.padEnd(4)} ${m.toFixed(2).padStart(6)} µs CPU/request`);
  }
}
if (ONLY !== undefined) process.exit(0);
const mx = median(rows.x);
const mb = median(rows.bare);
console.log(`median: x ${mx.toFixed(2)} µs, bare ${mb.toFixed(2)} µs, x - bare ${(mx - mb).toFixed(2)} µs per request`);
