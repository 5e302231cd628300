// The rows of the main table from the phases' results, each judged.
import { LEGACY_WORKLOADS, WORKLOADS } from "../workloads.mjs";
import { SHAPES } from "../bundles.mjs";
import { CONFIG } from "./config.mjs";
import { pairedRatio, repetitionsOf, spreadOf } from "./stats.mjs";

/** The columns of the table, in order; ratios are `@x` over each of the others. */
export const COLUMNS = [
  { key: "x", label: "@x" },
  { key: "official", label: "official" },
  { key: "tmcp", label: "tmcp" },
  { key: "bare", label: "bare" },
];
export const PEERS = ["official", "tmcp", "bare"];

/** A figure measured once (no repetitions): its value is its own min and max. */
export const single = (value) => ({ value, min: value, max: value });
/** No figure, and why (printed under the table). */
export const none = (why) => ({ value: Number.NaN, min: Number.NaN, max: Number.NaN, why });

/**
 * The rows of the table. Each column of a row is a figure with its spread
 * (`value`, `min`, `max`, and `reps` when it was repeated); `kind: "load"`
 * marks the rows measured under load, which have a bare column to judge the
 * measurement by.
 */
export function summarise(http, stdio, cold, bundles, sessions, instructions) {
  const rows = [];
  const fromSlices = (key, cell, pick, lowerIsBetter) => {
    const slices = http.results[key]?.[cell];
    if (!slices?.length) return none(`not loaded: ${http.checks[key]?.session ?? "its answer was wrong (see checks)"}`);
    return { ...spreadOf(repetitionsOf(slices, pick, lowerIsBetter)), slices: slices.length };
  };
  // @x's figure over its first `n` slices: the rounds a peer was loaded in too (extra rounds load only @x and bare).
  const xOver = (slices, n, pick, lowerIsBetter) =>
    slices?.length > n ? spreadOf(repetitionsOf(slices.slice(0, n), pick, lowerIsBetter)) : undefined;
  const pairedOver = (row, xSlices, pick, lowerIsBetter) => {
    row.xPaired = {};
    for (const peer of ["official", "tmcp"]) {
      const n = row[peer]?.slices;
      const paired = n === undefined ? undefined : xOver(xSlices, n, pick, lowerIsBetter);
      if (paired !== undefined) row.xPaired[peer] = paired;
    }
    return row;
  };
  const pairedFor = (row, cell, pick, lowerIsBetter) => pairedOver(row, http.results.x?.[cell], pick, lowerIsBetter);
  // The official SDK's two 2026-07-28 wirings: each row takes the faster (by its median).
  const officialFrom = {};
  const bestOfficial = (cell, pick, higherIsBetter = true) => {
    const a = fromSlices("officialPerRequest", cell, pick);
    const b = fromSlices("officialOnce", cell, pick);
    const aBetter = !Number.isFinite(b.value) || (higherIsBetter ? a.value >= b.value : a.value <= b.value);
    officialFrom[cell] = aBetter ? "per request" : "once";
    return aBetter ? a : b;
  };
  // The earlier era's official column is its sessionful wiring.
  const eras = [
    [WORKLOADS, bestOfficial],
    [LEGACY_WORKLOADS, (cell) => fromSlices("officialSessions", cell)],
  ];
  for (const [workloads, officialOf] of eras) {
    for (const workload of workloads) {
      for (const c of CONFIG.concurrency) {
        const cell = `${workload.key} c=${c}`;
        const row = {
          figure: `HTTP ${workload.name}, c=${c} (req/s)`,
          key: `http ${cell}`,
          kind: "load",
          rounds: http.rounds[cell],
          higherIsBetter: true,
          x: fromSlices("x", cell),
          official: officialOf(cell),
          tmcp: fromSlices("tmcp", cell),
          bare: fromSlices("bare", cell),
        };
        rows.push(pairedFor(row, cell));
      }
    }
  }
  // The mean of each answer's own fractional duration (load.mjs).
  const mean = (r) => r.mean;
  const echo32 = "echo c=32";
  rows.push(
    pairedFor(
      {
        figure: "HTTP tools/call echo, c=32, mean latency (ms)",
        key: "http echo c=32 latency",
        kind: "load",
        rounds: http.rounds[echo32],
        higherIsBetter: false,
        x: fromSlices("x", echo32, mean, true),
        official: fromSlices(officialFrom[echo32] === "once" ? "officialOnce" : "officialPerRequest", echo32, mean, true),
        tmcp: fromSlices("tmcp", echo32, mean, true),
        bare: fromSlices("bare", echo32, mean, true),
      },
      echo32,
      mean,
      true,
    ),
  );
  const stdioOf = (key) =>
    stdio[key]?.ok
      ? { ...spreadOf(repetitionsOf(stdio[key].slices)), slices: stdio[key].slices.length }
      : none(`wrong answer: ${stdio[key]?.answer}`);
  rows.push(
    pairedOver(
      {
        figure: "stdio tools/call echo, pipelined (req/s)",
        key: "stdio",
        kind: "load",
        rounds: stdio.rounds,
        higherIsBetter: true,
        x: stdioOf("x"),
        official: stdioOf("official"),
        tmcp: stdioOf("tmcp"),
        bare: stdioOf("bare"),
      },
      stdio.x?.ok ? stdio.x.slices : undefined,
    ),
  );
  // Cold imports: each run of fresh processes is a repetition (x and its peers paired per run).
  const coldOf = (key) => spreadOf(cold.reps[key]);
  // The in-process rows: @x and bare only (official and tmcp are many times slower, and their ratios need no such ruler).
  const onlyXAndBare = none("counted for @x and bare only (the ruler of the request path's own cost)");
  for (const [path, figure] of [
    ["http", "HTTP tools/call echo, in-process, instructions per request"],
    ["stdio", "stdio tools/call echo, in-process, instructions per request"],
    ["session", "HTTP tools/call echo on a 2025-11-25 session, in-process, instructions per request"],
  ]) {
    const of = (key) => {
      if (instructions.skipped) return none(instructions.skipped);
      const reps = instructions[path]?.[key]?.reps ?? [];
      return reps.length > 0 && reps.every(Number.isFinite) ? spreadOf(reps) : none("a valgrind run failed (see the log)");
    };
    rows.push({
      figure,
      key: `instructions ${path}`,
      higherIsBetter: false,
      x: of("x"),
      official: onlyXAndBare,
      tmcp: onlyXAndBare,
      bare: of("bare"),
    });
    // The same path with @x/devtools attached: the page's cost to the server it watches.
    if (path !== "session")
      rows.push({
        figure: `${figure}, devtools page attached`,
        key: `instructions ${path} devtools`,
        higherIsBetter: false,
        x: of("devtools"),
        official: onlyXAndBare,
        tmcp: onlyXAndBare,
        bare: of("bare"),
      });
  }
  rows.push({
    figure: "cold import over empty node (ms)",
    key: "cold",
    higherIsBetter: false,
    x: coldOf("x"),
    official: coldOf("official"),
    tmcp: coldOf("tmcp"),
    bare: coldOf("bare"),
  });
  rows.push({
    figure: "cold import of the client (ms)",
    key: "cold client",
    client: true,
    higherIsBetter: false,
    x: coldOf("xClient"),
    official: coldOf("officialClient"),
    tmcp: none("tmcp ships no client"),
    bare: none("a bare client needs no import (fetch is global)"),
  });
  const kb = (b) => (b?.gzipBytes === undefined ? none(b?.pending ? `pending: ${b.pending}` : "not built") : single(b.gzipBytes / 1024));
  rows.push({
    figure: "minimal HTTP server bundle (KB gzip)",
    key: "bundle",
    higherIsBetter: false,
    x: kb(bundles.x),
    official: kb(bundles.official),
    tmcp: kb(bundles.tmcp),
    bare: kb(bundles.bare),
  });
  // The other shapes of @x (bundles.mjs), one row each; a pending shape is a row of n/a until its phase gives it an entry.
  const onlyX = none("a shape of @x only");
  for (const shape of SHAPES.filter((s) => s.key.startsWith("x") && s.key !== "x")) {
    rows.push({
      figure: `bundle: ${shape.label.replace(/^@x, /, "")} (KB gzip)`,
      key: `bundle ${shape.key}`,
      higherIsBetter: false,
      x: kb(bundles[shape.key]),
      official: onlyX,
      tmcp: onlyX,
      bare: onlyX,
    });
  }
  rows.push({
    figure: "HTTP server RSS after load (MiB)",
    key: "rss",
    higherIsBetter: false,
    x: single(http.rss.x.afterLoadMiB),
    official: single(Math.max(http.rss.officialPerRequest.afterLoadMiB, http.rss.officialOnce.afterLoadMiB)),
    tmcp: single(http.rss.tmcp.afterLoadMiB),
    bare: single(http.rss.bare.afterLoadMiB),
  });
  const n = CONFIG.sessions.count.toLocaleString("en-US");
  const phases = [
    ["before", "before"],
    ["open", "all open"],
    ["after", "after the idle timeout"],
  ];
  const notInSessions = none("not in the abandoned-sessions rows");
  for (const [measure, unit, name] of [
    ["heapUsedMiB", "MiB", "heap used after GC"],
    ["rssMiB", "MiB", "RSS"],
  ]) {
    for (const [phase, when] of phases) {
      rows.push({
        figure: `${n} sessions abandoned: ${name}, ${when} (${unit})`,
        key: `sessions ${measure} ${phase}`,
        higherIsBetter: false,
        x: single(sessions.x[phase]?.[measure] ?? Number.NaN),
        official: single(sessions.official[phase]?.[measure] ?? Number.NaN),
        tmcp: notInSessions,
        bare: notInSessions,
      });
    }
  }
  rows.push({
    figure: "heap after GC per open session (KB)",
    key: "sessions per session",
    higherIsBetter: false,
    x: single(sessions.x.heapPerSessionKB),
    official: single(sessions.official.heapPerSessionKB),
    tmcp: notInSessions,
    bare: notInSessions,
  });
  for (const row of rows) {
    judge(row);
    row.ruler = rulerOf(row);
  }
  return { rows, officialFrom };
}

/**
 * What a row is measured with, as printed in its "ruler" column: the goals
 * are judged on steady rulers (instruction counts, exact sizes); the req/s and
 * latency rows move with the machine's load and are kept for reading, as
 * ratios paired per repetition.
 */
function rulerOf(row) {
  const R = CONFIG.repetitions;
  if (row.key === "http echo c=32 latency") return `ms mean, paired ratio, ${R} reps`;
  if (row.kind === "load") return `paired req/s ratio, ${R} reps`;
  if (row.key.startsWith("instructions")) return "valgrind instr/req";
  if (row.key.startsWith("cold")) return `ms wall, best of ${CONFIG.coldRuns / R} per rep, ${R} reps`;
  if (row.key.startsWith("bundle")) return "KB gzip, exact";
  if (row.key === "rss") return "MiB RSS, one read";
  // The sessions rows: the unit the figure names.
  return `${/\(([^)]+)\)$/.exec(row.figure)?.[1] ?? "MiB"}, one read`;
}

/**
 * Ratios (@x over each peer, paired per repetition) and, for a load row,
 * whether the measurement holds: `unstable` when bare moved more than
 * CONFIG.unstableSpread against its median across the repetitions, `broken`
 * when bare came out slower than @x (the ceiling below what it bounds).
 */
export function judge(row) {
  // A peer left out of the extra rounds is paired with @x over the rounds it ran (row.xPaired).
  row.ratios = Object.fromEntries(PEERS.map((peer) => [peer, pairedRatio(row.xPaired?.[peer] ?? row.x, row[peer])]));
  row.status = "";
  if (row.kind !== "load") return;
  const bare = row.bare;
  if (!Number.isFinite(bare.value)) {
    row.status = "no bare figure";
    return;
  }
  row.bareSpread = { low: bare.min / bare.value - 1, high: bare.max / bare.value - 1 };
  // Below by its median or by the median paired ratio: either way the ceiling did not bound @x.
  const ratio = row.ratios.bare.value;
  const bareBelowX = row.higherIsBetter ? bare.value < row.x.value || ratio > 1 : bare.value > row.x.value || ratio < 1;
  if (bareBelowX) row.status = "BROKEN: bare below @x";
  else if (Math.max(-row.bareSpread.low, row.bareSpread.high) > CONFIG.unstableSpread) row.status = "unstable";
  else row.status = "ok";
}
