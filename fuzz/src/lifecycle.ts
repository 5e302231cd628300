/**
 * The opening of a stdio connection (spec 2025-11-25: basic/lifecycle,
 * basic/utilities/ping; 2026-07-28: basic/versioning "Backward
 * Compatibility"), generated and checked: maybe a `ping` first (answered
 * `{}`, pinning nothing), then `initialize` with requests written right
 * behind it in the same write, before its answer is read (and sometimes
 * `notifications/initialized` among them).
 *
 * Checked: the ping is answered with an empty result before anything else;
 * `initialize` is answered with a result, before any request written after
 * it; each of those is answered exactly once, with a result of the
 * initialize era (never the 2026-07-28 envelope's -32602, never "not
 * answered yet"), and those the fixture answers at once in the order written.
 *
 * A connection can be opened once per stdio process, so besides the
 * fixture's own stdin/stdout (the opening of a `stdio 2025-11-25` run) the
 * fixture serves fresh stdio connections on a loopback socket
 * (`serveStdio` over a `net.Socket`: the same transport code and framing):
 * one per `lifecycle` scenario.
 */
import { connect } from "node:net";
import { INITIALIZE_ERA_VERSIONS } from "@x/mcp-v2511/wire";
import fc from "fast-check";
import type { Violation } from "./check.js";
import { RESOURCE_URI, TOOLS } from "./config.js";
import { checkInitializeAnswer, laterEraFields } from "./initialize-era.js";
import { type L, parseLossless, Raw } from "./json.js";

/** One request written right after `initialize`. `immediate`: the fixture answers it without a promise, so in order. */
export interface EarlyRequest {
  label: string;
  method: string;
  params?: Record<string, unknown>;
  immediate: boolean;
}

/** One generated opening. */
export interface Lifecycle {
  /** `lifecycle/<variant>` for the report. */
  category: string;
  /** A `ping` before anything else, its answer read before `initialize` is written. */
  pingFirst: boolean;
  version: string;
  /** Declare the elicitation capability in `initialize`. */
  elicitation: boolean;
  /** Written in the same write as `initialize`, in order. */
  early: EarlyRequest[];
  /** Where `notifications/initialized` goes among them (an index into `early`), or nowhere. */
  initializedAt: number | undefined;
}

/** Requests a client may pipeline behind `initialize`. */
export const EARLY_REQUESTS: readonly EarlyRequest[] = [
  { label: "tools-list", method: "tools/list", immediate: true },
  { label: "ping", method: "ping", immediate: true },
  { label: "echo", method: "tools/call", params: { name: TOOLS.echo, arguments: { n: 1 } }, immediate: true },
  { label: "add", method: "tools/call", params: { name: TOOLS.add, arguments: { a: 1, b: 2 } }, immediate: true },
  { label: "prompts-list", method: "prompts/list", immediate: false },
  { label: "resources-read", method: "resources/read", params: { uri: RESOURCE_URI }, immediate: false },
  { label: "set-level", method: "logging/setLevel", params: { level: "info" }, immediate: true },
];

export const lifecycleArbitrary: fc.Arbitrary<Lifecycle> = fc
  .tuple(
    fc.boolean(),
    fc.constantFrom(...INITIALIZE_ERA_VERSIONS),
    fc.array(fc.constantFrom(...EARLY_REQUESTS), { minLength: 1, maxLength: 6 }),
    fc.option(fc.nat({ max: 6 }), { nil: undefined, freq: 2 }),
    fc.boolean(),
  )
  .map(([pingFirst, version, early, at, elicitation]) => ({
    category: `lifecycle/${pingFirst ? "ping-first" : "initialize-first"}${at === undefined ? "" : "/initialized-early"}`,
    pingFirst,
    version,
    elicitation,
    early,
    initializedAt: at === undefined ? undefined : Math.min(at, early.length),
  }));

/** The ids of one opening's messages, unique per scenario index. */
export function lifecycleIds(l: Lifecycle, index: number) {
  const base = `lc-${index}`;
  return { ping: `${base}-ping`, initialize: `${base}-init`, early: l.early.map((_, k) => `${base}-r${k}`) };
}

/** The lines an opening writes: the ping's (alone, first), then the pipelined batch. */
export function lifecycleLines(l: Lifecycle, index: number): { ping: string | undefined; batch: string[] } {
  const ids = lifecycleIds(l, index);
  const batch = [
    JSON.stringify({
      jsonrpc: "2.0",
      id: ids.initialize,
      method: "initialize",
      params: {
        protocolVersion: l.version,
        capabilities: l.elicitation ? { elicitation: {} } : {},
        clientInfo: { name: "x-fuzz", version: "0.0.0" },
      },
    }),
  ];
  l.early.forEach((r, k) => {
    if (l.initializedAt === k) batch.push('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    batch.push(JSON.stringify({ jsonrpc: "2.0", id: ids.early[k], method: r.method, ...(r.params ? { params: r.params } : {}) }));
  });
  if (l.initializedAt !== undefined && l.initializedAt >= l.early.length)
    batch.push('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  return { ping: l.pingFirst ? JSON.stringify({ jsonrpc: "2.0", id: ids.ping, method: "ping" }) : undefined, batch };
}

function isRecord(v: L | undefined): v is { [key: string]: L } {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Raw);
}

/** The responses among `lines`, with the string id each carries (server notifications are left out). */
function responses(lines: readonly string[]): { id: string | undefined; message: { [key: string]: L } }[] {
  const out: { id: string | undefined; message: { [key: string]: L } }[] = [];
  for (const line of lines) {
    let m: L;
    try {
      m = parseLossless(line);
    } catch {
      continue;
    }
    if (!isRecord(m) || (typeof m.method === "string" && !("id" in m))) continue;
    out.push({ id: typeof m.id === "string" ? m.id : undefined, message: m });
  }
  return out;
}

/** What a ping first got: a violation unless its one answer is `{}` (ping-refused). */
export function checkPingFirst(lines: readonly string[], id: string): Violation[] {
  const got = responses(lines);
  const first = got[0];
  if (!first || first.id !== id)
    return [{ kind: "ping-refused", detail: `the first answer is ${first ? JSON.stringify(first.message).slice(0, 80) : "missing"}` }];
  const result = first.message.result;
  if (!isRecord(result) || Object.keys(result).length !== 0)
    return [{ kind: "ping-refused", detail: `a ping before any era answered ${JSON.stringify(first.message).slice(0, 80)}` }];
  return got.length > 1 ? [{ kind: "answered-twice", detail: `${got.length} answers to one ping` }] : [];
}

/** The invariants of the pipelined batch, from the lines read back (in order) once every answer came or the time was up. */
export function checkBatch(l: Lifecycle, index: number, lines: readonly string[], timedOut: boolean): Violation[] {
  const out: Violation[] = [];
  const ids = lifecycleIds(l, index);
  const got = responses(lines);
  const initAt = got.findIndex((r) => r.id === ids.initialize);
  const init = got[initAt];
  if (!init) {
    out.push({ kind: timedOut && got.length === 0 ? "hang" : "unanswered", detail: "initialize was not answered" });
    return out;
  }
  if (!isRecord(init.message.result) || typeof init.message.result.protocolVersion !== "string")
    out.push({ kind: "error-for-valid", detail: `initialize answered ${JSON.stringify(init.message).slice(0, 120)}` });
  else out.push(...checkInitializeAnswer(l.version, init.message.result, null), ...laterEraFields(init.message.result));
  const order: number[] = [];
  ids.early.forEach((id, k) => {
    const r = l.early[k]!;
    const at = got.map((g, i) => (g.id === id ? i : -1)).filter((i) => i >= 0);
    if (at.length === 0) {
      out.push({ kind: timedOut ? "hang" : "unanswered", detail: `${r.label} written after initialize was not answered` });
      return;
    }
    if (at.length > 1) out.push({ kind: "answered-twice", detail: `${r.label}: ${at.length} answers` });
    const answer = got[at[0]!]!.message;
    if (at[0]! < initAt) out.push({ kind: "answered-before-initialize", detail: `${r.label} answered before initialize` });
    if (answer.error !== undefined)
      out.push({ kind: "early-request-refused", detail: `${r.label} answered ${JSON.stringify(answer.error).slice(0, 120)}` });
    else out.push(...laterEraFields(answer.result));
    if (r.immediate) order.push(at[0]!);
  });
  for (let k = 1; k < order.length; k++) {
    if (order[k]! < order[k - 1]!) {
      out.push({ kind: "early-out-of-order", detail: `answers at ${order.join(", ")} for requests written in order` });
      break;
    }
  }
  const known = new Set([ids.initialize, ...ids.early]);
  const stray = got.filter((g) => !known.has(g.id ?? ""));
  if (stray.length > 0)
    out.push({ kind: "malformed-response", detail: `answers to nothing sent: ${JSON.stringify(stray[0]!.message).slice(0, 80)}` });
  return out;
}

/**
 * Writes `text` on a connection and reads lines until every id in `ids` has
 * a response or `timeoutMs` passes. `lines` are kept in the order read.
 */
export interface LineExchange {
  send(text: string, ids: readonly string[], timeoutMs: number): Promise<{ lines: string[]; timedOut: boolean }>;
}

/** A fresh stdio connection of the fixture, over its loopback socket. */
export class SocketConnection implements LineExchange {
  readonly #socket;
  #buffer = "";
  #lines: string[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  private constructor(socket: ReturnType<typeof connect>) {
    this.#socket = socket;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.#buffer += chunk;
      for (let nl = this.#buffer.indexOf("\n"); nl !== -1; nl = this.#buffer.indexOf("\n")) {
        this.#lines.push(this.#buffer.slice(0, nl));
        this.#buffer = this.#buffer.slice(nl + 1);
      }
      this.#wake?.();
    });
    const gone = () => {
      this.#closed = true;
      this.#wake?.();
    };
    socket.on("close", gone);
    socket.on("error", gone);
  }

  /** Connects to the fixture's side port; rejects when it cannot within `timeoutMs`. */
  static open(port: number, timeoutMs: number): Promise<SocketConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no connection to the fixture's stdio socket within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(new SocketConnection(socket));
      });
      socket.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  async send(text: string, ids: readonly string[], timeoutMs: number): Promise<{ lines: string[]; timedOut: boolean }> {
    const start = this.#lines.length;
    this.#socket.write(text);
    const want = new Set(ids);
    const deadline = setTimeout(() => {
      this.#closed = true;
      this.#wake?.();
    }, timeoutMs);
    // Bounded: each round waits for a chunk; the deadline ends the wait.
    for (let round = 0; round < 100_000; round++) {
      const seen = new Set(responses(this.#lines.slice(start)).map((r) => r.id));
      if ([...want].every((id) => seen.has(id))) break;
      if (this.#closed) break;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
    clearTimeout(deadline);
    const lines = this.#lines.slice(start);
    const seen = new Set(responses(lines).map((r) => r.id));
    return { lines, timedOut: ![...want].every((id) => seen.has(id)) };
  }

  /** Ends the input (the server then ends the connection) and lets the socket go. */
  close(): void {
    this.#socket.end();
    this.#socket.destroySoon?.();
  }
}

/** Plays one opening on `connection`; returns its violations, by step. */
export async function playLifecycle(
  connection: LineExchange,
  l: Lifecycle,
  index: number,
  timeoutMs: number,
): Promise<{ step: string; violations: Violation[]; sent: string }[]> {
  const out: { step: string; violations: Violation[]; sent: string }[] = [];
  const ids = lifecycleIds(l, index);
  const { ping, batch } = lifecycleLines(l, index);
  if (ping !== undefined) {
    const got = await connection.send(`${ping}\n`, [ids.ping], timeoutMs);
    out.push({
      step: "ping-first",
      violations:
        got.timedOut && got.lines.length === 0
          ? [{ kind: "hang", detail: "a ping first was not answered" }]
          : checkPingFirst(got.lines, ids.ping),
      sent: ping,
    });
  }
  const text = `${batch.join("\n")}\n`;
  const got = await connection.send(text, [ids.initialize, ...ids.early], timeoutMs);
  out.push({ step: "pipelined", violations: checkBatch(l, index, got.lines, got.timedOut), sent: text.slice(0, 400) });
  return out;
}
