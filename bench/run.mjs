#!/usr/bin/env node
// `pnpm bench [--quick] [--no-build] [--cpu-prof] [--only=PHASE,...]`: the same
// workloads against @x/server, the official @modelcontextprotocol/server, tmcp
// and a bare responder, in one invocation, in both protocol eras (2026-07-28,
// and 2025-11-25 on an initialized session), the memory of abandoned
// earlier-era sessions, the standalone rulers (run/rulers.mjs), then the client
// rows and the cost-growth tables. Prints one table and writes the raw results
// as JSON under bench/results/. See bench/README.md for how to read it.
//
// The phases live in run/ (config, servers, http, stdio, instructions,
// sessions, cold, rows, goals, table, rulers, phases); this file runs them in turn.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { bundleReport, bundleSizes } from "./bundles.mjs";
import { log, runMain, stop } from "./lifecycle.mjs";
import { coldImports } from "./run/cold.mjs";
import { args, CONFIG, footprint, here, IMPORTS, quick, root, STDIO_SERVERS, versionOf } from "./run/config.mjs";
import { goals } from "./run/goals.mjs";
import { benchHttp } from "./run/http.mjs";
import { benchInstructions } from "./run/instructions.mjs";
import { PHASES, phase, phaseReport, phaseTimes, plannedSeconds } from "./run/phases.mjs";
import { summarise } from "./run/rows.mjs";
import { rulerGoals, rulersReport, runRulers } from "./run/rulers.mjs";
import { build, loadProcess, startLoadProcess } from "./run/servers.mjs";
import { benchSessions } from "./run/sessions.mjs";
import { benchStdio } from "./run/stdio.mjs";
import { printTable } from "./run/table.mjs";

/** `--only=a,b`: the phases run (every phase unless told); a partial run prints its phases' logs and times, no table. */
const onlyArg = args.find((a) => a.startsWith("--only="));
const only = onlyArg ? onlyArg.slice("--only=".length).split(",").filter(Boolean) : undefined;
for (const name of only ?? []) if (!PHASES.includes(name)) throw new Error(`--only: unknown phase ${name} (phases: ${PHASES.join(", ")})`);
const runs = (name) => only === undefined || only.includes(name);

const planned = plannedSeconds({ quick });

async function main() {
  build();
  mkdirSync(join(here, "results"), { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    quick,
    only,
    node: process.version,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    totalMemMiB: Math.round(totalmem() / 1048576),
    loadBefore: loadavg(),
    config: CONFIG,
    plannedSeconds: planned,
    versions: {
      official: JSON.parse(readFileSync(join(here, "node_modules", "@modelcontextprotocol", "server", "package.json"), "utf8")).version,
      x: JSON.parse(readFileSync(join(root, "packages", "server", "package.json"), "utf8")).version,
      autocannon: JSON.parse(readFileSync(join(here, "node_modules", "autocannon", "package.json"), "utf8")).version,
      tmcp: versionOf("tmcp"),
      tmcpHttp: versionOf("@tmcp/transport-http"),
      tmcpStdio: versionOf("@tmcp/transport-stdio"),
    },
  };
  const plan = (only ?? PHASES).map((p) => `${p} ${Math.round(planned[p])} s`).join(", ");
  // The sessions and rulers phases overlap: the shorter one adds nothing.
  const overlap = runs("sessions") && runs("rulers") ? Math.min(planned.sessions, planned.rulers) : 0;
  const total = (only ?? PHASES).reduce((s, p) => s + planned[p], 0) - overlap;
  log(`bench: planned on an idle machine: ${plan}; ${(total / 60).toFixed(1)} min in all`);
  const t0 = performance.now();
  const out = {};
  if (runs("bundles")) out.bundles = await phase("bundles", planned, bundleSizes);
  if (runs("cold")) out.cold = await phase("cold", planned, coldImports);
  if (footprint) {
    printFootprint(out.bundles, out.cold);
    if (bundlesFailed(out.bundles)) process.exitCode = 1;
    return;
  }
  const bareAnswers = join(here, "results", "bare-answers.json");
  if (runs("stdio") && !runs("http") && !existsSync(bareAnswers))
    throw new Error(`--only=stdio needs the bare answers an HTTP phase captures (${bareAnswers}): run --only=http,stdio once`);
  startLoadProcess();
  if (runs("http")) out.http = await phase("http", planned, benchHttp);
  // stdio's bare responder answers the bytes the HTTP phase captured from @x.
  if (runs("stdio")) out.stdio = await phase("stdio", planned, () => benchStdio(bareAnswers));
  if (runs("instructions")) out.instructions = await phase("instructions", planned, benchInstructions);
  // The sessions rows read memory and mostly wait out an idle timeout, and the
  // rulers count instructions, which other processes do not move: the two overlap.
  const sessionsDone = runs("sessions") ? phase("sessions", planned, benchSessions) : undefined;
  if (runs("rulers")) out.rulers = await phase("rulers", planned, () => runRulers({ quick }));
  if (sessionsDone) out.sessions = await sessionsDone;
  await stop(loadProcess);
  meta.loadAfter = loadavg();
  meta.seconds = (performance.now() - t0) / 1000;
  meta.phaseTimes = phaseTimes;
  const stamp = `${meta.date.replace(/[:.]/g, "-")}${quick ? "-quick" : ""}`;
  if (only !== undefined) {
    // A partial run: the phases' raw results, not the table (its rows need every phase).
    const file = join(here, "results", `${stamp}-only-${only.join("-")}.json`);
    writeFileSync(file, `${JSON.stringify({ meta, ...out }, null, 2)}\n`);
    if (out.rulers) process.stdout.write(`${rulersReport(out.rulers)}\n`);
    process.stdout.write(`${phaseReport()}\n`);
    log(`bench: raw results in ${file}`);
    return { meta, out, stamp, partial: true };
  }
  const { http, stdio, cold, bundles, sessions, instructions, rulers } = out;
  const { rows, officialFrom } = summarise(http, stdio, cold, bundles, sessions, instructions);
  const goalList = goals(rows, { bundles });
  const file = join(here, "results", `${stamp}.json`);
  const report = {
    meta,
    table: rows,
    officialFrom,
    goals: goalList,
    http: http.results,
    checks: http.checks,
    sessionVersions: http.sessionVersions,
    rss: http.rss,
    stdio,
    instructions,
    sessions,
    cold,
    bundles,
    rulers,
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(here, "results", quick ? "latest-quick.json" : "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
  printTable(rows, officialFrom, goalList, meta, bundles, http.sessionVersions);
  process.stdout.write(`\n${rulersReport(rulers)}\n`);
  log(`bench: main table in ${meta.seconds.toFixed(0)} s; raw results in ${file}`);
  const failed =
    [...Object.values(http.checks), ...Object.values(sessions).map((r) => r.checks)].some((c) =>
      Object.values(c).some((v) => v !== "ok"),
    ) ||
    STDIO_SERVERS.some((s) => !stdio[s.key]?.ok) ||
    bundlesFailed(bundles);
  if (failed) process.exitCode = 1;
  return { meta, stamp, partial: false };
}

/** True when a bundle carries a package its shape must not (bundles.mjs: `without`). */
const bundlesFailed = (bundles) => Object.values(bundles ?? {}).some((b) => b.check !== undefined && b.check !== "ok");

// ---------------------------------------------------------------- client rows and cost growth

/**
 * After the main table: the client rows (client.mjs) and the cost-growth
 * tables (growth.mjs), printed after it and merged into its JSON (keys
 * `clients` and `growth`), then every goal of the run in one list, and the
 * phase times. `--no-growth` skips both.
 */
async function clientsAndGrowth(main) {
  const { benchClients } = await import("./client.mjs");
  const { benchGrowth } = await import("./growth.mjs");
  let clients;
  let growth;
  if (runs("clients") && !args.includes("--no-growth")) {
    clients = await phase("clients", planned, () => benchClients({ quick }));
    process.stdout.write(`\n${clients.text}\n`);
  }
  if (runs("growth") && !args.includes("--no-growth")) {
    growth = await phase("growth", planned, () => benchGrowth({ quick }));
    process.stdout.write(`\n${growth.text}\n`);
  }
  const latest = join(here, "results", quick ? "latest-quick.json" : "latest.json");
  const dated = join(here, "results", `${main.stamp}.json`);
  if (main.partial) {
    if (clients || growth) {
      const file = join(here, "results", `${main.stamp}-only-${only.join("-")}.json`);
      const report = JSON.parse(readFileSync(file, "utf8"));
      Object.assign(report, { clients, growth, meta: { ...report.meta, phaseTimes } });
      writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
      process.stdout.write(`\n${phaseReport()}\n`);
    }
    return;
  }
  const report = JSON.parse(readFileSync(latest, "utf8"));
  report.clients = clients;
  report.growth = growth;
  // Every goal of the run in one list, the main table's first, then the rulers', the clients', the growth tables'.
  const all = [
    ...report.goals.filter((g) => g.met !== undefined).map((g) => ({ goal: g.goal, met: g.met })),
    ...rulerGoals(report.rulers ?? []).map((g) => ({ goal: g.goal, met: g.met })),
    ...(clients?.goals ?? []).map((g) => ({ goal: g.goal, met: g.met })),
    ...(growth?.goals ?? []).map((g) => ({ goal: g.goal, met: g.met })),
  ];
  const met = all.filter((g) => g.met === true).length;
  const unmeasured = all.filter((g) => g.met === undefined).length;
  process.stdout.write(
    `\ngoals of this run: ${met} met, ${all.length - met - unmeasured} NOT met${unmeasured ? `, ${unmeasured} not measured` : ""} (load average before ${report.meta.loadBefore.map((l) => l.toFixed(2)).join(" ")}, after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")})\n`,
  );
  for (const g of all) process.stdout.write(`  [${g.met === undefined ? "not measured" : g.met ? "met" : "NOT met"}] ${g.goal}\n`);
  report.allGoals = all;
  report.meta.phaseTimes = phaseTimes;
  report.meta.loadAfterAll = loadavg();
  report.meta.totalSeconds = Math.max(...phaseTimes.map((p) => p.endS));
  process.stdout.write(`\n${phaseReport()}\n`);
  for (const file of [dated, latest]) writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const failed = Object.entries(clients?.checks ?? {})
    .filter(([key]) => key !== "bareCounts")
    .some(([, cells]) => Object.values(cells).some((v) => v !== "ok"));
  if (failed) process.exitCode = 1;
}

/** `--footprint`: the bundle rows and the cold imports alone (seconds, no load), printed, nothing written. */
function printFootprint(bundles, cold) {
  const ms = (key) => {
    const reps = cold.reps[key];
    const spread = reps.length > 1 ? ` (${Math.min(...reps).toFixed(1)}–${Math.max(...reps).toFixed(1)})` : "";
    return `${cold[key].toFixed(1)} ms${spread}`;
  };
  const imports = Object.entries(IMPORTS).map(([key, modules]) => `  ${modules.join(" + ")}: ${ms(key)}`);
  process.stdout.write(
    `cold import over an empty node (${cold.emptyMs.toFixed(1)} ms; ${CONFIG.coldRuns} runs):\n${imports.join("\n")}\nbundles:\n${bundleReport(bundles)}\n`,
  );
}

runMain(async () => {
  const done = await main();
  if (!footprint && done) await clientsAndGrowth(done);
});
