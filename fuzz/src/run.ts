/**
 * One fuzz run against a running fixture: generate cases from a seed, send
 * them (HTTP with a few in flight, stdio one at a time), check each answer,
 * and tally the violations by kind. Bounded by a case count, a wall-clock
 * limit, and a number of hangs.
 */
import fc from "fast-check";
import type { Case } from "./cases.js";
import { expectationOf } from "./cases.js";
import { check, type Violation } from "./check.js";
import { isKnownOpen, LIMITS, type Transport, type ViolationKind } from "./config.js";
import { HttpDriver, StdioDriver } from "./drivers.js";
import { caseArbitrary } from "./generators.js";
import { type Era, type Opening, type Scenario, scenarioArbitrary } from "./initialize-era.js";
import { checkPingFirst, type Lifecycle, lifecycleArbitrary, playLifecycle, SocketConnection } from "./lifecycle.js";
import { SessionHttpDriver, SessionStdioDriver, type StepResult, stdioOpening } from "./session-drivers.js";
import type { FixtureProcess, Memory } from "./server.js";

/** What a run is asked to do. */
export interface RunOptions {
  transport: Transport;
  /** The protocol era driven: 2026-07-28 cases (default), or initialize-era scenarios. */
  era?: Era;
  /** Cases to send. */
  cases: number;
  seed: number;
  /** Wall-clock bound, in milliseconds. */
  timeLimitMs: number;
  /** HTTP requests in flight at once. */
  concurrency?: number;
  /** Per-request timeout, in milliseconds. */
  timeoutMs?: number;
  /** Called every few seconds with the cases done so far. */
  onProgress?: (done: number, violations: number) => void;
}

/** One kept example of a violation. */
export interface Example {
  index: number;
  category: string;
  detail: string;
  sent: string;
}

/** The counts of one run. */
export interface Tally {
  transport: Transport;
  era: Era;
  seed: number;
  cases: number;
  seconds: number;
  /** Why the run ended. */
  stoppedBy: "count" | "time" | "crash" | "hangs";
  /** Per kind: every violation, and those covered by KNOWN_OPEN. */
  counts: Map<ViolationKind, { total: number; known: number }>;
  examples: Map<ViolationKind, Example[]>;
  /** Violations per kind and case category (`kind category` → count). */
  byCategory: Map<string, number>;
  /** Cases sent per family (the category before its `/`). */
  families: Map<string, number>;
  memoryBefore?: Memory | undefined;
  memoryAfter?: Memory | undefined;
  stderrTail?: string;
}

/** Stdio fixtures whose connection has had its opening (initialize era, or a ping first for 2026-07-28). */
const OPENED = new WeakSet<FixtureProcess>();
/** The initialize-era opening each stdio fixture's connection went on with (a repeated run goes on on it). */
const OPENINGS = new WeakMap<FixtureProcess, Opening>();

/** Share of stdio initialize-era scenarios that are openings of a fresh connection (`lifecycle.ts`), out of 100. */
const LIFECYCLE_SHARE = 10;

/** Mixes the run's seed and a batch number into one 32-bit seed. */
function batchSeed(seed: number, batch: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ batch, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) | 0;
}

const BATCH = 64;

/** The cases (or scenarios) of a run, in order; case `i` depends only on the seed, the transport and `i`. */
export class CaseStream<T = Case> {
  readonly #arbitrary: fc.Arbitrary<T>;
  #batch = -1;
  #cases: T[] = [];
  constructor(
    transport: Transport,
    readonly seed: number,
    arbitrary?: fc.Arbitrary<T>,
  ) {
    this.#arbitrary = arbitrary ?? (caseArbitrary(transport) as unknown as fc.Arbitrary<T>);
  }

  at(index: number): T {
    const batch = Math.floor(index / BATCH);
    if (batch !== this.#batch) {
      this.#cases = fc.sample(this.#arbitrary, { seed: batchSeed(this.seed, batch), numRuns: BATCH });
      this.#batch = batch;
    }
    return this.#cases[index % BATCH]!;
  }
}

function preview(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, 300)).toString("utf8");
  return bytes.length > 300 ? `${text}... (${bytes.length} bytes)` : text;
}

/** Runs one bounded fuzz pass against `server`. */
export async function fuzzRun(server: FixtureProcess, options: RunOptions): Promise<Tally> {
  const { transport } = options;
  const timeoutMs = options.timeoutMs ?? LIMITS.requestTimeoutMs;
  const era = options.era ?? "2026-07-28";
  const tally: Tally = {
    transport,
    era,
    seed: options.seed,
    cases: 0,
    seconds: 0,
    stoppedBy: "count",
    counts: new Map(),
    examples: new Map(),
    byCategory: new Map(),
    families: new Map(),
  };
  let violations = 0;
  const record = (kind: ViolationKind, category: string, index: number, detail: string, sent: string) => {
    const entry = tally.counts.get(kind) ?? { total: 0, known: 0 };
    entry.total++;
    if (isKnownOpen(kind, transport, category)) entry.known++;
    tally.counts.set(kind, entry);
    tally.byCategory.set(`${kind} ${category}`, (tally.byCategory.get(`${kind} ${category}`) ?? 0) + 1);
    violations++;
    const list = tally.examples.get(kind) ?? [];
    if (list.length < LIMITS.examplesPerKind) list.push({ index, category, detail, sent });
    tally.examples.set(kind, list);
  };

  tally.memoryBefore = await server.memory(true).catch(() => undefined);
  const stream = new CaseStream(transport, options.seed);
  // Over stdio some scenarios are openings of a fresh connection (the fixture's side port).
  const scenarios = new CaseStream<Scenario | Lifecycle>(
    transport,
    options.seed,
    transport === "stdio"
      ? fc.oneof(
          { arbitrary: scenarioArbitrary(transport) as fc.Arbitrary<Scenario | Lifecycle>, weight: 100 - LIFECYCLE_SHARE },
          { arbitrary: lifecycleArbitrary as fc.Arbitrary<Scenario | Lifecycle>, weight: LIFECYCLE_SHARE },
        )
      : scenarioArbitrary(transport),
  );
  const started = Date.now();
  const deadline = started + options.timeLimitMs;
  let next = 0;
  let hangs = 0;
  let stop: Tally["stoppedBy"] | undefined;
  let lastProgress = started;

  const earlier = era === "2025-11-25";
  const http =
    transport === "http" && !earlier ? new HttpDriver(server.port, options.concurrency ?? LIMITS.httpConcurrency, timeoutMs) : undefined;
  // A live session for the cases that send one's id on a 2026-07-28 request (era-cases.ts).
  await http?.openSession(server.url);
  const sessionHttp = transport === "http" && earlier ? new SessionHttpDriver(server.url, timeoutMs) : undefined;
  let sessionStdio: SessionStdioDriver | undefined;
  const stdio =
    transport === "stdio" && server.child.stdin && server.child.stdout
      ? earlier
        ? new StdioDriver(server.child.stdin, server.child.stdout, timeoutMs, timeoutMs, {
            // A ping: the connection speaks the initialize era, where server/discover is no method.
            sentinel: (id) => ({ jsonrpc: "2.0", id, method: "ping" }),
            onServerRequest: (message) => sessionStdio?.onServerRequest(message),
          })
        : new StdioDriver(server.child.stdin, server.child.stdout, timeoutMs)
      : undefined;
  if (stdio && earlier) sessionStdio = new SessionStdioDriver(server.child.stdin!, stdio, OPENINGS.get(server));
  const steps = (found: StepResult[], index: number) => {
    for (const step of found) {
      for (const v of step.violations) {
        record(v.kind, step.category, index, v.detail, step.sent);
        if (v.kind === "hang") hangs++;
      }
    }
  };
  if (sessionStdio && !OPENED.has(server)) {
    // One connection, one opening: a repeated run goes on on the same pinned connection.
    OPENED.add(server);
    const opening = stdioOpening(options.seed);
    OPENINGS.set(server, opening);
    steps(await sessionStdio.open(opening), -1);
  }
  server.child.stdin?.on("error", () => {
    // EPIPE once the server is gone: the crash is counted below.
  });

  if (stdio && !earlier && !OPENED.has(server)) {
    // A ping before any era: answered with {} and pinning nothing (the cases that follow pin 2026-07-28).
    OPENED.add(server);
    const rendered = { bytes: new TextEncoder().encode('{"jsonrpc":"2.0","id":"ping-first","method":"ping"}'), idText: '"ping-first"' };
    const expect = { answer: "response", id: "same", outcome: "result" } as const;
    const c: Case = {
      category: "lifecycle/ping-first",
      transports: ["stdio"],
      render: () => rendered,
      http: { method: "POST", path: "/", headers: [] },
      expect,
    };
    const observed = await stdio.send(c, rendered, expect, -1);
    for (const v of [...check(expect, observed, rendered.idText, c.category), ...checkPingFirst(observed.lines, "ping-first")])
      record(v.kind, c.category, -1, v.detail, '{"jsonrpc":"2.0","id":"ping-first","method":"ping"}');
  }

  const one = async (index: number) => {
    if (earlier) {
      const s = scenarios.at(index);
      if ("early" in s) {
        // A fresh stdio connection, opened as the lifecycle says.
        let connection: SocketConnection | undefined;
        try {
          connection = await SocketConnection.open(server.sidePort, timeoutMs);
          for (const r of await playLifecycle(connection, s, index, timeoutMs))
            steps([{ category: `2511/${s.category}:${r.step}`, violations: r.violations, sent: r.sent }], index);
        } catch (error) {
          steps([{ category: `2511/${s.category}`, violations: [{ kind: "hang", detail: String(error) }], sent: "" }], index);
        } finally {
          connection?.close();
        }
        tally.families.set(`2511/${s.category}`, (tally.families.get(`2511/${s.category}`) ?? 0) + 1);
        tally.cases++;
        if (!server.alive) stop ??= "crash";
        else if (hangs >= LIMITS.maxHangs) stop ??= "hangs";
        return;
      }
      steps(sessionHttp ? await sessionHttp.play(s, index) : await sessionStdio!.play(s, index), index);
      const family = s.category.split("/").slice(0, 2).join("/");
      tally.families.set(family, (tally.families.get(family) ?? 0) + 1);
      tally.cases++;
      if (!server.alive) stop ??= "crash";
      else if (hangs >= LIMITS.maxHangs) stop ??= "hangs";
      return;
    }
    const c = stream.at(index);
    const rendered = c.render(index);
    const expect = expectationOf(c, transport);
    const observed = http ? await http.send(c, rendered) : await stdio!.send(c, rendered, expect, index);
    const found: Violation[] = check(expect, observed, rendered.idText, c.category);
    const family = c.category.split("/")[0]!;
    tally.families.set(family, (tally.families.get(family) ?? 0) + 1);
    tally.cases++;
    for (const v of found) {
      record(v.kind, c.category, index, v.detail, preview(rendered.bytes));
      if (v.kind === "hang") hangs++;
    }
    if (!server.alive) stop ??= "crash";
    else if (hangs >= LIMITS.maxHangs) stop ??= "hangs";
  };

  const worker = async () => {
    for (;;) {
      if (stop) return;
      if (next >= options.cases) {
        stop ??= "count";
        return;
      }
      if (Date.now() >= deadline) {
        stop ??= "time";
        return;
      }
      await one(next++);
      if (options.onProgress && Date.now() - lastProgress >= 5000) {
        lastProgress = Date.now();
        options.onProgress(tally.cases, violations);
      }
    }
  };
  const workers = http || sessionHttp ? (options.concurrency ?? LIMITS.httpConcurrency) : 1;
  await Promise.all(Array.from({ length: workers }, worker));
  // Late answers (stdio) arrive after their case was checked.
  if (stdio) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const late of stdio?.late ?? []) record(late.kind, late.category, late.index, `late: ${late.line}`, "");
  stdio?.close();
  http?.close();

  if (!server.alive) {
    stop = "crash";
    record("crash", "(process)", tally.cases, `the server exited (${server.exited}): ${server.stderrTail.slice(-300)}`, "");
  }
  tally.stoppedBy = stop ?? "count";
  tally.seconds = (Date.now() - started) / 1000;
  tally.memoryAfter = server.alive ? await server.memory(true).catch(() => undefined) : undefined;
  tally.stderrTail = server.stderrTail;
  return tally;
}

/** The violations of a tally not covered by KNOWN_OPEN. */
export function unknownCounts(tally: Tally): [ViolationKind, number][] {
  return [...tally.counts].map(([k, c]) => [k, c.total - c.known] as [ViolationKind, number]).filter(([, n]) => n > 0);
}
