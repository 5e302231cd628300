#!/usr/bin/env node
// One notification to N open subscriptions/listen streams (issue 43's
// fan-out goal), on a ruler that holds on a busy machine: the server
// process's CPU time per notification (from /proc, all its threads, user and
// system), each side in its own process with its own load process, in
// alternating rounds A B A B, with the spread over the rounds. Beside it, for
// readers, the wall time until the last stream got the event (measured by the
// load process; it moves with the machine's load).
//
//   node bench/micro/fanout.mjs [A] [B] [--counts=1000,10000] [--rounds=5] [--notifies=5]
//       A and B (defaults `current` and `bare`): `current` (the workspace's @x/server as built now),
//       a snapshot of ab-builds.mjs --snapshot NAME, or `bare` (servers/sse-bare.mjs)
//   node bench/micro/fanout.mjs --serve NAME
//       the server of build NAME alone (what the ruler starts): prints {"url"} on stdout
//
// Before measuring it checks that both sides write the same bytes for one
// notification on a stream (the event as the client reads it), and fails when not.
// Each stream is one socket in the server and one in its load process: the open-file
// soft limit is raised in each child (`ulimit -n`, up to the hard limit).
// FANOUT_NODE_FLAGS (space-separated) go to both servers' node, e.g. --cpu-prof to profile them.
import { spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cpuUs, META, median, spread } from "../growth-common.mjs";
import { forkWorker, started } from "../lifecycle.mjs";
import { BOARD_URI, registerBoard } from "../servers/board.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const bench = join(here, "..");
const URI = BOARD_URI;

/** The server of build `name` (an @x/server module): one resource, and `touch` notifying every listener of it. */
async function serve(name) {
  const entry = name === "current" ? "@x/server" : pathToFileURL(join(bench, "results", "builds", name, "dist", "index.js")).href;
  const { listen, McpServer } = await import(entry);
  const server = new McpServer({ name: "fanout", version: "1.0.0" }, { maxListenStreams: 20_000 });
  registerBoard(server);
  const running = await listen(server, { port: 0, host: "127.0.0.1", maxConcurrentRequests: 20_000 });
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
  process.on("SIGTERM", async () => {
    server.close();
    await running.close(500);
    process.exit(0);
  });
}

/**
 * Starts the server of `name` with the open-file limit raised; resolves
 * {child, url, stderr}. With `valgrind`, under callgrind (V8 made
 * deterministic as in ab-builds.mjs), its count printed on stderr at exit.
 * Bounded: 20 s (600 s under valgrind, slow on a busy machine).
 */
function start(name, valgrind = false) {
  const script = name === "bare" ? join(bench, "servers", "sse-bare.mjs") : fileURLToPath(import.meta.url);
  const args = name === "bare" ? [] : ["--serve", name];
  const node = valgrind
    ? ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, "--single-threaded", "--predictable"]
    : [process.execPath, ...(process.env.FANOUT_NODE_FLAGS?.split(" ").filter(Boolean) ?? [])];
  const command = `ulimit -n $(ulimit -Hn); exec "$0" "$@"`;
  const child = spawn("bash", ["-c", command, ...node, script, ...args], {
    cwd: bench,
    stdio: ["ignore", "pipe", valgrind ? "pipe" : "inherit"],
  });
  started.add(child);
  child.on("exit", () => started.delete(child));
  const stderr = { text: "" };
  child.stderr?.on("data", (chunk) => {
    stderr.text += chunk;
  });
  const ms = valgrind ? 600_000 : 20_000;
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${ms / 1000} s`)), ms);
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const nl = text.indexOf("\n");
      if (nl !== -1 && timer) {
        clearTimeout(timer);
        resolve({ child, url: JSON.parse(text.slice(0, nl)).url, stderr });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it listened`));
    });
  });
}

/** POSTs one JSON-RPC request; resolves the raw body. Bounded: 10 s. */
function post(url, method, params, onChunk) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } });
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(method === "tools/call" ? { "mcp-name": params.name } : {}),
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
          onChunk?.(text, req);
        });
        res.on("end", () => resolve(text));
        res.on("error", reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`${method} not answered within 10 s`)), 10_000);
    req.on("close", () => clearTimeout(timer));
    req.on("error", reject);
    req.end(body);
  });
}

/** The bytes of the notifications/resources/updated event one listen stream of `url` reads. */
async function eventBytes(url) {
  let touched = false;
  let event;
  await post(url, "subscriptions/listen", { notifications: { resourceSubscriptions: [URI] } }, (text, req) => {
    if (!touched && text.includes("acknowledged")) {
      touched = true;
      post(url, "tools/call", { name: "touch", arguments: { uri: URI } });
    }
    const at = text.indexOf("notifications/resources/updated");
    if (at !== -1 && text.indexOf("\n\n", at) !== -1) {
      const begin = text.lastIndexOf("\n\n", at) + 2;
      event = text.slice(begin, text.indexOf("\n\n", at) + 2);
      req.destroy();
    }
  }).catch(() => {});
  if (event === undefined) throw new Error(`${url}: no notifications/resources/updated event read`);
  return event;
}

/** One side: its server, its load process and its streams. */
async function side(name) {
  const server = await start(name);
  const { child, ask } = forkWorker(join(bench, "growth-load.mjs"), bench);
  return { name, server, load: (kind, fields) => ask({ kind, ...fields }, 300_000), loadChild: child };
}

/** `notifies` notifications to the open streams of `s`, one after the other; server CPU µs and wall ms per notification. */
async function round(s, notifies) {
  const lastMs = [];
  const c0 = cpuUs(s.server.child.pid);
  for (let i = 0; i < notifies; i++) {
    const r = await s.load("listenNotify", { url: s.server.url, uri: URI });
    if (r.notified !== r.streams) throw new Error(`${s.name}: ${r.notified} of ${r.streams} streams notified`);
    lastMs.push(r.lastMs);
  }
  return { cpuUs: (cpuUs(s.server.child.pid) - c0) / notifies, lastMs: median(lastMs) };
}

/**
 * The ruler: for each count of streams, `rounds` alternating rounds of
 * `notifies` notifications on A and on B. Resolves {rows, spread, verdict}:
 * per count the server CPU µs per notification of each side (median, min,
 * max), their paired ratio A/B, the wall ms until the last stream (median of
 * rounds) and their ratio; `verdict` judges the goal (A's last stream within
 * 1.3× B's, read on the CPU ratio at the largest count, the steady figure).
 */
export async function fanout({ a = "current", b = "bare", counts = [1000, 10_000], rounds = 5, notifies = 5, log = console.log } = {}) {
  const sides = [];
  try {
    for (const name of [a, b]) sides.push(await side(name));
    const bytes = await Promise.all(sides.map((s) => eventBytes(s.server.url)));
    if (bytes[0] !== bytes[1])
      throw new Error(`the sides write different events:\n${a}: ${JSON.stringify(bytes[0])}\n${b}: ${JSON.stringify(bytes[1])}`);
    log(`fanout: both sides write the same ${Buffer.byteLength(bytes[0])} bytes per stream: ${JSON.stringify(bytes[0])}`);
    const rows = [];
    let open = 0;
    for (const count of counts) {
      for (const s of sides) {
        const r = await s.load("listenOpen", { url: s.server.url, uri: URI, count: count - open });
        if (r.failed) throw new Error(`${s.name}: ${r.failed} of ${count - open} listen streams failed (${r.firstError})`);
      }
      open = count;
      // A warm-up notification on each, not counted.
      for (const s of sides) await round(s, 1);
      const per = sides.map(() => []);
      for (let i = 0; i < rounds; i++) {
        for (const [j, s] of sides.entries()) per[j].push(await round(s, notifies));
      }
      const cpuRatio = per[0].map((r, i) => r.cpuUs / per[1][i].cpuUs);
      const wallRatio = per[0].map((r, i) => r.lastMs / per[1][i].lastMs);
      const row = {
        count,
        cpuUs: per.map((p) => spread(p.map((r) => r.cpuUs))),
        cpuRatio: spread(cpuRatio),
        lastMs: per.map((p) => spread(p.map((r) => r.lastMs))),
        wallRatio: spread(wallRatio),
      };
      rows.push(row);
      const f = (s, d = 0) => `${s.median.toFixed(d)} (${s.min.toFixed(d)}–${s.max.toFixed(d)})`;
      log(
        `fanout: ${count} streams: server CPU per notification ${a} ${f(row.cpuUs[0])} µs, ${b} ${f(row.cpuUs[1])} µs, ` +
          `ratio ${f(row.cpuRatio, 2)}; last stream after ${a} ${f(row.lastMs[0], 1)} ms, ${b} ${f(row.lastMs[1], 1)} ms, ratio ${f(row.wallRatio, 2)}`,
      );
    }
    const last = rows.at(-1);
    const met = last.cpuRatio.median <= 1.3;
    const verdict = `${met ? "met" : "not met"}: ${a} CPU per notification to ${last.count} streams ${last.cpuRatio.median.toFixed(3)}× ${b}'s (goal ≤ 1.3×)`;
    return { rows, spread: rows.map((r) => ({ count: r.count, cpuRatio: r.cpuRatio, wallRatio: r.wallRatio })), verdict };
  } finally {
    for (const s of sides) {
      s.loadChild.kill();
      s.server.child.kill("SIGTERM");
    }
  }
}

/** Notifications both runs send first: V8 has compiled the path by their end. */
const WARM = 3;

/**
 * The instructions (valgrind, callgrind) a server process of `name` runs for
 * one notification to `count` streams: two whole runs that open the streams
 * and differ only in the number of notifications sent (WARM and WARM + `more`),
 * their difference over `more`. User-space instructions only (the kernel's
 * share of each write is not counted). Rejects when valgrind is missing or a run fails.
 */
export async function instructionsPerNotification(name, count, more = 16) {
  const run = async (notifies) => {
    const server = await start(name, true);
    const { child, ask } = forkWorker(join(bench, "growth-load.mjs"), bench);
    try {
      const load = (kind, fields) => ask({ kind, ...fields }, 600_000);
      const r = await load("listenOpen", { url: server.url, uri: URI, count, parallel: 20, timeoutMs: 600_000 });
      if (r.failed) throw new Error(`${name}: ${r.failed} of ${count} listen streams failed (${r.firstError})`);
      for (let i = 0; i < notifies; i++) {
        const n = await load("listenNotify", { url: server.url, uri: URI, timeoutMs: 600_000 });
        if (n.notified !== n.streams) throw new Error(`${name}: ${n.notified} of ${n.streams} streams notified`);
      }
      await load("listenClose", {});
    } finally {
      child.kill();
    }
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await exited;
    const m = /Collected\s*:\s*(\d+)/.exec(server.stderr.text);
    if (!m) throw new Error(`valgrind run of ${name} failed: ${server.stderr.text.slice(-500)}`);
    return Number(m[1]);
  };
  const [one, many] = await Promise.all([run(WARM), run(WARM + more)]);
  return (many - one) / more;
}

const isMain = process.argv[1] === fileURLToPath(import.meta.url);
if (isMain && process.argv[2] === "--serve") {
  await serve(process.argv[3] ?? "current");
} else if (isMain && process.argv[2] === "--instructions") {
  // node bench/micro/fanout.mjs --instructions NAME [count] [repetitions]
  const [name = "current", count = "1000", reps = "3"] = process.argv.slice(3);
  const values = [];
  for (let i = 0; i < Number(reps); i++) {
    values.push(await instructionsPerNotification(name, Number(count)));
    console.log(
      `fanout: ${name} ${count} streams: ${Math.round(values.at(-1))} instructions per notification (${(values.at(-1) / Number(count)).toFixed(0)} per stream)`,
    );
  }
  const s = spread(values);
  console.log(
    `fanout: ${name} ${count} streams: median ${Math.round(s.median)} (${Math.round(s.min)}–${Math.round(s.max)}), ${(s.median / Number(count)).toFixed(0)} per stream`,
  );
  process.exit(0);
} else if (isMain) {
  const names = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  const flag = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const result = await fanout({
    a: names[0] ?? "current",
    b: names[1] ?? "bare",
    counts: (flag("counts") ?? "1000,10000").split(",").map(Number),
    rounds: Number(flag("rounds") ?? 5),
    notifies: Number(flag("notifies") ?? 5),
  });
  console.log(`fanout: ${result.verdict}`);
  process.exit(0);
}
