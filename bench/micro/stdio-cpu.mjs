#!/usr/bin/env node
// Server CPU time per request over stdio, @x against the bare responder:
// each server as a child process, `tools/call` echo lines pipelined with 64
// in flight (refilled in batches, as bench/run.mjs does), a fixed number of
// answers after a warm-up, the child's user + system time read from /proc.
// Alternating runs; prints each and the medians.
//
//   node bench/micro/stdio-cpu.mjs [requests=200000] [runs=3]   (after `pnpm bench --quick` wrote bare-answers.json)
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ECHO, lineOf } from "../workloads.mjs";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const N = Number(process.argv[2] ?? 200_000);
const RUNS = Number(process.argv[3] ?? 3);
const SERVERS = {
  x: ["servers/x.mjs", "--stdio"],
  bare: ["servers/bare.mjs", join(here, "results", "bare-answers.json"), "--stdio"],
};

/** CPU time (user + system) of a process, in microseconds. */
function cpuUs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Sends `count` echo lines, 64 in flight; resolves once all are answered. */
function load(child, count) {
  return new Promise((resolve) => {
    let received = 0;
    let sent = 0;
    const refill = () => {
      if (sent - received > 32 || sent >= count) return;
      let batch = "";
      while (sent - received < 64 && sent < count) batch += lineOf(ECHO, ++sent);
      child.stdin.write(batch);
    };
    const onData = (chunk) => {
      for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) received++;
      if (received >= count) {
        child.stdout.off("data", onData);
        resolve();
      } else refill();
    };
    child.stdout.on("data", onData);
    refill();
  });
}

async function measure(name) {
  const child = spawn(process.execPath, SERVERS[name], { cwd: here, stdio: ["pipe", "pipe", "inherit"] });
  child.stdout.setEncoding("utf8");
  await load(child, 20_000);
  const before = cpuUs(child.pid);
  const start = process.hrtime.bigint();
  await load(child, N);
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const us = (cpuUs(child.pid) - before) / N;
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  return { us, rps: N / wall };
}

const rows = { x: [], bare: [] };
for (let r = 0; r < RUNS; r++) {
  for (const name of ["x", "bare"]) {
    const m = await measure(name);
    rows[name].push(m);
    console.log(`  ${name.padEnd(4)} ${m.us.toFixed(2).padStart(6)} µs CPU/request, ${Math.round(m.rps)} req/s`);
  }
}
const median = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
const mx = median(rows.x.map((m) => m.us));
const mb = median(rows.bare.map((m) => m.us));
console.log(`stdio median: x ${mx.toFixed(2)} µs, bare ${mb.toFixed(2)} µs CPU/request, bare/x ${(mb / mx).toFixed(2)}`);
