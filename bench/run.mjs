#!/usr/bin/env node
// `pnpm bench [--quick] [--no-build] [--cpu-prof]`: the same workloads against
// @x/server, the official @modelcontextprotocol/server and a bare responder,
// in one invocation, in both protocol eras (2026-07-28, and 2025-11-25 on an
// initialized session), and the memory of abandoned earlier-era sessions.
// Prints one table and writes the raw results as JSON under bench/results/.
// See bench/README.md for how to read it.
import { fork, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { log, runMain, started, stop } from "./lifecycle.mjs";
import {
  ECHO,
  headersOf,
  INITIALIZE,
  INITIALIZE_HEADERS,
  INITIALIZED,
  LEGACY_VERSION,
  LEGACY_WORKLOADS,
  lineOf,
  WORKLOADS,
} from "./workloads.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const args = process.argv.slice(2).filter((a) => a !== "--");
const quick = args.includes("--quick");
const profile = args.includes("--cpu-prof");

/**
 * Run lengths. The full run stays under about six minutes on two cores.
 * `sessions`: how many earlier-era sessions the abandoned-sessions rows open
 * (over `connections` connections) and the idle timeout (ms) their servers
 * run with; it must exceed the time the opening takes.
 */
const CONFIG = quick
  ? {
      durationMs: 150,
      warmupMs: 150,
      repetitions: 1,
      concurrency: [1, 32],
      stdioMs: 200,
      stdioWindow: 64,
      coldRuns: 3,
      sessions: { count: 1000, idleMs: 10_000, connections: 8 },
    }
  : {
      durationMs: 1500,
      warmupMs: 1500,
      repetitions: 3,
      concurrency: [1, 32],
      stdioMs: 2000,
      stdioWindow: 64,
      coldRuns: 10,
      sessions: { count: 10_000, idleMs: 30_000, connections: 8 },
    };

/**
 * The servers under test: `script` and its arguments, relative to
 * bench/servers, and the eras each is loaded in (`modern` 2026-07-28,
 * `legacy` 2025-11-25 on a session).
 */
const HTTP_SERVERS = [
  { key: "x", label: "@x/server", args: ["x.mjs"], eras: ["modern", "legacy"] },
  { key: "officialPerRequest", label: "official (server per request)", args: ["official.mjs"], eras: ["modern"] },
  { key: "officialOnce", label: "official (server built once)", args: ["official.mjs", "--once"], eras: ["modern"] },
  { key: "officialSessions", label: "official (sessions)", args: ["official.mjs", "--sessions"], eras: ["legacy"] },
  { key: "bare", label: "bare node:http", args: ["bare.mjs", "ANSWERS", "--http"], eras: ["modern", "legacy"] },
];
/** The servers of the abandoned-sessions rows, started with the idle timeout of CONFIG.sessions. */
const SESSION_SERVERS = [
  { key: "x", label: "@x/server (sessions)", args: ["x.mjs"], maxSessions: true },
  { key: "official", label: "official (sessions)", args: ["official.mjs", "--sessions"] },
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

/**
 * Starts a server script; resolves with its child process and, for HTTP, the
 * URL it printed. With `ipc` the process gets an IPC channel and
 * `--expose-gc`, for memory questions (servers/memory.mjs).
 */
function startHttpServer(server, answersFile, { ipc = false, extraArgs = [] } = {}) {
  const argv = [...server.args, ...extraArgs].map((a) => (a === "ANSWERS" ? answersFile : a)).filter((a) => a !== "--http");
  // The sessions rows' servers (ipc) are not profiled: their profiles would overwrite the load rows'.
  const flags =
    profile && !ipc
      ? ["--cpu-prof", `--cpu-prof-dir=${join(here, "results", "profiles")}`, `--cpu-prof-name=${server.key}-http.cpuprofile`]
      : [];
  if (ipc) flags.push("--expose-gc");
  const child = spawn(process.execPath, [...flags, join(here, "servers", argv[0]), ...argv.slice(1)], {
    cwd: here,
    stdio: ipc ? ["ignore", "pipe", "inherit", "ipc"] : ["ignore", "pipe", "inherit"],
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

let nextMemorySeq = 1;

/** A server's process.memoryUsage() after forced collections, asked over its IPC channel (bounded: 10 s). */
function askMemory(child) {
  const seq = nextMemorySeq++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off("message", onMessage);
      reject(new Error(`no memory answer from PID ${child.pid} within 10 s`));
    }, 10_000);
    const onMessage = (message) => {
      if (message?.type !== "memory" || message.seq !== seq) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      if (!message.gced) reject(new Error("the server could not collect garbage (no --expose-gc)"));
      else resolve(message.usage);
    };
    child.on("message", onMessage);
    child.send({ type: "memory", seq });
  });
}

// ---------------------------------------------------------------- HTTP

async function post(url, workload, sessionId) {
  const response = await fetch(url, {
    method: "POST",
    headers: headersOf(workload, sessionId),
    body: JSON.stringify(workload.message),
  });
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") };
}

/** A JSON-RPC message POSTed on an earlier-era session; answers the status (the body is read and dropped). */
async function postOnSession(url, sessionId, message, method = "POST") {
  const headers = { ...INITIALIZE_HEADERS, "mcp-protocol-version": LEGACY_VERSION, "mcp-session-id": sessionId };
  const response = await fetch(url, { method, headers, body: message === undefined ? undefined : JSON.stringify(message) });
  await response.text();
  return response.status;
}

/**
 * Opens an earlier-era session as a client does: `initialize` (checked: 200,
 * the version asked for, a session id), then `notifications/initialized`
 * (202). Answers the session id; throws with what was answered otherwise.
 */
async function openSession(url, label) {
  const response = await fetch(url, { method: "POST", headers: INITIALIZE_HEADERS, body: JSON.stringify(INITIALIZE) });
  const text = await response.text();
  const id = response.headers.get("mcp-session-id");
  if (response.status !== 200 || !id || !text.includes(`"protocolVersion":"${LEGACY_VERSION}"`)) {
    throw new Error(`${label} answered initialize with ${response.status} (session id ${id}): ${text.slice(0, 300)}`);
  }
  const status = await postOnSession(url, id, INITIALIZED);
  if (status !== 202) throw new Error(`${label} answered notifications/initialized with ${status}`);
  return id;
}

/** Whether an answer to `workload` is right: 200, holds `expect`, and nothing of the other era. */
function answerIsRight(workload, { status, text }) {
  return status === 200 && text.includes(workload.expect) && !(workload.refuse && text.includes(workload.refuse));
}

/** The bare responder's key of a workload's request. */
function answerKey(workload) {
  const key = `${workload.message.method} ${workload.message.params.name ?? ""}`;
  return workload.era === LEGACY_VERSION ? `${LEGACY_VERSION} ${key}` : key;
}

/**
 * Asks @x/server each workload once (the earlier era's on `sessionId`) and
 * keeps its answers for the bare responder: the bytes around the id, and the
 * content type.
 */
async function captureAnswers(url, file, sessionId) {
  const answers = {};
  for (const workload of [...WORKLOADS, ...LEGACY_WORKLOADS]) {
    const answer = await post(url, workload, sessionId);
    const at = answer.text.indexOf('"id":1');
    if (!answerIsRight(workload, answer) || at === -1) {
      throw new Error(`@x/server answered ${workload.name} with ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
    answers[answerKey(workload)] = [answer.text.slice(0, at + 5), answer.text.slice(at + 6), answer.type];
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

/** One message to the load process, answered with its result. */
function askLoad(message) {
  const id = nextLoadId++;
  return new Promise((resolve, reject) => {
    loadWaiters.set(id, { resolve, reject });
    loadProcess.send({ id, ...message });
  });
}

/** One bounded autocannon run, in the load process (an earlier-era workload on `sessionId`). */
function loadRun(url, workload, connections, durationMs, sessionId) {
  return askLoad({ url, headers: headersOf(workload, sessionId), body: JSON.stringify(workload.message), connections, durationMs });
}

async function benchHttp() {
  const answersFile = join(here, "results", "bare-answers.json");
  const servers = {};
  const x = HTTP_SERVERS[0];
  servers.x = { ...x, ...(await startHttpServer(x)) };
  // One earlier-era session per server for the whole run, shared by every
  // connection of its load (concurrent requests on one session, as one client sends them).
  servers.x.sessionId = await openSession(servers.x.url, x.label);
  await captureAnswers(servers.x.url, answersFile, servers.x.sessionId);
  await Promise.all(
    HTTP_SERVERS.slice(1).map(async (s) => {
      servers[s.key] = { ...s, ...(await startHttpServer(s, answersFile)) };
    }),
  );
  const results = {};
  const checks = {};
  const workloadsOf = (s) => [...(s.eras.includes("modern") ? WORKLOADS : []), ...(s.eras.includes("legacy") ? LEGACY_WORKLOADS : [])];
  for (const s of Object.values(servers)) {
    results[s.key] = {};
    checks[s.key] = {};
    // The bare responder has no sessions: it answers the earlier era's bytes to any session id.
    if (s.eras.includes("legacy") && s.sessionId === undefined) {
      s.sessionId = s.key === "bare" ? "00000000-0000-4000-8000-000000000000" : await openSession(s.url, s.label);
    }
    for (const workload of workloadsOf(s)) {
      const answer = await post(s.url, workload, s.sessionId);
      const ok = answerIsRight(workload, answer);
      checks[s.key][workload.key] = ok ? "ok" : `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
      if (!ok) log(`bench: ${s.label} answered ${workload.name} wrongly: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    s.rssIdle = rssMiB(s.child.pid);
  }
  log("bench: warming up the HTTP servers...");
  for (const s of Object.values(servers)) {
    if (s.eras.includes("modern")) await loadRun(s.url, ECHO, 32, CONFIG.warmupMs);
    if (s.eras.includes("legacy")) await loadRun(s.url, LEGACY_WORKLOADS[0], 32, CONFIG.warmupMs, s.sessionId);
  }

  for (let rep = 0; rep < CONFIG.repetitions; rep++) {
    for (const workload of [...WORKLOADS, ...LEGACY_WORKLOADS]) {
      for (const connections of CONFIG.concurrency) {
        for (const s of Object.values(servers)) {
          if (checks[s.key][workload.key] !== "ok") continue;
          const cell = `${workload.key} c=${connections}`;
          const r = await loadRun(s.url, workload, connections, CONFIG.durationMs, s.sessionId);
          results[s.key][cell] ??= [];
          results[s.key][cell].push(r);
          log(
            `bench: [${rep + 1}/${CONFIG.repetitions}] ${s.label.padEnd(30)} ${workload.name.padEnd(36)} c=${String(connections).padEnd(3)} ${Math.round(r.rps)} req/s  mean ${r.mean.toFixed(2)} ms${r.non2xx || r.errors ? `  non-2xx ${r.non2xx} errors ${r.errors}` : ""}`,
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

// ---------------------------------------------------------------- abandoned sessions

const MiB = 1048576;
const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

/**
 * One server's abandoned-sessions row: memory (heap used after GC, RSS)
 * before, with `count` sessions open, and after its idle timeout ended them.
 * `openInTurn` runs the opening, one server at a time (the waits overlap).
 * Bounded: the opening by its count, the wait by a deadline of twice the
 * idle timeout plus 10 s after the last request.
 */
async function sessionRow(s, openInTurn) {
  const { count, idleMs, connections } = CONFIG.sessions;
  const extraArgs = [`--idle-ms=${idleMs}`];
  if (s.maxSessions) extraArgs.push(`--max-sessions=${count + 1000}`);
  const server = await startHttpServer(s, undefined, { ipc: true, extraArgs });
  const row = { label: s.label, count, idleMs, checks: {} };
  const snapshot = async () => {
    const usage = await askMemory(server.child);
    return { heapUsedMiB: usage.heapUsed / MiB, heapTotalMiB: usage.heapTotal / MiB, rssMiB: rssMiB(server.child.pid) };
  };
  try {
    // Warm-up: the first sessions load code (validators, the SDK's lazy parts); they are DELETEd.
    for (let i = 0; i < 20; i++) {
      const id = await openSession(server.url, s.label);
      await postOnSession(server.url, id, LEGACY_WORKLOADS[0].message);
      await postOnSession(server.url, id, undefined, "DELETE");
    }
    row.before = await snapshot();
    const opened = await openInTurn(() => askLoad({ kind: "sessions", url: server.url, count, connections }));
    row.open = await snapshot();
    row.opening = {
      opened: opened.opened,
      failed: opened.failed,
      failures: opened.failures,
      errors: opened.errors,
      seconds: opened.ms / 1000,
    };
    row.checks.opened =
      opened.opened === count && opened.failed === 0 ? "ok" : `opened ${opened.opened} of ${count}: ${opened.failures.join("; ")}`;
    // The oldest session must still be open, so that the figure above held all of them.
    // (The probe is a request: it makes that session the one last seen.)
    const probedAt = Date.now();
    const oldest = await postOnSession(server.url, opened.firstId, PING);
    row.checks.allOpenWhenMeasured = oldest === 200 ? "ok" : `the oldest session answered ${oldest}: the idle timeout passed while opening`;
    // The wait: newer sessions first seen before the probe end no later than it; probe each once (a probe of a live session renews it).
    const deadline = probedAt + 2 * idleMs + 10_000;
    await sleep(Math.max(0, probedAt + idleMs - Date.now()));
    let endedAfter;
    for (const id of opened.lastIds) {
      if ((await postOnSession(server.url, id, PING)) === 404) {
        endedAfter = (Date.now() - probedAt) / 1000;
        break;
      }
      if (Date.now() > deadline) break;
      await sleep(Math.max(250, idleMs / 8));
    }
    // The probed oldest one was seen last: give its sweep time, then it must be gone too.
    if (endedAfter !== undefined) await sleep(Math.min(idleMs / 2, 60_000) + 500);
    const last = await postOnSession(server.url, opened.firstId, PING);
    row.checks.endedByIdleTimeout =
      endedAfter !== undefined && last === 404
        ? "ok"
        : `sessions still open ${((Date.now() - probedAt) / 1000).toFixed(1)} s after the last request`;
    row.endedAfterSeconds = endedAfter;
    row.after = await snapshot();
  } finally {
    await stop(server.child);
  }
  row.heapPerSessionKB = ((row.open?.heapUsedMiB - row.before?.heapUsedMiB) * 1024) / count;
  const fig = (phase, measure) => row[phase]?.[measure]?.toFixed(1);
  const problems = Object.values(row.checks).filter((c) => c !== "ok");
  log(
    `bench: sessions ${s.label.padEnd(22)} heap after GC ${fig("before", "heapUsedMiB")} -> ${fig("open", "heapUsedMiB")} (${count} open) -> ${fig("after", "heapUsedMiB")} MiB; RSS ${fig("before", "rssMiB")} -> ${fig("open", "rssMiB")} -> ${fig("after", "rssMiB")} MiB${problems.length ? `; ${problems.join("; ")}` : ""}`,
  );
  return row;
}

async function benchSessions() {
  let turn = Promise.resolve();
  const openInTurn = (open) => {
    const mine = turn.then(open);
    turn = mine.catch(() => {});
    return mine;
  };
  const rows = await Promise.all(SESSION_SERVERS.map((s) => sessionRow(s, openInTurn)));
  return Object.fromEntries(SESSION_SERVERS.map((s, i) => [s.key, rows[i]]));
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

/** Bytes of a metafile's output per package (`ajv`, `@x/server` as `packages/server`, ...), largest first. */
function bytesByPackage(metafile) {
  const inputs = Object.values(metafile.outputs)[0].inputs;
  const byPackage = {};
  for (const [file, info] of Object.entries(inputs)) {
    const tail = file.includes("node_modules/") ? file.split("node_modules/").pop() : file.replace(/^(\.\.\/)+/, "");
    const parts = tail.split("/");
    const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0] === "packages" ? `packages/${parts[1]}` : parts[0];
    byPackage[name] = (byPackage[name] ?? 0) + info.bytesInOutput;
  }
  return Object.fromEntries(Object.entries(byPackage).sort((a, b) => b[1] - a[1]));
}

/**
 * The minimal servers bundled, everything they need at run time inside
 * (@x: its JSON Schema validator and lossless-json, loaded on first use by
 * literal `require` calls that esbuild follows). `x` is built with the
 * default conditions (ajv, and @cfworker/json-schema for runtimes that
 * forbid code generation), `xWorker` with the `worker` condition (no ajv).
 */
async function bundleSizes() {
  const esbuild = await import("esbuild");
  // Every figure: one minified ES module for Node 20, kept in memory.
  const options = { bundle: true, minify: true, platform: "node", format: "esm", target: "node20", write: false, logLevel: "error" };
  const builds = [
    ["x", "x", []],
    ["xWorker", "x", ["worker"]],
    ["official", "official", []],
    ["bare", "bare", []],
  ];
  const out = {};
  for (const [key, file, conditions] of builds) {
    const result = await esbuild.build({ ...options, conditions, entryPoints: [join(here, "minimal", `${file}.mjs`)], metafile: true });
    const code = result.outputFiles[0].contents;
    out[key] = { conditions, minifiedBytes: code.length, gzipBytes: gzipSync(code).length, byPackage: bytesByPackage(result.metafile) };
  }
  return out;
}

// ---------------------------------------------------------------- table

function summarise(http, stdio, cold, bundles, sessions) {
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
  // The earlier era: the official SDK's sessionful wiring is its only column.
  for (const workload of LEGACY_WORKLOADS) {
    for (const c of CONFIG.concurrency) {
      const cell = `${workload.key} c=${c}`;
      rows.push({
        figure: `HTTP ${workload.name}, c=${c} (req/s)`,
        key: `http ${cell}`,
        higherIsBetter: true,
        x: median((http.results.x[cell] ?? []).map((r) => r.rps)),
        official: median((http.results.officialSessions[cell] ?? []).map((r) => r.rps)),
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
    figure: "minimal HTTP server bundle, worker condition (KB gzip)",
    key: "bundle worker",
    higherIsBetter: false,
    x: bundles.xWorker.gzipBytes / 1024,
    official: Number.NaN,
    bare: Number.NaN,
  });
  rows.push({
    figure: "HTTP server RSS after load (MiB)",
    key: "rss",
    higherIsBetter: false,
    x: http.rss.x.afterLoadMiB,
    official: Math.max(http.rss.officialPerRequest.afterLoadMiB, http.rss.officialOnce.afterLoadMiB),
    bare: http.rss.bare.afterLoadMiB,
  });
  const n = CONFIG.sessions.count.toLocaleString("en-US");
  const phases = [
    ["before", "before"],
    ["open", "all open"],
    ["after", "after the idle timeout"],
  ];
  for (const [measure, unit, name] of [
    ["heapUsedMiB", "MiB", "heap used after GC"],
    ["rssMiB", "MiB", "RSS"],
  ]) {
    for (const [phase, when] of phases) {
      rows.push({
        figure: `${n} sessions abandoned: ${name}, ${when} (${unit})`,
        key: `sessions ${measure} ${phase}`,
        higherIsBetter: false,
        x: sessions.x[phase]?.[measure] ?? Number.NaN,
        official: sessions.official[phase]?.[measure] ?? Number.NaN,
        bare: Number.NaN,
      });
    }
  }
  rows.push({
    figure: "heap after GC per open session (KB)",
    key: "sessions per session",
    higherIsBetter: false,
    x: sessions.x.heapPerSessionKB,
    official: sessions.official.heapPerSessionKB,
    bare: Number.NaN,
  });
  for (const row of rows) {
    row.xOverOfficial = row.x / row.official;
    row.xOverBare = row.x / row.bare;
  }
  return { rows, officialFrom };
}

function goals(rows) {
  const row = (key) => rows.find((r) => r.key === key);
  const heapBefore = row("sessions heapUsedMiB before").x;
  const heapAfter = row("sessions heapUsedMiB after").x;
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
    { goal: "minimal HTTP server, validator included, <= 25 KB gzip", value: row("bundle").x, met: row("bundle").x <= 25, shown: "KB" },
    {
      goal: "minimal HTTP server, worker condition, validator included, <= 25 KB gzip",
      value: row("bundle worker").x,
      met: row("bundle worker").x <= 25,
      shown: "KB",
    },
    { goal: "RSS after load <= 2x bare", value: row("rss").xOverBare, met: row("rss").xOverBare <= 2, shown: "ratio" },
    {
      goal: `heap after GC of @x back to its level before once ${CONFIG.sessions.count.toLocaleString("en-US")} abandoned sessions ended (within 1 MiB)`,
      value: heapAfter - heapBefore,
      met: heapAfter - heapBefore <= 1,
      shown: "MiB",
    },
  ];
}

function format(value, key) {
  if (!Number.isFinite(value)) return "n/a";
  if (key === "http echo c=32 latency") return value.toFixed(2);
  if (key === "cold" || key === "cold client" || key.startsWith("bundle") || key === "rss" || key.startsWith("sessions"))
    return value.toFixed(1);
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
  out.push(
    `2025-11-25 rows: one session per server (initialize + notifications/initialized) shared by all connections; official = its sessionful wiring (a McpServer and NodeStreamableHTTPServerTransport per session), serving that era only; bare answers @x's bytes to any session id.`,
  );
  out.push(
    `sessions rows: each server with a ${CONFIG.sessions.idleMs / 1000} s idle timeout (@x: sessionIdleTimeoutMs; official: a sweep written in servers/official.mjs, the SDK has none); heap after GC asked over IPC, RSS from /proc.`,
  );
  out.push("req/s: higher is better; ms, KB and MiB: lower is better.");
  const top = (b) =>
    Object.entries(b.byPackage)
      .slice(0, 5)
      .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)}`)
      .join(", ");
  out.push(
    `@x bundle: minimal/x.mjs (imports @x/server, which leaves action tools to @x/server/actions), everything it needs at run time inside: its JSON Schema validator (default conditions: ajv, and @cfworker/json-schema for runtimes that forbid code generation; worker condition: @cfworker/json-schema only) and lossless-json. Largest parts, KB minified: ${top(bundles.x)}; worker condition: ${top(bundles.xWorker)}.`,
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
  log(`bench: ${CONFIG.sessions.count} earlier-era sessions opened and abandoned (idle timeout ${CONFIG.sessions.idleMs / 1000} s)...`);
  const sessions = await benchSessions();
  await stop(loadProcess);
  meta.seconds = (performance.now() - t0) / 1000;
  meta.loadAfter = loadavg();
  const { rows, officialFrom } = summarise(http, stdio, cold, bundles, sessions);
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
    sessions,
    cold,
    bundles,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(here, "results", quick ? "latest-quick.json" : "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  printTable(rows, officialFrom, goalList, meta, bundles);
  log(`bench: ${meta.seconds.toFixed(0)} s; raw results in ${file}`);
  const failed = [...Object.values(http.checks), ...Object.values(sessions).map((r) => r.checks)].some((c) =>
    Object.values(c).some((v) => v !== "ok"),
  );
  if (failed) process.exitCode = 1;
}

// ---------------------------------------------------------------- client rows and cost growth

/**
 * After the main table: the client rows (client.mjs) and the cost-growth
 * tables (growth.mjs), printed after it and merged into its JSON (keys
 * `clients` and `growth`). `--no-growth` skips both.
 */
async function clientsAndGrowth() {
  if (args.includes("--no-growth")) return;
  const { benchClients } = await import("./client.mjs");
  const { benchGrowth } = await import("./growth.mjs");
  log("bench: client rows...");
  const clients = await benchClients({ quick });
  process.stdout.write(`\n${clients.text}\n`);
  log("bench: cost growth...");
  const growth = await benchGrowth({ quick });
  process.stdout.write(`\n${growth.text}\n`);
  const latest = join(here, "results", quick ? "latest-quick.json" : "latest.json");
  const report = JSON.parse(readFileSync(latest, "utf8"));
  report.clients = clients;
  report.growth = growth;
  const dated = join(here, "results", `${report.meta.date.replace(/[:.]/g, "-")}${quick ? "-quick" : ""}.json`);
  for (const file of [dated, latest]) writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const failed = Object.entries(clients.checks)
    .filter(([key]) => key !== "bareCounts")
    .some(([, cells]) => Object.values(cells).some((v) => v !== "ok"));
  if (failed) process.exitCode = 1;
}

runMain(async () => {
  await main();
  await clientsAndGrowth();
});
