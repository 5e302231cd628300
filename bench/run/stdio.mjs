// The stdio load row: pipelined tools/call echo lines, every server in turn.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { log, started, stop } from "../lifecycle.mjs";
import { ECHO, lineOf } from "../workloads.mjs";
import { CONFIG, here, profile, ROUNDS, sleep, STDIO_SERVERS } from "./config.mjs";
import { rssMiB } from "./servers.mjs";
import { ceilingHolds, repetitionsOf, spreadOf } from "./stats.mjs";

/**
 * A stdio server as a child process, driven with pipelined tools/call echo
 * lines: `slice(ms)` keeps `CONFIG.stdioWindow` requests in flight (refilled
 * in batches) for `ms`, counts the answers (by newline) that came in that
 * time, then waits for the ones still in flight (bounded: 10 s).
 */
export async function startStdioServer(server, answersFile) {
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

export async function benchStdio(answersFile) {
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
