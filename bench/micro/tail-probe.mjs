// Loaded with `node --import` into a server under test by tail.mjs: counts
// the GC pauses (perf_hooks 'gc' entries) and the event loop's delays
// (monitorEventLoopDelay) of the process, from a reset to a read, asked over
// its IPC channel beside the HTTP traffic under test:
//
//   {type: "tail-reset"}   forgets what was counted so far
//   {type: "tail-stats"}   answers {gc: {count, ms, byKind, largest}, loop: {maxMs, p99Ms, meanMs}, cpu}
//
// The observer runs on the server's own thread, so it costs the server a
// little per pause (a few per thousand requests), the same for both servers.
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
};
/** The largest pauses kept per read (ms): enough to compare with a p99. */
const KEEP_LARGEST = 8;

let pauses = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push([entry.duration, KINDS[entry.detail?.kind] ?? "other"]);
});
observer.observe({ entryTypes: ["gc"] });
// 1 ms is the finest resolution the histogram's timer takes.
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
let cpu0 = process.cpuUsage();

function stats() {
  const byKind = {};
  let ms = 0;
  for (const [d, kind] of pauses) {
    ms += d;
    byKind[kind] ??= { count: 0, ms: 0 };
    byKind[kind].count++;
    byKind[kind].ms += d;
  }
  const largest = pauses
    .map(([d]) => d)
    .sort((a, b) => b - a)
    .slice(0, KEEP_LARGEST);
  const c = process.cpuUsage(cpu0);
  return {
    gc: { count: pauses.length, ms, byKind, largest },
    loop: { maxMs: loop.max / 1e6, p99Ms: loop.percentile(99) / 1e6, meanMs: loop.mean / 1e6 },
    cpuUs: c.user + c.system,
  };
}

if (process.send) {
  process.on("message", (message) => {
    if (message?.type === "tail-reset") {
      pauses = [];
      loop.reset();
      cpu0 = process.cpuUsage();
      process.send({ type: "tail-reset", seq: message.seq });
    } else if (message?.type === "tail-stats") {
      process.send({ type: "tail-stats", seq: message.seq, ...stats() });
    }
  });
  process.channel?.unref();
}
