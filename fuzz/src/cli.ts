/**
 * `pnpm fuzz -- [--n N] [--transport http|stdio|both] [--era 2026-07-28|2025-11-25|both] [--seed S]
 * [--time-limit SECONDS] [--repeat R] [--concurrency C] [--timeout MS]
 * [--allow-known] [--examples]`
 *
 * Starts the fixture server (one process per transport and era, kept over
 * repeated runs), sends N generated cases (initialize era: N scenarios) per run, and prints the violations per
 * invariant and transport, and the server's RSS and heap before and after
 * each run. Exits 1 when any violation was counted (with --allow-known: any
 * not in KNOWN_OPEN), or when RSS grew by more than 10% between repeated runs.
 */
import { LIMITS, type Transport } from "./config.js";
import { ERAS, type Era } from "./initialize-era.js";
import { categoriesTable, columnOf, countsTable, examplesText, familiesTable, knownOpenText, memoryTable, mib } from "./report.js";
import { fuzzRun, type Tally, unknownCounts } from "./run.js";
import { FixtureProcess } from "./server.js";

interface CliOptions {
  cases: number;
  transports: Transport[];
  eras: Era[];
  seed: number;
  timeLimitSeconds: number;
  repeat: number;
  concurrency: number;
  timeoutMs: number;
  allowKnown: boolean;
  examples: boolean;
}

function parse(argv: string[]): CliOptions {
  const args = argv.filter((a) => a !== "--");
  const value = (name: string): string | undefined => {
    const k = args.indexOf(name);
    return k === -1 ? undefined : args[k + 1];
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${raw}`);
    return n;
  };
  const transport = value("--transport") ?? "both";
  if (!["http", "stdio", "both"].includes(transport)) throw new Error(`--transport must be http, stdio or both, got ${transport}`);
  const era = value("--era") ?? "both";
  if (era !== "both" && !ERAS.includes(era as Era)) throw new Error(`--era must be ${ERAS.join(", ")} or both, got ${era}`);
  return {
    eras: era === "both" ? [...ERAS] : [era as Era],
    cases: int("--n", LIMITS.defaultCases, 1, LIMITS.maxCases),
    transports: transport === "both" ? ["http", "stdio"] : [transport as Transport],
    seed: int("--seed", Math.floor(Math.random() * 2 ** 31), -(2 ** 31), 2 ** 31 - 1),
    timeLimitSeconds: int("--time-limit", LIMITS.defaultTimeLimitSeconds, 1, 7 * 24 * 3600),
    repeat: int("--repeat", 1, 1, 100),
    concurrency: int("--concurrency", LIMITS.httpConcurrency, 1, 256),
    timeoutMs: int("--timeout", LIMITS.requestTimeoutMs, 100, 600_000),
    allowKnown: args.includes("--allow-known"),
    examples: args.includes("--examples"),
  };
}

const log = (text: string) => process.stderr.write(`${text}\n`);

async function main(): Promise<number> {
  const options = parse(process.argv.slice(2));
  log(
    `fuzz: ${options.cases} cases per run, ${options.repeat} run(s) per transport (${options.transports.join(", ")}) and era (${options.eras.join(", ")}), seed ${options.seed}, time limit ${options.timeLimitSeconds} s per run`,
  );
  const tallies: Tally[] = [];
  const growth: string[] = [];
  for (const transport of options.transports)
    for (const era of options.eras) {
      const name = era === "2026-07-28" ? transport : `${transport} ${era}`;
      const server = await FixtureProcess.start(transport);
      log(`fuzz: ${name} fixture pid ${server.pid}${server.url ? ` at ${server.url}` : ""}`);
      try {
        for (let run = 1; run <= options.repeat; run++) {
          // The same seed each time: a repeated run sends the very same cases.
          const tally = await fuzzRun(server, {
            transport,
            era,
            cases: options.cases,
            seed: options.seed,
            timeLimitMs: options.timeLimitSeconds * 1000,
            concurrency: options.concurrency,
            timeoutMs: options.timeoutMs,
            onProgress: (done, violations) => log(`fuzz: ${name} run ${run}: ${done}/${options.cases} cases, ${violations} violations`),
          });
          tallies.push(tally);
          log(
            `fuzz: ${name} run ${run}: ${tally.cases} cases in ${tally.seconds.toFixed(1)} s (${tally.stoppedBy}); RSS ${mib(tally.memoryBefore?.rss)} -> ${mib(tally.memoryAfter?.rss)} MiB, heap ${mib(tally.memoryBefore?.heapUsed)} -> ${mib(tally.memoryAfter?.heapUsed)} MiB`,
          );
          const previous = tallies.filter((t) => t.transport === transport && t.era === era).at(-2);
          const before = previous?.memoryAfter?.rss;
          const after = tally.memoryAfter?.rss;
          if (before !== undefined && after !== undefined && after > before * (1 + LIMITS.rssGrowthRatio)) {
            tally.counts.set("rss-growth", { total: 1, known: 0 });
            growth.push(
              `${name} run ${run}: RSS ${mib(before)} -> ${mib(after)} MiB (+${(((after - before) / before) * 100).toFixed(1)}%)`,
            );
          }
          if (tally.stoppedBy === "crash") break;
        }
      } finally {
        await server.stop();
      }
    }

  process.stdout.write(`\n${countsTable(tallies)}\n\n${memoryTable(tallies)}\n`);
  if (growth.length > 0) process.stdout.write(`\nRSS grew by more than ${LIMITS.rssGrowthRatio * 100}%: ${growth.join("; ")}\n`);
  process.stdout.write(`\n${categoriesTable(tallies)}\n\n${familiesTable(tallies)}\n\nKNOWN_OPEN:\n${knownOpenText()}\n`);
  const unknown = tallies.flatMap((t) => unknownCounts(t).map(([k, n]) => `${columnOf(t)} ${k} ${n}`));
  const anyViolation = tallies.some((t) => [...t.counts.values()].some((c) => c.total > 0));
  if (options.examples || unknown.length > 0) process.stdout.write(`\nExamples:\n${examplesText(tallies)}\n`);
  process.stdout.write(`\nseed ${options.seed}: rerun with --seed ${options.seed} --n ${options.cases}\n`);
  if (unknown.length > 0) {
    process.stdout.write(`violations not in KNOWN_OPEN: ${unknown.join(", ")}\n`);
    return 1;
  }
  if (anyViolation && !options.allowKnown) {
    process.stdout.write("only known-open violations (pass --allow-known to exit 0 on those)\n");
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`fuzz: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
