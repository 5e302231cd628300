// The cost-growth tables as printed (growth.mjs).
import { fmt, fmtSpread, renderTable } from "./growth-common.mjs";

/** The cost-growth tables of a run's results `r` (benchGrowth), as printed. */
export function tablesText(r) {
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
