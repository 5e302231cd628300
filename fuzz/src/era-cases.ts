/**
 * 2026-07-28 cases of two classes, kept apart from `generators.ts`:
 *
 * - a 2026-07-28 request (the `_meta` envelope) sent with `Mcp-Session-Id`
 *   (stale, made up, malformed, or the live session the driver opened): the
 *   dual-era rule (spec 2026-07-28, basic/versioning "Backward
 *   Compatibility"; basic/transports/streamable-http "Earlier Streamable HTTP
 *   Revisions") serves it statelessly, so it is answered exactly as without
 *   the header, and the answer never carries `Mcp-Session-Id`;
 * - messages shaped as responses (`result` or `error`, no `method`) that are
 *   not well-formed JSON-RPC 2.0 responses: never answered over stdio; over
 *   HTTP refused with 400 and a -32600 error without an id (a well-formed one
 *   gets 202: `unsolicitedCase` of `generators.ts`).
 *
 * Both take no case of `generators.ts` as an import (it registers them):
 * the first wraps whatever base cases it is handed.
 */
import { ErrorCode, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import fc from "fast-check";
import type { Case, Expect, IdSpec } from "./cases.js";
import { renderId } from "./cases.js";
import { ENDPOINT_PATH, type Transport } from "./config.js";
import { ID_SLOT, type J, Raw, stringify } from "./json.js";

const BOTH: readonly Transport[] = ["http", "stdio"];
const encoder = new TextEncoder();

// ---------------------------------------------------------------- Mcp-Session-Id on 2026-07-28 requests

/** Replaced by the HTTP driver with the id of a live session it opened at the start of the run. */
export const LIVE_SESSION = "{session}";

/** `Mcp-Session-Id` values sent on 2026-07-28 requests, by kind; none of them may change the answer. */
export const SESSION_HEADER_VALUES: readonly [string, fc.Arbitrary<string>][] = [
  ["live", fc.constant(LIVE_SESSION)],
  ["stale", fc.uuid()],
  ["made-up", fc.stringMatching(/^[!-~]{1,64}$/)],
  ["malformed", fc.constantFrom("has space", "x".repeat(300), "in\tside", " ", "é")],
];

/**
 * `base` cases (2026-07-28 requests carrying the `_meta` envelope, over
 * HTTP) sent with an `Mcp-Session-Id` as well: the same expectation, and
 * the answer may not carry the header back.
 */
export function withSessionHeader(base: fc.Arbitrary<Case>): fc.Arbitrary<Case> {
  return fc
    .tuple(base, fc.oneof(...SESSION_HEADER_VALUES.map(([kind, value]) => value.map((v) => [kind, v] as const))), fc.boolean())
    .map(([c, [kind, value], first]) => {
      // Before or after the other headers: where it sits changes nothing.
      const header: [string, string] = ["mcp-session-id", value];
      const headers = first ? [header, ...c.http.headers] : [...c.http.headers, header];
      return {
        ...c,
        category: `session-header/${kind}/${c.category}`,
        transports: ["http"],
        http: { ...c.http, headers },
        expect: { ...c.expect, sessionless: true },
      };
    });
}

// ---------------------------------------------------------------- malformed response-shaped messages

/** Error members that are not JSON-RPC Error objects (an integer `code` and a string `message`). */
const badError: fc.Arbitrary<[string, J]> = fc.oneof(
  fc.constantFrom<[string, J]>(
    ["array", [[]]],
    ["empty-array", []],
    ["string", "failed"],
    ["number", -32603],
    ["null", null],
    ["true", true],
    ["empty", {}],
    ["no-message", { code: -32603 }],
    ["no-code", { message: "failed" }],
    ["fraction-code", { code: 1.5, message: "m" }],
    ["string-code", { code: "-32603", message: "m" }],
    ["null-code", { code: null, message: "m" }],
    ["overflow-code", { code: new Raw("1e400"), message: "m" }],
    ["number-message", { code: -32603, message: 5 }],
    ["null-message", { code: -32603, message: null }],
    ["array-message", { code: -32603, message: ["m"] }],
  ),
);

/** A well-formed error object, for the shapes whose fault lies elsewhere. */
const goodError: fc.Arbitrary<J> = fc
  .record(
    {
      code: fc.integer({ min: -32768, max: 32767 }),
      message: fc.string({ maxLength: 12 }),
      data: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<J>,
    },
    { requiredKeys: ["code", "message"] },
  )
  .map((e) => e as J);

/** Ids: valid ones, rendered per case, and raw ones (null, fractions, objects...). */
const anyId: fc.Arbitrary<IdSpec | "absent"> = fc.oneof(
  fc.constantFrom<IdSpec | "absent">({ kind: "int" }, { kind: "string", suffix: "r" }, { kind: "bigint", prefix: "90071992547409" }),
  fc.constantFrom<IdSpec | "absent">("absent", { kind: "raw", text: "null" }),
  fc.constantFrom<IdSpec>(
    { kind: "raw", text: "1.5" },
    { kind: "raw", text: "true" },
    { kind: "raw", text: "{}" },
    { kind: "raw", text: "[1]" },
  ),
);

const validIdSpec: fc.Arbitrary<IdSpec> = fc.constantFrom<IdSpec>({ kind: "int" }, { kind: "string", suffix: "r" }, { kind: "negative" });

/** One malformed response-shaped message: its members (the id in {@link ID_SLOT}) and the id spec, named by what is wrong. */
const malformedShape: fc.Arbitrary<{ name: string; entries: [string, J][]; id: IdSpec | "absent" }> = fc.oneof(
  // An error member that is no Error object, with any id.
  fc.tuple(badError, anyId).map(([[name, error], id]) => ({
    name: `error-${name}`,
    entries: [
      ["jsonrpc", "2.0"],
      ["error", error],
    ] as [string, J][],
    id,
  })),
  // Both result and error.
  fc.tuple(fc.jsonValue({ maxDepth: 2 }), goodError, validIdSpec).map(([result, error, id]) => ({
    name: "both",
    entries: [
      ["jsonrpc", "2.0"],
      ["result", result as J],
      ["error", error],
    ] as [string, J][],
    id,
  })),
  // A result without a valid id.
  fc
    .tuple(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom<IdSpec | "absent">(
        "absent",
        { kind: "raw", text: "null" },
        { kind: "raw", text: "1.5" },
        { kind: "raw", text: "{}" },
      ),
    )
    .map(([result, id]) => ({
      name: "result-no-id",
      entries: [
        ["jsonrpc", "2.0"],
        ["result", result as J],
      ] as [string, J][],
      id,
    })),
  // No jsonrpc "2.0", an otherwise good response.
  fc
    .tuple(
      fc.constantFrom<[string, J] | undefined>(undefined, ["jsonrpc", "1.0"], ["jsonrpc", 2], ["jsonrpc", null], ["jsonrpc", "2.0 "]),
      fc.oneof(
        fc.jsonValue({ maxDepth: 2 }).map((r) => ["result", r as J] as [string, J]),
        goodError.map((e) => ["error", e] as [string, J]),
      ),
      validIdSpec,
    )
    .map(([version, member, id]) => ({ name: "no-jsonrpc", entries: [...(version ? [version] : []), member], id })),
);

/** The answer to a malformed response: none over stdio; over HTTP 400 with a -32600 error that carries no id (never 202). */
const INVALID_RESPONSE_HTTP: Expect = {
  answer: "response",
  id: "none",
  outcome: { codes: [ErrorCode.InvalidRequest] },
  wrongCode: "wrong-code-invalid-request",
  status: [400],
  unansweredKind: "invalid-response-accepted",
};
const INVALID_RESPONSE_STDIO: Expect = { answer: "silent", silentKind: "answered-response" };

/** Messages shaped as responses that are not well formed: never answered as messages. */
export const malformedResponseCase: fc.Arbitrary<Case> = fc
  .tuple(
    malformedShape,
    fc.boolean(),
    fc.array(fc.tuple(fc.constantFrom("extra", "params", "_meta"), fc.jsonValue({ maxDepth: 1 })), { maxLength: 1 }),
  )
  .map(([{ name, entries, id }, idFirst, extra]) => {
    const members: [string, J][] = [...entries, ...(extra as [string, J][])];
    if (id !== "absent") {
      if (idFirst) members.unshift(["id", ID_SLOT]);
      else members.push(["id", ID_SLOT]);
    }
    const tree: { [key: string]: J } = {};
    for (const [k, v] of members) tree[k] = v;
    const spec = id === "absent" ? undefined : id;
    return {
      category: `invalid-response/${name}`,
      transports: BOTH,
      render: (index: number) => {
        const idText = spec ? renderId(spec, index) : undefined;
        // Never an id the oracle would match an answer to: an answer of any kind over stdio is already a violation.
        return { bytes: encoder.encode(stringify(tree, idText ?? "null")), idText };
      },
      http: {
        method: "POST",
        path: ENDPOINT_PATH,
        headers: [
          ["content-type", "application/json"],
          ["accept", "application/json, text/event-stream"],
          ["mcp-protocol-version", PROTOCOL_VERSION],
        ],
      },
      expect: INVALID_RESPONSE_HTTP,
      stdioExpect: INVALID_RESPONSE_STDIO,
    };
  });

/** One member of a batch of responses: well formed (a result or an error with an integer id), or one of {@link malformedShape}. */
const batchMember: fc.Arbitrary<{ ok: boolean; tree: { [key: string]: J } }> = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 1, max: 1_000_000 }),
      fc.oneof(
        fc.jsonValue({ maxDepth: 2 }).map((r) => ["result", r as J] as [string, J]),
        goodError.map((e) => ["error", e] as [string, J]),
      ),
    )
    .map(([id, [key, value]]) => {
      const tree: { [key: string]: J } = { jsonrpc: "2.0", id };
      tree[key] = value;
      return { ok: true, tree };
    }),
  malformedShape.map(({ entries, id }) => {
    const tree: { [key: string]: J } = {};
    for (const [k, v] of entries) tree[k] = v;
    // A malformed member keeps an id of its kind where it has a plain one; a raw or big id is left out (absent is malformed enough).
    if (id !== "absent" && id.kind === "int") tree.id = 7;
    if (id !== "absent" && id.kind === "string") tree.id = "r";
    return { ok: false, tree };
  }),
);

/**
 * Batches whose every member is shaped as a response (JSON-RPC 2.0 section 6:
 * nothing in them to answer): never answered; over HTTP 202 when every member
 * is well formed, else 400 with -32600 and no id.
 */
export const responseBatchCase: fc.Arbitrary<Case> = fc.array(batchMember, { minLength: 1, maxLength: 3 }).map((members) => {
  const ok = members.every((m) => m.ok);
  const text = stringify(members.map((m) => m.tree) as J, "null");
  return {
    category: ok ? "response-batch/well-formed" : "response-batch/malformed",
    transports: BOTH,
    render: () => ({ bytes: encoder.encode(text) }),
    http: {
      method: "POST",
      path: ENDPOINT_PATH,
      headers: [
        ["content-type", "application/json"],
        ["accept", "application/json, text/event-stream"],
        ["mcp-protocol-version", PROTOCOL_VERSION],
      ],
    },
    expect: ok ? { answer: "silent", silentKind: "answered-response", status: [202] } : INVALID_RESPONSE_HTTP,
    stdioExpect: INVALID_RESPONSE_STDIO,
  };
});
