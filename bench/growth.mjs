#!/usr/bin/env node
// `node bench/growth.mjs [--quick]` (also run by `pnpm bench`): how the cost
// of @x/server grows with the work, each as a small table of the work's
// size against its cost, and its memory through the phases: tools/list with
// 10, 1,000 and 10,000 tools (in pages and in one page); tools/call with
// 1 KB, 100 KB and 1 MB text and structured results; Multi Round-Trip
// elicitation rounds, 10, 100 and 1,000 at once; 100, 1,000 and 10,000 idle
// subscriptions/listen streams (against a bare node:http SSE server); and
// p50/p99 latency at 1, 32 and 256 connections (against the official SDK and
// the bare responder). Every table says whether its cost grew at most
// linearly. See bench/README.md, "Cost growth".
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { log, runMain, stop } from "./lifecycle.mjs";
import { ask, fmt, here, request, sleep, startServer } from "./growth-common.mjs";
import {
  ECHO,
  load,
  loadProcess,
  memory,
  phaseElicit,
  phaseLatency,
  phaseListen,
  phaseResults,
  phaseToolsList,
  startLoad,
} from "./growth-phases.mjs";
import { tablesText } from "./growth-tables.mjs";

function config(quick) {
  return quick
    ? {
        reps: 1,
        toolCounts: [10, 100, 300],
        listCalls: (n) => (n <= 10 ? 100 : 20),
        firstPageCalls: 100,
        walks: () => 1,
        resultKB: [1, 100, 1000],
        resultCalls: (kb) => (kb <= 1 ? 100 : kb <= 100 ? 20 : 5),
        elicitConcurrency: [5, 20, 50],
        elicitTotal: 50,
        listenCounts: [20, 50, 100],
        latencyConnections: [1, 32, 256],
        latencyMs: 200,
        idleMs: 1000,
      }
    : {
        reps: 2,
        toolCounts: [10, 1000, 10_000],
        listCalls: (n) => (n <= 10 ? 4000 : n <= 1000 ? 400 : 40),
        // The first page is the same 100 tools at every size, so the same
        // count of calls: with listCalls' 40 at 10 000 tools, one major GC
        // (left by the one-page calls before it) was half the measurement.
        firstPageCalls: 4000,
        walks: (n) => (n <= 10 ? 300 : n <= 1000 ? 30 : 3),
        resultKB: [1, 100, 1000],
        resultCalls: (kb) => (kb <= 1 ? 4000 : kb <= 100 ? 800 : 80),
        elicitConcurrency: [10, 100, 1000],
        elicitTotal: 2000,
        listenCounts: [100, 1000, 10_000],
        latencyConnections: [1, 32, 256],
        latencyMs: 1500,
        idleMs: 10_000,
      };
}

export async function benchGrowth({ quick = false } = {}) {
  const cfg = config(quick);
  mkdirSync(join(here, "results"), { recursive: true });
  const answersFile = join(here, "results", "bare-growth-answers.json");
  startLoad();
  const x = await startServer("growth-x.mjs", [], { ipc: true, nodeFlags: ["--expose-gc"], label: "@x/server (growth)" });
  const memoryLog = [];
  const snap = async (phase) => {
    const m = await memory(x.child);
    memoryLog.push({ phase, ...m });
    log(`growth: memory after ${phase}: RSS ${m.rssMiB.toFixed(1)} MiB, heap used after GC ${m.heapUsedMiB.toFixed(1)} MiB`);
  };
  const r = { phaseSeconds: {} };
  // Each phase timed (r.phaseSeconds, in the JSON and logged), to see where the growth run's time goes.
  const timed = async (name, fn) => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      r.phaseSeconds[name] = (performance.now() - t0) / 1000;
      log(`growth: ${name} took ${r.phaseSeconds[name].toFixed(1)} s`);
    }
  };
  try {
    // Warm-up: each kind of request once or a few times, so that "before" holds the code they load.
    await snap("start");
    await load("amount", { url: x.url, headers: ECHO.headers, body: ECHO.body, amount: quick ? 200 : 2000, connections: 8 });
    await load("elicit", { url: x.url, total: 20, concurrency: 4 });
    await load("walk", { url: x.url, walks: 1 });
    await load("listenOpen", { url: x.url, uri: "memo://board", count: 5 });
    await load("listenNotify", { url: x.url, uri: "memo://board" });
    await load("listenClose", {});
    for (const kind of ["text", "struct"]) {
      const req = request("tools/call", { name: `${kind}-1000`, arguments: {} });
      await load("amount", { url: x.url, headers: req.headers, body: req.body, amount: 5, connections: 1 });
    }
    await sleep(1000);
    await snap("warm-up (before the load)");
    log("growth: tools/list...");
    r.toolsList = await timed("toolsList", () => phaseToolsList(cfg, x));
    await snap(`tools/list (${fmt(cfg.toolCounts.at(-1))} tools registered)`);
    await ask(x.child, "tools", { count: 0 }, 300_000);
    await snap("tools/list (fillers removed)");
    log("growth: large results...");
    r.results = await timed("results", () => phaseResults(cfg, x, answersFile));
    await snap("large results");
    log("growth: elicitation rounds...");
    r.elicit = await timed("elicit", () => phaseElicit(cfg, x));
    await snap("elicitation");
    log("growth: listen streams...");
    r.listen = await timed("listen", () => phaseListen(cfg, x));
    memoryLog.push({ phase: `${fmt(cfg.listenCounts.at(-1))} listen streams open`, ...r.listen.x.rows.at(-1).memory });
    memoryLog.push({ phase: "listen streams closed", ...r.listen.x.closed });
    log("growth: latency...");
    r.latency = await timed("latency", () => phaseLatency(cfg, x, answersFile));
    await snap("latency");
    log(`growth: idle ${cfg.idleMs / 1000} s...`);
    await sleep(cfg.idleMs);
    await snap(`idle ${cfg.idleMs / 1000} s after the load`);
  } finally {
    await stop(x.child);
    await stop(loadProcess);
  }
  r.memory = memoryLog;
  const before = memoryLog.find((m) => m.phase.startsWith("warm-up"));
  const afterRemoval = memoryLog.find((m) => m.phase === "tools/list (fillers removed)");
  const idle = memoryLog.at(-1);
  // The goal is about @x's costs; a peer's check (official one page) is printed with its table, not counted.
  const allChecks = [...r.toolsList.checks, ...r.results.checks, ...r.elicit.checks, ...r.listen.checks, ...r.latency.checks].filter((c) =>
    c.name.startsWith("@x"),
  );
  const xStream = r.listen.x.rows.at(-1);
  const bareStream = r.listen.bare.rows.at(-1);
  const goals = [
    {
      goal: "cost grows at most linearly in every cost-growth table (per unit at the largest size <= 1.5x the middle size's)",
      met: allChecks.every((c) => c.met),
      shown:
        allChecks
          .filter((c) => !c.met)
          .map((c) => c.name)
          .join("; ") || "all",
    },
    {
      goal: `memory per idle listen stream within 2 KB of a bare node:http SSE response's (${fmt(xStream.count)} streams; both the RSS and the heap used, after GC)`,
      met: xStream.rssKBPerStream - bareStream.rssKBPerStream <= 2 && xStream.heapKBPerStream - bareStream.heapKBPerStream <= 2,
      shown: `RSS @x ${fmt(xStream.rssKBPerStream, 2)} KB, bare ${fmt(bareStream.rssKBPerStream, 2)} KB; heap @x ${fmt(xStream.heapKBPerStream, 2)} KB, bare ${fmt(bareStream.heapKBPerStream, 2)} KB`,
    },
    {
      goal: `RSS after ${cfg.idleMs / 1000} s idle within 10% of its level before the load`,
      met: idle.rssMiB <= before.rssMiB * 1.1,
      shown: `${fmt(before.rssMiB, 1)} -> ${fmt(idle.rssMiB, 1)} MiB (${fmt(idle.rssMiB / before.rssMiB, 2)}x); heap after GC ${fmt(before.heapUsedMiB, 1)} -> ${fmt(idle.heapUsedMiB, 1)} MiB`,
    },
    {
      goal: `(the same from the level once the tools/list fillers were removed) RSS after ${cfg.idleMs / 1000} s idle within 10% of it`,
      met: idle.rssMiB <= afterRemoval.rssMiB * 1.1,
      shown: `${fmt(afterRemoval.rssMiB, 1)} -> ${fmt(idle.rssMiB, 1)} MiB (${fmt(idle.rssMiB / afterRemoval.rssMiB, 2)}x); heap after GC ${fmt(afterRemoval.heapUsedMiB, 1)} -> ${fmt(idle.heapUsedMiB, 1)} MiB`,
    },
  ];
  const text = [tablesText(r), "", "growth goals:", ...goals.map((g) => `  [${g.met ? "met" : "NOT met"}] ${g.goal}: ${g.shown}`)].join(
    "\n",
  );
  return { config: { ...cfg, listCalls: undefined, resultCalls: undefined, walks: undefined }, ...r, goals, text };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMain(async () => {
    const quick = process.argv.includes("--quick");
    const out = await benchGrowth({ quick });
    process.stdout.write(`${out.text}\n`);
    writeFileSync(join(here, "results", `growth-latest${quick ? "-quick" : ""}.json`), `${JSON.stringify(out, null, 2)}\n`);
  });
}
