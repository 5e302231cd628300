#!/usr/bin/env node
// `node bench/client.mjs [--quick]` (also run by `pnpm bench`): the client
// rows. @x/client and the official @modelcontextprotocol/client call the
// same bare server (servers/bare-client.mjs, answering the bytes @x/server
// answered), tools/call echo round trips per second with 1 and 32 calls in
// flight, over HTTP and over stdio, and the client's CPU time per call. Each
// measurement is a fresh process of its own (client-driver.mjs); repetitions
// are interleaved across the clients. See bench/README.md, "Client rows".
import { fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { log, runMain, started, stop } from "./lifecycle.mjs";
import { ask, captureAnswers, fmt, fmtSpread, here, renderTable, request, spread, startServer } from "./growth-common.mjs";

const CLIENTS = [
  { key: "x", label: "@x/client" },
  { key: "official", label: "official client" },
];

function config(quick) {
  return quick
    ? { repetitions: 1, slicesPerRepetition: 1, durationMs: 150, warmupMs: 100, inFlight: [1, 32], transports: ["http", "stdio"] }
    : { repetitions: 3, slicesPerRepetition: 2, durationMs: 600, warmupMs: 700, inFlight: [1, 32], transports: ["http", "stdio"] };
}

/**
 * A figure's repetitions from its runs, in round order: repetition j is the
 * best of runs j, j + R, j + 2R, ... (R repetitions; the highest, or the
 * lowest when `lowerIsBetter`), as the server rows do: another process only
 * ever slows a run down.
 */
function repetitionsOf(runs, R, pick, lowerIsBetter) {
  return Array.from({ length: R }, (_, j) => {
    const values = runs
      .filter((_, i) => i % R === j)
      .map(pick)
      .filter((v) => Number.isFinite(v));
    if (values.length === 0) return Number.NaN;
    return lowerIsBetter ? Math.min(...values) : Math.max(...values);
  });
}

/** The requests a client sends to connect and call, answered by bare-client.mjs from @x/server's answers. */
const CLIENT_REQUESTS = [
  { key: "server/discover ", req: request("server/discover"), expect: '"supportedVersions"' },
  { key: "tools/list ", req: request("tools/list"), expect: '"name":"echo"' },
  { key: "tools/call echo", req: request("tools/call", { name: "echo", arguments: { text: "hello" } }), expect: '"text":"hello"' },
];

/** One measurement in a fresh client process; bounded by the driver's own 60 s limit and ours of 90 s. */
function drive(message) {
  const child = fork(join(here, "client-driver.mjs"), [], { cwd: here, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  started.add(child);
  child.on("exit", () => started.delete(child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop(child);
      reject(new Error(`the ${message.client} client did not answer within 90 s`));
    }, 90_000);
    child.once("message", (m) => {
      clearTimeout(timer);
      if (m.error) reject(new Error(`${message.client} client over ${message.transport}: ${m.error}`));
      else resolve(m.result);
    });
    child.send(message);
  });
}

/** Runs the client rows; answers {rows, results, checks, goals, text}. */
export async function benchClients({ quick = false } = {}) {
  const cfg = config(quick);
  mkdirSync(join(here, "results"), { recursive: true });
  const answersFile = join(here, "results", "bare-client-answers.json");
  const x = await startServer("x.mjs", [], { label: "@x/server" });
  try {
    await captureAnswers(x.url, CLIENT_REQUESTS, answersFile);
  } finally {
    await stop(x.child);
  }
  const bare = await startServer("bare-client.mjs", [answersFile], { ipc: true, label: "bare responder (clients)" });
  const results = {};
  const checks = {};
  const rounds = cfg.repetitions * cfg.slicesPerRepetition;
  try {
    for (let rep = 0; rep < rounds; rep++) {
      for (const transport of cfg.transports) {
        for (const inFlight of cfg.inFlight) {
          // Interleaved, and the order of the two clients alternates with the repetition.
          const order = rep % 2 === 0 ? CLIENTS : [...CLIENTS].reverse();
          for (const c of order) {
            const cell = `${transport} ${inFlight}`;
            const message = {
              client: c.key,
              transport,
              url: bare.url,
              command: process.execPath,
              args: [join(here, "servers", "bare-client.mjs"), answersFile, "--stdio"],
              inFlight,
              durationMs: cfg.durationMs,
              warmupMs: cfg.warmupMs,
            };
            results[c.key] ??= {};
            checks[c.key] ??= {};
            try {
              const r = await drive(message);
              results[c.key][cell] ??= [];
              results[c.key][cell][rep] = r;
              checks[c.key][cell] ??= r.failures === 0 ? "ok" : `${r.failures} calls failed`;
              log(
                `client: [${rep + 1}/${rounds}] ${c.label.padEnd(16)} ${transport.padEnd(5)} in flight ${String(inFlight).padEnd(3)} ${Math.round(r.rps)} calls/s, ${r.cpuUsPerCall.toFixed(1)} µs CPU/call`,
              );
            } catch (error) {
              checks[c.key][cell] = String(error.message).slice(0, 300);
              log(`client: ${error.message}`);
            }
          }
        }
      }
    }
    // What the HTTP bare server saw: one tools/call per call (plus each client's connect).
    checks.bareCounts = (await ask(bare.child, "counts")).counts;
  } finally {
    await stop(bare.child);
  }
  const rows = [];
  for (const transport of cfg.transports) {
    for (const inFlight of cfg.inFlight) {
      const cell = `${transport} ${inFlight}`;
      // A failed run leaves a hole, so every repetition keeps its own rounds.
      const runsOf = (key) => Array.from({ length: rounds }, (_, i) => results[key]?.[cell]?.[i] ?? {});
      const of = (key, f, lowerIsBetter) => {
        const reps = repetitionsOf(runsOf(key), cfg.repetitions, f, lowerIsBetter);
        return { ...spread(reps), reps };
      };
      rows.push({
        figure: `tools/call round trips/s, ${transport === "http" ? "HTTP" : "stdio"}, ${inFlight} in flight`,
        key: `client ${cell} rps`,
        higherIsBetter: true,
        x: of("x", (r) => r.rps),
        official: of("official", (r) => r.rps),
      });
      rows.push({
        figure: `client CPU per call (µs), ${transport === "http" ? "HTTP" : "stdio"}, ${inFlight} in flight`,
        key: `client ${cell} cpu`,
        higherIsBetter: false,
        x: of("x", (r) => r.cpuUsPerCall, true),
        official: of("official", (r) => r.cpuUsPerCall, true),
      });
    }
  }
  for (const r of rows) {
    // Paired: repetition j of @x over repetition j of the official client (the same rounds).
    const paired = spread(r.x.reps.map((v, j) => v / r.official.reps[j]));
    r.ratio = paired.median;
    r.ratioMin = paired.min;
    r.ratioMax = paired.max;
  }
  const goals = [
    {
      goal: "@x/client ahead of the official client on every client row",
      met: rows.every((r) => (r.higherIsBetter ? r.ratio > 1 : r.ratio < 1)),
      detail: rows
        .filter((r) => !(r.higherIsBetter ? r.ratio > 1 : r.ratio < 1))
        .map((r) => r.figure)
        .join("; "),
    },
  ];
  // Each row states its ruler, its spread (± half the paired ratio's min–max against its median) and its verdict (the goal above, per row).
  const header = ["client row", "ruler", "@x/client", "official", "@x / official", "spread", "verdict"];
  const lines = rows.map((r) => [
    r.figure,
    r.key.endsWith("cpu") ? `CPU µs/call, paired ratio, ${cfg.repetitions} reps` : `paired round trips/s ratio, ${cfg.repetitions} reps`,
    fmtSpread(r.x, r.key.endsWith("cpu") ? 1 : 0),
    fmtSpread(r.official, r.key.endsWith("cpu") ? 1 : 0),
    `${fmt(r.ratio, 2)} (${fmt(r.ratioMin, 2)}–${fmt(r.ratioMax, 2)})`,
    Number.isFinite(r.ratio) ? `±${fmt(((r.ratioMax - r.ratioMin) / 2 / r.ratio) * 100, 1)}%` : "n/a",
    (r.higherIsBetter ? r.ratio > 1 : r.ratio < 1) ? "met" : "NOT met",
  ]);
  const text = [
    `client rows: ${rounds} round(s) of one ${cfg.durationMs} ms run per client and row, each run a fresh client process after a ${cfg.warmupMs} ms warm-up, the clients in turn, in the opposite order every other round, against the bare responder (servers/bare-client.mjs); ${cfg.repetitions} repetition(s), repetition j the best run of rounds j, j+${cfg.repetitions}, ...; figures: median (min–max) over the repetitions; ratios paired per repetition`,
    "",
    renderTable(header, lines),
    "",
    "round trips/s: higher is better; CPU per call (the client process's user + system time / calls): lower is better.",
    '@x/client with protocol: "2026-07-28"; official with versionNegotiation: { mode: { pin: "2026-07-28" } } (its default speaks the initialize era).',
    ...goals.map((g) => `  [${g.met ? "met" : "NOT met"}] ${g.goal}${g.detail ? `: not on ${g.detail}` : ""}`),
  ].join("\n");
  return { config: cfg, rows, results, checks, goals, text };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMain(async () => {
    const quick = process.argv.includes("--quick");
    const out = await benchClients({ quick });
    process.stdout.write(`${out.text}\n`);
    writeFileSync(join(here, "results", `client-latest${quick ? "-quick" : ""}.json`), `${JSON.stringify(out, null, 2)}\n`);
    const bad = Object.entries(out.checks)
      .filter(([k]) => k !== "bareCounts")
      .flatMap(([, c]) => Object.values(c))
      .some((v) => v !== "ok");
    if (bad) process.exitCode = 1;
  });
}
