// A short fuzz run against the real fixture process on both transports and
// both eras: every invariant not in KNOWN_OPEN must hold. Bounded by counts
// (300 cases per transport; 120 initialize-era scenarios, then 40 more), never
// by time: each request's own bound (60 s) only tells a hang, so a busy
// machine plays every case, slower.
import { afterAll, describe, expect, it } from "vitest";
import { countsTable, examplesText } from "../src/report.js";
import { fuzzRun, type Tally, unknownCounts } from "../src/run.js";
import { FixtureProcess } from "../src/server.js";

const CASES = 300;
const SCENARIOS = 120;
const SEED = 20260728;
/** A request unanswered this long is a hang. */
const HANG_MS = 60_000;
const tallies: Tally[] = [];

afterAll(() => {
  // The known-open counts are printed, not asserted.
  if (tallies.length > 0) console.log(`${countsTable(tallies)}\n${examplesText(tallies).slice(0, 4000)}`);
});

describe.each(["http", "stdio"] as const)("fuzz over %s", (transport) => {
  it(`answers ${CASES} generated cases with no violation outside KNOWN_OPEN`, async () => {
    const server = await FixtureProcess.start(transport);
    try {
      const tally = await fuzzRun(server, {
        transport,
        cases: CASES,
        seed: SEED,
        timeLimitMs: Number.POSITIVE_INFINITY,
        timeoutMs: HANG_MS,
        concurrency: 4,
      });
      tallies.push(tally);
      expect(server.alive).toBe(true);
      expect(tally.cases).toBe(CASES);
      expect(unknownCounts(tally), examplesText([tally])).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});

describe.each(["http", "stdio"] as const)("initialize-era fuzz over %s", (transport) => {
  it(`plays ${SCENARIOS} generated scenarios with no violation outside KNOWN_OPEN`, async () => {
    const server = await FixtureProcess.start(transport);
    try {
      const tally = await fuzzRun(server, {
        transport,
        era: "2025-11-25",
        cases: SCENARIOS,
        seed: SEED,
        timeLimitMs: Number.POSITIVE_INFINITY,
        timeoutMs: HANG_MS,
        concurrency: 4,
      });
      tallies.push(tally);
      expect(server.alive).toBe(true);
      expect(tally.cases).toBe(SCENARIOS);
      // Scenarios of several families were played, not only openings.
      expect(tally.families.size).toBeGreaterThan(5);
      expect(unknownCounts(tally), examplesText([tally])).toEqual([]);
      // A repeated run on the same process (stdio: the same pinned connection, no second opening) holds too.
      const again = await fuzzRun(server, {
        transport,
        era: "2025-11-25",
        cases: 40,
        seed: SEED,
        timeLimitMs: Number.POSITIVE_INFINITY,
        timeoutMs: HANG_MS,
        concurrency: 4,
      });
      expect(again.cases).toBe(40);
      expect(unknownCounts(again), examplesText([again])).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
