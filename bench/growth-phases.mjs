// The cost-growth phases of growth.mjs (tools/list, large results, elicitation,
// listen streams, latency), the load process they drive and their checks of linearity.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { forkWorker, log, stop } from "./lifecycle.mjs";
import { ask, captureAnswers, cpuUs, fmt, here, MiB, post, request, rssMiB, sleep, spread, startServer } from "./growth-common.mjs";

/** Tools growth-x.mjs registers besides its fillers (echo, text-K and struct-K for 3 sizes, ask, touch). */
export const BASE_TOOLS = 9;
export const ECHO = request("tools/call", { name: "echo", arguments: { text: "hello" } });

// ---------------------------------------------------------------- the load process

export let loadProcess;
export let askLoad;

export function startLoad() {
  ({ child: loadProcess, ask: askLoad } = forkWorker(join(here, "growth-load.mjs"), here));
}

/** One job for the load process (bounded by its own limits, and here by 5 minutes). */
export function load(kind, fields) {
  return askLoad({ kind, ...fields }, 300_000);
}

/**
 * `amount` requests of `req` at `connections`; answers the server's CPU µs
 * per request (from /proc, the whole process), req/s and bytes per answer.
 * Throws when an answer was not 2xx.
 */
export async function cpuPerCall(server, url, req, amount, connections) {
  const c0 = cpuUs(server.child.pid);
  const r = await load("amount", { url, headers: req.headers, body: req.body, amount, connections });
  const cpu = cpuUs(server.child.pid) - c0;
  if (r.non2xx || r.errors || r.timeouts) throw new Error(`${url}: non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}`);
  return { usPerCall: cpu / r.requests, rps: r.rps, bytesPerCall: r.bytes / r.requests, requests: r.requests };
}

/** `reps` measurements of `fn` (an async () => number); answers their spread and the values. */
export async function repeat(reps, fn) {
  const values = [];
  for (let i = 0; i < reps; i++) values.push(await fn());
  return spread(values);
}

// ---------------------------------------------------------------- memory

/** RSS as it is (read first, before any collection), then heap used after two forced GCs (IPC). */
export async function memory(child) {
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
export function openFileLimit() {
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
export function linear(name, perUnitMiddle, perUnitLargest, unit, context) {
  const ratio = perUnitLargest / perUnitMiddle;
  return { name, unit, perUnitMiddle, perUnitLargest, ratio, met: Number.isFinite(ratio) && ratio <= 1.5, context };
}

// ---------------------------------------------------------------- phases

export async function phaseToolsList(cfg, x) {
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

export async function phaseResults(cfg, x, answersFile) {
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

export async function phaseElicit(cfg, x) {
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
export async function listenSeries(cfg, server, label, uri = "memo://board") {
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

export async function phaseListen(cfg, x) {
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

export async function phaseLatency(cfg, x, answersFile) {
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
