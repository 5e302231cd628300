/**
 * Plays `initialize`-era scenarios (`initialize-era.ts`) against a running
 * fixture and checks every step: over Streamable HTTP each scenario opens its
 * own session (and DELETEs it at the end, so sessions stay few); over stdio
 * the whole run is one connection, pinned to the era by its opening
 * `initialize`, and scenarios are played on it one after another.
 *
 * Every step waits at most the request timeout (an `ask` step at most twice
 * that: the server's own wait for the client's answer is 1.5 s in the
 * fixture); a GET stream is read for its first event and then closed.
 */
import type { Writable } from "node:stream";
import { Header } from "@x/mcp-v2511/wire";
import type { Case, Expect, IdSpec, Rendered } from "./cases.js";
import { renderId } from "./cases.js";
import { check, type HttpObserved, type Observed, type Violation } from "./check.js";
import type { ViolationKind } from "./config.js";
import { type StdioDriver, writeLine } from "./drivers.js";
import {
  type AskAnswer,
  type Body,
  checkInitializeAnswer,
  elicits,
  initializeParams,
  takesBatches,
  laterEraFields,
  MALFORMED_SESSION_IDS,
  type Opening,
  type Scenario,
  type SessionHeader,
  type Step,
  UNKNOWN_SESSION_ID,
  type VersionHeader,
} from "./initialize-era.js";
import { ID_SLOT, type L, parseLossless, Raw, stringify } from "./json.js";
import { EARLY_REQUESTS, type Lifecycle, type LineExchange, playLifecycle } from "./lifecycle.js";

/** The violations of one step of a scenario. */
export interface StepResult {
  /** The scenario's category and the step's label: `2511/valid:tools-list`. */
  category: string;
  violations: Violation[];
  /** What was sent, for the report's examples. */
  sent: string;
}

/** Steps in one scenario id space: step `k` of scenario `index` renders ids from `index * ID_STRIDE + k`. */
const ID_STRIDE = 16;

const encoder = new TextEncoder();

function isRecord(v: L | undefined): v is { [key: string]: L } {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Raw);
}

function render(body: Body, slot: number): Rendered {
  if ("text" in body) return { bytes: encoder.encode(body.text) };
  const idText = body.id ? renderId(body.id, slot) : undefined;
  return { bytes: encoder.encode(stringify(body.tree, idText)), idText };
}

function preview(bytes: Uint8Array | string): string {
  const text = typeof bytes === "string" ? bytes : Buffer.from(bytes.subarray(0, 300)).toString("utf8");
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

/** The JSON texts of an SSE body's events, without empty (priming) data. */
function sseMessages(body: string): string[] {
  const out: string[] = [];
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length > 0 && data.join("") !== "") out.push(data.join("\n"));
  }
  return out;
}

/** The messages of an observed answer (parse failures are the oracle's to count). */
function messagesOf(observed: Observed): L[] {
  const texts =
    observed.transport === "stdio"
      ? observed.lines
      : (observed.contentType ?? "").includes("text/event-stream")
        ? sseMessages(observed.body ?? "")
        : observed.body
          ? [observed.body]
          : [];
  const out: L[] = [];
  for (const t of texts) {
    try {
      out.push(parseLossless(t));
    } catch {
      // counted by check()
    }
  }
  return out;
}

/** The result of the response to `idText` among `messages`, if any. */
function resultOf(messages: L[], idText: string | undefined): L | undefined {
  for (const m of messages) {
    if (!isRecord(m) || !("result" in m)) continue;
    if (idText === undefined) return m.result;
    const id = m.id;
    const text = typeof id === "string" ? JSON.stringify(id) : id instanceof Raw ? id.text : undefined;
    if (text !== undefined && (text === idText || (id instanceof Raw && Number(id.text) === Number(idText)))) return m.result;
  }
  return undefined;
}

/** The first text content of a `CallToolResult`. */
function toolText(result: L | undefined): string | undefined {
  if (!isRecord(result) || !Array.isArray(result.content)) return undefined;
  const first = result.content[0];
  return isRecord(first) && typeof first.text === "string" ? first.text : undefined;
}

/** The text the fixture's `ask` answers with for each client answer, when the answer decides it. */
function askText(answer: AskAnswer, name: string): string | undefined {
  if (answer === "accept" || answer === "twice" || answer === "wrong-id") return `hello ${name}`;
  if (answer === "decline" || answer === "cancel") return `no answer (${answer})`;
  return undefined;
}

/** The answer the client sends to `elicitation/create` with id `askId` (raw JSON text), for each kind. */
export function askAnswers(answer: AskAnswer, askId: L, name: string): string[] {
  const id = typeof askId === "string" ? JSON.stringify(askId) : askId instanceof Raw ? askId.text : "null";
  const accept = `{"jsonrpc":"2.0","id":${id},"result":{"action":"accept","content":{"name":${JSON.stringify(name)}}}}`;
  switch (answer) {
    case "accept":
      return [accept];
    case "decline":
    case "cancel":
      return [`{"jsonrpc":"2.0","id":${id},"result":{"action":"${answer}"}}`];
    case "malformed":
      return [`{"jsonrpc":"2.0","id":${id},"result":{"action":"maybe","content":7}}`];
    case "error":
      return [`{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"the user closed the dialog"}}`];
    case "wrong-id":
      return [
        `{"jsonrpc":"2.0","id":"x-mcp-wrong-${id.replace(/\W/g, "")}","result":{"action":"accept","content":{"name":"wrong"}}}`,
        accept,
      ];
    case "twice":
      return [accept, accept];
    case "not-a-response":
      return [`{"jsonrpc":"2.0","id":${id}}`];
    case "none":
      return [];
  }
}

/** What the client's answer to the elicitation is expected to get: silence (202), except a message that is no response. */
function answerExpect(answer: AskAnswer): Expect {
  return answer === "not-a-response"
    ? { answer: "response", id: "same-or-none", outcome: { codes: [-32600] }, wrongCode: "wrong-code-invalid-request", status: [400, 200] }
    : { answer: "silent", silentKind: "answered-response", status: [202] };
}

const ASK_CALL_EXPECT: Expect = { answer: "response", id: "same", outcome: "any", status: [200] };

/** The era-specific checks of an answer: no 2026-07-28 result members. */
function eraChecks(observed: Observed, idText: string | undefined): Violation[] {
  return laterEraFields(resultOf(messagesOf(observed), idText));
}

/** A 2026-07-28 request that named a session: a result must be of 2026-07-28 (`resultType`), not the session's era. */
function servedStatelessly(observed: Observed, idText: string | undefined): Violation[] {
  const result = resultOf(messagesOf(observed), idText);
  if (result === undefined || (isRecord(result) && typeof result.resultType === "string")) return [];
  return [
    { kind: "session-header-honoured", detail: "a 2026-07-28 request with Mcp-Session-Id answered in the session's era (no resultType)" },
  ];
}

function one(out: StepResult[], category: string, violations: Violation[], sent: string): void {
  out.push({ category, violations, sent });
}

// ---------------------------------------------------------------- HTTP

interface HttpAnswer extends HttpObserved {
  headers?: Headers;
}

/** The Streamable HTTP side: one session per scenario. */
export class SessionHttpDriver {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {}

  /** One HTTP exchange; the whole body is read (an SSE body until it ends), within the timeout. Never rejects. */
  async exchange(method: string, headers: Record<string, string>, body?: Uint8Array): Promise<HttpAnswer> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const res = await fetch(this.url, { method, headers, body: body ? new Uint8Array(body) : undefined, signal });
      const text = await res.text();
      return {
        transport: "http",
        method,
        timedOut: false,
        status: res.status,
        contentType: res.headers.get("content-type") ?? undefined,
        body: stripPriming(res.headers.get("content-type"), text),
        headers: res.headers,
      };
    } catch (error) {
      const timedOut = signal.aborted;
      return { transport: "http", method, timedOut, error: timedOut ? undefined : String(error) };
    }
  }

  /** Plays one scenario; returns the violations of each step. */
  async play(s: Scenario, index: number): Promise<StepResult[]> {
    const out: StepResult[] = [];
    const session = new HttpSessionState();
    if (!s.open.params) {
      const opened = await this.#open(s.category, s.open, index, session, out);
      if (!opened) return out;
    }
    if (s.initialized && session.id) {
      const bytes = encoder.encode('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      const observed = await this.exchange("POST", this.#headers(session, "session", "negotiated"), bytes);
      one(out, `${s.category}:initialized`, check(SILENT, observed, undefined, s.category), preview(bytes));
    }
    try {
      for (let k = 0; k < s.steps.length; k++) await this.#step(s, s.steps[k]!, index * ID_STRIDE + k + 1, session, out);
    } finally {
      if (session.id && !session.ended) {
        const observed = await this.exchange("DELETE", this.#headers(session, "session", "negotiated"));
        one(out, `${s.category}:cleanup-delete`, checkDelete(SILENT_DELETE, observed, s.category), `DELETE ${session.id}`);
      }
    }
    return out;
  }

  async #open(category: string, o: Opening, index: number, session: HttpSessionState, out: StepResult[]): Promise<boolean> {
    const idText = renderId({ kind: "int" }, index * ID_STRIDE);
    const text = stringify(
      { jsonrpc: "2.0", id: ID_SLOT, method: "initialize", params: initializeParams(o.protocolVersion, o.elicitation) },
      idText,
    );
    const bytes = encoder.encode(text);
    const observed = await this.exchange(
      "POST",
      { "content-type": "application/json", accept: o.accept ?? "application/json, text/event-stream" },
      bytes,
    );
    const violations = check(RESULT, observed, idText, category);
    const result = resultOf(messagesOf(observed), idText);
    const sessionId = observed.headers?.get(Header.sessionId) ?? undefined;
    if (result !== undefined) violations.push(...checkInitializeAnswer(o.protocolVersion, result, sessionId), ...laterEraFields(result));
    one(out, `${category}:initialize`, violations, preview(text));
    if (!sessionId || result === undefined) return false;
    session.id = sessionId;
    session.version = isRecord(result) && typeof result.protocolVersion === "string" ? result.protocolVersion : "2025-11-25";
    // The capability counts only where the negotiated version has elicitation.
    session.elicitation = o.elicitation && elicits(session.version);
    return true;
  }

  #headers(
    session: HttpSessionState,
    mode: SessionHeader,
    version: VersionHeader,
    accept = "application/json, text/event-stream",
    pick = 0,
  ) {
    const h: Record<string, string> = { "content-type": "application/json", accept };
    const id = sessionHeader(mode, session.id, pick);
    if (id !== undefined) h[Header.sessionId] = id;
    const v = versionHeader(version, session.version);
    if (v !== undefined) h[Header.protocolVersion] = v;
    return h;
  }

  async #step(s: Scenario, step: Step, slot: number, session: HttpSessionState, out: StepResult[]): Promise<void> {
    const category = `${s.category}:${step.label}`;
    if (step.kind === "post") {
      const rendered = render(step.body, slot);
      const headers = {
        ...this.#headers(session, step.session, step.version, step.accept, slot),
        ...Object.fromEntries(step.headers ?? []),
      };
      const observed = await this.exchange("POST", headers, rendered.bytes);
      // Served statelessly: the answer must not name the session (the oracle checks what is recorded here).
      if (step.expect.sessionless) observed.sessionId = observed.headers?.get(Header.sessionId) ?? undefined;
      const violations = check(step.expect, observed, rendered.idText, category);
      if (step.expect.sessionless) violations.push(...servedStatelessly(observed, rendered.idText));
      else if (step.session === "session") violations.push(...eraChecks(observed, rendered.idText));
      one(out, category, violations, preview(rendered.bytes));
      return;
    }
    if (step.kind === "delete") {
      const observed = await this.exchange("DELETE", this.#headers(session, step.session, "negotiated", undefined, slot));
      if (step.session === "session" && (observed.status ?? 0) < 300) session.ended = true;
      one(out, category, checkDelete(step.expect, observed, category), `DELETE (${step.session})`);
      return;
    }
    if (step.kind === "get") {
      await this.#get(step, category, session, out);
      return;
    }
    await this.#ask(s, step, slot, session, category, out);
  }

  /** GET: a 200 must be an SSE stream with no JSON-RPC response on it; it is closed after its first event. */
  async #get(step: Extract<Step, { kind: "get" }>, category: string, session: HttpSessionState, out: StepResult[]): Promise<void> {
    const headers = this.#headers(session, step.session, "negotiated", step.accept);
    delete headers["content-type"];
    if (step.lastEventId) headers[Header.lastEventId] = step.lastEventId;
    const first = await openStream(this.url, headers, this.timeoutMs);
    try {
      if (step.second) {
        const observed = await this.exchange("GET", headers);
        one(out, category, check(step.expect, observed, undefined, category), "GET (a second stream)");
        return;
      }
      if (first.observed.status === 200 && step.expect.status?.includes(200)) {
        const violations: Violation[] = [];
        if (!(first.observed.contentType ?? "").includes("text/event-stream"))
          violations.push({ kind: "non-json-answer", detail: `GET 200 with content-type ${first.observed.contentType}` });
        const text = await first.readFor(250);
        for (const m of sseMessages(text)) {
          let parsed: L;
          try {
            parsed = parseLossless(m);
          } catch {
            violations.push({ kind: "malformed-response", detail: `GET stream event not JSON: ${m.slice(0, 60)}` });
            continue;
          }
          if (!(isRecord(parsed) && typeof parsed.method === "string"))
            violations.push({ kind: "answered-notification", detail: `a JSON-RPC response on the GET stream: ${m.slice(0, 80)}` });
        }
        one(out, category, violations, `GET (${step.session})`);
        return;
      }
      const body = first.observed.status !== undefined ? await first.readFor(this.timeoutMs, true) : "";
      one(out, category, check(step.expect, { ...first.observed, body }, undefined, category), `GET (${step.session})`);
    } finally {
      first.close();
    }
  }

  /** `tools/call` of `ask`: read the call's SSE stream up to `elicitation/create`, answer it, then read to the call's response. */
  async #ask(
    s: Scenario,
    step: Extract<Step, { kind: "ask" }>,
    slot: number,
    session: HttpSessionState,
    category: string,
    out: StepResult[],
  ) {
    const idText = renderId({ kind: "int" }, slot);
    const text = stringify(
      { jsonrpc: "2.0", id: ID_SLOT, method: "tools/call", params: { name: "ask", arguments: { topic: step.name } } },
      idText,
    );
    const headers = this.#headers(session, "session", "negotiated", step.accept);
    const stream = await openStream(this.url, headers, this.timeoutMs * 2, encoder.encode(text));
    const violations: Violation[] = [];
    let asked = false;
    let answered = false;
    try {
      if (stream.observed.status === undefined) {
        one(out, category, check(ASK_CALL_EXPECT, stream.observed, idText, category), preview(text));
        return;
      }
      const kept: string[] = [];
      const deadline = Date.now() + this.timeoutMs * 2;
      while (Date.now() < deadline) {
        const chunk = await stream.nextEvents(deadline - Date.now());
        if (chunk === undefined) break;
        for (const m of chunk) {
          let parsed: L;
          try {
            parsed = parseLossless(m);
          } catch {
            kept.push(m);
            continue;
          }
          if (isRecord(parsed) && typeof parsed.method === "string" && "id" in parsed) {
            if (parsed.method !== "elicitation/create") {
              violations.push({ kind: "malformed-response", detail: `the server sent ${parsed.method} to an elicit` });
              continue;
            }
            asked = true;
            if (!session.elicitation)
              violations.push({
                kind: "asked-without-capability",
                detail: "elicitation/create to a client without the elicitation capability",
              });
            if (!s.initialized)
              violations.push({ kind: "asked-before-initialized", detail: "elicitation/create before notifications/initialized" });
            for (const a of askAnswers(step.answer, parsed.id!, step.name)) {
              const bytes = encoder.encode(a);
              const observed = await this.exchange("POST", this.#headers(session, "session", "negotiated"), bytes);
              one(
                out,
                `${s.category}:answer`,
                check(answerExpect(step.answer), observed, stringifyId(parsed.id), `${s.category}:answer`),
                a,
              );
            }
            continue;
          }
          kept.push(m);
          if (isRecord(parsed) && "id" in parsed && !("method" in parsed)) answered = true;
        }
        if (answered) break;
      }
      const observed: HttpObserved = {
        transport: "http",
        method: "POST",
        timedOut: !answered && kept.length === 0 && !stream.ended,
        status: stream.observed.status,
        contentType: stream.observed.contentType,
        body: (stream.observed.contentType ?? "").includes("text/event-stream")
          ? kept.map((m) => `data: ${m}\n\n`).join("")
          : kept.join(""),
      };
      violations.push(...check(ASK_CALL_EXPECT, observed, idText, category), ...eraChecks(observed, idText));
      const result = resultOf(messagesOf(observed), idText);
      const due = askText(step.answer, step.name);
      if (session.elicitation && s.initialized && !asked && answered)
        violations.push({ kind: "ask-not-sent", detail: "the ask tool answered without sending elicitation/create" });
      if (asked && due !== undefined && toolText(result) !== due)
        violations.push({
          kind: "ask-answer-lost",
          detail: `the tool answered ${JSON.stringify(toolText(result))} where ${JSON.stringify(due)} was due`,
        });
      one(out, category, violations, preview(text));
    } finally {
      stream.close();
    }
  }
}

class HttpSessionState {
  id: string | undefined;
  version = "2025-11-25";
  elicitation = false;
  ended = false;
}

const RESULT: Expect = { answer: "response", id: "same", outcome: "result", status: [200] };
const SILENT: Expect = { answer: "silent", silentKind: "answered-notification", status: [202] };
const SILENT_DELETE: Expect = { answer: "silent", silentKind: "answered-notification", status: [200, 202, 204] };

/** A DELETE that succeeded may have an empty body with 200; otherwise the oracle's rules. */
function checkDelete(expect: Expect, observed: HttpObserved, category: string): Violation[] {
  if (
    !observed.timedOut &&
    observed.status !== undefined &&
    (observed.body ?? "") === "" &&
    expect.status?.includes(observed.status) &&
    expect.answer !== "response"
  )
    return [];
  return check(expect, observed, undefined, category);
}

function stringifyId(id: L | undefined): string | undefined {
  return typeof id === "string" ? JSON.stringify(id) : id instanceof Raw ? id.text : undefined;
}

function stripPriming(contentType: string | null, text: string): string {
  if (!(contentType ?? "").includes("text/event-stream")) return text;
  return sseMessages(text)
    .map((m) => `data: ${m}\n\n`)
    .join("");
}

/** The Mcp-Session-Id a step sends. */
export function sessionHeader(mode: SessionHeader, id: string | undefined, pick = 0): string | undefined {
  switch (mode) {
    case "session":
      return id;
    case "none":
      return undefined;
    case "unknown":
      return UNKNOWN_SESSION_ID;
    case "malformed":
      return MALFORMED_SESSION_IDS[pick % MALFORMED_SESSION_IDS.length];
  }
}

/** The MCP-Protocol-Version a step sends. */
export function versionHeader(mode: VersionHeader, negotiated: string): string | undefined {
  switch (mode) {
    case "negotiated":
      return negotiated;
    case "none":
      return undefined;
    case "later":
      return "2026-07-28";
    case "junk":
      return "2025-13-45";
  }
}

/** A streamed HTTP answer: read in pieces, closed by the caller. */
interface OpenStream {
  observed: HttpObserved;
  ended: boolean;
  /** The events that arrive next (their data), or undefined once the stream ended or `ms` passed with nothing. */
  nextEvents(ms: number): Promise<string[] | undefined>;
  /** The raw text read within `ms` (or to the end, with `toEnd`). */
  readFor(ms: number, toEnd?: boolean): Promise<string>;
  close(): void;
}

async function openStream(url: string, headers: Record<string, string>, timeoutMs: number, body?: Uint8Array): Promise<OpenStream> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const decoder = new TextDecoder();
  let buffer = "";
  const close = () => {
    clearTimeout(timer);
    controller.abort();
  };
  let res: Response;
  try {
    res = await fetch(url, {
      method: body ? "POST" : "GET",
      headers,
      body: body ? new Uint8Array(body) : undefined,
      signal: controller.signal,
    });
  } catch (error) {
    close();
    const timedOut = controller.signal.aborted;
    return {
      observed: { transport: "http", method: body ? "POST" : "GET", timedOut, error: timedOut ? undefined : String(error) },
      ended: true,
      nextEvents: async () => undefined,
      readFor: async () => "",
      close,
    };
  }
  const reader = res.body?.getReader();
  const stream: OpenStream = {
    observed: {
      transport: "http",
      method: body ? "POST" : "GET",
      timedOut: false,
      status: res.status,
      contentType: res.headers.get("content-type") ?? undefined,
    },
    ended: !reader,
    async nextEvents(ms) {
      const until = Date.now() + ms;
      for (;;) {
        const cut = buffer.search(/\r?\n\r?\n/);
        if (cut !== -1) {
          const match = /\r?\n\r?\n/.exec(buffer.slice(cut))!;
          const event = buffer.slice(0, cut + match[0].length);
          buffer = buffer.slice(cut + match[0].length);
          const messages = sseMessages(event);
          if (messages.length > 0) return messages;
          continue;
        }
        if (stream.ended || !reader) {
          if (buffer.trim() !== "" && !(stream.observed.contentType ?? "").includes("text/event-stream")) {
            const rest = buffer;
            buffer = "";
            return [rest];
          }
          return undefined;
        }
        const piece = await readSome(reader, until - Date.now());
        if (piece === "timeout") return undefined;
        if (piece === undefined) {
          stream.ended = true;
          if (!(stream.observed.contentType ?? "").includes("text/event-stream")) buffer += "\n\n";
          continue;
        }
        buffer += decoder.decode(piece, { stream: true });
      }
    },
    async readFor(ms, toEnd = false) {
      const until = Date.now() + ms;
      let text = buffer;
      buffer = "";
      while (reader && !stream.ended && Date.now() < until) {
        const piece = await readSome(reader, until - Date.now());
        if (piece === "timeout") break;
        if (piece === undefined) {
          stream.ended = true;
          break;
        }
        text += decoder.decode(piece, { stream: true });
        if (!toEnd && /\r?\n\r?\n/.test(text)) break;
      }
      return text;
    },
    close() {
      reader?.cancel().catch(() => {});
      close();
    },
  };
  return stream;
}

/** One read within `ms`: bytes, undefined at the end, or "timeout". */
async function readSome(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<Uint8Array | undefined | "timeout"> {
  if (ms <= 0) return "timeout";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    const r = await Promise.race([reader.read(), timeout]);
    if (r === "timeout") return r;
    return r.done ? undefined : r.value;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------- stdio

/** True when `bytes` is a JSON array: a batch. */
function isBatchText(bytes: Uint8Array): boolean {
  return new TextDecoder().decode(bytes).trimStart().startsWith("[");
}

/**
 * The answer to a batch of requests on a connection whose version takes
 * batches: one line holding an array of JSON-RPC responses (JSON-RPC 2.0
 * section 6), or a violation.
 */
function batchAnswered(observed: Observed): Violation[] {
  if (observed.transport !== "stdio" || observed.timedOut) return [{ kind: "hang", detail: "the batch was not answered" }];
  const answers = messagesOf(observed).filter(Array.isArray);
  const ok =
    answers.length === 1 &&
    answers[0]!.length > 0 &&
    answers[0]!.every((r) => isRecord(r) && r.jsonrpc === "2.0" && "id" in r && ("result" in r || "error" in r));
  return ok
    ? []
    : [{ kind: "malformed-response", detail: `a batch was not answered with one array of responses: ${observed.lines.join(" | ")}` }];
}

/** Whether a stdio connection opened with `o` may be elicited: the client declared it, and the version it asked for (an era version, negotiated as asked) has it. */
function stdioElicits(o: Opening): boolean {
  return o.elicitation && elicits(String(o.protocolVersion));
}

/** The opening of a stdio connection of the era: which version it asks for, chosen by the run's seed. */
export function stdioOpening(seed: number): Opening {
  const versions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
  return { protocolVersion: versions[Math.abs(seed) % versions.length]!, elicitation: true };
}

/**
 * The stdio side: one connection for the run. `open` sends `initialize`, a
 * request before `notifications/initialized`, then the notification;
 * `play` sends each step as a line followed by a `ping` sentinel.
 */
export class SessionStdioDriver {
  #current: { answer: AskAnswer; name: string; violations: Violation[]; out: StepResult[]; category: string; asked: boolean } | undefined;
  #initialized: boolean;
  /** Whether the server may elicit on this connection: the client declared it and its version has it. */
  #elicits: boolean;
  /** Whether the connection's version takes batches (then a batch is answered, not refused). */
  #batches: boolean;

  constructor(
    readonly input: Writable,
    readonly driver: StdioDriver,
    /** The opening the connection had in an earlier run (a repeated run goes on on it); `undefined` before its opening. */
    opened?: Opening,
  ) {
    this.#initialized = opened !== undefined;
    this.#elicits = opened === undefined || stdioElicits(opened);
    this.#batches = opened !== undefined && takesBatches(String(opened.protocolVersion));
  }

  /** What the driver calls for each request the server sends. */
  readonly onServerRequest = (message: { [key: string]: L }): void => {
    const c = this.#current;
    if (!c) {
      // A request outside an ask step: refused, so the server's wait ends.
      writeLine(this.input, `{"jsonrpc":"2.0","id":${stringifyId(message.id) ?? "null"},"error":{"code":-32601,"message":"not asked"}}`);
      return;
    }
    c.asked = true;
    if (message.method !== "elicitation/create")
      c.violations.push({ kind: "malformed-response", detail: `the server sent ${String(message.method)} to an elicit` });
    else if (!this.#elicits)
      c.violations.push({
        kind: "asked-without-capability",
        detail: "elicitation/create to a client without the elicitation capability, or of a version without elicitation",
      });
    if (!this.#initialized)
      c.violations.push({ kind: "asked-before-initialized", detail: "elicitation/create before notifications/initialized" });
    for (const a of askAnswers(c.answer, message.id!, c.name)) writeLine(this.input, a);
  };

  async #send(category: string, rendered: Rendered, expect: Expect, index: number): Promise<Observed> {
    const c: Case = {
      category,
      transports: ["stdio"],
      render: () => rendered,
      http: { method: "POST", path: "/", headers: [] },
      expect,
    };
    return this.driver.send(c, rendered, expect, index);
  }

  /**
   * The opening exchange (`lifecycle.ts`): a `ping` first, then
   * `initialize` with `tools/list`, `ping` and a `tools/call` written behind
   * it before its answer is read, then `notifications/initialized`.
   * Returns its violations.
   */
  async open(o: Opening): Promise<StepResult[]> {
    const out: StepResult[] = [];
    this.#elicits = stdioElicits(o);
    this.#batches = takesBatches(String(o.protocolVersion));
    const opening: Lifecycle = {
      category: "lifecycle/opening",
      pingFirst: true,
      version: String(o.protocolVersion),
      elicitation: o.elicitation,
      early: EARLY_REQUESTS.filter((r) => ["tools-list", "ping", "echo"].includes(r.label)),
      initializedAt: undefined,
    };
    const pipe: LineExchange = { send: (text, ids, ms) => this.driver.exchange(text, ids, ms) };
    for (const r of await playLifecycle(pipe, opening, -1, this.driver.timeoutMs)) one(out, `2511/open:${r.step}`, r.violations, r.sent);
    const note = '{"jsonrpc":"2.0","method":"notifications/initialized"}';
    const noteObserved = await this.#send("2511/open:initialized", { bytes: encoder.encode(note) }, SILENT, -1);
    one(out, "2511/open:initialized", check(SILENT, noteObserved, undefined, "2511/open"), note);
    this.#initialized = true;
    return out;
  }

  /** Plays one scenario's steps on the connection. */
  async play(s: Scenario, index: number): Promise<StepResult[]> {
    const out: StepResult[] = [];
    for (let k = 0; k < s.steps.length; k++) {
      const step = s.steps[k]!;
      const slot = index * ID_STRIDE + k + 1;
      const category = `${s.category}:${step.label}`;
      if (step.kind === "post") {
        const rendered = render(step.body, slot);
        const expect = { ...(step.stdioExpect ?? step.expect), status: undefined };
        const observed = await this.#send(category, rendered, expect, slot);
        const violations =
          this.#batches && isBatchText(rendered.bytes)
            ? batchAnswered(observed)
            : [...check(expect, observed, rendered.idText, category), ...eraChecks(observed, rendered.idText)];
        one(out, category, violations, preview(rendered.bytes));
      } else if (step.kind === "ask") {
        const idText = renderId({ kind: "int" }, slot);
        const text = stringify(
          { jsonrpc: "2.0", id: ID_SLOT, method: "tools/call", params: { name: "ask", arguments: { topic: step.name } } },
          idText,
        );
        const current = { answer: step.answer, name: step.name, violations: [] as Violation[], out, category, asked: false };
        this.#current = current;
        const expect: Expect = { ...ASK_CALL_EXPECT, status: undefined };
        let observed: Observed;
        try {
          observed = await this.#send(category, { bytes: encoder.encode(text), idText }, expect, slot);
        } finally {
          this.#current = undefined;
        }
        const violations = [...current.violations, ...check(expect, observed, idText, category), ...eraChecks(observed, idText)];
        const result = resultOf(messagesOf(observed), idText);
        const due = askText(step.answer, step.name);
        if (this.#elicits && !current.asked && result !== undefined)
          violations.push({ kind: "ask-not-sent", detail: "the ask tool answered without sending elicitation/create" });
        if (current.asked && due !== undefined && toolText(result) !== due)
          violations.push({
            kind: "ask-answer-lost",
            detail: `the tool answered ${JSON.stringify(toolText(result))} where ${JSON.stringify(due)} was due`,
          });
        one(out, category, violations, text);
      }
      // delete and get are HTTP only.
    }
    return out;
  }
}

/** Kinds the era's checks add, beside the oracle's (for the README and the unit test). */
export const ERA_KINDS: readonly ViolationKind[] = [
  "version-negotiation",
  "session-id-missing",
  "later-era-field",
  "session-accepted",
  "mixed-era-accepted",
  "reinitialize-accepted",
  "asked-before-initialized",
  "asked-without-capability",
  "ask-not-sent",
  "ask-answer-lost",
];

export type { IdSpec };
