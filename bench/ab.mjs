#!/usr/bin/env node
// Quick A/B while working on the request path: @x/server against the bare
// responder on one workload, alternating runs so that both see the same
// machine. Not part of `pnpm bench`.
//
//   node bench/ab.mjs [echo|structured|list|discover|"legacy echo"] [connections] [runs] [seconds]
//
// "legacy echo" runs on one 2025-11-25 session opened on @x (bare answers any session id).
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { headersOf, INITIALIZE, INITIALIZE_HEADERS, INITIALIZED, LEGACY_WORKLOADS, WORKLOADS } from "./workloads.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const [what = "echo", connections = "32", runs = "5", seconds = "2"] = process.argv.slice(2);
const workload = [...WORKLOADS, ...LEGACY_WORKLOADS].find((w) => w.key === what);

function start(args) {
  const child = spawn(process.execPath, [join(here, "servers", args[0]), ...args.slice(1)], {
    cwd: here,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) resolve({ child, url: JSON.parse(text.slice(0, text.indexOf("\n"))).url });
    });
  });
}

const x = await start(["x.mjs"]);
const bare = await start(["bare.mjs", join(here, "results", "bare-answers.json")]);
let headers = headersOf(workload);
if (workload.era !== undefined) {
  const opened = await fetch(x.url, { method: "POST", headers: INITIALIZE_HEADERS, body: JSON.stringify(INITIALIZE) });
  await opened.text();
  headers = headersOf(workload, opened.headers.get("mcp-session-id"));
  await fetch(x.url, { method: "POST", headers, body: JSON.stringify(INITIALIZED) });
}
const rps = { x: [], bare: [] };
// CPU time of a process (user + system), in milliseconds, from /proc.
const cpuMs = (pid, which = "both") => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return ((which === "user" ? user : which === "system" ? system : user + system) * 1000) / 100;
};
const sys = { x: [], bare: [] };
const cpu = { x: [], bare: [] };
const run = async (url, who) => {
  const pid = who === "x" ? x.child.pid : bare.child.pid;
  const before = cpuMs(pid);
  const beforeSys = cpuMs(pid, "system");
  const r = await autocannon({
    url,
    method: "POST",
    headers,
    body: JSON.stringify(workload.message),
    connections: Number(connections),
    duration: Number(seconds),
    sampleInt: 250,
  });
  if (r.non2xx || r.errors) throw new Error(`non-2xx ${r.non2xx}, errors ${r.errors}`);
  if (who) {
    cpu[who].push(((cpuMs(pid) - before) * 1000) / r.requests.total);
    sys[who].push(((cpuMs(pid, "system") - beforeSys) * 1000) / r.requests.total);
  }
  return r.requests.total / ((r.finish - r.start) / 1000);
};
await run(x.url);
await run(bare.url);
for (let i = 0; i < Number(runs); i++) {
  rps.x.push(await run(x.url, "x"));
  rps.bare.push(await run(bare.url, "bare"));
  process.stderr.write(
    `x ${Math.round(rps.x.at(-1))} req/s ${cpu.x.at(-1).toFixed(1)} µs CPU/req   bare ${Math.round(rps.bare.at(-1))} req/s ${cpu.bare.at(-1).toFixed(1)} µs CPU/req\n`,
  );
}
const median = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
const ratios = rps.x.map((v, i) => v / rps.bare[i]);
console.log(
  `${what} c=${connections}: x ${Math.round(median(rps.x))} req/s, bare ${Math.round(median(rps.bare))} req/s, median ratio ${median(ratios).toFixed(2)}; CPU per request: x ${median(cpu.x).toFixed(1)} µs, bare ${median(cpu.bare).toFixed(1)} µs, bare/x ${(median(cpu.bare) / median(cpu.x)).toFixed(2)}; of which system: x ${median(sys.x).toFixed(1)} µs, bare ${median(sys.bare).toFixed(1)} µs`,
);
process.kill(x.child.pid, "SIGTERM");
process.kill(bare.child.pid, "SIGTERM");
