/**
 * The two transports' drivers: send one rendered case, collect what came
 * back for it, within the per-request timeout.
 */
import { Agent, request } from "node:http";
import type { Readable, Writable } from "node:stream";
import type { Case, Expect, Rendered } from "./cases.js";
import type { HttpObserved, StdioObserved } from "./check.js";
import type { ViolationKind } from "./config.js";
import { canonicalNumber, type L, parseLossless, Raw } from "./json.js";

// ---------------------------------------------------------------- HTTP

/** Most of an answer kept, in bytes (the largest echo is about 8 MiB). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** An HTTP client for one server: keep-alive connections, at most `sockets` at once. */
export class HttpDriver {
  readonly agent: Agent;
  /** What `{session}` in a header value becomes: the id of a live initialize-era session ({@link HttpDriver.openSession}). */
  sessionId = "00000000-0000-4000-8000-00000000dead";
  constructor(
    readonly port: number,
    sockets: number,
    readonly timeoutMs: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  /** Sends `c` as rendered; never rejects. */
  send(c: Case, rendered: Rendered): Promise<HttpObserved> {
    const spec = c.http;
    const port = String(this.port);
    const headers: [string, string][] = [];
    const hasHost = spec.headers.some(([h]) => h.toLowerCase() === "host");
    if (!hasHost && !spec.omitHost) headers.push(["host", `127.0.0.1:${port}`]);
    for (const [name, value] of spec.headers)
      headers.push([name, value.replaceAll("{port}", port).replaceAll("{session}", this.sessionId)]);
    headers.push(["content-length", String(rendered.bytes.length)]);
    return new Promise<HttpObserved>((resolve) => {
      let settled = false;
      const finish = (o: Omit<HttpObserved, "transport" | "method">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ transport: "http", method: spec.method, ...o });
      };
      const req = request({
        host: "127.0.0.1",
        port: this.port,
        method: spec.method,
        path: spec.path,
        agent: this.agent,
        setHost: false,
        headers: headers.flat(),
      });
      const timer = setTimeout(() => {
        req.destroy(new Error("timeout"));
        finish({ timedOut: true });
      }, this.timeoutMs);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        res.on("end", () =>
          finish({
            timedOut: false,
            status: res.statusCode,
            contentType: res.headers["content-type"],
            body: Buffer.concat(chunks).toString("utf8"),
            sessionId: res.headers["mcp-session-id"] as string | undefined,
          }),
        );
        res.on("error", (error) => finish({ timedOut: false, status: res.statusCode, error: String(error) }));
      });
      req.on("error", (error) => finish({ timedOut: false, error: String(error) }));
      req.end(rendered.bytes);
    });
  }

  /**
   * Opens an initialize-era session (initialize, then notifications/initialized)
   * whose id `{session}` then names; keeps the made-up id when that fails.
   * Never rejects.
   */
  async openSession(url: string): Promise<void> {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    try {
      const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x-fuzz", version: "0.0.0" } };
      const res = await post({ jsonrpc: "2.0", id: "open", method: "initialize", params });
      await res.text();
      const id = res.headers.get("mcp-session-id");
      if (!id) return;
      const note = await post(
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      );
      await note.text();
      this.sessionId = id;
    } catch {
      // A session that cannot open leaves {session} a made-up id: the cases expect the same answers either way.
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

// ---------------------------------------------------------------- stdio

/** The key of an id for matching answers to requests: its type and exact value. */
export function idKey(id: L | undefined): string | undefined {
  if (typeof id === "string") return `s:${id}`;
  if (id instanceof Raw) return `n:${canonicalNumber(id.text)}`;
  return undefined;
}

function idKeyOfText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return idKey(parseLossless(text));
  } catch {
    return undefined;
  }
}

function isRecord(v: L | undefined): v is { [key: string]: L } {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Raw);
}

interface Pending {
  idKey: string | undefined;
  sentinelKey: string;
  expectsResponse: boolean;
  lines: string[];
  sentinelSeen: boolean;
  responses: number;
  finish: (o: StdioObserved) => void;
  graceTimer?: ReturnType<typeof setTimeout>;
}

/** A late answer: a response for a case already done, reported against that case. */
export interface LateAnswer {
  index: number;
  category: string;
  kind: ViolationKind;
  line: string;
}

/** Options of {@link StdioDriver}. */
export interface StdioDriverOptions {
  /** The sentinel request with id `id` (default: `server/discover` with the 2026-07-28 envelope; an initialize-era connection uses `ping`). */
  sentinel?: (id: string) => Record<string, unknown>;
  /** Called with each request the server sends (a line with `method` and `id`); such lines then belong to no case. */
  onServerRequest?: (message: { [key: string]: L }, line: string) => void;
}

/** Writes one line to the server outside any case (an answer to a server's request). */
export function writeLine(input: Writable, message: unknown): void {
  input.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
}

/**
 * Drives a stdio server one case at a time: the case's line, then a
 * sentinel request (server/discover) whose answer marks the end of what the
 * server writes synchronously for the case. Lines in between belong to the
 * case; an answer carrying a past case's id is a late (second) answer.
 */
export class StdioDriver {
  #parts: string[] = [];
  #pending: Pending | undefined;
  #sentinels = 0;
  /** Ids of the recent cases answered, for late duplicates: key → case. */
  #past = new Map<string, { index: number; category: string }>();
  readonly late: LateAnswer[] = [];

  constructor(
    readonly input: Writable,
    output: Readable,
    readonly timeoutMs: number,
    /** How long to wait for the case's own answer once the sentinel was answered (an async handler's). */
    readonly graceMs = Math.min(2000, timeoutMs),
    readonly options: StdioDriverOptions = {},
  ) {
    output.setEncoding("utf8");
    this.#output = output;
    output.on("data", this.#onData);
  }

  readonly #output: Readable;

  /** Stops reading the server's output: a later run's driver on the same process is then the only reader. */
  close(): void {
    this.#output.off("data", this.#onData);
  }

  readonly #onData = (chunk: string): void => {
    // Pieces of an unfinished line are joined once it ends: an answer of megabytes comes in many chunks.
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf("\n");
      if (nl === -1) break;
      const line = this.#parts.length > 0 ? this.#parts.join("") + rest.slice(0, nl) : rest.slice(0, nl);
      this.#parts = [];
      rest = rest.slice(nl + 1);
      this.#line(line);
    }
    if (rest !== "") this.#parts.push(rest);
  };

  #line(line: string): void {
    let message: L | undefined;
    try {
      message = parseLossless(line);
    } catch {
      message = undefined;
    }
    const p = this.#pending;
    if (this.options.onServerRequest && isRecord(message) && typeof message.method === "string" && "id" in message) {
      // A request of the server's own (elicitation/create): the client's to answer, no answer to the case.
      this.options.onServerRequest(message, line);
      return;
    }
    const batch = this.#batch;
    if (batch && !p) {
      batch.lines.push(line);
      if (isRecord(message) && typeof message.id === "string") batch.want.delete(message.id);
      if (batch.want.size === 0) batch.done();
      return;
    }
    const isResponse = isRecord(message) && !(typeof message.method === "string" && !("id" in message));
    const key = isRecord(message) && "id" in message ? idKey(message.id) : undefined;
    if (p && key !== undefined && key === p.sentinelKey) {
      p.sentinelSeen = true;
      this.#maybeFinish(p);
      return;
    }
    if (p && key !== undefined && key === p.idKey) {
      p.lines.push(line);
      p.responses++;
      this.#maybeFinish(p);
      return;
    }
    if (key?.startsWith("s:sentinel-")) return; // a sentinel of a case that timed out
    const past = key !== undefined ? this.#past.get(key) : undefined;
    if (past && isResponse) {
      this.late.push({ index: past.index, category: past.category, kind: "answered-twice", line: line.slice(0, 200) });
      return;
    }
    if (!p) {
      this.late.push({ index: -1, category: "(between cases)", kind: "answered-notification", line: line.slice(0, 200) });
      return;
    }
    p.lines.push(line);
    if (isResponse) p.responses++;
    this.#maybeFinish(p);
  }

  #maybeFinish(p: Pending): void {
    if (!p.sentinelSeen) return;
    if (!p.expectsResponse || p.responses > 0) {
      this.#done(p, { transport: "stdio", lines: p.lines, timedOut: false, unanswered: false });
    } else {
      p.graceTimer ??= setTimeout(
        () => this.#done(p, { transport: "stdio", lines: p.lines, timedOut: false, unanswered: true }),
        this.graceMs,
      );
    }
  }

  #done(p: Pending, o: StdioObserved): void {
    if (this.#pending !== p) return;
    if (p.graceTimer) clearTimeout(p.graceTimer);
    this.#pending = undefined;
    p.finish(o);
  }

  #batch: { lines: string[]; want: Set<string>; done: () => void } | undefined;

  /**
   * Writes `text` (whole lines) outside any case and collects every line
   * the server writes until each of `ids` (string ids) has been answered or
   * `timeoutMs` passed: an opening written in one piece (`lifecycle.ts`).
   * Never rejects.
   */
  exchange(text: string, ids: readonly string[], timeoutMs: number): Promise<{ lines: string[]; timedOut: boolean }> {
    return new Promise((resolve) => {
      const lines: string[] = [];
      const want = new Set(ids);
      const finish = (timedOut: boolean) => {
        clearTimeout(timer);
        if (this.#batch === batch) this.#batch = undefined;
        resolve({ lines, timedOut });
      };
      const timer = setTimeout(() => finish(true), timeoutMs);
      const batch = { lines, want, done: () => finish(false) };
      this.#batch = batch;
      this.input.write(text);
    });
  }

  /** Sends `c` (line and sentinel); resolves with the lines it got. Never rejects. */
  send(c: Case, rendered: Rendered, expect: Expect, index: number): Promise<StdioObserved> {
    const sentinel = `sentinel-${++this.#sentinels}`;
    const key = idKeyOfText(rendered.idText);
    const line = Buffer.from(rendered.bytes);
    // A newline inside the bytes would split the case into two lines.
    for (let k = 0; k < line.length; k++) if (line[k] === 0x0a) line[k] = 0x20;
    const sentinelLine = `${JSON.stringify(
      this.options.sentinel
        ? this.options.sentinel(sentinel)
        : {
            jsonrpc: "2.0",
            id: sentinel,
            method: "server/discover",
            params: {
              _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
            },
          },
    )}\n`;
    return new Promise<StdioObserved>((resolve) => {
      const timer = setTimeout(() => {
        if (this.#pending === pending)
          this.#done(pending, {
            transport: "stdio",
            lines: pending.lines,
            timedOut: !pending.sentinelSeen,
            unanswered: pending.sentinelSeen,
          });
      }, this.timeoutMs);
      const pending: Pending = {
        idKey: key,
        sentinelKey: `s:${sentinel}`,
        expectsResponse: expect.answer === "response",
        lines: [],
        sentinelSeen: false,
        responses: 0,
        finish: (o) => {
          clearTimeout(timer);
          if (key !== undefined) {
            this.#past.set(key, { index, category: c.category });
            // Bounded: only recent cases can still answer late.
            if (this.#past.size > 10_000) this.#past.delete(this.#past.keys().next().value as string);
          }
          resolve(o);
        },
      };
      this.#pending = pending;
      this.input.write(Buffer.concat([line, Buffer.from(`\n${sentinelLine}`)]));
    });
  }
}
