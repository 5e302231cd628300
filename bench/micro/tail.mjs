#!/usr/bin/env node
// The latency tail at 256 connections (issue 43), on rulers that explain it:
// @x/server (servers/growth-x.mjs, as the cost-growth rows run it) and the
// bare responder (servers/bare-client.mjs, @x's own answer bytes) under the
// same autocannon load, in paired slices (@x, bare, then bare, @x, ...), each
// slice reporting
//
//   - p50/p99/max latency (ms, from autocannon's per-response times) and
//     their paired @x/bare ratios with the spread over the pairs: the wall
//     clock, moved by whatever else runs on the machine;
//   - per 10,000 requests: the server's GC pauses (count and ms, perf_hooks
//     'gc' entries through tail-probe.mjs) and CPU time (all its threads,
//     /proc schedstat); the largest GC pause and event-loop delay of the
//     slice: figures of the server's own work, which move little with load;
//   - the load generator's CPU per request and its share of a core, and the
//     spread of requests over connections (fairness).
//
//   node bench/micro/tail.mjs [--quick] [--slices=N] [--ms=MS] [--connections=C] [--x=SCRIPT]
//
// --x names another server script under bench/ for @x's side (an A/B of
// builds: a copy of growth-x.mjs importing a snapshot). Exports
// `benchTail(options)` resolving with {rows, spread, verdict, text}.
import { fork } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { captureAnswers, cpuUs, fmt, here as benchDir, median, renderTable, request, spread, startServer } from "../growth-common.mjs";
import { runMain, started, stop } from "../lifecycle.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const probe = join(here, "tail-probe.mjs");
const ECHO = request("tools/call", { name: "echo", arguments: { text: "hello" } });
/** The goal: @x's p99 at 256 connections within this multiple of bare's. */
const GOAL = 1.2;

// ------------------------------------------------------------------ the load process (--load)

/** The q-quantile (0..1) of sorted values, nearest rank. */
const quantile = (sorted, q) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
/** At most this many latencies are kept per slice; the rest only count. */
const MAX_LATENCIES = 4_000_000;

async function loadSlice({ url, connections, durationMs }) {
  const { default: autocannon } = await import("autocannon");
  const latencies = new Float64Array(MAX_LATENCIES);
  let kept = 0;
  const perClient = new Map();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, method: "POST", headers: ECHO.headers, body: ECHO.body, connections, pipelining: 1, timeout: 30, duration: durationMs / 1000 },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on("response", (client, statusCode, _bytes, responseTime) => {
      if (statusCode < 200 || statusCode >= 300) return;
      if (kept < latencies.length) latencies[kept++] = responseTime;
      perClient.set(client, (perClient.get(client) ?? 0) + 1);
    });
  });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const sorted = latencies.subarray(0, kept).sort();
  const counts = [...perClient.values()].sort((a, b) => a - b);
  return {
    requests: r.requests.total,
    errors: r.errors + r.timeouts + r.non2xx,
    rps: (r.requests.total / wallMs) * 1000,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[kept - 1],
    loadCpuUs: cpu.user + cpu.system,
    loadCoreShare: (cpu.user + cpu.system) / 1000 / wallMs,
    // Requests per connection: the fewest and the most, as fractions of the mean.
    fairness: { min: counts[0] / (kept / counts.length), max: counts.at(-1) / (kept / counts.length) },
  };
}

if (process.argv.includes("--load")) {
  process.on("message", async (message) => {
    try {
      process.send({ id: message.id, result: await loadSlice(message) });
    } catch (error) {
      process.send({ id: message.id, error: String(error?.stack ?? error) });
    }
  });
}

// ------------------------------------------------------------------ the driver

let nextId = 1;
function askLoad(child, message, ms) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`load process: no answer within ${ms} ms`)), ms);
    const onMessage = (m) => {
      if (m?.id !== id) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      if (m.error) reject(new Error(m.error));
      else resolve(m.result);
    };
    child.on("message", onMessage);
    child.send({ id, ...message });
  });
}

let nextSeq = 1;
function askProbe(child, type) {
  const seq = nextSeq++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} answer from PID ${child.pid} within 10 s`)), 10_000);
    const onMessage = (m) => {
      if (m?.type !== type || m.seq !== seq) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      resolve(m);
    };
    child.on("message", onMessage);
    child.send({ type, seq });
  });
}

/** One slice of load on one server: the load's figures and the server's, per 10,000 requests. */
async function slice(load, server, connections, durationMs) {
  await askProbe(server.child, "tail-reset");
  const cpu0 = cpuUs(server.child.pid);
  const r = await askLoad(load, { url: server.url, connections, durationMs }, durationMs + 60_000);
  const serverCpu = cpuUs(server.child.pid) - cpu0;
  // The observer's entries arrive a turn after the pause: asked after the load ended.
  const s = await askProbe(server.child, "tail-stats");
  const per10k = 10_000 / r.requests;
  return {
    ...r,
    serverUsPerRequest: serverCpu / r.requests,
    gcPer10k: s.gc.count * per10k,
    gcMsPer10k: s.gc.ms * per10k,
    gcByKind: s.gc.byKind,
    gcLargestMs: s.gc.largest[0] ?? 0,
    gcLargest: s.gc.largest,
    loopMaxMs: s.loop.maxMs,
    loopP99Ms: s.loop.p99Ms,
    loadUsPerRequest: r.loadCpuUs / r.requests,
  };
}

const FIGURES = [
  ["p50 ms", (r) => r.p50, 2],
  ["p99 ms", (r) => r.p99, 2],
  ["max ms", (r) => r.max, 1],
  ["p99 - p50 ms", (r) => r.p99 - r.p50, 2],
  ["req/s", (r) => r.rps, 0],
  ["server CPU µs/req", (r) => r.serverUsPerRequest, 1],
  ["GC pauses /10k req", (r) => r.gcPer10k, 1],
  ["GC ms /10k req", (r) => r.gcMsPer10k, 2],
  ["largest GC pause ms", (r) => r.gcLargestMs, 2],
  ["largest loop delay ms", (r) => r.loopMaxMs, 1],
  ["loop delay p99 ms", (r) => r.loopP99Ms, 1],
  ["load CPU µs/req", (r) => r.loadUsPerRequest, 1],
  ["load's share of a core", (r) => r.loadCoreShare, 2],
  ["fewest req/conn (x mean)", (r) => r.fairness.min, 2],
  ["most req/conn (x mean)", (r) => r.fairness.max, 2],
];

/**
 * Runs the tail ruler: `slices` pairs of `durationMs` slices at `connections`
 * connections, @x and bare alternating (the order swapped every pair).
 * Resolves with {rows, spread, verdict, text}: rows per figure
 * {figure, x, bare, ratio} (spreads: median, min, max over the slices; ratio
 * over the pairs), the spread of the p99 ratio, and the goal's verdict.
 */
export async function benchTail({ quick = false, slices, durationMs, connections = 256, xScript = "growth-x.mjs" } = {}) {
  slices ??= quick ? 2 : 6;
  durationMs ??= quick ? 1000 : 3000;
  const nodeFlags = ["--import", probe];
  const x = await startServer(xScript, [], { ipc: true, nodeFlags, label: `@x (${xScript})` });
  mkdirSync(join(benchDir, "results"), { recursive: true });
  const answersFile = join(benchDir, "results", "tail-answers.json");
  await captureAnswers(x.url, [{ key: "tools/call echo", req: ECHO, expect: '"text":"hello"' }], answersFile);
  const bare = await startServer("bare-client.mjs", [answersFile], { ipc: true, nodeFlags, label: "bare responder" });
  x.label = "@x";
  bare.label = "bare";
  const load = fork(fileURLToPath(import.meta.url), ["--load"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  started.add(load);
  load.on("exit", () => started.delete(load));
  const runs = { x: [], bare: [] };
  try {
    // Warm both (JIT, connection pools) before anything counts.
    for (const s of [x, bare]) await slice(load, s, connections, Math.min(durationMs, 1000));
    for (let i = 0; i < slices; i++) {
      const order = i % 2 === 0 ? [x, bare] : [bare, x];
      for (const s of order) {
        const r = await slice(load, s, connections, durationMs);
        if (r.errors) process.stderr.write(`tail: ${s.label} slice ${i}: ${r.errors} errors/timeouts/non-2xx\n`);
        runs[s === x ? "x" : "bare"].push(r);
      }
    }
  } finally {
    await stop(load);
    await stop(bare.child);
    await stop(x.child);
  }
  const rows = FIGURES.map(([figure, pick, digits]) => ({
    figure,
    digits,
    x: spread(runs.x.map(pick)),
    bare: spread(runs.bare.map(pick)),
    ratio: spread(runs.x.map((r, i) => pick(r) / pick(runs.bare[i]))),
  }));
  const p99 = rows.find((r) => r.figure === "p99 ms").ratio;
  const verdict = {
    goal: `p99 at ${connections} connections within ${GOAL}x bare's (median of ${slices} paired slices)`,
    met: p99.median <= GOAL,
    shown: `${p99.median.toFixed(2)}x (${p99.min.toFixed(2)}–${p99.max.toFixed(2)})`,
  };
  const cell = (s, d) => `${fmt(s.median, d)} (${fmt(s.min, d)}–${fmt(s.max, d)})`;
  const table = renderTable(
    ["figure (median, min–max)", "@x", "bare", "@x/bare paired"],
    rows.map((r) => [r.figure, cell(r.x, r.digits), cell(r.bare, r.digits), cell(r.ratio, 2)]),
  );
  const largest = (k) =>
    runs[k]
      .map((r) =>
        r.gcLargest
          .slice(0, 3)
          .map((d) => d.toFixed(1))
          .join("/"),
      )
      .join(", ");
  const text = [
    `tail at ${connections} connections, ${slices} paired slices of ${durationMs} ms (@x: ${xScript}):`,
    table,
    `largest 3 GC pauses per slice, ms: @x ${largest("x")}; bare ${largest("bare")}`,
    `GC by kind (median slice) @x: ${JSON.stringify(runs.x[runs.x.length >> 1].gcByKind)}`,
    `  bare: ${JSON.stringify(runs.bare[runs.bare.length >> 1].gcByKind)}`,
    `[${verdict.met ? "met" : "NOT met"}] ${verdict.goal}: ${verdict.shown}`,
  ].join("\n");
  return { rows, spread: p99, verdict, runs, text, median: median(runs.x.map((r) => r.p99)) };
}

if (!process.argv.includes("--load") && import.meta.url === `file://${process.argv[1]}`) {
  const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  runMain(async () => {
    const out = await benchTail({
      quick: process.argv.includes("--quick"),
      slices: flag("slices") && Number(flag("slices")),
      durationMs: flag("ms") && Number(flag("ms")),
      connections: flag("connections") ? Number(flag("connections")) : 256,
      xScript: flag("x") ?? "growth-x.mjs",
    });
    process.stdout.write(`${out.text}\n`);
  });
}
