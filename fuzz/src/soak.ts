/**
 * `pnpm soak -- [--seconds S] [--clients C] [--slow K] [--interval S] [--seed S]`
 *
 * Drives the HTTP fixture for S seconds with a mixed workload: C clients
 * sending mostly valid requests (some malformed), and K slow clients that
 * dribble their bodies, read their answers slowly, or go away mid-request.
 * Prints the server's RSS and heap at every interval and after a forced GC
 * at the end, and the violations seen. Exits 1 on a crash, a hang, a 5xx,
 * or a violation not in KNOWN_OPEN.
 */
import { request } from "node:http";
import fc from "fast-check";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import type { Case } from "./cases.js";
import { check } from "./check.js";
import { isKnownOpen, LIMITS, TOOLS, type ViolationKind } from "./config.js";
import { HttpDriver } from "./drivers.js";
import { FAMILIES } from "./generators.js";
import { countsTable, memoryCells, table } from "./report.js";
import type { Tally } from "./run.js";
import { FixtureProcess, type Memory } from "./server.js";

interface SoakOptions {
  seconds: number;
  clients: number;
  slow: number;
  intervalSeconds: number;
  seed: number;
}

function parse(argv: string[]): SoakOptions {
  const args = argv.filter((a) => a !== "--");
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const k = args.indexOf(name);
    if (k === -1) return fallback;
    const n = Number(args[k + 1]);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${args[k + 1]}`);
    return n;
  };
  const seconds = int("--seconds", 60, 1, 7 * 24 * 3600);
  return {
    seconds,
    clients: int("--clients", 8, 1, 256),
    slow: int("--slow", 4, 0, 256),
    intervalSeconds: int("--interval", Math.max(1, Math.round(seconds / 20)), 1, 3600),
    seed: int("--seed", Math.floor(Math.random() * 2 ** 31), -(2 ** 31), 2 ** 31 - 1),
  };
}

/** Mostly valid requests, some malformed ones (no huge bodies: memory is what is watched). */
function soakArbitrary(): fc.Arbitrary<Case> {
  const pick = (name: string) => FAMILIES.find((f) => f.name === name)!.arbitrary;
  const malformed = FAMILIES.filter((f) => f.transports.includes("http") && !["valid", "huge", "deep"].includes(f.name));
  return fc.oneof(
    { arbitrary: pick("valid"), weight: 85 },
    { arbitrary: fc.oneof(...malformed.map((f) => ({ arbitrary: f.arbitrary, weight: f.weight }))), weight: 15 },
  );
}

const META = { [META_PROTOCOL_VERSION]: PROTOCOL_VERSION, [META_CLIENT_CAPABILITIES]: {}, progressToken: "soak" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One slow exchange: a body sent in pieces, an answer read late, or a client that leaves. */
function slowExchange(
  port: number,
  mode: "dribble" | "slow-reader" | "leave",
  id: number,
): Promise<{ kind?: ViolationKind; detail?: string }> {
  const body = Buffer.from(
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: TOOLS.slow, arguments: { ms: mode === "slow-reader" ? 300 : 50, steps: 3 }, _meta: META },
    }),
  );
  const headers = {
    host: `127.0.0.1:${port}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "content-length": String(body.length),
    "mcp-protocol-version": PROTOCOL_VERSION,
    "mcp-method": "tools/call",
    "mcp-name": TOOLS.slow,
  };
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      req.destroy();
      resolve(mode === "leave" ? {} : { kind: "hang", detail: `${mode}: no answer within 15 s` });
    }, 15_000);
    const done = (r: { kind?: ViolationKind; detail?: string }) => {
      clearTimeout(timer);
      resolve(r);
    };
    const req = request({ host: "127.0.0.1", port, method: "POST", path: "/mcp", headers, agent: false });
    req.on("error", () => done(mode === "leave" ? {} : { kind: "unanswered", detail: `${mode}: connection failed` }));
    req.on("response", async (res) => {
      if (mode === "slow-reader") {
        res.pause();
        await sleep(1000);
        res.resume();
      }
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => {
        if ((res.statusCode ?? 0) >= 500) return done({ kind: "http-5xx", detail: `${mode}: status ${res.statusCode}` });
        if (res.statusCode !== 200 || !text.includes(`"id":${id}`))
          return done({ kind: "unanswered", detail: `${mode}: status ${res.statusCode}: ${text.slice(0, 80)}` });
        done({});
      });
      res.on("error", () => done(mode === "leave" ? {} : { kind: "unanswered", detail: `${mode}: answer cut` }));
    });
    (async () => {
      if (mode === "leave") {
        req.write(body.subarray(0, body.length >> 1));
        await sleep(100);
        req.destroy();
        done({});
        return;
      }
      const pieces = mode === "dribble" ? 10 : 1;
      const size = Math.ceil(body.length / pieces);
      for (let k = 0; k < pieces; k++) {
        req.write(body.subarray(k * size, (k + 1) * size));
        if (mode === "dribble") await sleep(100);
      }
      req.end();
    })().catch(() => done({ kind: "unanswered", detail: `${mode}: write failed` }));
  });
}

const log = (text: string) => process.stderr.write(`${text}\n`);

async function main(): Promise<number> {
  const options = parse(process.argv.slice(2));
  const server = await FixtureProcess.start("http");
  log(
    `soak: ${options.seconds} s, ${options.clients} clients, ${options.slow} slow clients, seed ${options.seed}, fixture pid ${server.pid} at ${server.url}`,
  );
  const tally: Tally = {
    transport: "http",
    era: "2026-07-28",
    seed: options.seed,
    cases: 0,
    seconds: 0,
    stoppedBy: "time",
    counts: new Map(),
    examples: new Map(),
    byCategory: new Map(),
    families: new Map(),
  };
  const record = (kind: ViolationKind, category: string, detail: string) => {
    const c = tally.counts.get(kind) ?? { total: 0, known: 0 };
    c.total++;
    if (isKnownOpen(kind, "http", category)) c.known++;
    tally.counts.set(kind, c);
    tally.byCategory.set(`${kind} ${category}`, (tally.byCategory.get(`${kind} ${category}`) ?? 0) + 1);
    const list = tally.examples.get(kind) ?? [];
    if (list.length < LIMITS.examplesPerKind) list.push({ index: tally.cases, category, detail, sent: "" });
    tally.examples.set(kind, list);
  };

  const samples: { at: number; requests: number; memory: Memory | undefined; label: string }[] = [];
  const started = Date.now();
  const deadline = started + options.seconds * 1000;
  samples.push({ at: 0, requests: 0, memory: await server.memory(true).catch(() => undefined), label: "start (after GC)" });

  const driver = new HttpDriver(server.port, options.clients, LIMITS.requestTimeoutMs);
  const arbitrary = soakArbitrary();
  let batch = 0;
  let pool: Case[] = [];
  const nextCase = (): Case => {
    if (pool.length === 0) pool = fc.sample(arbitrary, { seed: (options.seed + ++batch) | 0, numRuns: 256 });
    return pool.pop()!;
  };
  let slowCount = 0;
  let stopping = false;

  const client = async () => {
    while (!stopping && Date.now() < deadline && server.alive) {
      const c = nextCase();
      const index = tally.cases++;
      const rendered = c.render(index);
      const observed = await driver.send(c, rendered);
      for (const v of check(c.expect, observed, rendered.idText, c.category)) record(v.kind, c.category, v.detail);
    }
  };
  const slowClient = async (k: number) => {
    const modes = ["dribble", "slow-reader", "leave"] as const;
    for (let n = 0; !stopping && Date.now() < deadline && server.alive; n++) {
      const mode = modes[(k + n) % modes.length]!;
      const r = await slowExchange(server.port, mode, 9_000_000 + k * 100_000 + n);
      slowCount++;
      if (r.kind) record(r.kind, `slow/${mode}`, r.detail ?? "");
    }
  };
  const sampler = async () => {
    while (!stopping && Date.now() < deadline && server.alive) {
      await sleep(Math.min(options.intervalSeconds * 1000, Math.max(0, deadline - Date.now())));
      if (!server.alive) break;
      samples.push({
        at: (Date.now() - started) / 1000,
        requests: tally.cases + slowCount,
        memory: await server.memory(false).catch(() => undefined),
        label: "",
      });
      const last = samples.at(-1)!;
      log(`soak: ${last.at.toFixed(0)} s, ${last.requests} requests, RSS ${((last.memory?.rss ?? 0) / 1048576).toFixed(1)} MiB`);
    }
  };
  await Promise.all([
    ...Array.from({ length: options.clients }, client),
    ...Array.from({ length: options.slow }, (_, k) => slowClient(k)),
    sampler(),
  ]);
  stopping = true;
  driver.close();
  tally.seconds = (Date.now() - started) / 1000;
  if (!server.alive) record("crash", "(process)", `the server exited (${server.exited}): ${server.stderrTail.slice(-300)}`);
  else
    samples.push({
      at: tally.seconds,
      requests: tally.cases + slowCount,
      memory: await server.memory(true).catch(() => undefined),
      label: "end (after GC)",
    });
  await server.stop();

  const rows = samples.map((s, k) => {
    const previous = samples[k - 1];
    // The after-GC rows mark the run's ends, not an interval of traffic.
    const rate = previous && !s.label && s.at > previous.at ? ((s.requests - previous.requests) / (s.at - previous.at)).toFixed(0) : "-";
    return [s.label || `${s.at.toFixed(1)} s`, String(s.requests), rate, ...memoryCells(s.memory)];
  });
  process.stdout.write(`\n${table(["sample", "requests", "req/s", "RSS MiB", "heapUsed MiB", "heapTotal MiB", "external MiB"], rows)}\n`);
  process.stdout.write(`\n${countsTable([tally])}\n(slow-client exchanges: ${slowCount}; their violations are in the counts above)\n`);
  const unknown = [...tally.counts].filter(([, c]) => c.total > c.known);
  const fatal = ["crash", "hang", "http-5xx"].some((k) => (tally.counts.get(k as ViolationKind)?.total ?? 0) > 0);
  if (unknown.length > 0) {
    for (const [kind, examples] of tally.examples) for (const e of examples) process.stdout.write(`  ${kind} ${e.category}: ${e.detail}\n`);
  }
  return fatal || unknown.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
