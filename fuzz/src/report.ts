/** Plain-text tables for the fuzzer's and the soak's reports. */
import { isKnownOpen, KNOWN_OPEN, type Transport, VIOLATION_KINDS } from "./config.js";
import type { Tally } from "./run.js";
import type { Memory } from "./server.js";

/** Formats rows: the first `left` columns left-aligned, the others right-aligned. */
export function table(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, k) => (k < left ? c.padEnd(widths[k]!) : c.padStart(widths[k]!))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** The column of a run in the tables: its transport, and the era when it is the earlier one (`http 2025-11-25`). */
export function columnOf(t: Tally): string {
  return t.era === "2025-11-25" ? `${t.transport} 2025-11-25` : t.transport;
}

export const mib = (bytes: number | undefined): string => (bytes === undefined ? "-" : (bytes / 1024 / 1024).toFixed(1));

/**
 * The counts table: one row per invariant, one column per transport (summed
 * over repeated runs). A count marked `*` is covered by KNOWN_OPEN, `(k known)`
 * when only part of it is.
 */
export function countsTable(tallies: Tally[]): string {
  const transports = [...new Set(tallies.map(columnOf))];
  const header = ["invariant (violations)", ...transports];
  const rows: string[][] = [];
  for (const kind of VIOLATION_KINDS) {
    const cells = transports.map((transport) => {
      let total = 0;
      let known = 0;
      for (const t of tallies.filter((x) => columnOf(x) === transport)) {
        total += t.counts.get(kind)?.total ?? 0;
        known += t.counts.get(kind)?.known ?? 0;
      }
      if (total === 0) return "0";
      if (known === total) return `${total} *`;
      return known > 0 ? `${total} (${known} known)` : `${total} !`;
    });
    rows.push([kind, ...cells]);
  }
  const sum = (transport: string, f: (t: Tally) => number) =>
    tallies.filter((t) => columnOf(t) === transport).reduce((a, t) => a + f(t), 0);
  rows.push(["cases", ...transports.map((tr) => String(sum(tr, (t) => t.cases)))]);
  rows.push(["seconds", ...transports.map((tr) => sum(tr, (t) => t.seconds).toFixed(1))]);
  rows.push([
    "cases/s",
    ...transports.map((tr) =>
      (
        sum(tr, (t) => t.cases) /
        Math.max(
          0.001,
          sum(tr, (t) => t.seconds),
        )
      ).toFixed(0),
    ),
  ]);
  return `${table(header, rows)}\n(* known open, in KNOWN_OPEN; ! not known)`;
}

/** RSS and heap of the server before and after each run, after a forced GC. */
export function memoryTable(tallies: Tally[]): string {
  const rows = tallies.map((t, k) => {
    const runNo = tallies.slice(0, k + 1).filter((x) => columnOf(x) === columnOf(t)).length;
    return [
      `${columnOf(t)} run ${runNo}`,
      String(t.cases),
      mib(t.memoryBefore?.rss),
      mib(t.memoryAfter?.rss),
      mib(t.memoryBefore?.heapUsed),
      mib(t.memoryAfter?.heapUsed),
      t.stoppedBy,
    ];
  });
  return table(["run", "cases", "RSS before MiB", "RSS after MiB", "heap before MiB", "heap after MiB", "ended by"], rows);
}

/** Violations per kind and case category, per transport: the categories a fix has to cover (the `top` largest per kind). */
export function categoriesTable(tallies: Tally[], top = 4): string {
  const transports = [...new Set(tallies.map(columnOf))];
  const count = (key: string, tr: string) =>
    tallies.filter((t) => columnOf(t) === tr).reduce((a, t) => a + (t.byCategory.get(key) ?? 0), 0);
  const rows: string[][] = [];
  for (const kind of VIOLATION_KINDS) {
    const keys = [...new Set(tallies.flatMap((t) => [...t.byCategory.keys()]))].filter((k) => k.startsWith(`${kind} `));
    const total = (key: string) => transports.reduce((a, tr) => a + count(key, tr), 0);
    keys.sort((a, b) => total(b) - total(a));
    for (const key of keys.slice(0, top)) {
      const category = key.slice(kind.length + 1);
      rows.push([
        kind,
        category,
        ...transports.map((tr) => {
          const n = count(key, tr);
          return n === 0 ? "0" : `${n}${isKnownOpen(kind, tr.split(" ")[0] as Transport, category) ? " *" : " !"}`;
        }),
      ]);
    }
    const rest = keys.slice(top);
    if (rest.length > 0)
      rows.push([kind, `(${rest.length} other categories)`, ...transports.map((tr) => String(rest.reduce((a, k) => a + count(k, tr), 0)))]);
  }
  return table(["violation", "case category", ...transports], rows, 2);
}

/** Cases sent per family, per transport. */
export function familiesTable(tallies: Tally[]): string {
  const transports = [...new Set(tallies.map(columnOf))];
  const families = [...new Set(tallies.flatMap((t) => [...t.families.keys()]))].sort();
  const rows = families.map((f) => [
    f,
    ...transports.map((tr) => String(tallies.filter((t) => columnOf(t) === tr).reduce((a, t) => a + (t.families.get(f) ?? 0), 0))),
  ]);
  return table(["case family", ...transports], rows);
}

/** A few examples of each violation seen. */
export function examplesText(tallies: Tally[]): string {
  const out: string[] = [];
  for (const t of tallies) {
    for (const [kind, examples] of t.examples) {
      for (const e of examples) {
        const mark = isKnownOpen(kind, t.transport, e.category) ? "known" : "NEW";
        out.push(`[${columnOf(t)}] ${kind} (${mark}) case ${e.index} ${e.category}: ${e.detail}`);
        if (e.sent) out.push(`    sent: ${e.sent.slice(0, 240).replace(/[\r\n]/g, " ")}`);
      }
    }
  }
  return out.join("\n");
}

/** The KNOWN_OPEN list, as printed under the table. */
export function knownOpenText(): string {
  return KNOWN_OPEN.map(
    (k) => `  ${k.kind} [${k.transports.join(", ")}${k.categories ? `; ${k.categories.join(", ")}` : ""}]: ${k.finding}`,
  ).join("\n");
}

/** One memory sample as table cells (MiB). */
export function memoryCells(m: Memory | undefined): string[] {
  return [mib(m?.rss), mib(m?.heapUsed), mib(m?.heapTotal), mib(m?.external)];
}
