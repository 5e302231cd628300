// The main table as printed.
import { largestParts, SHAPES } from "../bundles.mjs";
import { CONFIG, ROUNDS } from "./config.mjs";
import { COLUMNS, PEERS } from "./rows.mjs";

/** One figure as the table prints it: the unit's precision, and its min–max when repeated. */
export function format(figure, key) {
  if (!Number.isFinite(figure?.value)) return "n/a";
  const one = (v) => {
    if (key === "http echo c=32 latency") return v.toFixed(2);
    if (key.startsWith("http") || key === "stdio" || key.startsWith("instructions")) return Math.round(v).toLocaleString("en-US");
    return v.toFixed(1);
  };
  const shown = one(figure.value);
  if (!figure.reps || figure.reps.length < 2) return shown;
  return `${shown} (${one(figure.min)}–${one(figure.max)})`;
}

export function formatRatio(ratio, row) {
  if (row.status.startsWith("BROKEN")) return "broken";
  if (!Number.isFinite(ratio.value)) return "n/a";
  if (!ratio.reps || ratio.reps.length < 2) return ratio.value.toFixed(2);
  return `${ratio.value.toFixed(2)} (${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)})`;
}

export const percent = (v) => `${v >= 0 ? "+" : ""}${(v * 100).toFixed(1)}%`;

/**
 * A row's spread over its repetitions, as ± half its min–max against its
 * median: of the @x / bare paired ratio where the row has one, else of @x's
 * figure; "one read" for a figure measured once, "exact" for a size.
 */
export function spreadText(row) {
  if (row.key.startsWith("bundle")) return "exact";
  const r = Number.isFinite(row.ratios?.bare?.value) && row.ratios.bare.reps?.length > 1 ? row.ratios.bare : row.x;
  if (!r?.reps || r.reps.length < 2 || !Number.isFinite(r.value)) return Number.isFinite(r?.value) ? "one read" : "";
  return `±${(((r.max - r.min) / 2 / r.value) * 100).toFixed(1)}%`;
}

/** A row's verdict: its goal's (met / NOT met) when a goal is judged on it, else "—". */
export function verdictOf(row, goalList) {
  const mine = goalList.filter((g) => g.row === row.key && g.met !== undefined);
  if (mine.length === 0) return "—";
  return mine.every((g) => g.met) ? "met" : "NOT met";
}

export function printTable(rows, officialFrom, goalList, meta, bundles, sessionVersions) {
  const header = [
    "figure",
    "ruler",
    ...COLUMNS.map((c) => c.label),
    ...PEERS.map((p) => `@x / ${p}`),
    "spread",
    "verdict",
    "bare spread",
    "measurement",
  ];
  const lines = rows.map((r) => [
    r.figure,
    r.ruler,
    ...COLUMNS.map((c) => format(r[c.key], r.key)),
    ...PEERS.map((p) => formatRatio(r.ratios[p], r)),
    spreadText(r),
    verdictOf(r, goalList),
    r.bareSpread ? `${percent(r.bareSpread.low)} ${percent(r.bareSpread.high)}` : "",
    r.rounds ? `${r.status}, ${r.rounds} rounds` : r.status,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells) =>
    `| ${cells.map((c, i) => (i <= 1 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  const out = [];
  out.push(`@x/bench ${meta.quick ? "(--quick: numbers are not meaningful)" : ""}`.trim());
  out.push(
    `node ${process.version}, ${meta.cpus} x ${meta.cpuModel}, load average before ${meta.loadBefore.map((l) => l.toFixed(2)).join(" ")}, after ${meta.loadAfter.map((l) => l.toFixed(2)).join(" ")}`,
  );
  out.push(
    `HTTP and stdio: ${ROUNDS} rounds of one ${CONFIG.sliceMs} ms slice (stdio ${CONFIG.stdioSliceMs} ms) per server and row, the servers in turn, in the opposite order every other round, after a warm-up; ${CONFIG.repetitions} repetitions, repetition j the best slice of rounds j, j+${CONFIG.repetitions}, ...; cold import: ${CONFIG.coldRuns} runs of fresh processes, repetition j the fastest of runs j, j+${CONFIG.repetitions}, ... Figures: median (min–max) over the repetitions; ratios paired per repetition (@x's repetition j over the peer's repetition j)${CONFIG.extra.times > 0 ? "; a row's extra rounds load @x and bare only, so @x's ratio to official or tmcp is taken over the rounds those ran" : ""}. ruler: what a row is measured with; spread: ± half the min–max of its @x / bare paired ratio (of @x's figure without one) against its median; verdict: its goal's, in the list below (— : no goal on the row).`,
  );
  out.push("");
  out.push(render(header));
  out.push(`|${widths.map((w, i) => (i <= 1 || i === widths.length - 1 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const l of lines) out.push(render(l));
  out.push("");
  out.push(
    `bare spread: the bare figure's min and max over the repetitions against its median; a row beyond ±${(CONFIG.unstableSpread * 100).toFixed(0)}% is "unstable", a row where bare is below @x "BROKEN" (its ratios are not results).`,
  );
  const froms = Object.entries(officialFrom)
    .filter(([cell]) => !cell.startsWith("legacy"))
    .map(([cell, from]) => `${cell}: ${from}`);
  out.push(`official = the faster of "server per request" (its docs) and "server built once", per row: ${froms.join(", ")}`);
  const versions = Object.entries(sessionVersions)
    .map(([key, version]) => `${key} ${version}`)
    .join(", ");
  out.push(
    `2025-11-25 rows: one session per server (initialize + notifications/initialized) shared by all connections; official = its sessionful wiring (a McpServer and NodeStreamableHTTPServerTransport per session), serving that era only; bare answers @x's bytes to any session id. Version each initialize negotiated: ${versions} (tmcp offers 2025-06-18 at most; its session then serves tools/call the same way).`,
  );
  out.push(
    `tmcp = tmcp ${meta.versions.tmcp} with @tmcp/transport-http ${meta.versions.tmcpHttp} on node:http (@remix-run/node-fetch-server), @tmcp/transport-stdio ${meta.versions.tmcpStdio}, tools declared with valibot through @tmcp/adapter-valibot; its cold import is tmcp + @tmcp/transport-http.`,
  );
  out.push(
    `sessions rows: each server with a ${CONFIG.sessions.idleMs / 1000} s idle timeout (@x: sessionIdleTimeoutMs; official: a sweep written in servers/official.mjs, the SDK has none); heap after GC asked over IPC, RSS from /proc.`,
  );
  const reasons = new Map();
  for (const r of rows) {
    for (const c of COLUMNS)
      if (r[c.key]?.why) reasons.set(`${c.label}: ${r[c.key].why}`, (reasons.get(`${c.label}: ${r[c.key].why}`) ?? 0) + 1);
  }
  if (reasons.size) out.push(`n/a: ${[...reasons.keys()].join("; ")}.`);
  out.push("req/s: higher is better; ms, KB and MiB: lower is better.");
  out.push(
    `bundles (bundles.mjs): each shape's minimal/*.mjs bundled by esbuild (minified ES module for Node 20) alone in an empty folder with links to the packages it imports, everything it needs at run time inside; a bundle carries the JSON Schema validator its program names (none for a Standard Schema tool), or under the worker condition the cfworker default. Largest parts, KB minified: ${SHAPES.filter(
      (s) => bundles[s.key]?.byPackage,
    )
      .map((s) => `${s.key}: ${largestParts(bundles[s.key])}`)
      .join("; ")}. Checks: ${SHAPES.filter((s) => bundles[s.key]?.check)
      .map((s) => `${s.key} ${bundles[s.key].check}`)
      .join("; ")}.`,
  );
  out.push("");
  out.push("goals (issues 19, 39 and 43):");
  for (const g of goalList) {
    let shown;
    if (g.shown === "text") shown = g.text;
    else if (g.shown === "ratio" && !Number.isFinite(g.value)) shown = "not measured";
    else if (g.shown === "ratio")
      shown =
        Number.isFinite(g.min) && g.min !== g.max ? `${g.value.toFixed(2)} (${g.min.toFixed(2)}–${g.max.toFixed(2)})` : g.value.toFixed(2);
    else if (!Number.isFinite(g.value)) shown = "not measured";
    else
      shown =
        Number.isFinite(g.min) && g.min !== g.max
          ? `${g.value.toFixed(1)} ${g.shown} (${g.min.toFixed(1)}–${g.max.toFixed(1)})`
          : `${g.value.toFixed(1)} ${g.shown}`;
    const mark = g.met === undefined ? "not measured" : g.met ? "met" : "NOT met";
    out.push(`  [${mark}] ${g.goal}: ${shown}${g.note ? ` (${g.note})` : ""}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
}
