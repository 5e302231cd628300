#!/usr/bin/env node
// `pnpm bench [--quick] [--no-build] [--cpu-prof]`: the same workloads against
// @x/server, the official @modelcontextprotocol/server and a bare responder,
// in one invocation. Prints one table and writes the raw results as JSON
// under bench/results/. See bench/README.md for how to read it.
import { fork, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { ECHO, headersOf, lineOf, WORKLOADS } from "./workloads.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const args = process.argv.slice(2).filter((a) => a !== "--");
const quick = args.includes("--quick");
const profile = args.includes("--cpu-prof");

/** Run lengths. The full run stays under about five minutes on two cores. */
const CONFIG = quick
  ? { durationMs: 150, warmupMs: 150, repetitions: 1, concurrency: [1, 32], stdioMs: 200, stdioWindow: 64, coldRuns: 3 }
  : { durationMs: 1500, warmupMs: 1500, repetitions: 3, concurrency: [1, 32], stdioMs: 2000, stdioWindow: 64, coldRuns: 10 };

/** The servers under test: `script` and its arguments, relative to bench/servers. */
const HTTP_SERVERS = [
  { key: "x", label: "@x/server", args: ["x.mjs"] },
  { key: "officialPerRequest", label: "official (server per request)", args: ["official.mjs"] },
  { key: "officialOnce", label: "official (server built once)", args: ["official.mjs", "--once"] },
  { key: "bare", label: "bare node:http", args: ["bare.mjs", "ANSWERS", "--http"] },
];
const STDIO_SERVERS = [
  { key: "x", args: ["x.mjs", "--stdio"] },
  { key: "official", args: ["official.mjs", "--stdio"] },
  { key: "bare", args: ["bare.mjs", "ANSWERS", "--stdio"] },
];
/** What a cold import loads for each column. */
const IMPORTS = {
  x: "@x/server",
  official: "@modelcontextprotocol/server",
  bare: "node:http",
  xClient: "@x/client",
  officialClient: "@modelcontextprotocol/client",
};

const T0 = performance.now();
const log = (text) => process.stderr.write(`${((performance.now() - T0) / 1000).toFixed(1).padStart(6)}s ${text}\n`);
const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- build

function build() {
  if (args.includes("--no-build")) return;
  log("bench: building @x/server and its dependencies (turbo)...");
  const turbo = join(root, "node_modules", ".bin", "turbo");
  const result = spawnSync(turbo, ["run", "build", "--filter=@x/bench^...", "--output-logs=errors-only"], {
    cwd: root,
    stdio: ["ignore", 2, 2],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
  });
  if (result.status !== 0) {
    log("bench: the build failed (run `pnpm build`, or pass --no-build to use the dist/ folders as they are)");
    process.exit(1);
  }
}

// ---------------------------------------------------------------- processes

const started = new Set();

/** Starts a server script; resolves with its child process and, for HTTP, the URL it printed. */
function startHttpServer(server, answersFile) {
  const argv = server.args.map((a) => (a === "ANSWERS" ? answersFile : a)).filter((a) => a !== "--http");
  const flags = profile
    ? ["--cpu-prof", `--cpu-prof-dir=${join(here, "results", "profiles")}`, `--cpu-prof-name=${server.key}-http.cpuprofile`]
    : [];
  const child = spawn(process.execPath, [...flags, join(here, "servers", argv[0]), ...argv.slice(1)], {
    cwd: here,
    stdio: ["ignore", "pipe", "inherit"],
  });
  started.add(child);
  child.on("exit", () => started.delete(child));
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`${server.label} did not start within 15 s`)), 15_000);
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const nl = text.indexOf("\n");
      if (nl !== -1) {
        clearTimeout(timer);
        resolve({ child, url: JSON.parse(text.slice(0, nl)).url });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${server.label} exited with ${code} before it listened`));
    });
  });
}

/** Stops a server by its PID: SIGTERM, then SIGKILL after two seconds. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(child.pid, "SIGTERM");
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
  }, 2000);
  await exited;
  clearTimeout(timer);
}

function rssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    const ps = spawnSync("ps", ["-o", "rss=", "-p", String(pid)]);
    return Number(String(ps.stdout).trim()) / 1024;
  }
}

// ---------------------------------------------------------------- HTTP

async function post(url, workload) {
  const response = await fetch(url, { method: "POST", headers: headersOf(workload), body: JSON.stringify(workload.message) });
  return { status: response.status, text: await response.text() };
}

/** Asks @x/server each workload once and keeps its answers for the bare responder (the id cut out). */
async function captureAnswers(url, file) {
  const answers = {};
  for (const workload of WORKLOADS) {
    const { status, text } = await post(url, workload);
    const at = text.indexOf('"id":1');
    if (status !== 200 || at === -1) throw new Error(`@x/server answered ${workload.name} with ${status}: ${text.slice(0, 200)}`);
    answers[`${workload.message.method} ${workload.message.params.name ?? ""}`] = [text.slice(0, at + 5), text.slice(at + 6)];
  }
  writeFileSync(file, JSON.stringify(answers));
  return answers;
}

let loadProcess;
let nextLoadId = 1;
const loadWaiters = new Map();

function startLoadProcess() {
  loadProcess = fork(join(here, "load.mjs"), [], { cwd: here, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  started.add(loadProcess);
  loadProcess.on("exit", () => started.delete(loadProcess));
  loadProcess.on("message", (message) => {
    const waiter = loadWaiters.get(message.id);
    loadWaiters.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.result);
  });
}

/** One bounded autocannon run, in the load process. */
function loadRun(url, workload, connections, durationMs) {
  const id = nextLoadId++;
  return new Promise((resolve, reject) => {
    loadWaiters.set(id, { resolve, reject });
    loadProcess.send({ id, url, headers: headersOf(workload), body: JSON.stringify(workload.message), connections, durationMs });
  });
}

async function benchHttp() {
  const answersFile = join(here, "results", "bare-answers.json");
  const servers = {};
  const x = HTTP_SERVERS[0];
  servers.x = { ...x, ...(await startHttpServer(x)) };
  await captureAnswers(servers.x.url, answersFile);
  await Promise.all(
    HTTP_SERVERS.slice(1).map(async (s) => {
      servers[s.key] = { ...s, ...(await startHttpServer(s, answersFile)) };
    }),
  );
  const results = {};
  const checks = {};
  for (const s of Object.values(servers)) {
    results[s.key] = {};
    checks[s.key] = {};
    for (const workload of WORKLOADS) {
      const { status, text } = await post(s.url, workload);
      const ok = status === 200 && text.includes(workload.expect);
      checks[s.key][workload.key] = ok ? "ok" : `answered ${status}: ${text.slice(0, 300)}`;
      if (!ok) log(`bench: ${s.label} answered ${workload.name} wrongly: ${status} ${text.slice(0, 300)}`);
    }
    s.rssIdle = rssMiB(s.child.pid);
  }
  log("bench: warming up the HTTP servers...");
  for (const s of Object.values(servers)) await loadRun(s.url, ECHO, 32, CONFIG.warmupMs);

  for (let rep = 0; rep < CONFIG.repetitions; rep++) {
    for (const workload of WORKLOADS) {
      for (const connections of CONFIG.concurrency) {
        for (const s of Object.values(servers)) {
          if (checks[s.key][workload.key] !== "ok") continue;
          const cell = `${workload.key} c=${connections}`;
          const r = await loadRun(s.url, workload, connections, CONFIG.durationMs);
          results[s.key][cell] ??= [];
          results[s.key][cell].push(r);
          log(
            `bench: [${rep + 1}/${CONFIG.repetitions}] ${s.label.padEnd(30)} ${workload.name.padEnd(22)} c=${String(connections).padEnd(3)} ${Math.round(r.rps)} req/s  mean ${r.mean.toFixed(2)} ms${r.non2xx || r.errors ? `  non-2xx ${r.non2xx} errors ${r.errors}` : ""}`,
          );
        }
      }
    }
  }
  const rss = {};
  for (const s of Object.values(servers)) {
    rss[s.key] = { idleMiB: s.rssIdle, afterLoadMiB: rssMiB(s.child.pid) };
    await stop(s.child);
  }
  return { results, checks, rss, answersFile };
}

// ---------------------------------------------------------------- stdio

/** Pipelined tools/call over stdio: keeps `window` requests in flight for `durationMs`. */
async function stdioRun(server, answersFile) {
  const argv = server.args.map((a) => (a === "ANSWERS" ? answersFile : a));
  const flags = profile
    ? ["--cpu-prof", `--cpu-prof-dir=${join(here, "results", "profiles")}`, `--cpu-prof-name=${server.key}-stdio.cpuprofile`]
    : [];
  const child = spawn(process.execPath, [...flags, join(here, "servers", argv[0]), ...argv.slice(1)], {
    cwd: here,
    stdio: ["pipe", "pipe", "inherit"],
  });
  started.add(child);
  child.on("exit", () => started.delete(child));
  child.stdin.on("error", () => {});
  const window = CONFIG.stdioWindow;
  let nextId = 1;
  let received = 0;
  let inFlight = 0;
  let sending = false;
  let first = "";
  let onFirst;
  const firstAnswer = new Promise((resolve) => {
    onFirst = resolve;
  });
  const refill = () => {
    if (!sending || inFlight > window / 2) return;
    let batch = "";
    while (inFlight < window) {
      batch += lineOf(ECHO, nextId++);
      inFlight++;
    }
    child.stdin.write(batch);
  };
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    if (received === 0 && first.length < 4096) first += chunk;
    let n = 0;
    for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) n++;
    if (n > 0 && received === 0) onFirst(first.slice(0, first.indexOf("\n")));
    received += n;
    inFlight -= n;
    refill();
  });
  // One request first: check the answer.
  child.stdin.write(lineOf(ECHO, nextId++));
  inFlight = 1;
  const answer = await Promise.race([firstAnswer, sleep(15_000).then(() => "")]);
  const ok = answer.includes(ECHO.expect);
  let result = { ok, answer: answer.slice(0, 300) };
  if (ok) {
    // Warm up, then measure.
    for (const ms of [CONFIG.warmupMs, CONFIG.stdioMs]) {
      const before = received;
      const t0 = performance.now();
      sending = true;
      refill();
      await sleep(ms);
      sending = false;
      const seconds = (performance.now() - t0) / 1000;
      result = { ok, rps: (received - before) / seconds, requests: received - before, seconds };
      while (inFlight > 0 && child.exitCode === null) await sleep(5);
    }
    result.rssAfterLoadMiB = rssMiB(child.pid);
  }
  child.stdin.end();
  await Promise.race([new Promise((resolve) => child.once("exit", resolve)), sleep(1000)]);
  await stop(child);
  return result;
}

async function benchStdio(answersFile) {
  const results = {};
  for (let rep = 0; rep < CONFIG.repetitions; rep++) {
    for (const s of STDIO_SERVERS) {
      const r = await stdioRun(s, answersFile);
      results[s.key] ??= [];
      results[s.key].push(r);
      log(
        `bench: [${rep + 1}/${CONFIG.repetitions}] stdio ${s.key.padEnd(10)} ${r.ok ? `${Math.round(r.rps)} req/s` : `wrong answer: ${r.answer}`}`,
      );
    }
  }
  return results;
}

// ---------------------------------------------------------------- cold import and bundle size

function coldImports() {
  const specs = { empty: undefined, ...IMPORTS };
  const times = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  for (let i = 0; i < CONFIG.coldRuns; i++) {
    for (const [key, spec] of Object.entries(specs)) {
      const code = spec === undefined ? "" : `await import(${JSON.stringify(spec)});`;
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: here, stdio: ["ignore", "ignore", "pipe"] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`importing ${spec} failed: ${r.stderr}`);
      times[key].push(ms);
    }
  }
  const empty = median(times.empty);
  const out = { emptyMs: empty, runs: times };
  for (const key of Object.keys(IMPORTS)) out[key] = median(times[key]) - empty;
  return out;
}

async function bundleSizes() {
  const esbuild = await import("esbuild");
  // Every figure: one minified ES module for Node 20, kept in memory.
  const options = { bundle: true, minify: true, platform: "node", format: "esm", target: "node20", write: false, logLevel: "error" };
  const out = {};
  for (const key of ["x", "official", "bare"]) {
    const result = await esbuild.build({ ...options, entryPoints: [join(here, "minimal", `${key}.mjs`)], metafile: true });
    const code = result.outputFiles[0].contents;
    const inputs = Object.values(result.metafile.outputs)[0].inputs;
    const byPackage = {};
    for (const [file, info] of Object.entries(inputs)) {
      const tail = file.includes("node_modules/") ? file.split("node_modules/").pop() : file.replace(/^(\.\.\/)+/, "");
      const parts = tail.split("/");
      const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0] === "packages" ? `packages/${parts[1]}` : parts[0];
      byPackage[name] = (byPackage[name] ?? 0) + info.bytesInOutput;
    }
    out[key] = { minifiedBytes: code.length, gzipBytes: gzipSync(code).length, byPackage };
  }
  // What @x/server loads at run time with createRequire (a bundler cannot see
  // it): ajv's 2020 build and ajv-formats, resolved from @x/server's folder,
  // and lossless-json (the first message with an integer beyond 2^53), from @x/jsonrpc's.
  const runtime = await esbuild.build({
    ...options,
    stdin: {
      contents: 'import Ajv from "ajv/dist/2020.js"; import formats from "ajv-formats"; export { Ajv, formats };',
      resolveDir: join(here, "..", "packages", "server"),
    },
  });
  const lossless = await esbuild.build({
    ...options,
    stdin: { contents: 'export { parse, stringify } from "lossless-json";', resolveDir: join(here, "..", "packages", "jsonrpc") },
  });
  const runtimeCode = Buffer.concat([runtime.outputFiles[0].contents, lossless.outputFiles[0].contents]);
  out.xLoadedAtRunTime = {
    modules: ["ajv/dist/2020.js", "ajv-formats", "lossless-json"],
    minifiedBytes: runtimeCode.length,
    gzipBytes: gzipSync(runtimeCode).length,
  };
  return out;
}

// ---------------------------------------------------------------- table

function summarise(http, stdio, cold, bundles) {
  const rows = [];
  const best = (cell) => {
    const a = median((http.results.officialPerRequest[cell] ?? []).map((r) => r.rps));
    const b = median((http.results.officialOnce[cell] ?? []).map((r) => r.rps));
    if (!Number.isFinite(a)) return { value: b, from: "once" };
    if (!Number.isFinite(b)) return { value: a, from: "per request" };
    return a >= b ? { value: a, from: "per request" } : { value: b, from: "once" };
  };
  const officialFrom = {};
  for (const workload of WORKLOADS) {
    for (const c of CONFIG.concurrency) {
      const cell = `${workload.key} c=${c}`;
      const official = best(cell);
      officialFrom[cell] = official.from;
      rows.push({
        figure: `HTTP ${workload.name}, c=${c} (req/s)`,
        key: `http ${cell}`,
        higherIsBetter: true,
        x: median((http.results.x[cell] ?? []).map((r) => r.rps)),
        official: official.value,
        bare: median((http.results.bare[cell] ?? []).map((r) => r.rps)),
      });
    }
  }
  // autocannon's percentiles are whole milliseconds; its mean keeps the fraction.
  const latency = (key, cell) => median((http.results[key][cell] ?? []).map((r) => r.mean));
  const echo32 = "echo c=32";
  const officialEcho = officialFrom[echo32] === "once" ? "officialOnce" : "officialPerRequest";
  rows.push({
    figure: "HTTP tools/call echo, c=32, mean latency (ms)",
    key: "http echo c=32 latency",
    higherIsBetter: false,
    x: latency("x", echo32),
    official: latency(officialEcho, echo32),
    bare: latency("bare", echo32),
  });
  rows.push({
    figure: "stdio tools/call echo, pipelined (req/s)",
    key: "stdio",
    higherIsBetter: true,
    x: median((stdio.x ?? []).map((r) => r.rps)),
    official: median((stdio.official ?? []).map((r) => r.rps)),
    bare: median((stdio.bare ?? []).map((r) => r.rps)),
  });
  rows.push({
    figure: "cold import over empty node (ms)",
    key: "cold",
    higherIsBetter: false,
    x: cold.x,
    official: cold.official,
    bare: cold.bare,
  });
  // A bare client needs no import at all (fetch is global): no bare figure.
  rows.push({
    figure: "cold import of the client (ms)",
    key: "cold client",
    higherIsBetter: false,
    x: cold.xClient,
    official: cold.officialClient,
    bare: Number.NaN,
  });
  rows.push({
    figure: "minimal HTTP server bundle (KB gzip)",
    key: "bundle",
    higherIsBetter: false,
    x: bundles.x.gzipBytes / 1024,
    official: bundles.official.gzipBytes / 1024,
    bare: bundles.bare.gzipBytes / 1024,
  });
  rows.push({
    figure: "HTTP server RSS after load (MiB)",
    key: "rss",
    higherIsBetter: false,
    x: http.rss.x.afterLoadMiB,
    official: Math.max(http.rss.officialPerRequest.afterLoadMiB, http.rss.officialOnce.afterLoadMiB),
    bare: http.rss.bare.afterLoadMiB,
  });
  for (const row of rows) {
    row.xOverOfficial = row.x / row.official;
    row.xOverBare = row.x / row.bare;
  }
  return { rows, officialFrom };
}

function goals(rows) {
  const row = (key) => rows.find((r) => r.key === key);
  return [
    {
      goal: "HTTP tools/call echo at c=32 >= 50% of bare",
      value: row("http echo c=32").xOverBare,
      met: row("http echo c=32").xOverBare >= 0.5,
      shown: "ratio",
    },
    {
      goal: "stdio pipelined tools/call >= 50% of bare",
      value: row("stdio").xOverBare,
      met: row("stdio").xOverBare >= 0.5,
      shown: "ratio",
    },
    { goal: "cold import of @x/server < 20 ms over empty node", value: row("cold").x, met: row("cold").x < 20, shown: "ms" },
    { goal: "minimal HTTP server < 25 KB gzip", value: row("bundle").x, met: row("bundle").x < 25, shown: "KB" },
    { goal: "RSS after load <= 2x bare", value: row("rss").xOverBare, met: row("rss").xOverBare <= 2, shown: "ratio" },
  ];
}

function format(value, key) {
  if (!Number.isFinite(value)) return "n/a";
  if (key === "http echo c=32 latency") return value.toFixed(2);
  if (key === "cold" || key === "cold client" || key === "bundle" || key === "rss") return value.toFixed(1);
  return Math.round(value).toLocaleString("en-US");
}

function printTable(rows, officialFrom, goalList, meta, bundles) {
  const header = ["figure", "@x", "official", "bare", "@x / official", "@x / bare"];
  const lines = rows.map((r) => [
    r.figure,
    format(r.x, r.key),
    format(r.official, r.key),
    format(r.bare, r.key),
    Number.isFinite(r.xOverOfficial) ? r.xOverOfficial.toFixed(2) : "n/a",
    Number.isFinite(r.xOverBare) ? r.xOverBare.toFixed(2) : "n/a",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  const out = [];
  out.push(`@x/bench ${meta.quick ? "(--quick: numbers are not meaningful)" : ""}`.trim());
  out.push(
    `node ${process.version}, ${meta.cpus} x ${meta.cpuModel}, load average before ${meta.loadBefore.map((l) => l.toFixed(2)).join(" ")}`,
  );
  out.push(
    `${CONFIG.repetitions} repetition(s) of ${CONFIG.durationMs} ms per HTTP cell (medians), stdio ${CONFIG.stdioMs} ms, cold import median of ${CONFIG.coldRuns} processes`,
  );
  out.push("");
  out.push(render(header));
  out.push(`|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const l of lines) out.push(render(l));
  out.push("");
  const froms = Object.entries(officialFrom).map(([cell, from]) => `${cell}: ${from}`);
  out.push(`official = the faster of "server per request" (its docs) and "server built once", per row: ${froms.join(", ")}`);
  out.push("req/s: higher is better; ms, KB and MiB: lower is better.");
  const runtime = bundles.xLoadedAtRunTime;
  out.push(
    `@x bundle: minimal/x.mjs (imports @x/server, which leaves action tools to @x/server/actions); not in it: ${runtime.modules.join(" + ")}, loaded at run time from node_modules when a schema is first compiled or a message first holds an integer beyond 2^53 (${(runtime.gzipBytes / 1024).toFixed(1)} KB gzip).`,
  );
  out.push("");
  out.push("goals:");
  for (const g of goalList) {
    const shown = g.shown === "ratio" ? g.value.toFixed(2) : `${g.value.toFixed(1)} ${g.shown}`;
    out.push(`  [${g.met ? "met" : "NOT met"}] ${g.goal}: ${shown}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

// ---------------------------------------------------------------- main

async function main() {
  build();
  mkdirSync(join(here, "results"), { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    quick,
    node: process.version,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    totalMemMiB: Math.round(totalmem() / 1048576),
    loadBefore: loadavg(),
    config: CONFIG,
    versions: {
      official: JSON.parse(readFileSync(join(here, "node_modules", "@modelcontextprotocol", "server", "package.json"), "utf8")).version,
      x: JSON.parse(readFileSync(join(root, "packages", "server", "package.json"), "utf8")).version,
      autocannon: JSON.parse(readFileSync(join(here, "node_modules", "autocannon", "package.json"), "utf8")).version,
    },
  };
  const t0 = performance.now();
  log("bench: bundle sizes...");
  const bundles = await bundleSizes();
  log("bench: cold imports...");
  const cold = coldImports();
  startLoadProcess();
  log("bench: HTTP...");
  const http = await benchHttp();
  log("bench: stdio...");
  const stdio = await benchStdio(http.answersFile);
  await stop(loadProcess);
  meta.seconds = (performance.now() - t0) / 1000;
  meta.loadAfter = loadavg();
  const { rows, officialFrom } = summarise(http, stdio, cold, bundles);
  const goalList = goals(rows);
  const file = join(here, "results", `${meta.date.replace(/[:.]/g, "-")}${quick ? "-quick" : ""}.json`);
  const report = {
    meta,
    table: rows,
    officialFrom,
    goals: goalList,
    http: http.results,
    checks: http.checks,
    rss: http.rss,
    stdio,
    cold,
    bundles,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(here, "results", quick ? "latest-quick.json" : "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  printTable(rows, officialFrom, goalList, meta, bundles);
  log(`bench: ${meta.seconds.toFixed(0)} s; raw results in ${file}`);
  const failed = Object.values(http.checks).some((c) => Object.values(c).some((v) => v !== "ok"));
  if (failed) process.exitCode = 1;
}

const cleanUp = () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
};
process.on("exit", cleanUp);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

main().catch((error) => {
  log(`bench: ${error?.stack ?? error}`);
  cleanUp();
  process.exit(1);
});
