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
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { forkWorker, log, runMain, stop } from "./lifecycle.mjs";
import {
  ask,
  captureAnswers,
  cpuUs,
  fmt,
  fmtSpread,
  here,
  MiB,
  post,
  renderTable,
  request,
  rssMiB,
  sleep,
  spread,
  startServer,
} from "./growth-common.mjs";

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
        reps: 3,
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

/** Tools growth-x.mjs registers besides its fillers (echo, text-K and struct-K for 3 sizes, ask, touch). */
const BASE_TOOLS = 9;
const ECHO = request("tools/call", { name: "echo", arguments: { text: "hello" } });

// ---------------------------------------------------------------- the load process

let loadProcess;
let askLoad;

function startLoad() {
  ({ child: loadProcess, ask: askLoad } = forkWorker(join(here, "growth-load.mjs"), here));
}

/** One job for the load process (bounded by its own limits, and here by 5 minutes). */
function load(kind, fields) {
  return askLoad({ kind, ...fields }, 300_000);
}

/**
 * `amount` requests of `req` at `connections`; answers the server's CPU µs
 * per request (from /proc, the whole process), req/s and bytes per answer.
 * Throws when an answer was not 2xx.
 */
async function cpuPerCall(server, url, req, amount, connections) {
  const c0 = cpuUs(server.child.pid);
  const r = await load("amount", { url, headers: req.headers, body: req.body, amount, connections });
  const cpu = cpuUs(server.child.pid) - c0;
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${url}: non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}`);
  return { usPerCall: cpu / r.requests, rps: r.rps, bytesPerCall: r.bytes / r.requests, requests: r.requests };
}

/** `reps` measurements of `fn` (an async () => number); answers their spread and the values. */
async function repeat(reps, fn) {
  const values = [];
  for (let i = 0; i < reps; i++) values.push(await fn());
  return spread(values);
}

// ---------------------------------------------------------------- memory

/** RSS as it is (read first, before any collection), then heap used after two forced GCs (IPC). */
async function memory(child) {
  const rss = rssMiB(child.pid);
  const usage = await ask(child, "memory");
  return {
    rssMiB: rss,
    heapUsedMiB: usage.usage.heapUsed / MiB,
    externalMiB: usage.usage.external / MiB,
    rssAfterGcMiB: rssMiB(child.pid),
  };
}

/** The soft limit of open files of this process (the children inherit it). */
function openFileLimit() {
  const m = /Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/.exec(readFileSync("/proc/self/limits", "utf8"));
  return {
    soft: m?.[1] === "unlimited" ? Number.POSITIVE_INFINITY : Number(m?.[1]),
    hard: m?.[2] === "unlimited" ? Number.POSITIVE_INFINITY : Number(m?.[2]),
  };
}

// ---------------------------------------------------------------- linearity

/**
 * Whether a cost grew at most linearly: the cost per unit of work at the
 * largest size at most 1.5 times the cost per unit at the middle size.
 */
function linear(name, perUnitMiddle, perUnitLargest, unit, context) {
  const ratio = perUnitLargest / perUnitMiddle;
  return { name, unit, perUnitMiddle, perUnitLargest, ratio, met: Number.isFinite(ratio) && ratio <= 1.5, context };
}

// ---------------------------------------------------------------- phases

async function phaseToolsList(cfg, x) {
  const rows = [];
  for (const n of cfg.toolCounts) {
    const { ms } = await ask(x.child, "tools", { count: n - BASE_TOOLS }, 300_000);
    const list = request("tools/list");
    // Checked once: the one-page list holds all n tools; the paged one 100 and a cursor.
    const one = JSON.parse((await post(x.urlOnePage, list)).text).result;
    const paged = JSON.parse((await post(x.url, list)).text).result;
    const check =
      one.tools.length === n &&
      one.nextCursor === undefined &&
      paged.tools.length === Math.min(100, n) &&
      n <= 100 === (paged.nextCursor === undefined)
        ? "ok"
        : `one page ${one.tools.length} tools, first page ${paged.tools.length}`;
    const calls = cfg.listCalls(n);
    const onePage = await repeat(cfg.reps, async () => (await cpuPerCall(x, x.urlOnePage, list, calls, 4)).usPerCall);
    const firstPage = await repeat(cfg.reps, async () => (await cpuPerCall(x, x.url, list, cfg.firstPageCalls, 4)).usPerCall);
    const walk = await repeat(cfg.reps, async () => {
      const c0 = cpuUs(x.child.pid);
      const walks = cfg.walks(n);
      const w = await load("walk", { url: x.url, walks });
      if (w.tools !== n * walks) throw new Error(`a walk of tools/list found ${w.tools / walks} tools of ${n}`);
      return (cpuUs(x.child.pid) - c0) / walks;
    });
    const bytesOnePage = (await post(x.urlOnePage, list)).text.length;
    // The official SDK: its own process with n tools, one page (it has no pagination option);
    // a tenth of the requests, since each costs it some 25 times what it costs @x.
    const official = await startServer("official-growth.mjs", [`--tools=${n}`], { label: "official (tools/list)" });
    let officialUs;
    let officialCheck;
    try {
      const answer = JSON.parse((await post(official.url, list)).text).result;
      officialCheck = answer?.tools?.length === n ? "ok" : `listed ${answer?.tools?.length} of ${n}`;
      if (officialCheck === "ok")
        officialUs = await repeat(
          cfg.reps,
          async () => (await cpuPerCall(official, official.url, list, Math.max(5, Math.round(calls / 10)), 4)).usPerCall,
        );
    } finally {
      await stop(official.child);
    }
    rows.push({
      tools: n,
      registerMs: ms,
      registerUsPerTool: (ms * 1000) / (n - BASE_TOOLS) / 2,
      onePage,
      firstPage,
      walk,
      bytesOnePage,
      official: officialUs,
      checks: { x: check, official: officialCheck },
    });
    log(
      `growth: tools/list ${String(n).padStart(6)} tools: one page ${fmt(onePage.median)} µs, first page ${fmt(firstPage.median)} µs, walk ${fmt(walk.median)} µs, official ${fmt(officialUs?.median)} µs (server CPU per call)`,
    );
  }
  const [, mid, big] = rows;
  const perTool = (r, f) => f(r) / r.tools;
  const checks = [
    linear(
      "@x one page, per tool",
      perTool(mid, (r) => r.onePage.median),
      perTool(big, (r) => r.onePage.median),
      "µs/tool",
    ),
    linear("@x first page (the same 100 tools)", mid.firstPage.median, big.firstPage.median, "µs/call"),
    linear(
      "@x every page, per tool",
      perTool(mid, (r) => r.walk.median),
      perTool(big, (r) => r.walk.median),
      "µs/tool",
    ),
    linear("@x registerTool, per tool", mid.registerUsPerTool, big.registerUsPerTool, "µs/tool"),
    linear(
      "official one page, per tool",
      perTool(mid, (r) => r.official?.median),
      perTool(big, (r) => r.official?.median),
      "µs/tool",
    ),
  ];
  return { rows, checks };
}

async function phaseResults(cfg, x, answersFile) {
  const requests = [{ key: "tools/call echo", req: ECHO, expect: '"text":"hello"' }];
  for (const kb of cfg.resultKB) {
    requests.push({
      key: `tools/call text-${kb}`,
      req: request("tools/call", { name: `text-${kb}`, arguments: {} }),
      expect: '"text":"xxx',
    });
    requests.push({
      key: `tools/call struct-${kb}`,
      req: request("tools/call", { name: `struct-${kb}`, arguments: {} }),
      expect: '"structuredContent":{"items":[',
    });
  }
  await captureAnswers(x.url, requests, answersFile);
  const bare = await startServer("bare-client.mjs", [answersFile], { label: "bare responder (results)" });
  const rows = [];
  try {
    for (const kind of ["text", "struct"]) {
      for (const kb of cfg.resultKB) {
        const req = requests.find((r) => r.key === `tools/call ${kind}-${kb}`).req;
        const calls = cfg.resultCalls(kb);
        let bytes = 0;
        const xUs = await repeat(cfg.reps, async () => {
          const r = await cpuPerCall(x, x.url, req, calls, 4);
          bytes = r.bytesPerCall;
          return r.usPerCall;
        });
        const bareUs = await repeat(cfg.reps, async () => (await cpuPerCall(bare, bare.url, req, calls, 4)).usPerCall);
        rows.push({ kind, kb, bytes, x: xUs, bare: bareUs });
        log(
          `growth: tools/call ${kind}-${kb} KB: @x ${fmt(xUs.median)} µs, bare ${fmt(bareUs.median)} µs (server CPU per call, ${fmt(bytes)} bytes)`,
        );
      }
    }
  } finally {
    await stop(bare.child);
  }
  const small = await repeat(cfg.reps, async () => (await cpuPerCall(x, x.url, ECHO, cfg.resultCalls(1), 4)).usPerCall);
  const at = (kind, kb) => rows.find((r) => r.kind === kind && r.kb === kb);
  const [, midKB, bigKB] = cfg.resultKB;
  // Bare writing the same bytes, its growth printed beside @x's (judged on @x's alone): past a
  // megabyte V8's strings and the socket cost more per KB for any server, and the machine's
  // spells move the two sizes' figures apart (bare's own read 1.07x in one run and 1.34x in the next).
  const bareGrowth = (kind) => `bare's own: ${(at(kind, bigKB).bare.median / bigKB / (at(kind, midKB).bare.median / midKB)).toFixed(2)}x`;
  const checks = ["text", "struct"].map((kind) =>
    linear(
      `@x ${kind === "text" ? "text" : "structured"} result, per KB`,
      at(kind, midKB).x.median / midKB,
      at(kind, bigKB).x.median / bigKB,
      "µs/KB",
      bareGrowth(kind),
    ),
  );
  return { rows, smallEchoUs: small, checks };
}

async function phaseElicit(cfg, x) {
  const rows = [];
  for (const concurrency of cfg.elicitConcurrency) {
    const total = Math.max(concurrency, cfg.elicitTotal);
    const c0 = cpuUs(x.child.pid);
    const r = await load("elicit", { url: x.url, total, concurrency });
    const cpu = cpuUs(x.child.pid) - c0;
    if (r.done !== total) throw new Error(`elicitation: ${r.done} of ${total} rounds: ${r.failures.join("; ")}`);
    rows.push({ concurrency, total, usPerRound: cpu / total, roundsPerSecond: total / (r.ms / 1000), ...r });
    log(
      `growth: elicitation ${String(concurrency).padStart(5)} at once: ${fmt(cpu / total)} µs server CPU per round, ${fmt(r.bytesSentPerRound)} B sent + ${fmt(r.bytesReceivedPerRound)} B received per round, requestState ${r.stateBytes} B`,
    );
  }
  const [, mid, big] = rows;
  return { rows, checks: [linear("@x elicitation round (two requests), per round", mid.usPerRound, big.usPerRound, "µs/round")] };
}

/** Opens the listen streams in steps up to each count; memory per stream and one notification to all at each. */
async function listenSeries(cfg, server, label, uri = "memo://board") {
  const base = await memory(server.child);
  const rows = [];
  for (const count of cfg.listenCounts) {
    const opened = await load("listenOpen", { url: server.url, uri, count: count - (rows.at(-1)?.count ?? 0) });
    if (opened.failed || opened.total !== count)
      throw new Error(`${label}: ${opened.total - opened.failed} of ${count} listen streams opened (${opened.firstError})`);
    await sleep(200);
    const m = await memory(server.child);
    const notify = await load("listenNotify", { url: server.url, uri });
    if (notify.notified !== count) throw new Error(`${label}: ${notify.notified} of ${count} streams notified`);
    rows.push({
      count,
      openMs: opened.ms,
      memory: m,
      rssKBPerStream: ((m.rssAfterGcMiB - base.rssAfterGcMiB) * 1024) / count,
      heapKBPerStream: ((m.heapUsedMiB - base.heapUsedMiB) * 1024) / count,
      notify,
      notifyUsPerStream: (notify.lastMs * 1000) / count,
    });
    log(
      `growth: ${label} ${String(count).padStart(6)} listen streams: RSS after GC +${fmt(((m.rssAfterGcMiB - base.rssAfterGcMiB) * 1024) / count, 2)} KB/stream, heap +${fmt(((m.heapUsedMiB - base.heapUsedMiB) * 1024) / count, 2)} KB/stream; notify all: last after ${fmt(notify.lastMs, 1)} ms (server ${fmt(notify.serverNotifyMs, 1)} ms)`,
    );
  }
  await load("listenClose", {});
  await sleep(1000);
  const closed = await memory(server.child);
  return { base, rows, closed };
}

async function phaseListen(cfg, x) {
  const limit = openFileLimit();
  const needed = cfg.listenCounts.at(-1) + 1000;
  if (limit.soft < needed)
    throw new Error(
      `the open-file limit (ulimit -n ${limit.soft}) is below the ${needed} the listen rows need: raise it (hard limit ${limit.hard})`,
    );
  const xs = await listenSeries(cfg, x, "@x/server");
  const bare = await startServer("sse-bare.mjs", [], { ipc: true, nodeFlags: ["--expose-gc"], label: "bare SSE server" });
  let bs;
  try {
    bs = await listenSeries(cfg, bare, "bare SSE");
  } finally {
    await stop(bare.child);
  }
  const [, mid, big] = xs.rows;
  const checks = [
    // Not the RSS per stream: it is not a cost of the streams alone. The process keeps resident
    // pages its heap freed in earlier phases, and new streams fill those first (their RSS per
    // stream at 1 000 was 0.5 KB, at 10 000 11.5 KB, in one run): the heap used is the measure.
    linear("@x heap per idle stream", mid.heapKBPerStream, big.heapKBPerStream, "KB/stream"),
    linear("@x notify all once, per stream", mid.notifyUsPerStream, big.notifyUsPerStream, "µs/stream"),
  ];
  return { openFileLimit: limit, x: xs, bare: bs, checks };
}

async function phaseLatency(cfg, x, answersFile) {
  const official = await startServer("official.mjs", ["--once"], { label: "official (built once)" });
  const bare = await startServer("bare-client.mjs", [answersFile], { label: "bare responder (latency)" });
  const servers = [
    { key: "x", label: "@x", url: x.url },
    { key: "official", label: "official", url: official.url },
    { key: "bare", label: "bare", url: bare.url },
  ];
  const results = {};
  try {
    for (const s of servers) {
      const a = await post(s.url, ECHO);
      if (a.status !== 200 || !a.text.includes('"text":"hello"'))
        throw new Error(`${s.label} answered echo with ${a.status}: ${a.text.slice(0, 200)}`);
      await load("duration", {
        url: s.url,
        headers: ECHO.headers,
        body: ECHO.body,
        connections: 256,
        durationMs: Math.min(cfg.latencyMs, 1000),
      });
    }
    for (let rep = 0; rep < cfg.reps; rep++) {
      for (const connections of cfg.latencyConnections) {
        for (const s of servers) {
          const r = await load("duration", { url: s.url, headers: ECHO.headers, body: ECHO.body, connections, durationMs: cfg.latencyMs });
          if (r.non2xx || r.errors || r.timeouts)
            log(`growth: ${s.label} at ${connections} connections: non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}`);
          results[s.key] ??= {};
          results[s.key][connections] ??= [];
          results[s.key][connections].push(r);
          // Let the server finish what the last run left in flight before the next server's run.
          await sleep(300);
        }
      }
    }
  } finally {
    await stop(official.child);
    await stop(bare.child);
  }
  const rows = cfg.latencyConnections.map((connections) => {
    const row = { connections };
    for (const s of servers) {
      const rs = results[s.key][connections];
      row[s.key] = {
        p50: spread(rs.map((r) => r.p50)),
        p99: spread(rs.map((r) => r.p99)),
        mean: spread(rs.map((r) => r.mean)),
        rps: spread(rs.map((r) => r.rps)),
      };
    }
    log(
      `growth: latency at ${String(connections).padStart(3)} connections p50/p99 ms: @x ${row.x.p50.median}/${row.x.p99.median}, official ${row.official.p50.median}/${row.official.p99.median}, bare ${row.bare.p50.median}/${row.bare.p99.median}`,
    );
    return row;
  });
  const [, mid, big] = rows;
  const per = (r, f) => f(r) / r.connections;
  // The same growth of the bare responder, printed beside @x's: the load
  // process and the server share two cores, so part of a tail's growth is
  // the machine's (judged on @x's figure alone all the same).
  const bareGrowth = (q) => `bare's own: ${(per(big, (r) => r.bare[q].median) / per(mid, (r) => r.bare[q].median)).toFixed(2)}x`;
  const checks = [
    linear(
      "@x p50 latency, per connection",
      per(mid, (r) => r.x.p50.median),
      per(big, (r) => r.x.p50.median),
      "ms/connection",
      bareGrowth("p50"),
    ),
    linear(
      "@x p99 latency, per connection",
      per(mid, (r) => r.x.p99.median),
      per(big, (r) => r.x.p99.median),
      "ms/connection",
      bareGrowth("p99"),
    ),
  ];
  return { rows, checks };
}

// ---------------------------------------------------------------- the tables

function tablesText(r) {
  const out = [];
  const verdicts = (checks) =>
    checks.map(
      (c) =>
        `  [${c.met ? "met" : "NOT met"}] at most linear: ${c.name}: ${fmt(c.perUnitLargest, 3)} ${c.unit} at the largest size, ${fmt(c.ratio, 2)}x the middle size's ${fmt(c.perUnitMiddle, 3)}${c.context ? ` (${c.context})` : ""}`,
    );
  out.push(
    "cost growth (server CPU: the time on a CPU of all the server process's threads, /proc schedstat, / calls; median (min–max) of the repetitions)",
  );
  out.push("");
  out.push("tools/list: server CPU per call (µs)");
  out.push(
    renderTable(
      [
        "registered tools",
        "@x one page",
        "@x first page (100)",
        "@x every page",
        "official one page",
        "one page bytes",
        "registerTool µs/tool",
      ],
      r.toolsList.rows.map((row) => [
        fmt(row.tools),
        fmtSpread(row.onePage),
        fmtSpread(row.firstPage),
        fmtSpread(row.walk),
        fmtSpread(row.official),
        fmt(row.bytesOnePage),
        fmt(row.registerUsPerTool, 1),
      ]),
    ),
  );
  out.push(...verdicts(r.toolsList.checks));
  out.push("");
  out.push(
    `tools/call with a large result: server CPU per call (µs); a small result (echo) costs @x ${fmtSpread(r.results.smallEchoUs)} µs`,
  );
  out.push(
    renderTable(
      ["result", "bytes answered", "@x", "bare", "@x µs/KB", "@x / bare", "@x / small"],
      r.results.rows.map((row) => [
        `${row.kind === "text" ? "text" : "structured"} ${row.kb >= 1000 ? `${row.kb / 1000} MB` : `${row.kb} KB`}`,
        fmt(row.bytes),
        fmtSpread(row.x),
        fmtSpread(row.bare),
        fmt(row.x.median / row.kb, 2),
        fmt(row.x.median / row.bare.median, 2),
        fmt(row.x.median / r.results.smallEchoUs.median, 1),
      ]),
    ),
  );
  out.push(...verdicts(r.results.checks));
  out.push("");
  out.push(
    "elicitation (Multi Round-Trip: input_required with requestState, then the retry with inputResponses): per round of two requests",
  );
  out.push(
    renderTable(
      ["rounds at once", "rounds", "server CPU µs/round", "rounds/s", "bytes sent/round", "bytes received/round", "requestState bytes"],
      r.elicit.rows.map((row) => [
        fmt(row.concurrency),
        fmt(row.total),
        fmt(row.usPerRound),
        fmt(row.roundsPerSecond),
        fmt(row.bytesSentPerRound),
        fmt(row.bytesReceivedPerRound),
        fmt(row.stateBytes),
      ]),
    ),
  );
  out.push(...verdicts(r.elicit.checks));
  out.push("");
  out.push(
    "idle subscriptions/listen streams: memory over the level before them (RSS and heap used, both after two forced GCs), and one notifications/resources/updated to all",
  );
  out.push(
    renderTable(
      [
        "streams",
        "@x RSS KB/stream",
        "bare RSS KB/stream",
        "@x heap KB/stream",
        "bare heap KB/stream",
        "@x notify all: last (ms)",
        "bare notify all: last (ms)",
        "@x notifyResourceUpdated (ms)",
        "@x opening (s)",
      ],
      r.listen.x.rows.map((row, i) => {
        const b = r.listen.bare.rows[i];
        return [
          fmt(row.count),
          fmt(row.rssKBPerStream, 2),
          fmt(b.rssKBPerStream, 2),
          fmt(row.heapKBPerStream, 2),
          fmt(b.heapKBPerStream, 2),
          fmt(row.notify.lastMs, 1),
          fmt(b.notify.lastMs, 1),
          fmt(row.notify.serverNotifyMs, 2),
          fmt(row.openMs / 1000, 1),
        ];
      }),
    ),
  );
  out.push(
    `  open-file limit (ulimit -n): soft ${r.listen.openFileLimit.soft}, hard ${r.listen.openFileLimit.hard}; each stream is one socket in the server and one in the load process`,
  );
  out.push(...verdicts(r.listen.checks));
  out.push("");
  out.push(
    "tools/call echo latency (ms, each answer timed by the load process in fractional milliseconds), keep-alive connections each with one call in flight",
  );
  out.push(
    renderTable(
      [
        "connections",
        "@x p50",
        "@x p99",
        "official p50",
        "official p99",
        "bare p50",
        "bare p99",
        "@x req/s",
        "official req/s",
        "bare req/s",
      ],
      r.latency.rows.map((row) => [
        fmt(row.connections),
        fmtSpread(row.x.p50, 2),
        fmtSpread(row.x.p99, 2),
        fmtSpread(row.official.p50, 2),
        fmtSpread(row.official.p99, 2),
        fmtSpread(row.bare.p50, 2),
        fmtSpread(row.bare.p99, 2),
        fmt(row.x.rps.median),
        fmt(row.official.rps.median),
        fmt(row.bare.rps.median),
      ]),
    ),
  );
  out.push(...verdicts(r.latency.checks));
  out.push("");
  out.push(
    "memory of the @x server process (servers/growth-x.mjs) after each phase: RSS as read from /proc, then heap used after two forced GCs",
  );
  out.push(
    renderTable(
      ["after", "RSS (MiB)", "heap used (MiB)", "external (MiB)", "RSS after GC (MiB)"],
      r.memory.map((m) => [m.phase, fmt(m.rssMiB, 1), fmt(m.heapUsedMiB, 1), fmt(m.externalMiB, 1), fmt(m.rssAfterGcMiB, 1)]),
    ),
  );
  return out.join("\n");
}

/** Runs every phase; answers {config, tables, memory, goals, text}. */
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
  const r = {};
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
    r.toolsList = await phaseToolsList(cfg, x);
    await snap(`tools/list (${fmt(cfg.toolCounts.at(-1))} tools registered)`);
    await ask(x.child, "tools", { count: 0 }, 300_000);
    await snap("tools/list (fillers removed)");
    log("growth: large results...");
    r.results = await phaseResults(cfg, x, answersFile);
    await snap("large results");
    log("growth: elicitation rounds...");
    r.elicit = await phaseElicit(cfg, x);
    await snap("elicitation");
    log("growth: listen streams...");
    r.listen = await phaseListen(cfg, x);
    memoryLog.push({ phase: `${fmt(cfg.listenCounts.at(-1))} listen streams open`, ...r.listen.x.rows.at(-1).memory });
    memoryLog.push({ phase: "listen streams closed", ...r.listen.x.closed });
    log("growth: latency...");
    r.latency = await phaseLatency(cfg, x, answersFile);
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
