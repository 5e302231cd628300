// Standalone rulers as rows of `pnpm bench`: a registry. A ruler lives in its own
// script under bench/micro/ (runnable alone); its entry here runs it and answers rows.
//
// An entry: { name, ruler, run({ quick }) } where `ruler` says what it measures in
// (e.g. "valgrind instr/call") and `run` resolves with
//   { rows: [{ name, ruler, value, bare, ratio, spread: { min, max }, goal, met }] }
// `value` and `bare` in the ruler's unit, `ratio` = value / bare (its spread over
// the repetitions in `spread`), `goal` the goal's text (undefined: no goal) and `met`
// true, false or undefined (no goal, or not measured). A row that could not be
// measured has `value` NaN and `why`. To add a ruler, push an entry onto RULERS.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { log } from "../lifecycle.mjs";
import { here } from "./config.mjs";
import { median } from "./stats.mjs";

/**
 * Runs a bench/micro script with `args` and answers its stdout; rejects with
 * its stderr when it fails. Bounded by the script (each ends after its counts).
 */
function runMicro(script, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, "micro", script), ...args], { cwd: here, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.stderr.on("data", (c) => {
      err += c;
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${script} ${args.join(" ")} exited ${code}: ${err.slice(-400)}`)),
    );
  });
}

/**
 * Large results (issue 43), micro/large-path.mjs: instructions per `tools/call`
 * of a 100 KB and a 1 MB answer, text and structured content, @x against the
 * bare responder writing @x's bytes. Each build runs a process per count
 * (`countsOf`); each difference of neighbouring counts over the calls between
 * them is one repetition.
 */
const largeResults = {
  name: "large results",
  ruler: "valgrind instr/call",
  async run({ quick }) {
    // --quick only proves the wiring: text alone, small answers, one repetition.
    // Where a collection falls moves a process's count by millions of instructions: steps of
    // 2 calls at 1 MB gave repetitions of -7 K to 45 M for one figure, so the counts are
    // large-path.mjs's own (8, 24, 40 calls at 1 MB), and 40..200 calls at 100 KB.
    const countsOf = (kb) => (quick ? ["4", "8"] : kb >= 1000 ? ["8", "24", "40"] : ["40", "120", "200"]);
    const kinds = quick ? ["text"] : ["text", "struct"];
    const [small, large] = quick ? [10, 100] : [100, 1000];
    const perCall = async (name, kind, kb) => {
      const text = await runMicro("large-path.mjs", ["--instructions", name, kind, String(kb), ...countsOf(kb)]);
      const steps = /per step: ([^)]*)\)/.exec(text)?.[1];
      if (!steps) throw new Error(`large-path.mjs printed no count: ${text.slice(0, 300)}`);
      return steps.split(", ").map((s) => Number(s.replace(/,/g, "")));
    };
    const rows = [];
    const cells = {};
    for (const kind of kinds) {
      for (const kb of [small, large]) {
        // @x and bare one after another, each using both cores (large-path.mjs runs two counts at a time).
        const x = await perCall("current", kind, kb);
        const bare = await perCall("bare", kind, kb);
        const ratios = x.map((v, j) => v / bare[j]);
        cells[`${kind}-${kb}`] = { x, bare };
        const at = kind === "text" ? 1.5 : 2;
        const ratio = median(ratios);
        rows.push({
          name: `${kind === "text" ? "text" : "structured content"}, ${kb >= 1000 ? "1 MB" : `${kb} KB`}`,
          ruler: this.ruler,
          value: median(x),
          bare: median(bare),
          ratio,
          spread: { min: Math.min(...ratios), max: Math.max(...ratios) },
          goal: kb === 1000 ? `large results, ${kind === "text" ? "text" : "structured"} 1 MB, <= ${at}x bare (issue 43)` : undefined,
          // A count no larger than a process's noise can come out at or below zero: then nothing is judged.
          met: kb === 1000 && [...x, ...bare].every((v) => v > 0) ? ratio <= at : undefined,
        });
        log(
          `bench: large ${kind}-${kb}: @x ${Math.round(ratio * 100) / 100}x bare (${x.map(Math.round).join(", ")} vs ${bare.map(Math.round).join(", ")})`,
        );
      }
    }
    // Growth from 100 KB to 1 MB, @x's against bare's: no worse than bare's own.
    for (const kind of kinds) {
      const g = (key) => median(cells[`${kind}-${large}`][key]) / median(cells[`${kind}-${small}`][key]);
      const x = g("x");
      const bare = g("bare");
      const at = (kb) => cells[`${kind}-${kb}`];
      const reps = at(large).x.map((v, j) => v / at(small).x[j] / (at(large).bare[j] / at(small).bare[j]));
      rows.push({
        name: `${kind === "text" ? "text" : "structured content"}, growth ${small} KB -> ${large} KB (instr/call ratio)`,
        ruler: `${this.ruler}, ${large} KB over ${small} KB`,
        value: x,
        bare,
        ratio: x / bare,
        spread: { min: Math.min(...reps), max: Math.max(...reps) },
        goal: `large results, ${kind === "text" ? "text" : "structured"} growth ${small} KB -> ${large} KB no worse than bare's (issue 43)`,
        met: reps.every((v) => v > 0) ? x / bare <= 1 + (Math.max(...reps) - Math.min(...reps)) / 2 : undefined,
      });
    }
    return { rows, cells };
  },
};

/** The rulers `pnpm bench` runs after its own phases, in order. */
export const RULERS = [largeResults];

/** Every ruler's rows (a ruler that fails gives one row saying why, its goals not measured). */
export async function runRulers({ quick }) {
  const probe = spawnSync("valgrind", ["--version"], { stdio: "ignore" });
  const out = [];
  for (const r of RULERS) {
    if (r.ruler.startsWith("valgrind") && (probe.error || probe.status !== 0)) {
      out.push({ ruler: r.name, rows: [{ name: r.name, ruler: r.ruler, value: Number.NaN, why: "valgrind is not installed" }] });
      continue;
    }
    try {
      out.push({ ruler: r.name, ...(await r.run({ quick })) });
    } catch (error) {
      log(`bench: ruler ${r.name}: ${error.message ?? error}`);
      out.push({
        ruler: r.name,
        rows: [{ name: r.name, ruler: r.ruler, value: Number.NaN, why: String(error.message ?? error).slice(0, 300) }],
      });
    }
  }
  return out;
}

/** The rulers' rows as printed after the main table. */
export function rulersReport(results) {
  const lines = ["standalone rulers (bench/run/rulers.mjs):"];
  const f = (v) => (Number.isFinite(v) ? (Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") : v.toFixed(2)) : "n/a");
  for (const { rows } of results) {
    for (const r of rows) {
      const verdict = r.met === undefined ? "—" : r.met ? "met" : "NOT met";
      const spread = r.spread && Number.isFinite(r.spread.min) ? ` (${r.spread.min.toFixed(2)}–${r.spread.max.toFixed(2)})` : "";
      lines.push(
        `  ${r.name}: @x ${f(r.value)}, bare ${f(r.bare)}, @x/bare ${f(r.ratio)}${spread} [${r.ruler}] ${verdict}${r.why ? ` (${r.why})` : ""}`,
      );
    }
  }
  return lines.join("\n");
}

/** The rulers' goals, for the goal lists. */
export const rulerGoals = (results) =>
  results.flatMap(({ rows }) =>
    rows.filter((r) => r.goal !== undefined || r.why).map((r) => ({ goal: r.goal ?? r.name, met: r.met, value: r.ratio })),
  );
