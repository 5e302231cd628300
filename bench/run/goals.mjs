// The goals judged on the rows of this run.
import { bundleTargets } from "../bundles.mjs";
import { args } from "./config.mjs";

/** A ratio goal on one load row: met when the median paired ratio reaches `at` and the row is not broken. */
export function ratioGoal(row, goal, at) {
  const r = row.ratios.bare;
  const broken = row.status.startsWith("BROKEN");
  return {
    goal,
    row: row.key,
    value: r.value,
    min: r.min,
    max: r.max,
    met: !broken && r.value >= at,
    shown: "ratio",
    note: broken ? "broken measurement, no result" : row.status === "unstable" ? "row unstable" : undefined,
  };
}

/**
 * The goals of issue 19, judged on the figures of this run. `idleMemory`
 * (the memory-after-idle phase of the issue's "New rows") is
 * `{ x: { beforeMiB, afterIdleMiB } }`, the RSS of @x before the load and
 * after it was idle; without it that goal is printed as not measured.
 */
export function goals(rows, { idleMemory, bundles } = {}) {
  const row = (key) => rows.find((r) => r.key === key);
  const out = [
    ratioGoal(row("http echo c=32"), "HTTP tools/call echo, c=32 >= 0.90 of bare", 0.9),
    ratioGoal(row("http structured c=32"), "HTTP tools/call structured, c=32 >= 0.90 of bare", 0.9),
    ratioGoal(row("stdio"), "stdio pipelined tools/call >= 0.75 of bare", 0.75),
  ];
  for (const peer of ["tmcp", "official"]) {
    const compared = rows.filter((r) => !r.client && Number.isFinite(r.ratios[peer].value) && !r.status.startsWith("BROKEN"));
    const behind = compared.filter((r) => (r.higherIsBetter ? r.ratios[peer].value <= 1 : r.ratios[peer].value >= 1));
    out.push({
      goal: `@x ahead of ${peer} on every server row`,
      met: behind.length === 0,
      shown: "text",
      text:
        behind.length === 0
          ? `ahead on all ${compared.length} rows with a ${peer} figure`
          : `behind on ${behind.map((r) => `${r.key} (${r.ratios[peer].value.toFixed(2)})`).join(", ")}; ahead on ${compared.length - behind.length} of ${compared.length}`,
    });
  }
  // Issue 43: the request path's own cost against bare's, on the instruction ruler (a ratio of medians).
  for (const [key, label, at] of [
    ["instructions http", "HTTP", 1.25],
    ["instructions stdio", "stdio", 1.2],
    ["instructions session", "the earlier era's session tools/call over HTTP", 1.35],
  ]) {
    const r = row(key);
    const value = r && Number.isFinite(r.x?.value) && Number.isFinite(r.bare?.value) ? r.x.value / r.bare.value : Number.NaN;
    out.push({
      goal: `instructions per request, ${label}, <= ${at}x bare (issue 43)`,
      row: key,
      value,
      met: Number.isFinite(value) ? value <= at : undefined,
      shown: "ratio",
    });
  }
  const cold = row("cold").x;
  // Issue 39's bundle targets (bundles.mjs); a shape a later phase makes buildable is "not measured" until then.
  for (const t of bundleTargets(bundles)) {
    out.push({
      goal: `bundle, ${t.label.replace(/^@x, /, "")}${t.over ? `: what it adds to ${t.over}` : ""}, <= ${t.targetKB} KB gzip (issue 39)`,
      value: t.valueKB ?? Number.NaN,
      met: t.met,
      shown: "KB",
      note: t.pending ? `pending: ${t.pending}` : undefined,
    });
  }
  out.push({ goal: "cold import of @x/server <= 10 ms over empty node", row: "cold", ...cold, met: cold.value <= 10, shown: "ms" });
  const idle = idleMemory?.x;
  out.push(
    idle
      ? {
          goal: "RSS of @x after idle within 10% of its level before the load",
          value: idle.afterIdleMiB / idle.beforeMiB,
          met: Math.abs(idle.afterIdleMiB / idle.beforeMiB - 1) <= 0.1,
          shown: "ratio",
        }
      : {
          goal: "RSS of @x after idle within 10% of its level before the load",
          met: undefined,
          shown: "text",
          text: args.includes("--no-growth")
            ? "not measured in this run (--no-growth)"
            : "measured by the cost-growth phase: see its goals below, and the summary at the end",
        },
  );
  return out;
}
