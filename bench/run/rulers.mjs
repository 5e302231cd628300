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

/** A ratio's spread as a row wants it. */
const minMax = (s) => ({ min: s.min, max: s.max });

/**
 * Fan-out (issue 43), micro/fanout.mjs: one notification to 10,000 open
 * listen streams, @x against the bare SSE server writing the same bytes, in
 * paired rounds. The goal is judged on the server's CPU per notification
 * (the steady figure); the wall time until the last stream is shown beside it.
 */
const fanOut = {
  name: "fan-out",
  ruler: "server CPU µs/notification, paired rounds",
  async run({ quick }) {
    const { fanout } = await import("../micro/fanout.mjs");
    const count = quick ? 200 : 10_000;
    const r = await fanout({ counts: [count], rounds: quick ? 2 : 3, notifies: quick ? 2 : 5, log });
    const row = r.rows.at(-1);
    const goal = quick ? undefined : "fan-out: the last of 10,000 listen streams notified within 1.3x bare (issue 43; on server CPU)";
    return {
      rows: [
        {
          name: `one notification to ${count.toLocaleString("en-US")} listen streams`,
          ruler: this.ruler,
          value: row.cpuUs[0].median,
          bare: row.cpuUs[1].median,
          ratio: row.cpuRatio.median,
          spread: minMax(row.cpuRatio),
          goal,
          met: goal === undefined ? undefined : row.cpuRatio.median <= 1.3,
        },
        {
          name: `  the last of them notified after (ms, for reading)`,
          ruler: "ms wall, paired rounds",
          value: row.lastMs[0].median,
          bare: row.lastMs[1].median,
          ratio: row.wallRatio.median,
          spread: minMax(row.wallRatio),
        },
      ],
      raw: r,
    };
  },
};

/**
 * The tail (issue 43), micro/tail.mjs: p99 at 256 connections, @x against
 * the bare responder under one load generator, in paired slices; beside it
 * the figures of each server's own work that explain it.
 */
const tail = {
  name: "tail",
  ruler: "ms wall p99, paired slices",
  async run({ quick }) {
    const { benchTail } = await import("../micro/tail.mjs");
    const r = await benchTail({ quick });
    const shown = ["p99 ms", "p50 ms", "server CPU µs/req", "GC ms /10k req", "loop delay p99 ms"];
    const rows = shown.map((figure) => {
      const f = r.rows.find((row) => row.figure === figure);
      const judged = figure === "p99 ms" && !quick;
      return {
        name: `256 connections, ${figure}${judged ? "" : " (for reading)"}`,
        ruler: figure === "p99 ms" ? this.ruler : figure === "p50 ms" ? "ms wall p50, paired slices" : `${figure}, paired slices`,
        value: f.x.median,
        bare: f.bare.median,
        ratio: f.ratio.median,
        spread: minMax(f.ratio),
        goal: judged ? "tail: p99 at 256 connections within 1.2x bare (issue 43)" : undefined,
        met: judged ? r.verdict.met : undefined,
      };
    });
    return { rows, raw: { rows: r.rows, verdict: r.verdict } };
  },
};

/**
 * Cold import (issue 43), micro/cold-import.mjs: @x/server and @x/client, ms
 * over an empty Node (fresh processes, interleaved) and instructions over an
 * empty module (valgrind) beside them. Goal: 8 ms each.
 */
const coldImports = {
  name: "cold import",
  ruler: "ms wall over empty node, interleaved",
  async run({ quick }) {
    const { coldImport } = await import("../micro/cold-import.mjs");
    const r = await coldImport({ runs: quick ? 3 : 20, instructions: true });
    const rows = r.rows.map((row) => ({
      name: `${row.entry} (+${(row.instructions / 1e6).toFixed(2)} M instructions${row.firstCall ? `, +${(row.firstCall / 1e6).toFixed(2)} M with a first tools/call` : ""})`,
      ruler: `${this.ruler}; valgrind instructions over an empty module`,
      value: row.ms,
      bare: Number.NaN,
      ratio: Number.NaN,
      spread: { min: row.min, max: row.max },
      goal: quick ? undefined : `cold import of ${row.entry} <= 8 ms over empty node (issue 43)`,
      // An unsteady row (an empty Node outlasted an import) judges nothing.
      met: quick ? undefined : { met: true, "NOT met": false }[r.verdict[row.entry]],
    }));
    return { rows, raw: r };
  },
};

/** The rulers `pnpm bench` runs after its own phases, in order. */
export const RULERS = [largeResults, fanOut, tail, coldImports];

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
