// The run's flags, its lengths (CONFIG) and the servers it loads: one place read by every phase.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The bench folder. */
export const here = join(dirname(fileURLToPath(import.meta.url)), "..");
export const root = join(here, "..");

export const args = process.argv.slice(2).filter((a) => a !== "--");
export const quick = args.includes("--quick");
export const profile = args.includes("--cpu-prof");
export const footprint = args.includes("--footprint");

/**
 * Run lengths (the full run's length is in bench/README.md).
 *
 * The HTTP and stdio rows are measured in short slices (`sliceMs`,
 * `stdioSliceMs`), in rounds: each round loads every server once per row, the
 * servers one after another, in the opposite order every other round (so the
 * two servers of a ratio are always next to each other in time, and neither
 * always goes first). There are `repetitions` x `slicesPerRepetition` rounds;
 * repetition j is the best slice of rounds j, j + repetitions,
 * j + 2 x repetitions, ... (so every repetition spans the whole phase, and a
 * slice slowed by another process's burst is outdone). `unstableSpread`: a row
 * whose bare figure moves more than this (either way, against its median)
 * across the repetitions is flagged unstable. `extra`: a row that is
 * unstable, or has bare below @x, after the rounds gets `repetitions` more
 * rounds of its own (one more slice per repetition), up to `times` times,
 * started within `httpMs` (`stdioMs` for stdio) after the last round; an
 * HTTP extra round loads @x and bare only, and a peer's ratio pairs it with
 * @x over the rounds both ran.
 *
 * `instructions`: the request counts of the valgrind runs of each
 * instruction row (HTTP counts a multiple of its 32 calls in flight, stdio of
 * its 64 lines a chunk); neighbouring counts make one repetition.
 *
 * `sessions`: how many earlier-era sessions the abandoned-sessions rows open
 * (over `connections` connections) and the idle timeout (ms) their servers
 * run with; it must exceed the time the opening takes.
 */
export const CONFIG = quick
  ? {
      sliceMs: 100,
      warmupMs: 150,
      repetitions: 2,
      slicesPerRepetition: 1,
      concurrency: [1, 32],
      stdioSliceMs: 100,
      stdioWindow: 64,
      coldRuns: 3,
      instructions: { http: [96, 192], stdio: [128, 256], session: [96, 192] },
      unstableSpread: 0.05,
      extra: { times: 0, httpMs: 0, stdioMs: 0 },
      sessions: { count: 1000, idleMs: 10_000, connections: 8 },
    }
  : {
      sliceMs: 300,
      warmupMs: 1500,
      repetitions: 3,
      slicesPerRepetition: 2,
      concurrency: [1, 32],
      stdioSliceMs: 300,
      stdioWindow: 64,
      coldRuns: 12,
      // Three counts a path (8000 apart) were tried: @x's HTTP figure then moved by ±22% between
      // its two repetitions (a process's count moves with where collections fall), so these stay.
      instructions: { http: [8000, 16000, 24000, 32000, 40000], stdio: [10240, 20480, 30720, 40960], session: [8000, 24000, 40000] },
      unstableSpread: 0.05,
      // No extra rounds: the goals are judged on steady rulers, and the req/s rows
      // are read as paired ratios with their spread (an unstable row says so).
      extra: { times: 0, httpMs: 0, stdioMs: 0 },
      sessions: { count: 10_000, idleMs: 30_000, connections: 8 },
    };
export const ROUNDS = CONFIG.repetitions * CONFIG.slicesPerRepetition;

/**
 * The servers under test: `script` and its arguments, relative to
 * bench/servers, the column it fills, and the eras each is loaded in
 * (`modern` 2026-07-28, `legacy` 2025-11-25 on a session). `legacyVersions`:
 * the versions its `initialize` may answer (tmcp offers 2025-06-18 at most).
 */
export const HTTP_SERVERS = [
  { key: "x", label: "@x/server", args: ["x.mjs"], eras: ["modern", "legacy"] },
  { key: "bare", label: "bare node:http", args: ["bare.mjs", "ANSWERS", "--http"], eras: ["modern", "legacy"] },
  {
    key: "tmcp",
    label: "tmcp",
    args: ["tmcp.mjs"],
    eras: ["modern", "legacy"],
    legacyVersions: ["2025-11-25", "2025-06-18"],
  },
  { key: "officialOnce", label: "official (server built once)", args: ["official.mjs", "--once"], eras: ["modern"] },
  { key: "officialPerRequest", label: "official (server per request)", args: ["official.mjs"], eras: ["modern"] },
  { key: "officialSessions", label: "official (sessions)", args: ["official.mjs", "--sessions"], eras: ["legacy"] },
];
/** The servers of the abandoned-sessions rows, started with the idle timeout of CONFIG.sessions. */
export const SESSION_SERVERS = [
  { key: "x", label: "@x/server (sessions)", args: ["x.mjs"], maxSessions: true },
  { key: "official", label: "official (sessions)", args: ["official.mjs", "--sessions"] },
];
export const STDIO_SERVERS = [
  { key: "x", args: ["x.mjs", "--stdio"] },
  { key: "bare", args: ["bare.mjs", "ANSWERS", "--stdio"] },
  { key: "tmcp", args: ["tmcp.mjs", "--stdio"] },
  { key: "official", args: ["official.mjs", "--stdio"] },
];
/** What a cold import loads for each column (tmcp: the server and its HTTP transport, no schema adapter). */
export const IMPORTS = {
  x: ["@x/server"],
  official: ["@modelcontextprotocol/server"],
  tmcp: ["tmcp", "@tmcp/transport-http"],
  bare: ["node:http"],
  xClient: ["@x/client"],
  officialClient: ["@modelcontextprotocol/client"],
};

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The installed version of a dependency of this package. */
export const versionOf = (name) => JSON.parse(readFileSync(join(here, "node_modules", name, "package.json"), "utf8")).version;
