#!/usr/bin/env node
// `pnpm bench:tasks [--quick] [--no-build]`: the tasks extension over HTTP and
// the Redis fan-out of notifications, @x/server only (the other servers of
// `pnpm bench` serve no tasks):
//   (a) task create + poll to completion: `tools/call` of a task tool, then
//       `tasks/get` back to back until `completed`, against one instance with
//       the in-memory store; median and p99 of N runs;
//   (b) fan-out: one `notifyResourceUpdated` (a `tools/call` of `touch` on
//       instance A) to L `subscriptions/listen` streams spread evenly across
//       three instances sharing one redis-server (RedisTaskStore +
//       RedisEventBus); from the call's send to the first, median and last
//       listener's receipt, R repetitions.
// redis-server (Debian's) is started here on a free loopback port without
// persistence and stopped by its PID; every wait is bounded. Prints a table and
// writes bench/results/tasks-<date>.json and tasks-latest.json. See bench/README.md.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { firstLine, log, runMain, started, stop, T0 } from "./lifecycle.mjs";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { standardHeaders } from "@x/mcp-v2607/wire";
import { createParser } from "eventsource-parser";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const args = process.argv.slice(2).filter((a) => a !== "--");
const quick = args.includes("--quick");

/** Counts: `runs` task round trips; `listeners` streams over three instances; `repetitions` fan-outs. */
const CONFIG = quick ? { runs: 30, warmup: 5, listeners: 90, repetitions: 2 } : { runs: 500, warmup: 50, listeners: 1000, repetitions: 5 };
/** Bounds, in milliseconds. */
const LIMITS = { start: 15_000, request: 10_000, pollsPerTask: 1000, listenOpen: 60_000, fanout: 30_000 };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const median = (values) => quantile(values, 0.5);

// ---------------------------------------------------------------- processes

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function track(child) {
  started.add(child);
  child.on("exit", () => started.delete(child));
  return child;
}

/** redis-server on a free port, no persistence, in the foreground, in a temporary folder. */
async function startRedis() {
  const binary = spawnSync("sh", ["-c", "command -v redis-server || ls /usr/bin/redis-server /usr/sbin/redis-server 2>/dev/null"], {
    encoding: "utf8",
  }).stdout.split("\n")[0];
  if (!binary) throw new Error("redis-server is missing: install Debian's redis-server (apt-get install redis-server) to run this bench");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "x-mcp-bench-redis-"));
  const child = track(
    spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", dir], {
      cwd: dir,
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  await new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within ${LIMITS.start} ms: ${seen}`)), LIMITS.start);
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      if (seen.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${seen}`)));
  });
  child.stdout.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    child,
    stop: async () => {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** servers/tasks.mjs with `argv`; resolves with the child and the URL it printed. */
function startServer(argv = []) {
  const child = track(
    spawn(process.execPath, [join(here, "servers", "tasks.mjs"), ...argv], { cwd: here, stdio: ["ignore", "pipe", "inherit"] }),
  );
  return firstLine(child, "servers/tasks.mjs", LIMITS.start).then(({ url }) => ({ child, url }));
}

// ---------------------------------------------------------------- wire

let nextId = 1;
function message(method, params = {}) {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        [META_PROTOCOL_VERSION]: PROTOCOL_VERSION,
        [META_CLIENT_INFO]: { name: "bench", version: "1.0.0" },
        [META_CLIENT_CAPABILITIES]: { extensions: { [TASKS_EXTENSION]: {} } },
      },
    },
  };
}
function headersOf(body, accept = "application/json, text/event-stream") {
  return { ...standardHeaders(body), "content-type": "application/json", accept };
}

/** One request; answers the JSON-RPC response (JSON or SSE body). @throws on a non-200 or an error response. */
async function rpc(url, method, params) {
  const body = message(method, params);
  const response = await fetch(url, {
    method: "POST",
    headers: headersOf(body),
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(LIMITS.request),
  });
  const text = await response.text();
  let answer;
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    createParser({
      onEvent: (e) => {
        const m = JSON.parse(e.data);
        if (m.id === body.id) answer = m;
      },
    }).feed(text);
  } else answer = JSON.parse(text);
  if (response.status !== 200 || !answer || answer.error) throw new Error(`${method} answered ${response.status}: ${text.slice(0, 300)}`);
  return answer.result;
}

// ---------------------------------------------------------------- (a) task round trips

async function taskRoundTrips(argv = []) {
  const { child, url } = await startServer(argv);
  const times = [];
  const polls = [];
  try {
    for (let i = 0; i < CONFIG.warmup + CONFIG.runs; i++) {
      const t = performance.now();
      const handle = await rpc(url, "tools/call", { name: "quick", arguments: {} });
      if (handle.resultType !== "task") throw new Error(`tools/call quick did not answer a task: ${JSON.stringify(handle)}`);
      let n = 0;
      for (;;) {
        n++;
        const task = await rpc(url, "tasks/get", { taskId: handle.taskId });
        if (task.status === "completed") break;
        if (task.status !== "working" || n >= LIMITS.pollsPerTask)
          throw new Error(`task ${handle.taskId}: ${task.status} after ${n} polls`);
      }
      if (i >= CONFIG.warmup) {
        times.push(performance.now() - t);
        polls.push(n);
      }
    }
  } finally {
    await stop(child);
  }
  return {
    runs: CONFIG.runs,
    medianMs: median(times),
    p99Ms: quantile(times, 0.99),
    maxMs: Math.max(...times),
    medianPolls: median(polls),
    maxPolls: Math.max(...polls),
  };
}

// ---------------------------------------------------------------- (b) fan-out

/** Opens one listen stream on its own connection; `onUpdate(at)` on each resources/updated. Resolves once acknowledged. */
function openListener(url, onUpdate) {
  const body = message("subscriptions/listen", { notifications: { resourceSubscriptions: ["memo://board"] } });
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("a listen stream was not acknowledged in time")), LIMITS.listenOpen);
    const req = httpRequest(
      url,
      {
        method: "POST",
        agent: false,
        headers: { ...headersOf(body, "text/event-stream, application/json"), "content-length": Buffer.byteLength(text) },
      },
      (res) => {
        if (res.statusCode !== 200) {
          clearTimeout(timer);
          reject(new Error(`subscriptions/listen answered ${res.statusCode}`));
          res.resume();
          return;
        }
        res.setEncoding("utf8");
        const parser = createParser({
          onEvent: (e) => {
            const at = performance.now();
            const m = JSON.parse(e.data);
            if (m.method === "notifications/subscriptions/acknowledged") {
              clearTimeout(timer);
              resolve({ close: () => req.destroy() });
            } else if (m.method === "notifications/resources/updated") onUpdate(at);
          },
        });
        res.on("data", (chunk) => parser.feed(chunk));
        res.on("error", () => {});
      },
    );
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(text);
  });
}

async function fanout(redis) {
  const servers = [];
  const listeners = [];
  try {
    for (let i = 0; i < 3; i++) servers.push(await startServer(["--redis", redis.url]));
    const receipts = [];
    log(`bench: opening ${CONFIG.listeners} listen streams across 3 instances...`);
    const opened = performance.now();
    for (let i = 0; i < CONFIG.listeners; i += 50) {
      const batch = [];
      for (let j = i; j < Math.min(CONFIG.listeners, i + 50); j++) batch.push(openListener(servers[j % 3].url, (at) => receipts.push(at)));
      listeners.push(...(await Promise.all(batch)));
    }
    const openMs = performance.now() - opened;
    const reps = [];
    for (let rep = 0; rep < CONFIG.repetitions + 1; rep++) {
      receipts.length = 0;
      const t = performance.now();
      await rpc(servers[0].url, "tools/call", { name: "touch", arguments: { uri: "memo://board" } });
      const answered = performance.now() - t;
      const until = performance.now() + LIMITS.fanout;
      while (receipts.length < CONFIG.listeners && performance.now() < until) await sleep(1);
      if (receipts.length < CONFIG.listeners)
        throw new Error(`only ${receipts.length} of ${CONFIG.listeners} listeners heard the update within ${LIMITS.fanout} ms`);
      const offsets = receipts.map((at) => at - t);
      // The first fan-out warms the paths up; it is not counted.
      if (rep > 0)
        reps.push({ callAnsweredMs: answered, firstMs: Math.min(...offsets), medianMs: median(offsets), lastMs: Math.max(...offsets) });
      await sleep(200);
    }
    return {
      listeners: CONFIG.listeners,
      instances: 3,
      openMs,
      repetitions: reps,
      lastMs: median(reps.map((r) => r.lastMs)),
      medianMs: median(reps.map((r) => r.medianMs)),
      firstMs: median(reps.map((r) => r.firstMs)),
    };
  } finally {
    for (const l of listeners) l.close();
    for (const s of servers) await stop(s.child);
  }
}

// ---------------------------------------------------------------- main

async function main() {
  if (!args.includes("--no-build")) {
    log("bench: building @x/server and @x/redis (turbo)...");
    const built = spawnSync(
      join(root, "node_modules", ".bin", "turbo"),
      ["run", "build", "--filter=@x/bench^...", "--output-logs=errors-only"],
      {
        cwd: root,
        stdio: ["ignore", 2, 2],
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
      },
    );
    if (built.status !== 0) throw new Error("the build failed (run `pnpm build`, or pass --no-build)");
  }
  const meta = {
    date: new Date().toISOString(),
    quick,
    node: process.version,
    cpus: `${availableParallelism()} × ${cpus()[0]?.model ?? "?"}`,
    loadavg: loadavg(),
    config: CONFIG,
  };
  log(`bench: (a) ${CONFIG.runs} task round trips against one instance (memory store)...`);
  const tasks = await taskRoundTrips();
  const redis = await startRedis();
  let tasksRedis;
  let fan;
  try {
    log(`bench: (a) ${CONFIG.runs} task round trips against one instance (RedisTaskStore)...`);
    tasksRedis = await taskRoundTrips(["--redis", redis.url]);
    log(`bench: (b) fan-out to ${CONFIG.listeners} listeners across 3 instances sharing Redis, ${CONFIG.repetitions} repetitions...`);
    fan = await fanout(redis);
  } finally {
    await redis.stop();
  }
  const f = (ms) => `${ms.toFixed(2)} ms`;
  const lines = [
    `@x/bench tasks ${quick ? "(--quick: numbers are not meaningful)" : ""}`.trim(),
    `node ${meta.node}, ${meta.cpus}, load ${meta.loadavg.map((l) => l.toFixed(2)).join(" ")}`,
    "",
    "| figure | value |",
    "| --- | --- |",
    `| task create + poll to completion, median (${tasks.runs} runs) | ${f(tasks.medianMs)} |`,
    `| task create + poll to completion, p99 | ${f(tasks.p99Ms)} |`,
    `| tasks/get polls per task, median / max | ${tasks.medianPolls} / ${tasks.maxPolls} |`,
    `| the same with RedisTaskStore + RedisEventBus, median | ${f(tasksRedis.medianMs)} |`,
    `| the same with RedisTaskStore + RedisEventBus, p99 | ${f(tasksRedis.p99Ms)} |`,
    `| fan-out to ${fan.listeners} listeners on 3 instances (Redis), last receipt, median of ${fan.repetitions.length} | ${f(fan.lastMs)} |`,
    `| fan-out, median receipt | ${f(fan.medianMs)} |`,
    `| fan-out, first receipt | ${f(fan.firstMs)} |`,
    `| opening the ${fan.listeners} listen streams | ${f(fan.openMs)} |`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  mkdirSync(join(here, "results"), { recursive: true });
  const report = { meta, tasks, tasksRedis, fanout: fan };
  const file = join(here, "results", `tasks-${meta.date.replace(/[:.]/g, "-")}${quick ? "-quick" : ""}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(here, "results", quick ? "tasks-latest-quick.json" : "tasks-latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  log(`bench: ${((performance.now() - T0) / 1000).toFixed(0)} s; raw results in ${file}`);
}

runMain(main);
