/**
 * One generated test case: what is sent (a body or line, and over HTTP the
 * method, path and headers) and what a correct server answers, per transport.
 */
import type { Transport, ViolationKind } from "./config.js";
import type { J } from "./json.js";

/** How the request id is made: the driver renders it with the case's index so that ids are unique. */
export type IdSpec =
  | { kind: "int" } // 1000000 + index
  | { kind: "negative" } // -(1000000 + index)
  | { kind: "int-alt"; form: "fraction-zero" | "exponent" } // the same integer written 1000007.0 or 1000007e0
  | { kind: "string"; suffix: string } // "fz-<index>-<suffix>"
  | { kind: "numeric-string" } // "1000000 + index", as a string
  | { kind: "bigint"; prefix: string } // an odd integer beyond 2^53: no double holds it
  | { kind: "raw"; text: string }; // fixed text (null, true, 1.5, {}, 1e400, ...): never matched by id

/** What a case's bytes are once rendered. */
export interface Rendered {
  /** The body (HTTP) or the line without its newline (stdio). */
  bytes: Uint8Array;
  /** The raw text of the id sent, when the message has one. */
  idText?: string | undefined;
}

/** The answer a correct server gives. */
export interface Expect {
  /** `response`: one JSON-RPC response; `silent`: none; `silent-or-idless-error`: none, or one error without an id. */
  answer: "response" | "silent" | "silent-or-idless-error";
  /** For a response: `same` id as sent, `none` (absent or null), or either. */
  id?: "same" | "none" | "same-or-none";
  /** For a response: a result, an error with one of `codes`, or anything. */
  outcome?: "result" | "any" | { codes: readonly number[] };
  /** Counted when the error code is not one of `codes`. */
  wrongCode?: ViolationKind;
  /** Counted instead of `wrongCode` when a result comes where an error was due. */
  accepted?: ViolationKind;
  /** HTTP statuses allowed (HTTP only). */
  status?: readonly number[];
  /** For `silent`: the kind counted when the server answers anyway. */
  silentKind?: "answered-notification" | "answered-response";
  /**
   * Checks made on a result: `echo` compares structuredContent with the arguments, `add` checks the sum is a number,
   * `sum` checks `add` of `a` and `b` is no tool fault and, for finite numbers, their double sum.
   */
  probe?: { kind: "echo"; args: J } | { kind: "add" } | { kind: "sum"; a: J; b: J };
  /** For a response: the kind counted when no JSON-RPC response came at all (default `unanswered`). */
  unansweredKind?: ViolationKind;
  /** HTTP: the answer must not carry `Mcp-Session-Id` (a 2026-07-28 request is served statelessly). */
  sessionless?: boolean;
}

/** The HTTP request line and headers of a case, beyond its body. */
export interface HttpSpec {
  method: string;
  path: string;
  /** Every header sent, in order; `{port}` in a value is the server's port. A Host header here replaces the default one. */
  headers: [string, string][];
  /** Send no Host header at all. */
  omitHost?: boolean;
}

/** One test case. */
export interface Case {
  /** `group/name`, e.g. `valid/echo`, `parse/truncated`; the report groups examples by it. */
  category: string;
  /** Which transports it applies to. */
  transports: readonly Transport[];
  render(index: number): Rendered;
  http: HttpSpec;
  expect: Expect;
  /** What stdio expects when it differs (a blank line is skipped there, answered over HTTP). */
  stdioExpect?: Expect;
}

/** The expectation of `c` on `transport`. */
export function expectationOf(c: Case, transport: Transport): Expect {
  return transport === "stdio" && c.stdioExpect ? c.stdioExpect : c.expect;
}

/** The text of an id rendered for case `index`. */
export function renderId(spec: IdSpec, index: number): string {
  const n = 1_000_000 + index;
  switch (spec.kind) {
    case "int":
      return String(n);
    case "negative":
      return String(-n);
    case "int-alt":
      return spec.form === "fraction-zero" ? `${n}.0` : `${n}e0`;
    case "string":
      return JSON.stringify(`fz-${index}-${spec.suffix}`);
    case "numeric-string":
      return JSON.stringify(String(n));
    case "bigint":
      // At least 17 digits and odd: beyond 2^53, and never a double's exact value.
      return `${spec.prefix}${String(index).padStart(7, "0")}1`;
    case "raw":
      return spec.text;
  }
}

/** True for the id specs a correct server answers with the same id. */
export function isValidIdSpec(spec: IdSpec): boolean {
  return spec.kind !== "raw";
}
