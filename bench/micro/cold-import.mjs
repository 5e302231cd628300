#!/usr/bin/env node
// Issue 43's cold-import goal on two rulers, per package: milliseconds over
// an empty Node (wall time of fresh processes, noisy on a busy machine) and
// instructions over an empty module (valgrind, repeating to within 0.01%),
// with the verdict against 8 ms. Also the instructions of an import plus the
// first `tools/call` of @x/server, so that work moved from the import to the
// first request shows.
//
//   node bench/micro/cold-import.mjs [--runs N] [--no-instructions] [ENTRY ...]
//   (default: @x/server and @x/client, resolved from bench/; an ENTRY may be
//   a file path, e.g. a build kept elsewhere, for an A/B)
import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { ECHO, lineOf } from "../workloads.mjs";
import { countCode, countEmpty, entryUrl, PACKAGES } from "./import-instructions.mjs";

const here = dirname(fileURLToPath(import.meta.url));

/** The goal of issue 43: a cold import at most this many ms over an empty Node start. */
export const GOAL_MS = 8;

const median = (values) => [...values].sort((p, q) => p - q)[values.length >> 1];

/** Wall ms of one fresh `node` with `args`, and what it printed. */
function run(args) {
  const start = process.hrtime.bigint();
  const out = execFileSync(process.execPath, args, { cwd: here, encoding: "utf8" });
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, out };
}

/** Imports `url`, printing the ms the `import()` took inside the process. */
const timedImport = (url) =>
  `const t = performance.now(); await import(${JSON.stringify(url)}); process.stdout.write(String(performance.now() - t));`;

/**
 * An import of @x/server at `url` and its first `tools/call` over stdio on
 * in-memory streams: an echo tool with a JSON Schema input (compiled on that
 * call), one request line, exit on the answer.
 */
const firstCall = (url) => `
import { PassThrough } from "node:stream";
const mod = await import(${JSON.stringify(url)});
const server = new mod.McpServer({ name: "bench", version: "1.0.0" });
server.registerTool("echo", { description: "Echoes the text", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({ content: [{ type: "text", text }] }));
const input = new PassThrough();
const output = new PassThrough();
let answer = "";
output.on("data", (chunk) => {
  answer += chunk;
  if (!answer.includes("\\n")) return;
  if (!answer.includes('"text":"hello"')) { console.error(answer); process.exit(1); }
  process.exit(0);
});
mod.serveStdio(server, { input, output });
input.write(${JSON.stringify(lineOf(ECHO, 1))});
`;

/**
 * Measures each of `entries`: `runs` rounds of fresh processes, each round an
 * empty `node -e ""` then an import of every entry (the order of the entries
 * turning with the round); with `instructions`, valgrind counts too.
 * Resolves to `{ rows, spread, verdict }`: per entry `ms` (median of the
 * paired differences with the round's empty Node), `min`/`max` of them,
 * `inProcessMs` (median time of the `import()` inside the process),
 * `instructions` over an empty module and, for @x/server, `firstCall` (import
 * plus the first `tools/call`, over an empty module); `spread` the widest
 * max-min in ms; `verdict` per entry against {@link GOAL_MS}: "met", "NOT met", or
 * "unsteady" when a round's empty Node took longer than its import.
 */
export async function coldImport({ entries = PACKAGES, runs = 20, instructions = true } = {}) {
  const urls = entries.map(entryUrl);
  const diffs = urls.map(() => []);
  const inside = urls.map(() => []);
  for (let r = 0; r < runs; r++) {
    const empty = run(["-e", ""]).ms;
    for (let k = 0; k < urls.length; k++) {
      const i = (k + r) % urls.length;
      const { ms, out } = run(["--input-type=module", "-e", timedImport(urls[i])]);
      diffs[i].push(ms - empty);
      inside[i].push(Number(out));
    }
  }
  const base = instructions ? await countEmpty() : undefined;
  const rows = [];
  for (let i = 0; i < urls.length; i++) {
    const row = {
      entry: entries[i],
      ms: median(diffs[i]),
      min: Math.min(...diffs[i]),
      max: Math.max(...diffs[i]),
      inProcessMs: median(inside[i]),
      runs: diffs[i],
    };
    if (base !== undefined) {
      row.instructions = (await countCode(`await import(${JSON.stringify(urls[i])})`)) - base;
      if (/server/.test(entries[i])) row.firstCall = (await countCode(firstCall(urls[i]))) - base;
    }
    rows.push(row);
  }
  const spread = Math.max(...rows.map((row) => row.max - row.min));
  // A run where an empty Node outlasted an import measured the machine, not the import.
  const judge = (row) => (row.min < 0 ? "unsteady (an empty Node outlasted an import)" : row.ms > GOAL_MS ? "NOT met" : "met");
  const verdict = Object.fromEntries(rows.map((row) => [row.entry, judge(row)]));
  return { rows, spread, verdict };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--runs");
  const runs = at === -1 ? 20 : Number(args.splice(at, 2)[1]);
  const noCount = args.indexOf("--no-instructions");
  if (noCount !== -1) args.splice(noCount, 1);
  const entries = args.length > 0 ? args : PACKAGES;
  const load = (await import("node:os")).loadavg()[0].toFixed(2);
  const { rows, verdict } = await coldImport({ entries, runs, instructions: noCount === -1 });
  console.log(`cold import over an empty Node, ${runs} interleaved rounds (load average ${load} before)`);
  for (const row of rows) {
    let line = `${row.entry}: ${row.ms.toFixed(1)} ms (${row.min.toFixed(1)} to ${row.max.toFixed(1)}), in-process ${row.inProcessMs.toFixed(1)} ms`;
    if (row.instructions !== undefined) line += `; +${(row.instructions / 1e6).toFixed(2)} M instructions`;
    if (row.firstCall !== undefined) line += `, with the first tools/call +${(row.firstCall / 1e6).toFixed(2)} M`;
    console.log(`${line}; goal <= ${GOAL_MS} ms: ${verdict[row.entry]}`);
  }
}
