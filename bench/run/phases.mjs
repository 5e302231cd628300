// Where a run's time goes: each phase timed, logged and listed at the end, beside
// the time CONFIG plans for it (so a slow phase shows without rerunning the whole bench).
import { log } from "../lifecycle.mjs";
import { CONFIG, HTTP_SERVERS, ROUNDS, STDIO_SERVERS } from "./config.mjs";
import { HTTP_CELLS } from "./http.mjs";
import { buildsOf, countsOf, INSTRUCTION_PATHS } from "./instructions.mjs";

/** The phases `--only=` may name, in the order a full run takes them. */
export const PHASES = ["bundles", "cold", "http", "stdio", "instructions", "sessions", "rulers", "clients", "growth"];

/**
 * Seconds each phase should take on an idle 2-core machine, from CONFIG and
 * per-step costs measured on it (`OVERHEAD`): a planned time far below the
 * measured one points at contention or at a phase that grew. `clients` and
 * `growth` have their own configs (client.mjs, growth.mjs): their plans are
 * the measured times of those phases.
 */
const OVERHEAD = {
  /** ms a load slice costs beyond its length (IPC, autocannon's start, the connections). */
  slice: 80,
  /** µs of one request under valgrind's counter, per build and path (the counts of micro/paths.mjs; about 190 M instructions/s). */
  valgrindRequest: {
    current: { http: 420, stdio: 220, session: 580 },
    devtools: { http: 1300, stdio: 1080 },
    bare: { http: 260, stdio: 160, session: 240 },
  },
  /** s of one valgrind process's start (node and the module graph under the counter). */
  valgrindStart: 4,
  /** ms of one fresh `node` importing a spec (the cold phase took about 40 s before issue 43). */
  coldRun: 190,
};

export function plannedSeconds({ quick }) {
  const slices = HTTP_CELLS.reduce(
    (n, c) => n + HTTP_SERVERS.filter((s) => s.eras.includes(c.workload.era ? "legacy" : "modern")).length,
    0,
  );
  const http =
    (HTTP_SERVERS.length * 2 * CONFIG.warmupMs + ROUNDS * slices * (CONFIG.sliceMs + OVERHEAD.slice)) / 1000 + CONFIG.extra.httpMs / 1000;
  const stdio = (STDIO_SERVERS.length * (CONFIG.warmupMs + ROUNDS * (CONFIG.stdioSliceMs + 10))) / 1000 + CONFIG.extra.stdioMs / 1000;
  let valgrind = 0;
  let runs = 0;
  for (const path of INSTRUCTION_PATHS) {
    for (const name of buildsOf(path)) {
      const counts = countsOf(path, name);
      runs += counts.length;
      valgrind += (counts.reduce((a, b) => a + b, 0) * OVERHEAD.valgrindRequest[name][path]) / 1e6;
    }
  }
  const { idleMs } = CONFIG.sessions;
  return {
    bundles: quick ? 5 : 15,
    cold: (CONFIG.coldRuns * 7 * OVERHEAD.coldRun) / 1000,
    http,
    stdio,
    // Two valgrind processes at a time.
    instructions: (valgrind + runs * OVERHEAD.valgrindStart) / 2,
    // Opening, then the idle timeout once and a sweep's half, the two servers' waits overlapping.
    sessions: (1.5 * idleMs + 10_000) / 1000 + CONFIG.sessions.count / 500,
    // Measured: large results about 150 s, fan-out 10, tail 45, cold import 25.
    rulers: quick ? 60 : 230,
    clients: quick ? 20 : 75,
    growth: quick ? 30 : 110,
  };
}

/**
 * The phases of this run, timed: `{ phase, seconds, plannedSeconds, startS,
 * endS }` in the order they ended (startS, endS: seconds since the first
 * phase began; two phases may overlap).
 */
export const phaseTimes = [];
let origin;

/** Runs phase `name` (logged with its plan, then its time) and answers what `fn` answers. */
export async function phase(name, planned, fn) {
  log(`bench: ${name} (planned ${Math.round(planned[name] ?? Number.NaN)} s)...`);
  const t0 = performance.now();
  origin ??= t0;
  try {
    return await fn();
  } finally {
    const seconds = (performance.now() - t0) / 1000;
    const startS = (t0 - origin) / 1000;
    phaseTimes.push({ phase: name, seconds, plannedSeconds: planned[name], startS, endS: startS + seconds });
    log(`bench: ${name} took ${seconds.toFixed(1)} s`);
  }
}

/** The phase-time list as printed at the end of a run. */
export function phaseReport() {
  // Wall time from the first phase's start to the last one's end (overlapping phases count once).
  const total = phaseTimes.length ? Math.max(...phaseTimes.map((p) => p.endS)) - Math.min(...phaseTimes.map((p) => p.startS)) : 0;
  const lines = phaseTimes.map(
    (p) =>
      `  ${p.phase.padEnd(13)} ${p.seconds.toFixed(0).padStart(5)} s  from ${p.startS.toFixed(0)} s  (planned ${Number.isFinite(p.plannedSeconds) ? Math.round(p.plannedSeconds) : "?"} s)`,
  );
  return `phase times (s, wall; planned = on an idle machine, from CONFIG; sessions and rulers overlap):\n${lines.join("\n")}\n  ${"total".padEnd(13)} ${total.toFixed(0).padStart(5)} s`;
}
