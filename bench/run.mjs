#!/usr/bin/env node
// `pnpm bench [--quick] [--no-build] [--cpu-prof]`: the same workloads against
// @x/server, the official @modelcontextprotocol/server, tmcp and a bare
// responder, in one invocation, in both protocol eras (2026-07-28, and 2025-11-25 on an
// initialized session), and the memory of abandoned earlier-era sessions.
// Prints one table and writes the raw results as JSON under bench/results/.
// See bench/README.md for how to read it.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleReport, bundleSizes, bundleTargets, largestParts, SHAPES } from "./bundles.mjs";
import { forkWorker, log, runMain, started, stop } from "./lifecycle.mjs";
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
const footprint = args.includes("--footprint");

/**
 * Run lengths (the full run's length is in bench/README.md).
 *
 * The HTTP and stdio rows are measured in short slices (`sliceMs`,
 * `stdioSliceMs`), in rounds: each round loads every server once per row, the
 * servers one after another, in the opposite order every other round (so the
 * two servers of a ratio are always next to each other in time, and neither
 * always goes first). There are `repetitions` x `slicesPerRepetition` rounds;
 * repetition j is the best slice of rounds j, j + repetitions,
 * j + 2 x repetitions, ... (so every repetition spans the whole phase, and a
 * slice slowed by another process's burst is outdone). `unstableSpread`: a row
 * whose bare figure moves more than this (either way, against its median)
 * across the repetitions is flagged unstable. `extra`: a row that is
 * unstable, or has bare below @x, after the rounds gets `repetitions` more
 * rounds of its own (one more slice per repetition), up to `times` times,
 * started within `httpMs` (`stdioMs` for stdio) after the last round; an
 * HTTP extra round loads @x and bare only, and a peer's ratio pairs it with
 * @x over the rounds both ran.
 *
 * `instructions`: the request counts of the valgrind runs of each
 * instruction row (HTTP counts a multiple of its 32 calls in flight, stdio of
 * its 64 lines a chunk); neighbouring counts make one repetition.
 *
 * `sessions`: how many earlier-era sessions the abandoned-sessions rows open
 * (over `connections` connections) and the idle timeout (ms) their servers
 * run with; it must exceed the time the opening takes.
 */
const CONFIG = quick
  ? {
      sliceMs: 100,
      warmupMs: 150,
      repetitions: 2,
      slicesPerRepetition: 1,
      concurrency: [1, 32],
      stdioSliceMs: 100,
      stdioWindow: 64,
      coldRuns: 3,
      instructions: { http: [96, 192], stdio: [128, 256], session: [96, 192] },
      unstableSpread: 0.05,
      extra: { times: 0, httpMs: 0, stdioMs: 0 },
      sessions: { count: 1000, idleMs: 10_000, connections: 8 },
    }
  : {
      sliceMs: 300,
      warmupMs: 1500,
      repetitions: 3,
      slicesPerRepetition: 5,
      concurrency: [1, 32],
      stdioSliceMs: 300,
      stdioWindow: 64,
      coldRuns: 30,
      instructions: { http: [8000, 16000, 24000, 32000, 40000], stdio: [10240, 20480, 30720, 40960], session: [8000, 24000, 40000] },
      unstableSpread: 0.05,
      extra: { times: 30, httpMs: 420_000, stdioMs: 45_000 },
      sessions: { count: 10_000, idleMs: 30_000, connections: 8 },
    };
const ROUNDS = CONFIG.repetitions * CONFIG.slicesPerRepetition;

/**
 * The servers under test: `script` and its arguments, relative to
 * bench/servers, the column it fills, and the eras each is loaded in
 * (`modern` 2026-07-28, `legacy` 2025-11-25 on a session). `legacyVersions`:
 * the versions its `initialize` may answer (tmcp offers 2025-06-18 at most).
 */
const HTTP_SERVERS = [
  { key: "x", label: "@x/server", args: ["x.mjs"], eras: ["modern", "legacy"] },
  { key: "bare", label: "bare node:http", args: ["bare.mjs", "ANSWERS", "--http"], eras: ["modern", "legacy"] },
  {
    key: "tmcp",
    label: "tmcp",
    args: ["tmcp.mjs"],
    eras: ["modern", "legacy"],
    legacyVersions: ["2025-11-25", "2025-06-18"],
  },
  { key: "officialOnce", label: "official (server built once)", args: ["official.mjs", "--once"], eras: ["modern"] },
  { key: "officialPerRequest", label: "official (server per request)", args: ["official.mjs"], eras: ["modern"] },
  { key: "officialSessions", label: "official (sessions)", args: ["official.mjs", "--sessions"], eras: ["legacy"] },
];
/** The servers of the abandoned-sessions rows, started with the idle timeout of CONFIG.sessions. */
const SESSION_SERVERS = [
  { key: "x", label: "@x/server (sessions)", args: ["x.mjs"], maxSessions: true },
  { key: "official", label: "official (sessions)", args: ["official.mjs", "--sessions"] },
];
const STDIO_SERVERS = [
  { key: "x", args: ["x.mjs", "--stdio"] },
  { key: "bare", args: ["bare.mjs", "ANSWERS", "--stdio"] },
  { key: "tmcp", args: ["tmcp.mjs", "--stdio"] },
  { key: "official", args: ["official.mjs", "--stdio"] },
];
/** What a cold import loads for each column (tmcp: the server and its HTTP transport, no schema adapter). */
const IMPORTS = {
  x: ["@x/server"],
  official: ["@modelcontextprotocol/server"],
  tmcp: ["tmcp", "@tmcp/transport-http"],
  bare: ["node:http"],
  xClient: ["@x/client"],
  officialClient: ["@modelcontextprotocol/client"],
};

const median = (values) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The installed version of a dependency of this package. */
const versionOf = (name) => JSON.parse(readFileSync(join(here, "node_modules", name, "package.json"), "utf8")).version;

/**
 * A row's repetitions from its slices, in round order: repetition j is the
 * best of slices j, j + R, j + 2R, ... (R = CONFIG.repetitions) by the
 * figure `pick` reads (req/s unless told): the highest, or the lowest when
 * `lowerIsBetter` (latency). Another process on the machine only ever slows
 * a slice down, so the best slice is the nearest to what the server can do.
 */
function repetitionsOf(slices, pick = (r) => r.rps, lowerIsBetter = false) {
  const R = CONFIG.repetitions;
  const best = (values) => {
    const finite = values.filter((v) => Number.isFinite(v));
    if (finite.length === 0) return Number.NaN;
    return lowerIsBetter ? Math.min(...finite) : Math.max(...finite);
  };
  return Array.from({ length: R }, (_, j) => best((slices ?? []).filter((_, i) => i % R === j).map(pick)));
}

/** A figure with its spread: the median of `reps`, their min and max, and the reps themselves. */
function spreadOf(reps) {
  const finite = reps.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return { value: Number.NaN, min: Number.NaN, max: Number.NaN, reps };
  return { value: median(finite), min: Math.min(...finite), max: Math.max(...finite), reps };
}

/**
 * Whether a row's ceiling holds on the slices so far: bare's repetitions
 * within CONFIG.unstableSpread of their median, and bare not below @x.
 */
function ceilingHolds(bareSlices, xSlices, pick = (r) => r.rps, lowerIsBetter = false) {
  if (!bareSlices?.length || !xSlices?.length) return true;
  const bare = spreadOf(repetitionsOf(bareSlices, pick, lowerIsBetter));
  const x = spreadOf(repetitionsOf(xSlices, pick, lowerIsBetter));
  const steady = Math.max(1 - bare.min / bare.value, bare.max / bare.value - 1) <= CONFIG.unstableSpread;
  return steady && (lowerIsBetter ? bare.value <= x.value : bare.value >= x.value);
}

/** Paired ratios: repetition j of `a` over repetition j of `b`, with their spread. */
function pairedRatio(a, b) {
  if (!a?.reps || !b?.reps) return spreadOf([a?.value / b?.value]);
  return spreadOf(a.reps.map((v, j) => v / b.reps[j]));
}

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

async function post(url, workload, sessionId, version) {
  const response = await fetch(url, {
    method: "POST",
    headers: headersOf(workload, sessionId, version),
    body: JSON.stringify(workload.message),
  });
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") };
}

/** A JSON-RPC message POSTed on an earlier-era session; answers the status (the body is read and dropped). */
async function postOnSession(url, sessionId, message, method = "POST", version = LEGACY_VERSION) {
  const headers = { ...INITIALIZE_HEADERS, "mcp-protocol-version": version, "mcp-session-id": sessionId };
  const response = await fetch(url, { method, headers, body: message === undefined ? undefined : JSON.stringify(message) });
  await response.text();
  return response.status;
}

/**
 * Opens an earlier-era session as a client does: `initialize` asking for
 * LEGACY_VERSION (checked: 200, a session id, and one of `versions`, the
 * version asked for unless told), then `notifications/initialized` (202).
 * Answers the session id and the version negotiated; throws with what was
 * answered otherwise.
 */
async function openSession(url, label, versions = [LEGACY_VERSION]) {
  const response = await fetch(url, { method: "POST", headers: INITIALIZE_HEADERS, body: JSON.stringify(INITIALIZE) });
  const text = await response.text();
  const id = response.headers.get("mcp-session-id");
  const version = versions.find((v) => text.includes(`"protocolVersion":"${v}"`));
  if (response.status !== 200 || !id || version === undefined) {
    throw new Error(`${label} answered initialize with ${response.status} (session id ${id}): ${text.slice(0, 300)}`);
  }
  const status = await postOnSession(url, id, INITIALIZED, "POST", version);
  if (status !== 202) throw new Error(`${label} answered notifications/initialized with ${status}`);
  return { id, version };
}

/** Whether an answer to `workload` is right: 200, holds every `expect`, and nothing of the other era. */
function answerIsRight(workload, { status, text }) {
  return status === 200 && workload.expect.every((e) => text.includes(e)) && !(workload.refuse && text.includes(workload.refuse));
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
let askLoad;

function startLoadProcess() {
  ({ child: loadProcess, ask: askLoad } = forkWorker(join(here, "load.mjs"), here));
}

/** One bounded autocannon run, in the load process (an earlier-era workload on the server's session). */
function loadRun(s, workload, connections, durationMs) {
  return askLoad({
    url: s.url,
    headers: headersOf(workload, s.sessionId, s.sessionVersion),
    body: JSON.stringify(workload.message),
    connections,
    durationMs,
  });
}

/** The HTTP cells (a workload at a concurrency), in the order of a round. */
const HTTP_CELLS = [...WORKLOADS, ...LEGACY_WORKLOADS].flatMap((workload) =>
  CONFIG.concurrency.map((connections) => ({ workload, connections, cell: `${workload.key} c=${connections}` })),
);

async function benchHttp() {
  const answersFile = join(here, "results", "bare-answers.json");
  const servers = {};
  const x = HTTP_SERVERS[0];
  servers.x = { ...x, ...(await startHttpServer(x)) };
  // One earlier-era session per server for the whole run, shared by every
  // connection of its load (concurrent requests on one session, as one client sends them).
  const session = await openSession(servers.x.url, x.label);
  servers.x.sessionId = session.id;
  servers.x.sessionVersion = session.version;
  await captureAnswers(servers.x.url, answersFile, servers.x.sessionId);
  await Promise.all(
    HTTP_SERVERS.slice(1).map(async (s) => {
      servers[s.key] = { ...s, ...(await startHttpServer(s, answersFile)) };
    }),
  );
  const results = {};
  const checks = {};
  const sessionVersions = {};
  const workloadsOf = (s) => [...(s.eras.includes("modern") ? WORKLOADS : []), ...(s.eras.includes("legacy") ? LEGACY_WORKLOADS : [])];
  // Every server's answer to every workload it is loaded with is checked once, before any load.
  for (const s of Object.values(servers)) {
    results[s.key] = {};
    checks[s.key] = {};
    // The bare responder has no sessions: it answers the earlier era's bytes to any session id.
    if (s.eras.includes("legacy") && s.sessionId === undefined) {
      if (s.key === "bare") s.sessionId = "00000000-0000-4000-8000-000000000000";
      else {
        try {
          const opened = await openSession(s.url, s.label, s.legacyVersions);
          s.sessionId = opened.id;
          s.sessionVersion = opened.version;
        } catch (error) {
          checks[s.key].session = String(error.message ?? error);
          log(`bench: ${s.label}: ${checks[s.key].session}`);
        }
      }
    }
    if (s.sessionVersion) sessionVersions[s.key] = s.sessionVersion;
    for (const workload of workloadsOf(s)) {
      if (workload.era === LEGACY_VERSION && s.sessionId === undefined) {
        checks[s.key][workload.key] = "no session";
        continue;
      }
      const answer = await post(s.url, workload, s.sessionId, s.sessionVersion);
      const ok = answerIsRight(workload, answer);
      checks[s.key][workload.key] = ok ? "ok" : `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
      if (!ok) log(`bench: ${s.label} answered ${workload.name} wrongly: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    s.rssIdle = rssMiB(s.child.pid);
  }
  const loaded = (s, workload) => checks[s.key][workload.key] === "ok";
  log("bench: warming up the HTTP servers...");
  for (const s of Object.values(servers)) {
    if (loaded(s, ECHO)) await loadRun(s, ECHO, 32, CONFIG.warmupMs);
    if (loaded(s, LEGACY_WORKLOADS[0])) await loadRun(s, LEGACY_WORKLOADS[0], 32, CONFIG.warmupMs);
  }

  // Rounds: each loads every server once per cell, next to each other, in the
  // opposite order every other round (see CONFIG).
  const order = Object.values(servers);
  const roundsOf = {};
  // `only`: the keys of the servers loaded (every server unless told).
  const round = async (cells, only) => {
    for (const { workload, connections, cell } of cells) {
      const inTurn = (roundsOf[cell] ?? 0) % 2 === 0 ? order : [...order].reverse();
      roundsOf[cell] = (roundsOf[cell] ?? 0) + 1;
      for (const s of inTurn) {
        if (!loaded(s, workload) || (only !== undefined && !only.includes(s.key))) continue;
        const r = await loadRun(s, workload, connections, CONFIG.sliceMs);
        results[s.key][cell] ??= [];
        results[s.key][cell].push(r);
        if (r.non2xx || r.errors) log(`bench: ${s.label} ${workload.name} c=${connections}: non-2xx ${r.non2xx} errors ${r.errors}`);
      }
    }
  };
  for (let n = 0; n < ROUNDS; n++) {
    const t0 = performance.now();
    await round(HTTP_CELLS);
    const last = (key) => Math.round(results[key]?.["echo c=32"]?.at(-1)?.rps ?? Number.NaN);
    log(
      `bench: HTTP round ${n + 1}/${ROUNDS} in ${((performance.now() - t0) / 1000).toFixed(1)} s; echo c=32: @x ${last("x")}, bare ${last("bare")}, tmcp ${last("tmcp")}, official ${last("officialOnce")} req/s`,
    );
  }
  // RSS after the full rounds, the load every server got alike (the extra rounds load @x and bare only).
  for (const s of Object.values(servers)) s.rssAfterRounds = rssMiB(s.child.pid);
  // A cell whose ceiling does not hold yet gets more rounds, one more slice
  // per repetition each time (bounded: CONFIG.extra). Only @x and bare are
  // loaded in them: the ceiling is judged on those two, and a peer's ratio
  // is paired with @x's slices of the rounds that peer ran (summarise), so
  // the time goes to the slices the judgement needs.
  const deadline = performance.now() + CONFIG.extra.httpMs;
  for (let more = 0; more < CONFIG.extra.times; more++) {
    // The latency row is measured on the echo c=32 slices, and judged by them too.
    const holds = (cell) =>
      ceilingHolds(results.bare[cell], results.x[cell]) &&
      (cell !== "echo c=32" || ceilingHolds(results.bare[cell], results.x[cell], (r) => r.mean, true));
    const pending = HTTP_CELLS.filter(({ cell }) => !holds(cell));
    if (pending.length === 0 || performance.now() > deadline) break;
    log(`bench: bare not yet steady on ${pending.map((c) => c.cell).join(", ")}: ${CONFIG.repetitions} more rounds of those`);
    for (let j = 0; j < CONFIG.repetitions; j++) await round(pending, ["x", "bare"]);
  }
  const rss = {};
  for (const s of Object.values(servers)) {
    rss[s.key] = { idleMiB: s.rssIdle, afterLoadMiB: s.rssAfterRounds, afterExtraRoundsMiB: rssMiB(s.child.pid) };
    await stop(s.child);
  }
  return { results, checks, rss, answersFile, sessionVersions, rounds: roundsOf };
}

// ---------------------------------------------------------------- stdio

/**
 * A stdio server as a child process, driven with pipelined tools/call echo
 * lines: `slice(ms)` keeps `CONFIG.stdioWindow` requests in flight (refilled
 * in batches) for `ms`, counts the answers (by newline) that came in that
 * time, then waits for the ones still in flight (bounded: 10 s).
 */
async function startStdioServer(server, answersFile) {
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
  const ok = ECHO.expect.every((e) => answer.includes(e));
  const slice = async (ms) => {
    const before = received;
    const t0 = performance.now();
    sending = true;
    refill();
    await sleep(ms);
    const requests = received - before;
    const seconds = (performance.now() - t0) / 1000;
    sending = false;
    const deadline = Date.now() + 10_000;
    while (inFlight > 0 && child.exitCode === null && Date.now() < deadline) await sleep(2);
    return { rps: requests / seconds, requests, seconds };
  };
  return { key: server.key, child, ok, answer: answer.slice(0, 300), slice };
}

async function benchStdio(answersFile) {
  const servers = [];
  for (const s of STDIO_SERVERS) servers.push(await startStdioServer(s, answersFile));
  const results = {};
  for (const s of servers) {
    results[s.key] = { ok: s.ok, answer: s.answer, slices: [] };
    if (!s.ok) log(`bench: stdio ${s.key} answered wrongly: ${s.answer}`);
    else await s.slice(CONFIG.warmupMs);
  }
  // Rounds, as for HTTP: every server once per round, in the opposite order
  // every other round; more rounds while bare is not steady (CONFIG.extra).
  let rounds = 0;
  const round = async (only) => {
    for (const s of rounds % 2 === 0 ? servers : [...servers].reverse()) {
      if (s.ok && (only === undefined || only.includes(s.key))) results[s.key].slices.push(await s.slice(CONFIG.stdioSliceMs));
    }
    rounds++;
  };
  for (let n = 0; n < ROUNDS; n++) await round();
  // RSS after the full rounds, the load every server got alike.
  for (const s of servers) results[s.key].rssAfterLoadMiB = rssMiB(s.child.pid);
  // As for HTTP, the extra rounds load @x and bare only (the ceiling is
  // judged on them); a peer's ratio pairs it with @x's first ROUNDS slices.
  const deadline = performance.now() + CONFIG.extra.stdioMs;
  for (let more = 0; more < CONFIG.extra.times; more++) {
    if (ceilingHolds(results.bare.slices, results.x.slices) || performance.now() > deadline) break;
    log(`bench: stdio bare not yet steady: ${CONFIG.repetitions} more rounds of @x and bare`);
    for (let j = 0; j < CONFIG.repetitions; j++) await round(["x", "bare"]);
  }
  results.rounds = rounds;
  for (const s of servers) {
    s.child.stdin.end();
    await Promise.race([new Promise((resolve) => s.child.once("exit", resolve)), sleep(1000)]);
    await stop(s.child);
    const r = spreadOf(repetitionsOf(results[s.key].slices));
    log(
      `bench: stdio ${s.key.padEnd(10)} ${s.ok ? `${Math.round(r.value)} req/s (${Math.round(r.min)}-${Math.round(r.max)})` : "wrong answer"}`,
    );
  }
  return results;
}

// ---------------------------------------------------------------- instructions per request

/**
 * The request path's own cost, as a count that the machine's spells do not
 * move: instructions per `tools/call` echo of @x and of bare on the
 * in-process paths of micro/paths.mjs (HTTP through each one's `node:http`
 * listener on Node's request and response objects, 32 in flight; stdio
 * through each one's line loop on in-memory streams), counted by valgrind
 * (micro/ab-builds.mjs `countInstructions`). Each figure runs
 * `CONFIG.instructions[path]` requests in as many processes, two at a time;
 * repetition j is the count between runs j and j + 1 over the requests
 * between them (start-up and warm-up fall out). Bounded by the counts; a run
 * that fails is reported, not retried. `{ skipped }` without valgrind.
 */
/** The builds counted: @x, @x with the devtools page attached (what watching costs), the bare responder. */
const INSTRUCTION_BUILDS = ["current", "devtools", "bare"];
/** The paths counted: HTTP and stdio in 2026-07-28, and the earlier era's calls on one HTTP session (micro/paths.mjs). */
const INSTRUCTION_PATHS = ["http", "stdio", "session"];
/** The builds counted on `path` (the session path: @x and bare only). */
const buildsOf = (path) => (path === "session" ? ["current", "bare"] : INSTRUCTION_BUILDS);

async function benchInstructions() {
  const probe = spawnSync("valgrind", ["--version"], { stdio: "ignore" });
  if (probe.error || probe.status !== 0) return { skipped: "valgrind is not installed (Debian's valgrind package)" };
  const { countInstructions } = await import("./micro/ab-builds.mjs");
  const jobs = [];
  for (const path of INSTRUCTION_PATHS) {
    for (const name of buildsOf(path)) for (const n of CONFIG.instructions[path]) jobs.push({ path, name, n, count: Number.NaN });
  }
  const failures = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      try {
        job.count = await countInstructions(job.name, job.path, job.n);
      } catch (error) {
        failures.push(String(error.message ?? error).slice(0, 500));
      }
    }
  };
  await Promise.all([worker(), worker()]);
  const out = { failures };
  for (const path of INSTRUCTION_PATHS) {
    out[path] = {};
    for (const name of buildsOf(path)) {
      const runs = jobs.filter((j) => j.path === path && j.name === name);
      const reps = runs.slice(1).map((run, j) => (run.count - runs[j].count) / (run.n - runs[j].n));
      out[path][name === "current" ? "x" : name] = { runs: runs.map(({ n, count }) => ({ requests: n, instructions: count })), reps };
      const r = spreadOf(reps);
      log(
        `bench: instructions ${path.padEnd(5)} ${name.padEnd(7)} ${Math.round(r.value)} per request (${Math.round(r.min)}-${Math.round(r.max)})`,
      );
    }
  }
  for (const failure of failures) log(`bench: instructions: ${failure}`);
  return out;
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
      const { id } = await openSession(server.url, s.label);
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

/**
 * Cold imports: fresh processes, each spec of IMPORTS once per run (the runs
 * interleave the specs), grouped into repetitions as the slices of the load
 * rows are (run i belongs to repetition i mod R). A repetition's figure for a
 * spec is its fastest run minus the fastest empty `node` of the same runs.
 */
function coldImports() {
  const specs = { empty: [], ...IMPORTS };
  const times = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  for (let i = 0; i < CONFIG.coldRuns; i++) {
    for (const [key, modules] of Object.entries(specs)) {
      const code = modules.map((m) => `await import(${JSON.stringify(m)});`).join("");
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: here, stdio: ["ignore", "ignore", "pipe"] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`importing ${modules.join(", ")} failed: ${r.stderr}`);
      times[key].push(ms);
    }
  }
  const best = (key) => repetitionsOf(times[key], (ms) => ms, true);
  const empty = best("empty");
  const out = { emptyMs: median(empty), runs: times, reps: {} };
  for (const key of Object.keys(IMPORTS)) {
    out.reps[key] = best(key).map((ms, j) => ms - empty[j]);
    out[key] = median(out.reps[key]);
  }
  return out;
}

// ---------------------------------------------------------------- table

/** The columns of the table, in order; ratios are `@x` over each of the others. */
const COLUMNS = [
  { key: "x", label: "@x" },
  { key: "official", label: "official" },
  { key: "tmcp", label: "tmcp" },
  { key: "bare", label: "bare" },
];
const PEERS = ["official", "tmcp", "bare"];

/** A figure measured once (no repetitions): its value is its own min and max. */
const single = (value) => ({ value, min: value, max: value });
/** No figure, and why (printed under the table). */
const none = (why) => ({ value: Number.NaN, min: Number.NaN, max: Number.NaN, why });

/**
 * The rows of the table. Each column of a row is a figure with its spread
 * (`value`, `min`, `max`, and `reps` when it was repeated); `kind: "load"`
 * marks the rows measured under load, which have a bare column to judge the
 * measurement by.
 */
function summarise(http, stdio, cold, bundles, sessions, instructions) {
  const rows = [];
  const fromSlices = (key, cell, pick, lowerIsBetter) => {
    const slices = http.results[key]?.[cell];
    if (!slices?.length) return none(`not loaded: ${http.checks[key]?.session ?? "its answer was wrong (see checks)"}`);
    return { ...spreadOf(repetitionsOf(slices, pick, lowerIsBetter)), slices: slices.length };
  };
  // @x's figure over its first `n` slices: the rounds a peer was loaded in too (extra rounds load only @x and bare).
  const xOver = (slices, n, pick, lowerIsBetter) =>
    slices?.length > n ? spreadOf(repetitionsOf(slices.slice(0, n), pick, lowerIsBetter)) : undefined;
  const pairedOver = (row, xSlices, pick, lowerIsBetter) => {
    row.xPaired = {};
    for (const peer of ["official", "tmcp"]) {
      const n = row[peer]?.slices;
      const paired = n === undefined ? undefined : xOver(xSlices, n, pick, lowerIsBetter);
      if (paired !== undefined) row.xPaired[peer] = paired;
    }
    return row;
  };
  const pairedFor = (row, cell, pick, lowerIsBetter) => pairedOver(row, http.results.x?.[cell], pick, lowerIsBetter);
  // The official SDK's two 2026-07-28 wirings: each row takes the faster (by its median).
  const officialFrom = {};
  const bestOfficial = (cell, pick, higherIsBetter = true) => {
    const a = fromSlices("officialPerRequest", cell, pick);
    const b = fromSlices("officialOnce", cell, pick);
    const aBetter = !Number.isFinite(b.value) || (higherIsBetter ? a.value >= b.value : a.value <= b.value);
    officialFrom[cell] = aBetter ? "per request" : "once";
    return aBetter ? a : b;
  };
  // The earlier era's official column is its sessionful wiring.
  const eras = [
    [WORKLOADS, bestOfficial],
    [LEGACY_WORKLOADS, (cell) => fromSlices("officialSessions", cell)],
  ];
  for (const [workloads, officialOf] of eras) {
    for (const workload of workloads) {
      for (const c of CONFIG.concurrency) {
        const cell = `${workload.key} c=${c}`;
        const row = {
          figure: `HTTP ${workload.name}, c=${c} (req/s)`,
          key: `http ${cell}`,
          kind: "load",
          rounds: http.rounds[cell],
          higherIsBetter: true,
          x: fromSlices("x", cell),
          official: officialOf(cell),
          tmcp: fromSlices("tmcp", cell),
          bare: fromSlices("bare", cell),
        };
        rows.push(pairedFor(row, cell));
      }
    }
  }
  // The mean of each answer's own fractional duration (load.mjs).
  const mean = (r) => r.mean;
  const echo32 = "echo c=32";
  rows.push(
    pairedFor(
      {
        figure: "HTTP tools/call echo, c=32, mean latency (ms)",
        key: "http echo c=32 latency",
        kind: "load",
        rounds: http.rounds[echo32],
        higherIsBetter: false,
        x: fromSlices("x", echo32, mean, true),
        official: fromSlices(officialFrom[echo32] === "once" ? "officialOnce" : "officialPerRequest", echo32, mean, true),
        tmcp: fromSlices("tmcp", echo32, mean, true),
        bare: fromSlices("bare", echo32, mean, true),
      },
      echo32,
      mean,
      true,
    ),
  );
  const stdioOf = (key) =>
    stdio[key]?.ok
      ? { ...spreadOf(repetitionsOf(stdio[key].slices)), slices: stdio[key].slices.length }
      : none(`wrong answer: ${stdio[key]?.answer}`);
  rows.push(
    pairedOver(
      {
        figure: "stdio tools/call echo, pipelined (req/s)",
        key: "stdio",
        kind: "load",
        rounds: stdio.rounds,
        higherIsBetter: true,
        x: stdioOf("x"),
        official: stdioOf("official"),
        tmcp: stdioOf("tmcp"),
        bare: stdioOf("bare"),
      },
      stdio.x?.ok ? stdio.x.slices : undefined,
    ),
  );
  // Cold imports: each run of fresh processes is a repetition (x and its peers paired per run).
  const coldOf = (key) => spreadOf(cold.reps[key]);
  // The in-process rows: @x and bare only (official and tmcp are many times slower, and their ratios need no such ruler).
  const onlyXAndBare = none("counted for @x and bare only (the ruler of the request path's own cost)");
  for (const [path, figure] of [
    ["http", "HTTP tools/call echo, in-process, instructions per request"],
    ["stdio", "stdio tools/call echo, in-process, instructions per request"],
    ["session", "HTTP tools/call echo on a 2025-11-25 session, in-process, instructions per request"],
  ]) {
    const of = (key) => {
      if (instructions.skipped) return none(instructions.skipped);
      const reps = instructions[path]?.[key]?.reps ?? [];
      return reps.length > 0 && reps.every(Number.isFinite) ? spreadOf(reps) : none("a valgrind run failed (see the log)");
    };
    rows.push({
      figure,
      key: `instructions ${path}`,
      higherIsBetter: false,
      x: of("x"),
      official: onlyXAndBare,
      tmcp: onlyXAndBare,
      bare: of("bare"),
    });
    // The same path with @x/devtools attached: the page's cost to the server it watches.
    if (path !== "session")
      rows.push({
        figure: `${figure}, devtools page attached`,
        key: `instructions ${path} devtools`,
        higherIsBetter: false,
        x: of("devtools"),
        official: onlyXAndBare,
        tmcp: onlyXAndBare,
        bare: of("bare"),
      });
  }
  rows.push({
    figure: "cold import over empty node (ms)",
    key: "cold",
    higherIsBetter: false,
    x: coldOf("x"),
    official: coldOf("official"),
    tmcp: coldOf("tmcp"),
    bare: coldOf("bare"),
  });
  rows.push({
    figure: "cold import of the client (ms)",
    key: "cold client",
    client: true,
    higherIsBetter: false,
    x: coldOf("xClient"),
    official: coldOf("officialClient"),
    tmcp: none("tmcp ships no client"),
    bare: none("a bare client needs no import (fetch is global)"),
  });
  const kb = (b) => (b?.gzipBytes === undefined ? none(b?.pending ? `pending: ${b.pending}` : "not built") : single(b.gzipBytes / 1024));
  rows.push({
    figure: "minimal HTTP server bundle (KB gzip)",
    key: "bundle",
    higherIsBetter: false,
    x: kb(bundles.x),
    official: kb(bundles.official),
    tmcp: kb(bundles.tmcp),
    bare: kb(bundles.bare),
  });
  // The other shapes of @x (bundles.mjs), one row each; a pending shape is a row of n/a until its phase gives it an entry.
  const onlyX = none("a shape of @x only");
  for (const shape of SHAPES.filter((s) => s.key.startsWith("x") && s.key !== "x")) {
    rows.push({
      figure: `bundle: ${shape.label.replace(/^@x, /, "")} (KB gzip)`,
      key: `bundle ${shape.key}`,
      higherIsBetter: false,
      x: kb(bundles[shape.key]),
      official: onlyX,
      tmcp: onlyX,
      bare: onlyX,
    });
  }
  rows.push({
    figure: "HTTP server RSS after load (MiB)",
    key: "rss",
    higherIsBetter: false,
    x: single(http.rss.x.afterLoadMiB),
    official: single(Math.max(http.rss.officialPerRequest.afterLoadMiB, http.rss.officialOnce.afterLoadMiB)),
    tmcp: single(http.rss.tmcp.afterLoadMiB),
    bare: single(http.rss.bare.afterLoadMiB),
  });
  const n = CONFIG.sessions.count.toLocaleString("en-US");
  const phases = [
    ["before", "before"],
    ["open", "all open"],
    ["after", "after the idle timeout"],
  ];
  const notInSessions = none("not in the abandoned-sessions rows");
  for (const [measure, unit, name] of [
    ["heapUsedMiB", "MiB", "heap used after GC"],
    ["rssMiB", "MiB", "RSS"],
  ]) {
    for (const [phase, when] of phases) {
      rows.push({
        figure: `${n} sessions abandoned: ${name}, ${when} (${unit})`,
        key: `sessions ${measure} ${phase}`,
        higherIsBetter: false,
        x: single(sessions.x[phase]?.[measure] ?? Number.NaN),
        official: single(sessions.official[phase]?.[measure] ?? Number.NaN),
        tmcp: notInSessions,
        bare: notInSessions,
      });
    }
  }
  rows.push({
    figure: "heap after GC per open session (KB)",
    key: "sessions per session",
    higherIsBetter: false,
    x: single(sessions.x.heapPerSessionKB),
    official: single(sessions.official.heapPerSessionKB),
    tmcp: notInSessions,
    bare: notInSessions,
  });
  for (const row of rows) judge(row);
  return { rows, officialFrom };
}

/**
 * Ratios (@x over each peer, paired per repetition) and, for a load row,
 * whether the measurement holds: `unstable` when bare moved more than
 * CONFIG.unstableSpread against its median across the repetitions, `broken`
 * when bare came out slower than @x (the ceiling below what it bounds).
 */
function judge(row) {
  // A peer left out of the extra rounds is paired with @x over the rounds it ran (row.xPaired).
  row.ratios = Object.fromEntries(PEERS.map((peer) => [peer, pairedRatio(row.xPaired?.[peer] ?? row.x, row[peer])]));
  row.status = "";
  if (row.kind !== "load") return;
  const bare = row.bare;
  if (!Number.isFinite(bare.value)) {
    row.status = "no bare figure";
    return;
  }
  row.bareSpread = { low: bare.min / bare.value - 1, high: bare.max / bare.value - 1 };
  // Below by its median or by the median paired ratio: either way the ceiling did not bound @x.
  const ratio = row.ratios.bare.value;
  const bareBelowX = row.higherIsBetter ? bare.value < row.x.value || ratio > 1 : bare.value > row.x.value || ratio < 1;
  if (bareBelowX) row.status = "BROKEN: bare below @x";
  else if (Math.max(-row.bareSpread.low, row.bareSpread.high) > CONFIG.unstableSpread) row.status = "unstable";
  else row.status = "ok";
}

/** A ratio goal on one load row: met when the median paired ratio reaches `at` and the row is not broken. */
function ratioGoal(row, goal, at) {
  const r = row.ratios.bare;
  const broken = row.status.startsWith("BROKEN");
  return {
    goal,
    row: row.key,
    value: r.value,
    min: r.min,
    max: r.max,
    met: !broken && r.value >= at,
    shown: "ratio",
    note: broken ? "broken measurement, no result" : row.status === "unstable" ? "row unstable" : undefined,
  };
}

/**
 * The goals of issue 19, judged on the figures of this run. `idleMemory`
 * (the memory-after-idle phase of the issue's "New rows") is
 * `{ x: { beforeMiB, afterIdleMiB } }`, the RSS of @x before the load and
 * after it was idle; without it that goal is printed as not measured.
 */
function goals(rows, { idleMemory, bundles } = {}) {
  const row = (key) => rows.find((r) => r.key === key);
  const out = [
    ratioGoal(row("http echo c=32"), "HTTP tools/call echo, c=32 >= 0.90 of bare", 0.9),
    ratioGoal(row("http structured c=32"), "HTTP tools/call structured, c=32 >= 0.90 of bare", 0.9),
    ratioGoal(row("stdio"), "stdio pipelined tools/call >= 0.75 of bare", 0.75),
  ];
  for (const peer of ["tmcp", "official"]) {
    const compared = rows.filter((r) => !r.client && Number.isFinite(r.ratios[peer].value) && !r.status.startsWith("BROKEN"));
    const behind = compared.filter((r) => (r.higherIsBetter ? r.ratios[peer].value <= 1 : r.ratios[peer].value >= 1));
    out.push({
      goal: `@x ahead of ${peer} on every server row`,
      met: behind.length === 0,
      shown: "text",
      text:
        behind.length === 0
          ? `ahead on all ${compared.length} rows with a ${peer} figure`
          : `behind on ${behind.map((r) => `${r.key} (${r.ratios[peer].value.toFixed(2)})`).join(", ")}; ahead on ${compared.length - behind.length} of ${compared.length}`,
    });
  }
  // Issue 43: the request path's own cost against bare's, on the instruction ruler (a ratio of medians).
  for (const [key, label, at] of [
    ["instructions http", "HTTP", 1.25],
    ["instructions stdio", "stdio", 1.2],
    ["instructions session", "the earlier era's session tools/call over HTTP", 1.35],
  ]) {
    const r = row(key);
    const value = r && Number.isFinite(r.x?.value) && Number.isFinite(r.bare?.value) ? r.x.value / r.bare.value : Number.NaN;
    out.push({
      goal: `instructions per request, ${label}, <= ${at}x bare (issue 43)`,
      value,
      met: Number.isFinite(value) ? value <= at : undefined,
      shown: "ratio",
    });
  }
  const cold = row("cold").x;
  // Issue 39's bundle targets (bundles.mjs); a shape a later phase makes buildable is "not measured" until then.
  for (const t of bundleTargets(bundles)) {
    out.push({
      goal: `bundle, ${t.label.replace(/^@x, /, "")}${t.over ? `: what it adds to ${t.over}` : ""}, <= ${t.targetKB} KB gzip (issue 39)`,
      value: t.valueKB ?? Number.NaN,
      met: t.met,
      shown: "KB",
      note: t.pending ? `pending: ${t.pending}` : undefined,
    });
  }
  out.push({ goal: "cold import of @x/server <= 10 ms over empty node", ...cold, met: cold.value <= 10, shown: "ms" });
  const idle = idleMemory?.x;
  out.push(
    idle
      ? {
          goal: "RSS of @x after idle within 10% of its level before the load",
          value: idle.afterIdleMiB / idle.beforeMiB,
          met: Math.abs(idle.afterIdleMiB / idle.beforeMiB - 1) <= 0.1,
          shown: "ratio",
        }
      : {
          goal: "RSS of @x after idle within 10% of its level before the load",
          met: undefined,
          shown: "text",
          text: args.includes("--no-growth")
            ? "not measured in this run (--no-growth)"
            : "measured by the cost-growth phase: see its goals below, and the summary at the end",
        },
  );
  return out;
}

/** One figure as the table prints it: the unit's precision, and its min–max when repeated. */
function format(figure, key) {
  if (!Number.isFinite(figure?.value)) return "n/a";
  const one = (v) => {
    if (key === "http echo c=32 latency") return v.toFixed(2);
    if (key.startsWith("http") || key === "stdio" || key.startsWith("instructions")) return Math.round(v).toLocaleString("en-US");
    return v.toFixed(1);
  };
  const shown = one(figure.value);
  if (!figure.reps || figure.reps.length < 2) return shown;
  return `${shown} (${one(figure.min)}–${one(figure.max)})`;
}

function formatRatio(ratio, row) {
  if (row.status.startsWith("BROKEN")) return "broken";
  if (!Number.isFinite(ratio.value)) return "n/a";
  if (!ratio.reps || ratio.reps.length < 2) return ratio.value.toFixed(2);
  return `${ratio.value.toFixed(2)} (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})`;
}

const percent = (v) => `${v >= 0 ? "+" : ""}${(v * 100).toFixed(1)}%`;

function printTable(rows, officialFrom, goalList, meta, bundles, sessionVersions) {
  const header = ["figure", ...COLUMNS.map((c) => c.label), ...PEERS.map((p) => `@x / ${p}`), "bare spread", "measurement"];
  const lines = rows.map((r) => [
    r.figure,
    ...COLUMNS.map((c) => format(r[c.key], r.key)),
    ...PEERS.map((p) => formatRatio(r.ratios[p], r)),
    r.bareSpread ? `${percent(r.bareSpread.low)} ${percent(r.bareSpread.high)}` : "",
    r.rounds ? `${r.status}, ${r.rounds} rounds` : r.status,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells) =>
    `| ${cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  const out = [];
  out.push(`@x/bench ${meta.quick ? "(--quick: numbers are not meaningful)" : ""}`.trim());
  out.push(
    `node ${process.version}, ${meta.cpus} x ${meta.cpuModel}, load average before ${meta.loadBefore.map((l) => l.toFixed(2)).join(" ")}, after ${meta.loadAfter.map((l) => l.toFixed(2)).join(" ")}`,
  );
  out.push(
    `HTTP and stdio: ${ROUNDS} rounds of one ${CONFIG.sliceMs} ms slice (stdio ${CONFIG.stdioSliceMs} ms) per server and row, the servers in turn, in the opposite order every other round, after a warm-up; ${CONFIG.repetitions} repetitions, repetition j the best slice of rounds j, j+${CONFIG.repetitions}, ...; cold import: ${CONFIG.coldRuns} runs of fresh processes, repetition j the fastest of runs j, j+${CONFIG.repetitions}, ... Figures: median (min–max) over the repetitions; ratios paired per repetition (@x's repetition j over the peer's repetition j); a row's extra rounds load @x and bare only, so @x's ratio to official or tmcp is taken over the rounds those ran.`,
  );
  out.push("");
  out.push(render(header));
  out.push(`|${widths.map((w, i) => (i === 0 || i === widths.length - 1 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const l of lines) out.push(render(l));
  out.push("");
  out.push(
    `bare spread: the bare figure's min and max over the repetitions against its median; a row beyond ±${(CONFIG.unstableSpread * 100).toFixed(0)}% is "unstable", a row where bare is below @x "BROKEN" (its ratios are not results).`,
  );
  const froms = Object.entries(officialFrom)
    .filter(([cell]) => !cell.startsWith("legacy"))
    .map(([cell, from]) => `${cell}: ${from}`);
  out.push(`official = the faster of "server per request" (its docs) and "server built once", per row: ${froms.join(", ")}`);
  const versions = Object.entries(sessionVersions)
    .map(([key, version]) => `${key} ${version}`)
    .join(", ");
  out.push(
    `2025-11-25 rows: one session per server (initialize + notifications/initialized) shared by all connections; official = its sessionful wiring (a McpServer and NodeStreamableHTTPServerTransport per session), serving that era only; bare answers @x's bytes to any session id. Version each initialize negotiated: ${versions} (tmcp offers 2025-06-18 at most; its session then serves tools/call the same way).`,
  );
  out.push(
    `tmcp = tmcp ${meta.versions.tmcp} with @tmcp/transport-http ${meta.versions.tmcpHttp} on node:http (@remix-run/node-fetch-server), @tmcp/transport-stdio ${meta.versions.tmcpStdio}, tools declared with valibot through @tmcp/adapter-valibot; its cold import is tmcp + @tmcp/transport-http.`,
  );
  out.push(
    `sessions rows: each server with a ${CONFIG.sessions.idleMs / 1000} s idle timeout (@x: sessionIdleTimeoutMs; official: a sweep written in servers/official.mjs, the SDK has none); heap after GC asked over IPC, RSS from /proc.`,
  );
  const reasons = new Map();
  for (const r of rows) {
    for (const c of COLUMNS)
      if (r[c.key]?.why) reasons.set(`${c.label}: ${r[c.key].why}`, (reasons.get(`${c.label}: ${r[c.key].why}`) ?? 0) + 1);
  }
  if (reasons.size) out.push(`n/a: ${[...reasons.keys()].join("; ")}.`);
  out.push("req/s: higher is better; ms, KB and MiB: lower is better.");
  out.push(
    `bundles (bundles.mjs): each shape's minimal/*.mjs bundled by esbuild (minified ES module for Node 20) alone in an empty folder with links to the packages it imports, everything it needs at run time inside; a bundle carries the JSON Schema validator its program names (none for a Standard Schema tool), or under the worker condition the cfworker default. Largest parts, KB minified: ${SHAPES.filter(
      (s) => bundles[s.key]?.byPackage,
    )
      .map((s) => `${s.key}: ${largestParts(bundles[s.key])}`)
      .join("; ")}. Checks: ${SHAPES.filter((s) => bundles[s.key]?.check)
      .map((s) => `${s.key} ${bundles[s.key].check}`)
      .join("; ")}.`,
  );
  out.push("");
  out.push("goals (issues 19, 39 and 43):");
  for (const g of goalList) {
    let shown;
    if (g.shown === "text") shown = g.text;
    else if (g.shown === "ratio" && !Number.isFinite(g.value)) shown = "not measured";
    else if (g.shown === "ratio")
      shown =
        Number.isFinite(g.min) && g.min !== g.max ? `${g.value.toFixed(2)} (${g.min.toFixed(2)}–${g.max.toFixed(2)})` : g.value.toFixed(2);
    else if (!Number.isFinite(g.value)) shown = "not measured";
    else
      shown =
        Number.isFinite(g.min) && g.min !== g.max
          ? `${g.value.toFixed(1)} ${g.shown} (${g.min.toFixed(1)}–${g.max.toFixed(1)})`
          : `${g.value.toFixed(1)} ${g.shown}`;
    const mark = g.met === undefined ? "not measured" : g.met ? "met" : "NOT met";
    out.push(`  [${mark}] ${g.goal}: ${shown}${g.note ? ` (${g.note})` : ""}`);
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
      tmcp: versionOf("tmcp"),
      tmcpHttp: versionOf("@tmcp/transport-http"),
      tmcpStdio: versionOf("@tmcp/transport-stdio"),
    },
  };
  const t0 = performance.now();
  log("bench: bundle sizes...");
  const bundles = await bundleSizes();
  log("bench: cold imports...");
  const cold = coldImports();
  if (footprint) {
    printFootprint(bundles, cold);
    if (bundlesFailed(bundles)) process.exitCode = 1;
    return;
  }
  startLoadProcess();
  log("bench: HTTP...");
  const http = await benchHttp();
  log("bench: stdio...");
  const stdio = await benchStdio(http.answersFile);
  log("bench: instructions per request (valgrind)...");
  const instructions = await benchInstructions();
  log(`bench: ${CONFIG.sessions.count} earlier-era sessions opened and abandoned (idle timeout ${CONFIG.sessions.idleMs / 1000} s)...`);
  const sessions = await benchSessions();
  // Issue 19's "New rows" (client rows, cost-growth tables, memory after idle)
  // plug in here: their phases run with the load process still up, add their
  // rows after the ones of summarise(), and the memory-after-idle phase sets
  // `idleMemory` ({ x: { beforeMiB, afterIdleMiB } }) for its goal.
  const idleMemory = undefined;
  await stop(loadProcess);
  meta.seconds = (performance.now() - t0) / 1000;
  meta.loadAfter = loadavg();
  const { rows, officialFrom } = summarise(http, stdio, cold, bundles, sessions, instructions);
  const goalList = goals(rows, { idleMemory, bundles });
  const file = join(here, "results", `${meta.date.replace(/[:.]/g, "-")}${quick ? "-quick" : ""}.json`);
  const report = {
    meta,
    table: rows,
    officialFrom,
    goals: goalList,
    http: http.results,
    checks: http.checks,
    sessionVersions: http.sessionVersions,
    rss: http.rss,
    stdio,
    instructions,
    sessions,
    cold,
    bundles,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(here, "results", quick ? "latest-quick.json" : "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  printTable(rows, officialFrom, goalList, meta, bundles, http.sessionVersions);
  log(`bench: ${meta.seconds.toFixed(0)} s; raw results in ${file}`);
  const failed =
    [...Object.values(http.checks), ...Object.values(sessions).map((r) => r.checks)].some((c) =>
      Object.values(c).some((v) => v !== "ok"),
    ) ||
    STDIO_SERVERS.some((s) => !stdio[s.key]?.ok) ||
    bundlesFailed(bundles);
  if (failed) process.exitCode = 1;
}

/** True when a bundle carries a package its shape must not (bundles.mjs: `without`). */
const bundlesFailed = (bundles) => Object.values(bundles).some((b) => b.check !== undefined && b.check !== "ok");

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
  // Every goal of the run in one list, the main table's (but its placeholder for memory after idle) first.
  const all = [
    ...report.goals.filter((g) => g.met !== undefined).map((g) => ({ goal: g.goal, met: g.met })),
    ...clients.goals.map((g) => ({ goal: g.goal, met: g.met })),
    ...growth.goals.map((g) => ({ goal: g.goal, met: g.met })),
  ];
  const met = all.filter((g) => g.met).length;
  process.stdout.write(`\ngoals of this run: ${met} met, ${all.length - met} NOT met\n`);
  for (const g of all) process.stdout.write(`  [${g.met ? "met" : "NOT met"}] ${g.goal}\n`);
  report.allGoals = all;
  for (const file of [dated, latest]) writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const failed = Object.entries(clients.checks)
    .filter(([key]) => key !== "bareCounts")
    .some(([, cells]) => Object.values(cells).some((v) => v !== "ok"));
  if (failed) process.exitCode = 1;
}

/** `--footprint`: the bundle rows and the cold imports alone (seconds, no load), printed, nothing written. */
function printFootprint(bundles, cold) {
  const ms = (key) => {
    const reps = cold.reps[key];
    const spread = reps.length > 1 ? ` (${Math.min(...reps).toFixed(1)}–${Math.max(...reps).toFixed(1)})` : "";
    return `${cold[key].toFixed(1)} ms${spread}`;
  };
  const imports = Object.entries(IMPORTS).map(([key, modules]) => `  ${modules.join(" + ")}: ${ms(key)}`);
  process.stdout.write(
    `cold import over an empty node (${cold.emptyMs.toFixed(1)} ms; ${CONFIG.coldRuns} runs):\n${imports.join("\n")}\nbundles:\n${bundleReport(bundles)}\n`,
  );
}

runMain(async () => {
  await main();
  if (!footprint) await clientsAndGrowth();
});
