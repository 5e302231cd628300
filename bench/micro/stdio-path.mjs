#!/usr/bin/env node
// In-process cost of pipelined stdio `tools/call` echo through @x/server's
// serveStdio, against the bare responder's line handler: both read the same
// chunks of 64 request lines from a stream and write into a stream that
// swallows the bytes; no pipes, no child process, no load generator (paths.mjs).
//
//   node bench/micro/stdio-path.mjs [requests=400000] [only=x|bare]   (after `pnpm build`)
//
// Prints CPU µs per request (process.cpuUsage, GC included), three alternating rounds.
import * as x from "@x/server";
import { BATCH, bareStdio, cpuPerRequest, echoServer, median, stdioDriver, xStdio } from "./paths.mjs";

const N = Number(process.argv[2] ?? 400_000);
const ONLY = process.argv[3];

const runs = { x: await stdioDriver(xStdio(x, echoServer(x))), bare: await stdioDriver(bareStdio) };
for (const run of Object.values(runs)) await cpuPerRequest(run, 40 * BATCH);
const rows = { x: [], bare: [] };
for (let r = 0; r < 3; r++) {
  for (const name of ["x", "bare"]) {
    if (ONLY !== undefined && ONLY !== name) continue;
    rows[name].push(await cpuPerRequest(runs[name], N));
    console.log(`  ${name.padEnd(4)} ${rows[name].at(-1).toFixed(2).padStart(6)} µs CPU/request`);
  }
}
if (ONLY === undefined) {
  const mx = median(rows.x);
  const mb = median(rows.bare);
  console.log(
    `median: x ${mx.toFixed(2)} µs, bare ${mb.toFixed(2)} µs, x - bare ${(mx - mb).toFixed(2)} µs, bare/x ${(mb / mx).toFixed(2)}`,
  );
}
process.exit(0);
