// Cold imports: fresh processes, the specs interleaved.
import { spawnSync } from "node:child_process";
import { CONFIG, here, IMPORTS } from "./config.mjs";
import { median, repetitionsOf } from "./stats.mjs";

/**
 * Cold imports: fresh processes, each spec of IMPORTS once per run (the runs
 * interleave the specs), grouped into repetitions as the slices of the load
 * rows are (run i belongs to repetition i mod R). A repetition's figure for a
 * spec is its fastest run minus the fastest empty `node` of the same runs.
 */
export function coldImports() {
  const specs = { empty: [], ...IMPORTS };
  const times = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  for (let i = 0; i < CONFIG.coldRuns; i++) {
    for (const [key, modules] of Object.entries(specs)) {
      const code = modules.map((m) => `await import(${JSON.stringify(m)});`).join("");
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: here, stdio: ["ignore", "ignore", "pipe"] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`importing ${modules.join(", ")} failed: ${r.stderr}`);
      times[key].push(ms);
    }
  }
  const best = (key) => repetitionsOf(times[key], (ms) => ms, true);
  const empty = best("empty");
  const out = { emptyMs: median(empty), runs: times, reps: {} };
  for (const key of Object.keys(IMPORTS)) {
    out.reps[key] = best(key).map((ms, j) => ms - empty[j]);
    out[key] = median(out.reps[key]);
  }
  return out;
}
