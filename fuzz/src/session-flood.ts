/**
 * `pnpm soak:sessions -- [--sessions N] [--attempts K] [--concurrency C]`
 *
 * A flood of `initialize` + `notifications/initialized` pairs against the
 * HTTP fixture (its `maxSessions` is the default, 1000), and a well-behaved
 * client beside it: N pairs alone, then K rounds of the client (initialize,
 * initialized, two `tools/call`s; on a 404 it initializes again, as the spec
 * tells it to), then N more pairs with K more rounds running at the same
 * time. Prints the server's memory after a forced GC before and after each
 * flood, the statuses the flood got, and how each of the client's steps
 * went. Exits 1 when a step of the client failed, or when heapUsed after the
 * second flood is more than 10% above the first's (sessions must be bounded
 * by maxSessions, whatever the flood).
 */
import { PROTOCOL_VERSION } from "@x/mcp-v2511/constants";
import { ENDPOINT_PATH, LIMITS, TOOLS } from "./config.js";
import { memoryCells, table } from "./report.js";
import { FixtureProcess, type Memory } from "./server.js";

interface FloodOptions {
  sessions: number;
  attempts: number;
  concurrency: number;
}

function parse(argv: string[]): FloodOptions {
  const args = argv.filter((a) => a !== "--");
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const k = args.indexOf(name);
    if (k === -1) return fallback;
    const n = Number(args[k + 1]);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${args[k + 1]}`);
    return n;
  };
  return {
    sessions: int("--sessions", 5000, 1, 1_000_000),
    attempts: int("--attempts", 20, 1, 10_000),
    concurrency: int("--concurrency", LIMITS.httpConcurrency, 1, 256),
  };
}

const log = (text: string) => process.stderr.write(`${text}\n`);
let nextId = 1;

/** One POST; the status, the session id it minted (if any) and the body's text. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(LIMITS.requestTimeoutMs),
  });
  return { status: res.status, session: res.headers.get("mcp-session-id") ?? undefined, text: await res.text() };
}

const initializeBody = (name: string) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method: "initialize",
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name, version: "1" } },
});

/** Opens a session (initialize, then initialized): its headers, or the status that refused it. */
async function open(url: string, name: string): Promise<{ headers: Record<string, string> } | { status: number }> {
  const init = await post(url, initializeBody(name));
  if (init.status !== 200 || !init.session) return { status: init.status };
  const headers = { "mcp-session-id": init.session, "mcp-protocol-version": PROTOCOL_VERSION };
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  return { headers };
}

/** N sessions opened by `concurrency` workers; the statuses their initialize got. */
async function flood(url: string, n: number, concurrency: number): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let started = 0;
  const worker = async () => {
    while (started < n) {
      started++;
      const opened = await open(url, "flood").catch(() => ({ status: 0 }));
      const status = "status" in opened ? opened.status : 200;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return statuses;
}

interface Outcomes {
  rounds: number;
  served: number;
  reinitialized: number;
  failures: Map<string, number>;
}

/** K rounds of a well-behaved client: initialize, initialized, two calls; a 404 is answered with one new initialize. */
async function wellBehaved(url: string, k: number, into: Outcomes): Promise<void> {
  const fail = (step: string, status: number) => into.failures.set(`${step} ${status}`, (into.failures.get(`${step} ${status}`) ?? 0) + 1);
  for (let round = 0; round < k; round++) {
    into.rounds++;
    let opened = await open(url, "well-behaved").catch(() => ({ status: 0 }));
    if ("status" in opened) {
      fail("initialize", opened.status);
      continue;
    }
    let ok = true;
    for (const step of ["tools/call 1", "tools/call 2"]) {
      const call = () =>
        post(
          url,
          { jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: TOOLS.echo, arguments: { text: step } } },
          (opened as { headers: Record<string, string> }).headers,
        ).catch(() => ({ status: 0, text: "" }));
      let answer = await call();
      if (answer.status === 404) {
        into.reinitialized++;
        opened = await open(url, "well-behaved").catch(() => ({ status: 0 }));
        if ("status" in opened) {
          fail("initialize again", opened.status);
          ok = false;
          break;
        }
        answer = await call();
      }
      if (answer.status !== 200 || !answer.text.includes('"result"')) {
        fail(step, answer.status);
        ok = false;
        break;
      }
    }
    if (ok) into.served++;
  }
}

const mib = (bytes: number | undefined) => (bytes === undefined ? "-" : (bytes / 1048576).toFixed(1));
const statusText = (m: Map<number, number>) =>
  [...m]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${n} × ${s}`)
    .join(", ");

async function main(): Promise<number> {
  const options = parse(process.argv.slice(2));
  const server = await FixtureProcess.start("http");
  const url = new URL(ENDPOINT_PATH, server.url).href;
  log(`session flood: ${options.sessions} sessions per flood, ${options.attempts} rounds of the client, fixture pid ${server.pid}`);
  const samples: { label: string; memory: Memory | undefined }[] = [];
  const sample = async (label: string) => samples.push({ label, memory: await server.memory(true).catch(() => undefined) });
  const alone: Outcomes = { rounds: 0, served: 0, reinitialized: 0, failures: new Map() };
  const during: Outcomes = { rounds: 0, served: 0, reinitialized: 0, failures: new Map() };
  let first = new Map<number, number>();
  let second = new Map<number, number>();
  let crashed = false;
  try {
    await sample("start");
    first = await flood(url, options.sessions, options.concurrency);
    await sample(`after flood 1 (${options.sessions} sessions)`);
    await wellBehaved(url, options.attempts, alone);
    [second] = await Promise.all([flood(url, options.sessions, options.concurrency), wellBehaved(url, options.attempts, during)]);
    await sample(`after flood 2 (${options.sessions} more)`);
  } finally {
    crashed = !server.alive;
    await server.stop();
  }
  process.stdout.write(
    `\n${table(
      ["sample (after GC)", "RSS MiB", "heapUsed MiB", "heapTotal MiB", "external MiB"],
      samples.map((s) => [s.label, ...memoryCells(s.memory)]),
    )}\n`,
  );
  process.stdout.write(`\nflood 1 initialize: ${statusText(first)}\nflood 2 initialize: ${statusText(second)}\n`);
  const rows = [
    ["after flood 1", alone],
    ["during flood 2", during],
  ].map(([label, o]) => {
    const out = o as Outcomes;
    const failures = [...out.failures].map(([what, n]) => `${n} × ${what}`).join(", ") || "none";
    return [label as string, String(out.rounds), String(out.served), String(out.reinitialized), failures];
  });
  process.stdout.write(`\n${table(["well-behaved client", "rounds", "served", "initialized again", "failed steps"], rows)}\n`);
  const heap1 = samples[1]?.memory?.heapUsed;
  const heap2 = samples[2]?.memory?.heapUsed;
  const grew = heap1 !== undefined && heap2 !== undefined && heap2 > heap1 * (1 + LIMITS.rssGrowthRatio);
  if (grew) process.stdout.write(`heapUsed grew from ${mib(heap1)} to ${mib(heap2)} MiB between the floods\n`);
  return alone.failures.size + during.failures.size > 0 || grew || crashed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`session flood: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
