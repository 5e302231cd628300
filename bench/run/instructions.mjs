// Instructions per request, counted by valgrind (the request path's steady ruler).
import { spawnSync } from "node:child_process";
import { log } from "../lifecycle.mjs";
import { CONFIG } from "./config.mjs";
import { spreadOf } from "./stats.mjs";

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
export const INSTRUCTION_BUILDS = ["current", "devtools", "bare"];
/** The paths counted: HTTP and stdio in 2026-07-28, and the earlier era's calls on one HTTP session (micro/paths.mjs). */
export const INSTRUCTION_PATHS = ["http", "stdio", "session"];
/** The builds counted on `path` (the session path: @x and bare only). */
export const buildsOf = (path) => (path === "session" ? ["current", "bare"] : INSTRUCTION_BUILDS);
/**
 * The requests each run of `name` on `path` sends: `CONFIG.instructions[path]`,
 * a quarter of them with the devtools page attached, whose requests cost
 * about three times @x's own (its steps hold as many instructions, and it
 * took half of the phase's time at full counts).
 */
export const countsOf = (path, name) =>
  name === "devtools" ? CONFIG.instructions[path].map((n) => Math.round(n / 4)) : CONFIG.instructions[path];

export async function benchInstructions() {
  const probe = spawnSync("valgrind", ["--version"], { stdio: "ignore" });
  if (probe.error || probe.status !== 0) return { skipped: "valgrind is not installed (Debian's valgrind package)" };
  const { countInstructions } = await import("../micro/ab-builds.mjs");
  const jobs = [];
  for (const path of INSTRUCTION_PATHS) {
    for (const name of buildsOf(path)) for (const n of countsOf(path, name)) jobs.push({ path, name, n, count: Number.NaN });
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
