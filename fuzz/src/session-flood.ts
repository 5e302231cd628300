/**
 * `pnpm soak:sessions -- [--sessions N] [--attempts K] [--concurrency C]`
 *
 * A flood of `initialize`-era sessions against the HTTP fixture (its
 * `maxSessions` is the default, 1000; its questions to the client wait the
 * server's default 60 s), and a well-behaved client beside it. The flood's
 * sessions come in three kinds, in turn: `initialize` +
 * `notifications/initialized` only; the same, then a `tools/call` of the
 * eliciting tool dropped by the client once the question arrived (the call
 * runs on, its question pending: a dropped POST does not cancel it in that
 * era); the same, then a GET stream held open until the server ends it. N
 * sessions alone, then K rounds of the client (initialize, initialized, two
 * `tools/call`s, on a 404 one new initialize as the spec says; and a
 * 2026-07-28 `tools/call`), then N more sessions with K more rounds at the
 * same time. Prints the server's memory after a forced GC before and after
 * each flood, the statuses the flood got, and how each of the client's steps
 * went. Exits 1 when a step of the client failed, or when heapUsed after the
 * second flood is more than 10% above the first's (sessions must be bounded
 * by maxSessions, whatever the flood).
 */
import { PROTOCOL_VERSION } from "@x/mcp-v2511/constants";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, PROTOCOL_VERSION as LATER_VERSION } from "@x/mcp-v2607";
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

const initializeBody = (name: string, capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method: "initialize",
  params: { protocolVersion: PROTOCOL_VERSION, capabilities, clientInfo: { name, version: "1" } },
});

/** Opens a session (initialize, then initialized): its headers, or the status that refused it. */
async function open(
  url: string,
  name: string,
  capabilities: Record<string, unknown> = {},
): Promise<{ headers: Record<string, string> } | { status: number }> {
  const init = await post(url, initializeBody(name, capabilities));
  if (init.status !== 200 || !init.session) return { status: init.status };
  const headers = { "mcp-session-id": init.session, "mcp-protocol-version": PROTOCOL_VERSION };
  await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  return { headers };
}

/** Reads an SSE body until `text` shows up in it, the body ends, or 100 chunks came; true when it showed up. */
async function readUntil(body: ReadableStream<Uint8Array> | null, text: string): Promise<boolean> {
  if (!body) return false;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  for (let i = 0; i < 100; i++) {
    const { value, done } = await reader.read();
    if (done) return false;
    seen += decoder.decode(value, { stream: true });
    if (seen.includes(text)) return true;
  }
  return false;
}

/** The flood's GET streams still open: each one's reader, cancelled at the end of the run. */
const heldStreams = new Set<ReadableStreamDefaultReader<Uint8Array>>();

/** Holds a GET stream open until the server ends it (its session ended) or the run ends. */
function holdOpen(body: ReadableStream<Uint8Array>): void {
  const reader = body.getReader();
  heldStreams.add(reader);
  const drain = async () => {
    // Keep-alive comments come every 15 s at most: bounded by the run's length.
    for (;;) if ((await reader.read()).done) break;
  };
  drain()
    .catch(() => undefined)
    .finally(() => heldStreams.delete(reader));
}

type Kind = "plain" | "dropped ask" | "GET stream";
const KINDS: readonly Kind[] = ["plain", "dropped ask", "GET stream"];

/** One flood session of `kind`; the statuses it got, as "step status" keys. */
async function floodSession(url: string, kind: Kind): Promise<string[]> {
  const opened = await open(url, "flood", kind === "dropped ask" ? { elicitation: {} } : {});
  if ("status" in opened) return [`initialize ${opened.status}`];
  if (kind === "plain") return ["initialize 200"];
  const controller = new AbortController();
  const timeout = setTimeout(() => controller.abort(), LIMITS.requestTimeoutMs);
  try {
    if (kind === "dropped ask") {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...opened.headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: TOOLS.ask, arguments: {} } }),
        signal: controller.signal,
      });
      const asked = res.status === 200 && (await readUntil(res.body, "elicitation/create"));
      // Dropped by the client once the question arrived.
      controller.abort();
      return ["initialize 200", `tools/call ${asked ? "asked, dropped" : res.status}`];
    }
    const res = await fetch(url, { headers: { accept: "text/event-stream", ...opened.headers }, signal: controller.signal });
    clearTimeout(timeout);
    if (res.status !== 200 || !res.body) return ["initialize 200", `GET ${res.status}`];
    holdOpen(res.body);
    return ["initialize 200", "GET 200, held"];
  } catch {
    return ["initialize 200", `${kind} failed`];
  } finally {
    clearTimeout(timeout);
  }
}

/** N sessions opened by `concurrency` workers, the kinds in turn; the statuses they got. */
async function flood(url: string, n: number, concurrency: number): Promise<Map<string, number>> {
  const statuses = new Map<string, number>();
  let started = 0;
  const worker = async () => {
    while (started < n) {
      const kind = KINDS[started++ % KINDS.length]!;
      const got = await floodSession(url, kind).catch(() => [`${kind} failed`]);
      for (const key of got) statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return statuses;
}

/** A 2026-07-28 tools/call (served statelessly): its status and text. */
function laterEraCall(url: string, text: string) {
  return post(
    url,
    {
      jsonrpc: "2.0",
      id: nextId++,
      method: "tools/call",
      params: { name: TOOLS.echo, arguments: { text }, _meta: { [META_PROTOCOL_VERSION]: LATER_VERSION, [META_CLIENT_CAPABILITIES]: {} } },
    },
    { "mcp-protocol-version": LATER_VERSION, "mcp-method": "tools/call", "mcp-name": TOOLS.echo },
  );
}

interface Outcomes {
  rounds: number;
  served: number;
  reinitialized: number;
  failures: Map<string, number>;
}

/** K rounds of a well-behaved client: initialize, initialized, two calls (a 404 is answered with one new initialize), a 2026-07-28 call. */
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
    if (ok) {
      const later = await laterEraCall(url, "2026-07-28").catch(() => ({ status: 0, text: "" }));
      if (later.status !== 200 || !later.text.includes('"result"')) {
        fail("2026-07-28 tools/call", later.status);
        ok = false;
      }
    }
    if (ok) into.served++;
  }
}

const mib = (bytes: number | undefined) => (bytes === undefined ? "-" : (bytes / 1048576).toFixed(1));
const statusText = (m: Map<string, number>) =>
  [...m]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${n} × ${s}`)
    .join(", ");

async function main(): Promise<number> {
  const options = parse(process.argv.slice(2));
  // The server's own default wait for the client's answers: a dropped ask holds its session that long.
  const server = await FixtureProcess.start("http", ["--client-request-timeout-ms", "60000"]);
  const url = new URL(ENDPOINT_PATH, server.url).href;
  log(`session flood: ${options.sessions} sessions per flood, ${options.attempts} rounds of the client, fixture pid ${server.pid}`);
  const samples: { label: string; memory: Memory | undefined }[] = [];
  const sample = async (label: string) => samples.push({ label, memory: await server.memory(true).catch(() => undefined) });
  const alone: Outcomes = { rounds: 0, served: 0, reinitialized: 0, failures: new Map() };
  const during: Outcomes = { rounds: 0, served: 0, reinitialized: 0, failures: new Map() };
  let first = new Map<string, number>();
  let second = new Map<string, number>();
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
    for (const reader of heldStreams) reader.cancel().catch(() => undefined);
    await server.stop();
  }
  process.stdout.write(
    `\n${table(
      ["sample (after GC)", "RSS MiB", "heapUsed MiB", "heapTotal MiB", "external MiB"],
      samples.map((s) => [s.label, ...memoryCells(s.memory)]),
    )}\n`,
  );
  process.stdout.write(`\nflood 1: ${statusText(first)}\nflood 2: ${statusText(second)}\n`);
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
