#!/usr/bin/env node
// Runs the official MCP conformance suite (server side) against the fixture
// server, for both protocol eras the one endpoint serves:
//   1. starts conformance/dist/main.js with this Node (the machine's, 20+) on a free port;
//   2. runs the suite's CLI with the Node 22 binary of the `node` npm package
//      (the CLI needs Node >= 22; only this package depends on it), with
//      --requirements 2026-07-28 and its expected-failures baseline;
//   3. runs each pending 2026-07-28 scenario (not scored by --requirements)
//      one by one with --scenario, reporting them without failing the run
//      (they belong to a later issue);
//   4. runs --requirements 2025-11-25 (the initialize era) with its own
//      baseline (expected-failures.2025-11-25.yml), then the scenarios that
//      requirement set runs but does not score (server-session-lifecycle,
//      json-schema-2020-12, server-sse-polling) one by one: each must pass;
//   5. runs the 10 scenarios of the tasks extension (io.modelcontextprotocol/tasks)
//      one by one with --scenario (an extension's scenarios are not scored by
//      --requirements): each must pass;
//   6. stops the fixture by its PID;
//   7. starts the fixture again mounted in Express 5 behind express.json()
//      (`--behind express`: the set-up most apps have, where the node handler
//      takes a body the framework already parsed) and runs --requirements
//      2026-07-28 and 2025-11-25 against it with the same baselines, then
//      stops it by its PID; exits non-zero when any scored run failed.
// Build first (`pnpm build`); `pnpm test` does.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(here, "package.json"));
const node22 = join(dirname(require.resolve("node/package.json")), "bin", "node");
const cli = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");
const fixture = join(here, "dist", "main.js");
const baseline = join(here, "expected-failures.yml");
const baseline2511 = join(here, "expected-failures.2025-11-25.yml");
const REQUIRED_2511 = ["server-session-lifecycle", "json-schema-2020-12", "server-sse-polling"];
const results = join(here, "results");
const TASKS_SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];
const PENDING = ["json-schema-2020-12", "http-header-validation", "http-custom-header-server-validation"];

if (!existsSync(fixture)) {
  console.error(`conformance: ${fixture} is missing; run the build first (pnpm build)`);
  process.exit(1);
}
mkdirSync(results, { recursive: true });

/** Starts the fixture with `args`; resolves with its process and the URL it printed (localhost, as the suite expects). */
async function startFixture(args) {
  const child = spawn(process.execPath, [fixture, "--port", "0", ...args], { stdio: ["ignore", "inherit", "pipe"] });
  let seen = "";
  const found = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture did not start: ${seen}`)), 15_000);
    child.stderr.on("data", (chunk) => {
      seen += String(chunk);
      const match = /listening on (\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1].replace("127.0.0.1", "localhost"));
      }
    });
    child.once("exit", (code) => reject(new Error(`fixture exited with ${code}: ${seen}`)));
  }).catch((error) => {
    console.error(`conformance: ${error.message}`);
    process.exit(1);
  });
  child.stderr.on("data", (chunk) => process.stderr.write(chunk));
  return { child, url: found };
}

/** Stops a fixture by its PID and waits for it to exit. */
async function stopFixture(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(child.pid, "SIGTERM");
  await exited;
}

let { child: server, url } = await startFixture([]);

function runCli(args) {
  return new Promise((resolve) => {
    const child = spawn(node22, [cli, "server", "--url", url, ...args], { stdio: "inherit" });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

let code = 1;
try {
  console.log(`conformance: suite against ${url} (fixture PID ${server.pid})`);
  code = await runCli(["--requirements", "2026-07-28", "--expected-failures", baseline, "-o", results]);
  for (const scenario of PENDING) {
    console.log(`\nconformance: pending scenario ${scenario} (reported, not scored)`);
    const pendingCode = await runCli(["--scenario", scenario, "--spec-version", "2026-07-28", "-o", results]);
    console.log(`conformance: pending scenario ${scenario} ${pendingCode === 0 ? "passed" : "did not pass"}`);
  }
  console.log("\nconformance: --requirements 2025-11-25 (initialize era)");
  const code2511 = await runCli(["--requirements", "2025-11-25", "--expected-failures", baseline2511, "-o", results]);
  console.log(`conformance: 2025-11-25 requirements exit code ${code2511}`);
  if (code === 0) code = code2511;
  for (const scenario of REQUIRED_2511) {
    console.log(`\nconformance: 2025-11-25 scenario ${scenario} (run on its own, must pass)`);
    const one = await runCli(["--scenario", scenario, "--spec-version", "2025-11-25", "-o", results]);
    console.log(`conformance: 2025-11-25 scenario ${scenario} ${one === 0 ? "passed" : "failed"}`);
    if (code === 0) code = one;
  }
  let tasksPassed = 0;
  for (const scenario of TASKS_SCENARIOS) {
    console.log(`\nconformance: tasks extension scenario ${scenario} (run on its own, must pass)`);
    const one = await runCli(["--scenario", scenario, "-o", results]);
    console.log(`conformance: tasks extension scenario ${scenario} ${one === 0 ? "passed" : "failed"}`);
    if (one === 0) tasksPassed++;
    if (code === 0) code = one;
  }
  console.log(`conformance: tasks extension scenarios passed: ${tasksPassed}/${TASKS_SCENARIOS.length}`);
  await stopFixture(server);

  const started = Date.now();
  ({ child: server, url } = await startFixture(["--behind", "express"]));
  console.log(`\nconformance: the fixture in Express 5 behind express.json(), at ${url} (PID ${server.pid})`);
  for (const [requirements, expected] of [
    ["2026-07-28", baseline],
    ["2025-11-25", baseline2511],
  ]) {
    const one = await runCli(["--requirements", requirements, "--expected-failures", expected, "-o", results]);
    console.log(`conformance: behind Express, --requirements ${requirements} ${one === 0 ? "passed" : "failed"}`);
    if (code === 0) code = one;
  }
  console.log(`conformance: behind Express: ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await stopFixture(server);
}
console.log(`conformance: suite exit code ${code}`);
process.exit(code);
