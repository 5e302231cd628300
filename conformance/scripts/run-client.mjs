#!/usr/bin/env node
// Runs the official MCP conformance suite (client side) against @x/client,
// for each requirement set in turn (2026-07-28, then 2025-11-25, the
// initialize era), through the entry conformance/dist/client/main.js:
//   1. asks the suite's CLI (Node 22 binary of the `node` npm package; the CLI
//      needs Node >= 22) which client scenarios `--requirements <revision>`
//      scores;
//   2. runs them one at a time with --scenario and --spec-version <revision>
//      (the suite's own --requirements mode starts them all at once, too much
//      for a small machine), each with that revision's client baseline:
//      expected-failures.client.yml (2026-07-28) or
//      expected-failures.client.2025-11-25.yml;
//   3. prints one line per scenario and exits 1 when any scenario has a failure
//      the baseline does not list, or the baseline lists one that now passes;
//   4. then runs the client scenarios the suite reports but never scores
//      (UNSCORED), for information only;
//   5. then, once, the extension auth scenarios (EXTENSIONS: client
//      credentials, enterprise-managed authorization, DPoP, workload
//      identity), which no --requirements set lists: each with --force, and
//      each must pass (no baseline).
// The client itself runs on this Node (20+), in its default protocol "auto"
// (probe, then fall back to initialize). Build first (`pnpm build`).
//
//   node conformance/scripts/run-client.mjs [--requirements <revision>] [scenario ...]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(here, "package.json"));
const node22 = join(dirname(require.resolve("node/package.json")), "bin", "node");
const cli = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");
const entry = join(here, "dist", "client", "main.js");
const results = join(here, "results");
/** Each requirement set: its baseline, and the scenarios it reports but never scores. */
const REVISIONS = [
  { revision: "2026-07-28", baseline: join(here, "expected-failures.client.yml"), unscored: ["json-schema-2020-12-preservation"] },
  { revision: "2025-11-25", baseline: join(here, "expected-failures.client.2025-11-25.yml"), unscored: [] },
];

/** Extension auth scenarios: not on the spec timeline, so run with --force; each must pass. */
const EXTENSIONS = [
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/enterprise-managed-authorization",
  "auth/dpop",
  "auth/dpop-nonce",
  "auth/wif-jwt-bearer",
];

if (!existsSync(entry)) {
  console.error(`conformance:client: ${entry} is missing; run the build first (pnpm build)`);
  process.exit(1);
}
mkdirSync(results, { recursive: true });

function requiredScenarios(revision) {
  const listed = spawnSync(node22, [cli, "list", "--client", "--requirements", revision], { encoding: "utf8" });
  if (listed.status !== 0) {
    console.error(`conformance:client: could not list the scenarios:\n${listed.stderr}`);
    process.exit(1);
  }
  const lines = listed.stdout.split("\n");
  const start = lines.findIndex((line) => line.startsWith("Client scenarios"));
  const names = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^ {2}- (\S+)$/.exec(line);
    if (match) names.push(match[1]);
    else if (line.trim() !== "") break;
  }
  return names;
}

// The command string is split on spaces by the suite: neither path may hold one.
const command = `${process.execPath} ${entry}`;
if (command.split(" ").length !== 2) {
  console.error(`conformance:client: the suite cannot run a command whose paths contain spaces: ${command}`);
  process.exit(1);
}

function runScenario({ revision, baseline }, scenario, scored = true) {
  return new Promise((resolve) => {
    const args = [cli, "client", "--command", command, "--scenario", scenario, "--spec-version", revision, "-o", results];
    if (scored) args.push("--expected-failures", baseline);
    if (EXTENSIONS.includes(scenario)) args.push("--force");
    const child = spawn(node22, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("exit", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const argv = process.argv.slice(2);
const only = argv[0] === "--requirements" ? argv[1] : undefined;
const wanted = only === undefined ? argv : argv.slice(2);
const sets = REVISIONS.filter((set) => only === undefined || set.revision === only);
if (sets.length === 0) {
  console.error(`conformance:client: unknown requirement set ${only}; known: ${REVISIONS.map((set) => set.revision).join(", ")}`);
  process.exit(2);
}
let failed = 0;
for (const set of sets) {
  const scenarios = wanted.length > 0 ? wanted : requiredScenarios(set.revision);
  console.log(`conformance:client --requirements ${set.revision}: ${scenarios.length} scenarios, one at a time, against ${entry}`);
  let failedHere = 0;
  for (const scenario of scenarios) {
    const { code, output } = await runScenario(set, scenario);
    const tally = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
    const counts = tally ? `${tally[1]}/${tally[2]} checks passed${Number(tally[4]) > 0 ? `, ${tally[4]} warnings` : ""}` : "no tally";
    const expected = /Expected failures/i.test(output) || /~ /.test(output);
    if (code === 0) {
      console.log(
        `  ok    ${scenario} (${counts}${expected && tally && tally[1] !== tally[2] ? ", failures expected by the baseline" : ""})`,
      );
    } else {
      failedHere++;
      console.log(`  FAIL  ${scenario} (${counts})`);
      process.stdout.write(output.replace(/^/gm, "        "));
    }
  }
  console.log(
    `conformance:client --requirements ${set.revision}: ${scenarios.length - failedHere} of ${scenarios.length} scenarios as expected`,
  );
  failed += failedHere;
  if (wanted.length === 0) {
    for (const scenario of set.unscored) {
      const { code } = await runScenario(set, scenario, false);
      console.log(`  info  ${scenario} (not scored): ${code === 0 ? "passed" : "did not pass"}`);
    }
  }
}
if (wanted.length === 0) {
  const set = sets[0];
  let failedHere = 0;
  console.log(`conformance:client extensions: ${EXTENSIONS.length} scenarios, each run with --force and required to pass`);
  for (const scenario of EXTENSIONS) {
    const { code, output } = await runScenario(set, scenario, false);
    const tally = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
    const counts = tally ? `${tally[1]}/${tally[2]} checks passed` : "no tally";
    if (code === 0) console.log(`  ok    ${scenario} (${counts})`);
    else {
      failedHere++;
      console.log(`  FAIL  ${scenario} (${counts})`);
      process.stdout.write(output.replace(/^/gm, "        "));
    }
  }
  console.log(`conformance:client extensions: ${EXTENSIONS.length - failedHere} of ${EXTENSIONS.length} passed`);
  failed += failedHere;
}
process.exit(failed > 0 ? 1 : 0);
