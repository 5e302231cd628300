#!/usr/bin/env node
// Profiles one server under HTTP load and summarises where its CPU time goes.
//
//   node bench/profile.mjs [x|official|official-once|tmcp|bare] [echo|structured|list|discover|"legacy echo"] [seconds] [connections]
//   node bench/profile.mjs x stdio [seconds]
//   node bench/profile.mjs --summary FILE.cpuprofile
//
// The server runs with `node --cpu-prof`; autocannon (or, for stdio, a
// pipelining writer) loads it from this process for the given time; then the
// server is stopped by its PID and the profile is written to
// bench/results/profiles/. The summary lists self time by package or file
// and the functions with the most self time.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ECHO, headersOf, INITIALIZE, INITIALIZE_HEADERS, INITIALIZED, LEGACY_WORKLOADS, lineOf, WORKLOADS } from "./workloads.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, "results", "profiles");

/** Self time per function and per package/file of a V8 .cpuprofile. */
export function summarise(profile, top = 25) {
  const self = new Map();
  const counts = new Map();
  for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const total = profile.samples.length;
  const byWhere = new Map();
  for (const [id, n] of counts) {
    const node = byId.get(id);
    const f = node.callFrame;
    const url = f.url.replace(/^file:\/\//, "");
    let where;
    if (f.functionName === "(idle)" || f.functionName === "(program)" || f.functionName === "(garbage collector)") where = f.functionName;
    else if (url === "") where = "(native / builtins)";
    else if (url.startsWith("node:"))
      where = `node:${url
        .slice(5)
        .split("/")
        .slice(0, url.startsWith("node:internal/") ? 2 : 1)
        .join("/")}`;
    else if (url.includes("node_modules/")) {
      const parts = url.split("node_modules/").pop().split("/");
      where = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
    } else where = url.replace(/^.*\/packages\//, "packages/").replace(/^.*\/bench\//, "bench/");
    byWhere.set(where, (byWhere.get(where) ?? 0) + n);
    const key = `${f.functionName || "(anonymous)"} ${where}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + n);
  }
  const busy = total - (byWhere.get("(idle)") ?? 0);
  const pct = (n) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
  const lines = [`samples: ${total}, busy: ${busy} (shares below are of busy time)`, "", "by package / file:"];
  for (const [where, n] of [...byWhere]
    .filter(([w]) => w !== "(idle)")
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20))
    lines.push(`  ${pct(n)}  ${where}`);
  lines.push("", "functions by self time:");
  for (const [key, n] of [...self]
    .filter(([k]) => !k.startsWith("(idle)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    lines.push(`  ${pct(n)}  ${key}`);
  return lines.join("\n");
}

async function run() {
  const [who = "x", what = "echo", secondsText = "5", connectionsText = "32"] = process.argv.slice(2);
  const seconds = Number(secondsText);
  mkdirSync(dir, { recursive: true });
  const name = `${who}-${what}-${Date.now()}.cpuprofile`;
  const stdio = what === "stdio";
  const script = {
    x: ["x.mjs"],
    official: ["official.mjs"],
    "official-once": ["official.mjs", "--once"],
    tmcp: ["tmcp.mjs"],
    bare: ["bare.mjs", join(here, "results", "bare-answers.json")],
  }[who];
  if (!script) throw new Error(`unknown server ${who}`);
  if (stdio) script.push("--stdio");
  const child = spawn(
    process.execPath,
    ["--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}`, join(here, "servers", script[0]), ...script.slice(1)],
    {
      cwd: here,
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if (stdio) {
    let received = 0;
    let sent = 0;
    let sending = true;
    child.stdout.setEncoding("utf8");
    const refill = () => {
      if (!sending || sent - received > 32) return;
      let batch = "";
      while (sent - received < 64) batch += lineOf(ECHO, ++sent);
      child.stdin.write(batch);
    };
    child.stdout.on("data", (chunk) => {
      for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) received++;
      refill();
    });
    refill();
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    sending = false;
    process.stderr.write(`stdio: ${Math.round(received / seconds)} req/s\n`);
    child.stdin.end();
  } else {
    const url = await new Promise((resolve) => {
      let text = "";
      child.stdout.on("data", (chunk) => {
        text += chunk;
        if (text.includes("\n")) resolve(JSON.parse(text.slice(0, text.indexOf("\n"))).url);
      });
    });
    const workload = [...WORKLOADS, ...LEGACY_WORKLOADS].find((w) => w.key === what);
    if (workload === undefined) throw new Error(`no workload ${what}`);
    // An earlier-era workload runs on one session, opened here as the table's rows open theirs.
    let headers = headersOf(workload);
    if (workload.era !== undefined) {
      const opened = await fetch(url, { method: "POST", headers: INITIALIZE_HEADERS, body: JSON.stringify(INITIALIZE) });
      const text = await opened.text();
      const sessionId = opened.headers.get("mcp-session-id");
      const version = /"protocolVersion":"([^"]+)"/.exec(text)?.[1];
      headers = headersOf(workload, sessionId, version);
      await fetch(url, { method: "POST", headers, body: JSON.stringify(INITIALIZED) });
    }
    const { default: autocannon } = await import("autocannon");
    const result = await autocannon({
      url,
      method: "POST",
      headers,
      body: JSON.stringify(workload.message),
      connections: Number(connectionsText),
      duration: seconds,
    });
    process.stderr.write(
      `${who} ${what}: ${Math.round(result.requests.total / seconds)} req/s, p50 ${result.latency.p50} ms, non-2xx ${result.non2xx}\n`,
    );
    process.kill(child.pid, "SIGTERM");
  }
  await exited;
  const file = join(dir, name);
  const summary = summarise(JSON.parse(readFileSync(file, "utf8")));
  writeFileSync(`${file}.txt`, `${summary}\n`);
  process.stdout.write(`${summary}\n\nprofile: ${file}\n`);
}

if (process.argv[2] === "--summary") {
  process.stdout.write(`${summarise(JSON.parse(readFileSync(process.argv[3], "utf8")), Number(process.argv[4] ?? 40))}\n`);
} else {
  run().catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  });
}
