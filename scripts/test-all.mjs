#!/usr/bin/env node
// `pnpm test`: everything CI checks, in order, stopping at the first failure:
//   0. biome check: formatting and lint of the whole repository
//   1. sync the pinned spec schemas (checking their sha256)
//   2. regenerate the generated packages and fail on any difference
//   2b. api docs: regenerate docs/api (typedoc) in a temporary folder and fail on any
//      difference, on an exported declaration without a doc comment, or on guide code
//      (docs/server.md, docs/client.md) that does not type-check (scripts/api-docs.mjs)
//   2c. package graph: docs/architecture.md's graph must be the packages' real imports (scripts/package-graph.mjs)
//   3. build, typecheck, lint and unit-test every workspace package (turbo)
//   3b. pack check: pack every published package, publint and attw on each tarball,
//      install them all into a fresh project outside the repository, import and
//      require every entry, make a real call from ESM and CJS, type-check CommonJS
//      (module node16 and nodenext) and ES module TypeScript projects (scripts/pack-check.mjs, ~50 s)
//   3c. the same install with every runtime dependency at the lowest version its
//      range admits, then the imports and the calls (pack-check.mjs --lowest, ~10 s)
//   4. run the benchmarks briefly (bench --quick, about 3 minutes with its valgrind counts; bench:tasks --quick, a few
//      seconds, with its own redis-server), to prove they work
//   5. run the official conformance suite: the fixture server, then our client
// Pass --no-conformance to skip step 5.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };
const skipConformance = process.argv.includes("--no-conformance");

const steps = [
  ["format and lint (biome check of the whole repository)", bin("biome"), ["check", "."]],
  ["sync-schema", process.execPath, [join(root, "scripts", "sync-schema.mjs")]],
  ["check-generated", process.execPath, [join(root, "scripts", "check-generated.mjs")]],
  ["api docs", process.execPath, [join(root, "scripts", "api-docs.mjs"), "--check"]],
  ["package graph (docs/architecture.md against the imports)", process.execPath, [join(root, "scripts", "package-graph.mjs"), "--check"]],
  ["build, typecheck, lint, test", bin("turbo"), ["run", "build", "typecheck", "lint", "test", "--continue", "--output-logs=new-only"]],
  ["pack check (publint, attw, a fresh consumer)", process.execPath, [join(root, "scripts", "pack-check.mjs"), "--no-build"]],
  ["pack check at the lowest dependency versions", process.execPath, [join(root, "scripts", "pack-check.mjs"), "--no-build", "--lowest"]],
];
// The benchmark runs briefly (--quick) only to prove it works; its numbers are never asserted.
steps.push(["bench --quick", process.execPath, [join(root, "bench", "run.mjs"), "--quick", "--no-build"]]);
steps.push(["bench:tasks --quick", process.execPath, [join(root, "bench", "tasks-fanout.mjs"), "--quick", "--no-build"]]);
if (!skipConformance) {
  steps.push(["conformance (server)", process.execPath, [join(root, "conformance", "scripts", "run-server.mjs")]]);
  steps.push(["conformance (client)", process.execPath, [join(root, "conformance", "scripts", "run-client.mjs")]]);
}

let passed = 0;
for (const [name, command, args] of steps) {
  process.stdout.write(`\n=== ${name}\n`);
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) {
    process.stdout.write(`\n=== ${name} failed after ${seconds}s\n`);
    process.stdout.write(`steps: ${passed} passed, 1 failed\n`);
    process.exit(run.status ?? 1);
  }
  passed += 1;
  process.stdout.write(`=== ${name} passed in ${seconds}s\n`);
}
process.stdout.write(`\nsteps: ${passed} passed, 0 failed\n`);
