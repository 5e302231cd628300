/**
 * The oracle: given what a case expects and what came back, the invariants
 * broken. Pure; the drivers only collect what was observed.
 */
import type { Expect } from "./cases.js";
import type { ViolationKind } from "./config.js";
import { canonicalNumber, type J, type L, parseLossless, Raw, stringify } from "./json.js";

/** What came back over HTTP for one case. */
export interface HttpObserved {
  transport: "http";
  /** The HTTP method sent (a HEAD answer has no body to read). */
  method: string;
  timedOut: boolean;
  /** A socket error before any answer. */
  error?: string | undefined;
  status?: number | undefined;
  contentType?: string | undefined;
  body?: string | undefined;
  /** The answer's `Mcp-Session-Id` header, when it had one (recorded where the oracle must check it is absent). */
  sessionId?: string | undefined;
}

/** What came back on stdout for one case (lines attributed to it). */
export interface StdioObserved {
  transport: "stdio";
  lines: string[];
  /** True when not even the sentinel request that follows the case was answered in time. */
  timedOut: boolean;
  /** True when the sentinel was answered but the case's own answer never came. */
  unanswered: boolean;
}

export type Observed = HttpObserved | StdioObserved;

/** One broken invariant, with a short reason for the report. */
export interface Violation {
  kind: ViolationKind;
  detail: string;
}

function isRecord(v: L | undefined): v is { [key: string]: L } {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Raw);
}

function show(value: L | undefined): string {
  if (value === undefined) return "(absent)";
  const t = stringify(value as J);
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

/** Same id: numbers by exact value, strings exactly. */
export function sameId(received: L | undefined, sentText: string): boolean {
  let sent: L;
  try {
    sent = parseLossless(sentText);
  } catch {
    return false;
  }
  if (sent instanceof Raw && received instanceof Raw) return canonicalNumber(sent.text) === canonicalNumber(received.text);
  return typeof sent === "string" && received === sent;
}

/** The kind a changed number belongs to, by what was sent. */
export function numberKind(sentText: string): ViolationKind {
  const canonical = canonicalNumber(sentText);
  const value = Number(sentText);
  if (!Number.isFinite(value)) return "number-nonfinite";
  if (canonical !== undefined && /e/.test(canonical)) {
    const [mantissa, exponent] = canonical.split("e") as [string, string];
    if (BigInt(exponent) >= 0n && BigInt(exponent) <= 400n) {
      const n = BigInt(mantissa) * 10n ** BigInt(exponent);
      if (n > 2n ** 53n || n < -(2n ** 53n)) return "number-bigint-changed";
    }
  }
  // What survives JSON.parse then JSON.stringify is the shortest text of the nearest double.
  return canonicalNumber(JSON.stringify(value)) !== canonical ? "number-precision-lost" : "number-changed";
}

/** Every leaf where `echoed` differs from `sent`, up to `limit`. */
export function differences(
  sent: J | L,
  echoed: L | undefined,
  path = "",
  out: { path: string; kind: ViolationKind; detail: string }[] = [],
  limit = 10,
) {
  if (out.length >= limit) return out;
  const add = (kind: ViolationKind) =>
    out.push({ path: path || "/", kind, detail: `${path || "/"}: sent ${show(sent as L)}, echoed ${show(echoed)}` });
  if (sent instanceof Raw || typeof sent === "number") {
    const text = sent instanceof Raw ? sent.text : JSON.stringify(sent);
    if (!(echoed instanceof Raw) || canonicalNumber(text) !== canonicalNumber(echoed.text)) {
      const kind = numberKind(text);
      // The documented contract: integers keep every digit, other numbers are IEEE doubles.
      // A decimal echoed as its nearest double is what was promised.
      if (kind === "number-precision-lost" && echoed instanceof Raw && Number(echoed.text) === Number(text)) return out;
      add(kind);
    }
    return out;
  }
  if (sent === null || typeof sent !== "object") {
    if (sent !== echoed) add("echo-changed");
    return out;
  }
  if (Array.isArray(sent)) {
    if (!Array.isArray(echoed) || echoed.length !== sent.length) {
      add("echo-changed");
      return out;
    }
    for (let k = 0; k < sent.length; k++) differences(sent[k]!, echoed[k], `${path}/${k}`, out, limit);
    return out;
  }
  if (!isRecord(echoed)) {
    add("echo-changed");
    return out;
  }
  const keys = Object.keys(sent);
  if (keys.length !== Object.keys(echoed).length || keys.some((k) => !Object.hasOwn(echoed, k))) {
    add("echo-changed");
    return out;
  }
  for (const k of keys) differences((sent as Record<string, J>)[k]!, echoed[k], `${path}/${k}`, out, limit);
  return out;
}

/** A number as sent, read as JSON.parse reads it (an integer beyond 2^53 the nearest double, 1e400 Infinity). */
function parsedNumber(value: J | L): number {
  return value instanceof Raw ? Number(value.text) : (value as number);
}

/**
 * The `sum` probe: `add` (a `number` schema) with any numbers is never a tool fault, and when the
 * numbers and their sum are finite it answers the double sum of what JSON.parse reads (other
 * arguments may be refused as invalid). Two finite numbers whose sum is past the double range are
 * the handler's own fault: its result builder refuses the Infinity, which JSON cannot carry.
 */
export function sumViolations(probe: { a: J; b: J }, result: { [key: string]: L }): Violation[] {
  const structured = result.structuredContent;
  const sent = `a=${show(probe.a as L)}, b=${show(probe.b as L)}`;
  const a = parsedNumber(probe.a);
  const b = parsedNumber(probe.b);
  const overflow = Number.isFinite(a) && Number.isFinite(b) && !Number.isFinite(a + b);
  if (result.isError === true && isRecord(structured) && structured.errorType === "tool_fault") {
    const refusedInfinity = typeof structured.message === "string" && structured.message.includes("JSON cannot carry");
    return overflow && refusedInfinity ? [] : [{ kind: "number-tool-fault", detail: `${sent}: ${show(structured.message)}` }];
  }
  if (!Number.isFinite(a) || !Number.isFinite(b) || overflow) return [];
  const sum = isRecord(structured) ? structured.sum : undefined;
  if (result.isError === true || !(sum instanceof Raw) || Number(sum.text) !== a + b) {
    return [{ kind: "number-sum-wrong", detail: `${sent}: expected ${a + b}, answered ${show(result.isError === true ? result : sum)}` }];
  }
  return [];
}

/** Splits an SSE body into the JSON texts of its `data` fields. */
function sseData(body: string): string[] {
  const out: string[] = [];
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length > 0) out.push(data.join("\n"));
  }
  return out;
}

/**
 * The invariants `observed` breaks for a case expecting `expect`, whose id
 * was sent as `idText`. `category` is the case's, used to name the kind of
 * a non-JSON answer.
 */
export function check(expect: Expect, observed: Observed, idText: string | undefined, category: string): Violation[] {
  const out: Violation[] = [];
  const add = (kind: ViolationKind, detail: string) => {
    if (!out.some((v) => v.kind === kind)) out.push({ kind, detail });
  };

  // 1. Liveness, and the messages that came back.
  const texts: string[] = [];
  let status: number | undefined;
  if (observed.transport === "http") {
    if (observed.timedOut) {
      add("hang", "no HTTP answer in time");
      return out;
    }
    if (observed.status === undefined) {
      add("unanswered", `connection failed: ${observed.error ?? "no status"}`);
      return out;
    }
    status = observed.status;
    if (expect.sessionless && observed.sessionId !== undefined)
      add("session-id-echoed", `a 2026-07-28 request answered with Mcp-Session-Id: ${observed.sessionId.slice(0, 60)}`);
    if (status >= 500) add("http-5xx", `status ${status}: ${(observed.body ?? "").slice(0, 80)}`);
    const type = (observed.contentType ?? "").split(";")[0]!.trim().toLowerCase();
    const body = observed.body ?? "";
    const nonJson: ViolationKind = category.startsWith("path/other") ? "non-json-other-path" : "non-json-answer";
    if (observed.method === "HEAD") {
      // No body to read: the status alone is checked.
      if (expect.status && !expect.status.includes(status)) add("wrong-status", `status ${status}, expected ${expect.status.join("/")}`);
      return out;
    }
    if (body === "") {
      if (status !== 202 && status !== 204) add(nonJson, `status ${status} with an empty body`);
    } else if (type === "text/event-stream") {
      texts.push(...sseData(body));
    } else if (type !== "application/json") {
      add(nonJson, `status ${status}, content-type ${observed.contentType ?? "(none)"}: ${body.slice(0, 40)}`);
    } else {
      texts.push(body);
    }
    if (out.some((v) => v.kind === nonJson)) return out;
  } else {
    if (observed.timedOut && observed.lines.length === 0) {
      add("hang", "neither the case nor the sentinel after it was answered in time");
      return out;
    }
    texts.push(...observed.lines);
  }

  const messages: L[] = [];
  for (const t of texts) {
    try {
      messages.push(parseLossless(t));
    } catch {
      add(observed.transport === "http" ? "non-json-answer" : "malformed-response", `not JSON: ${t.slice(0, 60)}`);
      return out;
    }
  }
  // Server notifications (progress, log) may precede a response; anything else is a response.
  const responses = messages.filter((m) => !(isRecord(m) && typeof m.method === "string" && !("id" in m)));
  const statusOk = () => status === undefined || !expect.status || expect.status.length === 0 || expect.status.includes(status);

  // 2. Messages that must not be answered.
  if (expect.answer !== "response") {
    const idless =
      responses.length === 1 &&
      isRecord(responses[0]) &&
      "error" in responses[0] &&
      (responses[0].id === undefined || responses[0].id === null);
    if (responses.length > 0 && !(expect.answer === "silent-or-idless-error" && idless)) {
      add(expect.silentKind ?? "answered-notification", `answered with ${show(responses[0])}`);
    } else if (!statusOk()) {
      add("wrong-status", `status ${status}, expected ${expect.status?.join("/")}`);
    }
    return out;
  }

  // 3. One response, well formed, with the right id.
  if (responses.length === 0) {
    if (observed.transport === "stdio" && observed.timedOut) add("hang", "the sentinel was not answered in time");
    else
      add(
        expect.unansweredKind ?? "unanswered",
        observed.transport === "http" ? `status ${status}, no JSON-RPC response` : "no response line",
      );
    return out;
  }
  if (responses.length > 1) add("answered-twice", `${responses.length} responses`);
  const r = responses[0];
  if (!isRecord(r) || r.jsonrpc !== "2.0" || "result" in r === "error" in r) {
    add("malformed-response", `not a JSON-RPC 2.0 response: ${show(r)}`);
    return out;
  }
  const error = r.error;
  if (
    error !== undefined &&
    !(isRecord(error) && error.code instanceof Raw && /^-?\d+$/.test(error.code.text) && typeof error.message === "string")
  ) {
    add("malformed-response", `malformed error object: ${show(error)}`);
    return out;
  }
  const hasId = r.id !== undefined && r.id !== null;
  const idKind: ViolationKind = idText !== undefined && numberKind(idText) === "number-bigint-changed" ? "id-bigint-changed" : "id-changed";
  if (expect.id === "same" && (!hasId || idText === undefined || !sameId(r.id, idText)))
    add(idKind, `sent id ${idText}, answered ${show(r.id)}`);
  if (expect.id === "none" && hasId) add("id-changed", `no readable id was sent, answered ${show(r.id)}`);
  if (expect.id === "same-or-none" && hasId && (idText === undefined || !sameId(r.id, idText)))
    add(idKind, `sent id ${idText}, answered ${show(r.id)}`);

  // 4. Result or error, and the code of an error.
  let outcomeOk = true;
  const code = isRecord(error) && error.code instanceof Raw ? Number(error.code.text) : undefined;
  if (expect.outcome === "result" && error !== undefined) {
    outcomeOk = false;
    add("error-for-valid", `error ${code}: ${show(isRecord(error) ? error.message : undefined)}`);
  } else if (typeof expect.outcome === "object") {
    if (error === undefined) {
      outcomeOk = false;
      add(expect.accepted ?? expect.wrongCode ?? "wrong-code-other", `a result where error ${expect.outcome.codes.join("/")} was due`);
    } else if (code === undefined || !expect.outcome.codes.includes(code)) {
      outcomeOk = false;
      add(
        expect.wrongCode ?? "wrong-code-other",
        `error ${code} where ${expect.outcome.codes.join("/")} was due: ${show(isRecord(error) ? error.message : undefined)}`,
      );
    }
  }
  if (outcomeOk && !statusOk()) add("wrong-status", `status ${status}, expected ${expect.status?.join("/")}`);

  // 5. What the result carries.
  const result = r.result;
  if (expect.probe?.kind === "sum" && isRecord(result)) for (const v of sumViolations(expect.probe, result)) add(v.kind, v.detail);
  if (expect.probe && isRecord(result) && result.isError !== true && result.resultType === "complete") {
    const structured = result.structuredContent;
    if (expect.probe.kind === "echo") {
      for (const d of differences(expect.probe.args, structured)) add(d.kind, d.detail);
    } else if (expect.probe.kind === "add") {
      const sum = isRecord(structured) ? structured.sum : undefined;
      if (!(sum instanceof Raw)) add("output-schema-broken", `outputSchema says sum is a number; the answer carries ${show(sum)}`);
    }
  }
  return out;
}
