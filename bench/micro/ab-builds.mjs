#!/usr/bin/env node
// Builds of @x/server against each other on the in-process request paths of
// paths.mjs, in two ways that hold on a busy machine:
//
//   node bench/micro/ab-builds.mjs --snapshot NAME
//       copy the current build of @x/server (packages/server/dist) to bench/results/builds/NAME
//   node bench/micro/ab-builds.mjs --instructions NAME [http|stdio|session] [count count ...]
//       instructions per request, counted by valgrind in runs of each count of requests (default 8000 24000 40000):
//       the same within a few % however busy the machine is (a full collection falls in one step or the next)
//   node bench/micro/ab-builds.mjs A B [http|stdio|session] [rounds=20] [requests=40000]
//       CPU time per request of A and B in one process, alternating rounds, and their paired difference
//   node bench/micro/ab-builds.mjs --run NAME [http|stdio|session] N
//       N requests through one build after a check of its answer, nothing printed (what --instructions counts)
//
// session is the earlier era's echo on one 2025-11-25 session over HTTP.
// NAME is a snapshot, `current` (the workspace's @x/server as built now),
// `devtools` (the same with @x/devtools' page attached) or `bare` (the bare responder). On this 2-core VM, timings of one build in two
// processes a minute apart differ by more than most changes to the request
// path (CPU time per request moved by ±30% with the machine's spells), and
// even rounds alternating in one process spread by several µs; the
// instruction count does not move with them, which is why it is the ruler
// for changes to the request path (bench/README.md, "The ruler", item 6).
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cpuPerRequest, driver, median } from "./paths.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const builds = join(here, "..", "results", "builds");
const mode = process.argv[2];

/** The module and kind of a build name. */
async function load(name) {
  if (name === "bare") return { which: "bare", mod: undefined };
  if (name === "current") return { which: "x", mod: await import("@x/server") };
  if (name === "devtools") {
    // The current build with the devtools page attached: every request published on x-mcp:traffic and kept.
    const { attachDevtools } = await import("@x/devtools");
    return { which: "x", mod: await import("@x/server"), prepare: (server) => attachDevtools(server, { print: false }) };
  }
  const entry = join(builds, name, "dist", "index.js");
  if (!existsSync(entry)) throw new Error(`no snapshot ${name}: run --snapshot ${name} first`);
  return { which: "x", mod: await import(pathToFileURL(entry).href) };
}

const runOf = async (name, path) => {
  const { which, mod, prepare } = await load(name);
  return driver(which, path, mod, prepare);
};

/**
 * V8 made to run the same way every time: no concurrent compiler or GC
 * threads, whose timing would change what runs. (--predictable-gc-schedule
 * as well made the counts less steady, not more: a fixed heap growth ran
 * more full collections, each a lump in the count of the requests it fell among.)
 */
const V8_FLAGS = ["--single-threaded", "--predictable"];

/**
 * The environment of a counted process: this one's without
 * `NODE_EXTRA_CA_CERTS`, whose certificates every Node start would parse
 * (about 416 M instructions here, as much as the rest of the start): the
 * same in every count, so it cancels in their differences, but it made
 * each valgrind run seconds longer.
 */
export function countedEnv() {
  const { NODE_EXTRA_CA_CERTS: _certs, ...env } = process.env;
  return env;
}

/**
 * The instructions valgrind counts for a whole process that
 * sends `n` requests through build `name` on `path` (start-up and warm-up
 * included: the difference of two counts is the cost of the requests between
 * them). V8 runs with {@link V8_FLAGS}, so the count of the same run
 * repeats; what still moves it is where full collections fall, a few % over
 * 8,000 HTTP requests. A count is of that mode, for comparing builds, not a
 * timing. Rejects when valgrind is missing or the run fails.
 */
export function countInstructions(name, path, n) {
  return countScript(fileURLToPath(import.meta.url), ["--run", name, path, String(n)], `${name} ${path}`);
}

/**
 * Valgrind's tool and its arguments for a count of the instructions a process
 * runs: cachegrind with its cache simulation off counts the same
 * instructions as callgrind (`Ir`) without the call graph, in about two
 * thirds of the time. Its total line is read by {@link readCount}.
 */
export const COUNTER = ["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"];

/** The instruction count in valgrind's stderr of a {@link COUNTER} run, or undefined. */
export function readCount(stderr) {
  const m = /I\s+refs:\s*([\d,]+)/.exec(stderr);
  return m ? Number(m[1].replace(/,/g, "")) : undefined;
}

/**
 * The instructions valgrind ({@link COUNTER}) counts for a whole process of
 * `script` with `args` (its `--run` mode), V8 under {@link V8_FLAGS};
 * `what` names the run in the error. Rejects when valgrind is missing or
 * the run fails. Shared by this file and large-path.mjs.
 */
export function countScript(script, args, what) {
  return new Promise((resolve, reject) => {
    const valgrind = [...COUNTER, process.execPath, ...V8_FLAGS];
    const child = spawn("valgrind", [...valgrind, script, ...args], { stdio: ["ignore", "ignore", "pipe"], env: countedEnv() });
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      const count = readCount(err);
      if (code !== 0 || count === undefined) reject(new Error(`valgrind run of ${what} failed (${code}): ${err.slice(-500)}`));
      else resolve(count);
    });
  });
}

const isMain = process.argv[1] === fileURLToPath(import.meta.url);
if (isMain && mode === "--snapshot") {
  const name = process.argv[3];
  if (!name || name === "bare" || name === "current") throw new Error("usage: ab-builds.mjs --snapshot NAME (not bare or current)");
  const to = join(builds, name);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  const from = join(root, "packages", "server");
  cpSync(join(from, "dist"), join(to, "dist"), { recursive: true });
  cpSync(join(from, "package.json"), join(to, "package.json"));
  // Its dependencies resolve where the package's own do.
  symlinkSync(join(from, "node_modules"), join(to, "node_modules"), "dir");
  console.log(`snapshot of packages/server/dist in ${to}`);
  process.exit(0);
} else if (isMain && mode === "--run") {
  const [name, path = "http", n = "10000"] = process.argv.slice(3);
  const run = await runOf(name, path);
  await run(Number(n));
  process.exit(0);
} else if (isMain && mode === "--instructions") {
  const [name, path = "http", ...given] = process.argv.slice(3);
  if (!name) throw new Error("usage: ab-builds.mjs --instructions NAME [http|stdio|session] [count count ...]");
  const counts = (given.length >= 2 ? given : ["8000", "24000", "40000"]).map(Number);
  // Two runs at a time (2 cores); each neighbouring pair of counts is one figure.
  const totals = [];
  for (let i = 0; i < counts.length; i += 2)
    totals.push(...(await Promise.all(counts.slice(i, i + 2).map((n) => countInstructions(name, path, n)))));
  const per = totals.slice(1).map((total, i) => (total - totals[i]) / (counts[i + 1] - counts[i]));
  const all = (totals.at(-1) - totals[0]) / (counts.at(-1) - counts[0]);
  const shown = (v) => Math.round(v).toLocaleString("en");
  console.log(
    `${name} ${path}: ${shown(all)} instructions/request over ${counts[0]}..${counts.at(-1)} requests (per step: ${per.map(shown).join(", ")})`,
  );
  process.exit(0);
} else if (isMain) {
  const [a, b, path = "http", roundsText = "20", requestsText = "40000"] = process.argv.slice(2);
  if (!a || !b || a === b) throw new Error("usage: ab-builds.mjs A B [http|stdio|session] [rounds] [requests] (two different builds)");
  const rounds = Number(roundsText);
  const n = Number(requestsText);
  const runs = { [a]: await runOf(a, path), [b]: await runOf(b, path) };
  for (const run of Object.values(runs)) await cpuPerRequest(run, n / 2);
  const rows = { [a]: [], [b]: [] };
  for (let r = 0; r < rounds; r++) for (const name of r % 2 === 0 ? [a, b] : [b, a]) rows[name].push(await cpuPerRequest(runs[name], n));
  const diffs = rows[b].map((v, i) => v - rows[a][i]);
  console.log(`node ${process.version}, ${path}, ${rounds} rounds of ${n.toLocaleString("en")} requests per build`);
  for (const name of [a, b])
    console.log(`  ${name.padEnd(12)} median ${median(rows[name]).toFixed(2)} µs CPU/request (min ${Math.min(...rows[name]).toFixed(2)})`);
  const lower = diffs.filter((d) => d < 0).length;
  console.log(
    `  ${b} - ${a}: median ${median(diffs).toFixed(2)} µs (min ${Math.min(...diffs).toFixed(2)}, max ${Math.max(...diffs).toFixed(2)}), ${lower} of ${rounds} rounds lower`,
  );
  process.exit(0);
}
