/**
 * fast-check generators of MCP 2026-07-28 test cases: valid requests built
 * the way a client builds them (the `_meta` envelope of `requestMeta`, the
 * headers of `requestHeaders`), then mutations of every layer: bytes, JSON,
 * JSON-RPC, `_meta`, params, HTTP headers, method and path.
 */
import {
  ErrorCode,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
} from "@x/mcp-v2607/constants";
import { type HeaderParam, requestHeaders, toolHeaderParams } from "@x/mcp-v2607/wire";
import fc from "fast-check";
import { type Case, type Expect, type HttpSpec, type IdSpec, type Rendered, renderId } from "./cases.js";
import { ENDPOINT_PATH, LIMITS, PROMPT, RESOURCE_URI, ROUTE_INPUT_SCHEMA, TEMPLATE_PREFIX, TOOLS, type Transport } from "./config.js";
import { malformedResponseCase, responseBatchCase, withSessionHeader } from "./era-cases.js";
import { ID_SLOT, type J, plain, Raw, stringify } from "./json.js";

const BOTH: readonly Transport[] = ["http", "stdio"];
const HTTP_ONLY: readonly Transport[] = ["http"];
const ROUTE_PARAMS: readonly HeaderParam[] = (() => {
  const check = toolHeaderParams({ inputSchema: ROUTE_INPUT_SCHEMA });
  if (!check.ok) throw new Error(check.reason);
  return check.params;
})();
const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
const encoder = new TextEncoder();

/** An object with these own entries (`__proto__` included, as JSON.parse makes it). */
function obj(entries: [string, J][]): { [key: string]: J } {
  const o: { [key: string]: J } = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

// ---------------------------------------------------------------- values

/** Keys that have tripped JavaScript servers before. */
const WEIRD_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "", " ", "a.b", "\u0000", "é", "🔑"];
const key = fc.oneof({ arbitrary: fc.string({ maxLength: 8 }), weight: 6 }, { arbitrary: fc.constantFrom(...WEIRD_KEYS), weight: 1 });

/** Strings JSON must carry exactly: any code point, lone surrogates, NUL, line separators, a BOM. */
const text = fc.oneof(
  { arbitrary: fc.string({ maxLength: 20 }), weight: 4 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 20 }), weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 10 }), weight: 2 },
  {
    arbitrary: fc
      .array(fc.constantFrom("\ud800", "\udfff", "\ud83d", "\u0000", "\u2028", "\u2029", "\ufeff", "\x7f", "\n", '"', "\\", "😀"), {
        minLength: 1,
        maxLength: 6,
      })
      .map((parts) => parts.join("")),
    weight: 1,
  },
);

/** True for text without lone surrogates. */
function isWellFormed(s: string): boolean {
  return !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

/** Integers beyond 2^53, as text (most are not a double's exact value). */
export const bigIntegerText = fc
  .oneof(
    fc.constantFrom("9007199254740993", "-9007199254740993", "9007199254740995", "18446744073709551617", "123456789012345678901234567890"),
    fc.bigInt({ min: 2n ** 53n + 1n, max: 10n ** 40n }).map((n) => String(n)),
    fc.bigInt({ min: -(10n ** 25n), max: -(2n ** 53n) - 1n }).map((n) => String(n)),
  )
  .map((t) => new Raw(t));

/** Numbers beyond the double range: they overflow to Infinity. */
export const overflowText = fc
  .oneof(
    fc.constantFrom("1e400", "-1e400", "1.5e309", "1E400", "2e308"),
    fc.integer({ min: 309, max: 100_000 }).map((e) => `9.99e${e}`),
  )
  .map((t) => new Raw(t));

/** Numbers a double holds only approximately: long decimals, underflow. */
const lossyText = fc
  .oneof(
    fc.constantFrom(
      "0.1000000000000000055511151231257827",
      "1.00000000000000001",
      "1e-400",
      "4.9e-325",
      "3.141592653589793238462643383279",
    ),
    fc.integer({ min: 330, max: 5000 }).map((e) => `1e-${e}`),
  )
  .map((t) => new Raw(t));

/** Ordinary numbers in uncommon spellings (1E2, -0.0, 0e10): a double holds each exactly. */
const spelledText = fc.constantFrom("1E2", "1e+2", "-0.0", "0e10", "1.50", "100e-2", "-0").map((t) => new Raw(t));

const number: fc.Arbitrary<J> = fc.oneof(
  { arbitrary: fc.integer(), weight: 4 },
  { arbitrary: fc.maxSafeInteger(), weight: 2 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 3 },
  { arbitrary: spelledText, weight: 1 },
  { arbitrary: bigIntegerText, weight: 2 },
  { arbitrary: overflowText, weight: 1 },
  { arbitrary: lossyText, weight: 1 },
);

/** Ordinary numbers only: what a double holds exactly. */
const plainNumber: fc.Arbitrary<J> = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** Any JSON value, a few levels deep, with the numbers above. */
const jsonValue: fc.Arbitrary<J> = fc.letrec<{ value: J }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    { arbitrary: fc.constant(null), weight: 1 },
    { arbitrary: fc.boolean(), weight: 1 },
    { arbitrary: number, weight: 4 },
    { arbitrary: text, weight: 4 },
    { arbitrary: fc.array(tie("value"), { maxLength: 4 }), weight: 1 },
    { arbitrary: fc.array(fc.tuple(key, tie("value")), { maxLength: 4 }).map(obj), weight: 1 },
  ),
})).value;

/** Arguments for `echo`: any object but for a `text` key (its inputSchema wants a string there). */
const echoArgs = fc.array(fc.tuple(key, jsonValue), { maxLength: 6 }).map((entries) => obj(entries.filter(([k]) => k !== "text")));

// ---------------------------------------------------------------- the _meta envelope

const clientCapabilities: fc.Arbitrary<J> = fc.record(
  {
    elicitation: fc.constantFrom<J>({}, { form: {} }, { url: {} }, { form: {}, url: {} }),
    sampling: fc.constantFrom<J>({}, { context: {} }, { tools: {} }),
    roots: fc.constantFrom<J>({}, { listChanged: true }),
    experimental: fc.constantFrom<J>({}, { "x-fuzz": {} }),
    extensions: fc.constantFrom<J>({}, { "io.example/fuzz": {} }),
  },
  { requiredKeys: [] },
);

const clientInfo: fc.Arbitrary<J> = fc.record(
  { name: fc.string({ maxLength: 12 }), version: fc.string({ maxLength: 8 }), title: fc.string({ maxLength: 12 }) },
  { requiredKeys: ["name", "version"] },
);

/** A valid `_meta`, as `requestMeta` builds it, with the optional members sometimes. */
const validMeta: fc.Arbitrary<{ [key: string]: J }> = fc
  .record(
    {
      capabilities: clientCapabilities,
      info: fc.option(clientInfo, { freq: 4 }),
      logLevel: fc.option(fc.constantFrom(...LOG_LEVELS), { freq: 2 }),
      progressToken: fc.option(fc.oneof(fc.string({ maxLength: 10 }), fc.nat()), { freq: 3 }),
      extra: fc.option(
        fc.constantFrom<[string, J]>(
          ["com.example/trace", "abc"],
          ["traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"],
          ["io.example/fuzz", { nested: [1, 2] }],
        ),
        { freq: 3 },
      ),
    },
    { requiredKeys: ["capabilities"] },
  )
  .map(({ capabilities, info, logLevel, progressToken, extra }) => {
    const entries: [string, J][] = [];
    if (extra) entries.push(extra);
    entries.push([META_PROTOCOL_VERSION, PROTOCOL_VERSION], [META_CLIENT_CAPABILITIES, capabilities]);
    if (info !== null && info !== undefined) entries.push([META_CLIENT_INFO, info]);
    if (logLevel !== null && logLevel !== undefined) entries.push([META_LOG_LEVEL, logLevel]);
    if (progressToken !== null && progressToken !== undefined) entries.push(["progressToken", progressToken]);
    return obj(entries);
  });

// ---------------------------------------------------------------- valid requests

/** A valid request before its id: method, params (with `_meta`), and what its answer is checked for. */
export interface Request {
  name: string;
  method: string;
  params: { [key: string]: J };
  /** The `x-mcp-header` parameters of the tool called, for the Mcp-Param-* headers. */
  headerParams?: readonly HeaderParam[];
  probe?: Expect["probe"];
}

const request = (name: string, method: string, params: { [key: string]: J }, extra: Partial<Request> = {}): Request => ({
  name,
  method,
  params,
  ...extra,
});

const toolCall = (tool: string, args: J): { [key: string]: J } => ({ name: tool, arguments: args });

/** The valid requests, by method, each with a valid `_meta`. */
export const validRequest: fc.Arbitrary<Request> = fc
  .tuple(
    fc.oneof(
      {
        arbitrary: echoArgs.map((args) => request("echo", "tools/call", toolCall(TOOLS.echo, args), { probe: { kind: "echo", args } })),
        weight: 8,
      },
      {
        arbitrary: fc
          .tuple(fc.oneof({ arbitrary: plainNumber, weight: 5 }, { arbitrary: overflowText, weight: 1 }), plainNumber)
          .map(([a, b]) => request("add", "tools/call", toolCall(TOOLS.add, { a, b }), { probe: { kind: "add" } })),
        weight: 3,
      },
      {
        arbitrary: fc
          .record(
            {
              // A client can mirror only well-formed text (a lone surrogate has no UTF-8);
              // text that starts with U+FEFF has a family of its own (valid/route-bom).
              region: text.filter((t) => isWellFormed(t) && !t.startsWith("\ufeff")),
              priority: fc.maxSafeInteger(),
              urgent: fc.boolean(),
              note: text,
            },
            { requiredKeys: ["region"] },
          )
          .map((args) =>
            request("route", "tools/call", toolCall(TOOLS.route, args as J), {
              headerParams: ROUTE_PARAMS,
              probe: { kind: "echo", args: args as J },
            }),
          ),
        weight: 3,
      },
      {
        arbitrary: fc.option(text).map((topic) => request("ask", "tools/call", toolCall(TOOLS.ask, topic === null ? {} : { topic }))),
        weight: 2,
      },
      {
        arbitrary: fc
          .record({ ms: fc.integer({ min: 0, max: 15 }), steps: fc.integer({ min: 0, max: 3 }) })
          .map((args) => request("slow", "tools/call", toolCall(TOOLS.slow, args))),
        weight: 1,
      },
      { arbitrary: echoArgs.map((args) => request("bad-arguments", "tools/call", toolCall(TOOLS.add, args))), weight: 1 },
      { arbitrary: fc.constant(request("tools-list", "tools/list", {})), weight: 2 },
      { arbitrary: fc.constant(request("resources-list", "resources/list", {})), weight: 1 },
      { arbitrary: fc.constant(request("templates-list", "resources/templates/list", {})), weight: 1 },
      {
        arbitrary: fc
          .oneof(
            fc.constant(RESOURCE_URI),
            fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/).map((id) => `${TEMPLATE_PREFIX}${id}`),
          )
          .map((uri) => request("resources-read", "resources/read", { uri })),
        weight: 2,
      },
      { arbitrary: fc.constant(request("prompts-list", "prompts/list", {})), weight: 1 },
      { arbitrary: text.map((name) => request("prompts-get", "prompts/get", { name: PROMPT, arguments: { name } })), weight: 2 },
      { arbitrary: fc.constant(request("discover", "server/discover", {})), weight: 2 },
    ),
    validMeta,
  )
  .map(([r, meta]) => ({ ...r, params: { ...r.params, _meta: meta } }));

const validId: fc.Arbitrary<IdSpec> = fc.oneof(
  { arbitrary: fc.constant<IdSpec>({ kind: "int" }), weight: 6 },
  { arbitrary: fc.constant<IdSpec>({ kind: "negative" }), weight: 1 },
  { arbitrary: fc.constantFrom<IdSpec>({ kind: "int-alt", form: "fraction-zero" }, { kind: "int-alt", form: "exponent" }), weight: 1 },
  { arbitrary: text.map<IdSpec>((suffix) => ({ kind: "string", suffix })), weight: 4 },
  { arbitrary: fc.constant<IdSpec>({ kind: "numeric-string" }), weight: 1 },
  { arbitrary: fc.stringMatching(/^9\d{8,20}$/).map<IdSpec>((prefix) => ({ kind: "bigint", prefix })), weight: 2 },
);

// ---------------------------------------------------------------- building cases

const BASE_HEADERS: [string, string][] = [
  ["content-type", "application/json"],
  ["accept", "application/json, text/event-stream"],
];

/** The headers a conforming client sends with `message` (the mirrors of `requestHeaders`). */
function clientHeaders(method: string, params: { [key: string]: J }, headerParams: readonly HeaderParam[] = []): [string, string][] {
  const mirrored = requestHeaders({ method, params: plain(params) as Record<string, unknown> }, headerParams);
  const headers: [string, string][] = [...BASE_HEADERS];
  if (mirrored.ok) for (const [name, value] of Object.entries(mirrored.headers)) headers.push([name.toLowerCase(), value]);
  return headers;
}

function httpSpec(headers: [string, string][], extra: Partial<HttpSpec> = {}): HttpSpec {
  return { method: "POST", path: ENDPOINT_PATH, headers, ...extra };
}

/** The message of a request, its id in the slot; key order varies as clients' do. */
function message(method: J, params: J | undefined, order: "usual" | "reversed", extra: [string, J][] = []): J {
  const entries: [string, J][] = [
    ["jsonrpc", "2.0"],
    ["id", ID_SLOT],
    ["method", method],
  ];
  if (params !== undefined) entries.push(["params", params]);
  entries.push(...extra);
  return obj(order === "usual" ? entries : entries.reverse());
}

const renderTree =
  (tree: J, id: IdSpec | undefined) =>
  (index: number): Rendered => {
    const idText = id ? renderId(id, index) : undefined;
    return { bytes: encoder.encode(stringify(tree, idText)), idText };
  };

const order = fc.constantFrom<"usual" | "reversed">("usual", "usual", "usual", "reversed");

const RESULT: Expect = { answer: "response", id: "same", outcome: "result", status: [200] };

/** Valid requests: answered with a result and the same id. */
const validCase: fc.Arbitrary<Case> = fc.tuple(validRequest, validId, order).map(([r, id, o]) => {
  const tree = message(r.method, r.params, o);
  return {
    category: `valid/${r.name}`,
    transports: BOTH,
    render: renderTree(tree, id),
    http: httpSpec(clientHeaders(r.method, r.params, r.headerParams)),
    expect: { ...RESULT, ...(r.probe ? { probe: r.probe } : {}) },
  };
});

/** `route` with an argument that starts with U+FEFF, mirrored in Base64 as a client does: answered like any call. */
const routeBomCase: fc.Arbitrary<Case> = fc.tuple(text.filter(isWellFormed), validMeta, validId).map(([t, meta, id]) => {
  const params = { ...toolCall(TOOLS.route, { region: `\ufeff${t}` }), _meta: meta };
  return {
    category: "valid/route-bom",
    transports: BOTH,
    render: renderTree(message("tools/call", params, "usual"), id),
    http: httpSpec(clientHeaders("tools/call", params, ROUTE_PARAMS)),
    expect: RESULT,
  };
});

/** A progress token that is an integer beyond 2^53 (the schema's ProgressToken is a string or any integer): answered. */
const bigProgressTokenCase: fc.Arbitrary<Case> = fc.tuple(validRequest, validId, bigIntegerText).map(([r, id, token]) => {
  const meta = obj([
    ...Object.entries(r.params._meta as { [key: string]: J }).filter(([k]) => k !== "progressToken"),
    ["progressToken", token],
  ]);
  const params = { ...r.params, _meta: meta };
  return {
    category: "valid/progress-token-bigint",
    transports: BOTH,
    render: renderTree(message(r.method, params, "usual"), id),
    http: httpSpec(clientHeaders(r.method, params, r.headerParams)),
    expect: { ...RESULT, ...(r.probe ? { probe: r.probe } : {}) },
  };
});

/** Integer literals past the double range (309 to 400 digits): JSON.parse reads them as Infinity. */
const beyondDoublesText = fc
  .tuple(fc.integer({ min: 309, max: 400 }), fc.boolean())
  .map(([digits, negative]) => new Raw(`${negative ? "-" : ""}9${"0".repeat(digits - 1)}`));

/** Any number a client may send as a tool argument, integers beyond 2^53 most of all. */
const anyNumber: fc.Arbitrary<J> = fc.oneof(
  { arbitrary: bigIntegerText, weight: 5 },
  { arbitrary: plainNumber, weight: 3 },
  { arbitrary: spelledText, weight: 1 },
  { arbitrary: lossyText, weight: 1 },
  { arbitrary: overflowText, weight: 1 },
  { arbitrary: beyondDoublesText, weight: 1 },
);

/**
 * `add` (a `number` schema, no opt-in) with any two numbers: never a tool fault, and for finite
 * numbers the double sum of what JSON.parse reads (an integer beyond 2^53 is its nearest double).
 */
export const addNumbersCase: fc.Arbitrary<Case> = fc.tuple(anyNumber, anyNumber, validMeta, validId, order).map(([a, b, meta, id, o]) => {
  const params = { ...toolCall(TOOLS.add, { a, b }), _meta: meta };
  return {
    category: "valid/add-numbers",
    transports: BOTH,
    render: renderTree(message("tools/call", params, o), id),
    http: httpSpec(clientHeaders("tools/call", params)),
    expect: { ...RESULT, probe: { kind: "sum", a, b } },
  };
});

/** Valid requests with unknown members added at the top level and in params: still answered. */
const extraFieldsCase: fc.Arbitrary<Case> = fc
  .tuple(validRequest, validId, fc.array(fc.tuple(key, jsonValue), { minLength: 1, maxLength: 3 }))
  .map(([r, id, extra]) => {
    const reserved = new Set([
      "jsonrpc",
      "id",
      "method",
      "params",
      "result",
      "error",
      "name",
      "arguments",
      "uri",
      "cursor",
      "_meta",
      "__proto__",
    ]);
    const fields = extra.filter(([k]) => !reserved.has(k));
    const params = { ...r.params, ...obj(fields) };
    return {
      category: "valid/extra-fields",
      transports: BOTH,
      render: renderTree(message(r.method, params, "usual", fields), id),
      http: httpSpec(clientHeaders(r.method, params, r.headerParams)),
      expect: { answer: "response", id: "same", outcome: "any", status: [200] },
    };
  });

/** An error answer with one of `codes`, counted as `wrongCode` otherwise. */
function error(codes: number[], wrongCode: Expect["wrongCode"], id: Expect["id"], status: number[], extra: Partial<Expect> = {}): Expect {
  return { answer: "response", id, outcome: { codes }, wrongCode, status, ...extra };
}

const PARSE_ERROR = error([ErrorCode.ParseError], "wrong-code-parse", "none", [400]);
const INVALID_REQUEST_NO_ID = error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", "none", [400]);

// ---------------------------------------------------------------- bytes and JSON

/** A valid request cut short: never JSON, so -32700. */
const truncatedCase: fc.Arbitrary<Case> = fc.tuple(validRequest, validId, fc.double({ min: 0, max: 1, noNaN: true })).map(([r, id, at]) => {
  const full = renderTree(message(r.method, r.params, "usual"), id);
  return {
    category: "parse/truncated",
    transports: BOTH,
    render: (index) => {
      const { bytes } = full(index);
      return { bytes: bytes.subarray(0, Math.max(1, Math.min(bytes.length - 1, Math.floor(at * bytes.length)))) };
    },
    http: httpSpec(clientHeaders(r.method, r.params, r.headerParams)),
    expect: PARSE_ERROR,
  };
});

/** Byte sequences that are not UTF-8: a stray continuation, overlong forms, surrogates, cut sequences, 0xFF. */
const BAD_UTF8 = [
  [0x80],
  [0xff],
  [0xc0, 0x80],
  [0xe0, 0x80, 0x80],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xfe],
];

const badUtf8Case: fc.Arbitrary<Case> = fc
  .tuple(validRequest, validId, fc.constantFrom(...BAD_UTF8), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean())
  .map(([r, id, bad, at, inString]) => {
    // Inside a string value (where a lenient decoder would pass it through) or anywhere.
    const params = inString ? { ...r.params, name: `\u0001BAD\u0001${String(r.params.name ?? "")}` } : r.params;
    const full = renderTree(message(r.method, params, "usual"), id);
    return {
      category: "parse/invalid-utf8",
      transports: BOTH,
      render: (index) => {
        const { bytes } = full(index);
        const text = Buffer.from(bytes);
        const marker = text.indexOf("\\u0001BAD\\u0001");
        const cut = inString && marker !== -1 ? marker : Math.floor(at * text.length);
        return { bytes: Buffer.concat([text.subarray(0, cut), Buffer.from(bad), text.subarray(cut)]) };
      },
      http: httpSpec(clientHeaders(r.method, r.params, r.headerParams)),
      expect: PARSE_ERROR,
    };
  });

/** Text that is not JSON (JavaScript-isms, two values, bad numbers, bad escapes). */
const NOT_JSON = [
  "{'jsonrpc':'2.0','id':1,'method':'tools/list'}",
  '{"jsonrpc":"2.0","id":1,"method":"tools/list",}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list"} {"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":01,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":1.,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":NaN,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":Infinity,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":-,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list" /* comment */}',
  '{"jsonrpc":"2.0","id":1,"method":"tools\\x2flist"}',
  '{"jsonrpc":"2.0","id":1,"method":"tools/list\u0001"}',
  '{"jsonrpc":"2.0","id":1,"method":"\\ud800\\u"}',
  '{jsonrpc:"2.0",id:1,method:"tools/list"}',
  "undefined",
  "NaN",
  "[",
  "{",
  '"unterminated',
  "nul",
  "truee",
  "+1",
  ".5",
  "0x10",
  "{}}",
  "\u0000",
];

const notJsonCase: fc.Arbitrary<Case> = fc
  .oneof(
    fc.constantFrom(...NOT_JSON),
    fc.string({ unit: "binary", minLength: 1, maxLength: 40 }).filter((s) => {
      if (s.trim() === "" || s.includes("\n")) return false;
      try {
        JSON.parse(s);
        return false;
      } catch {
        return true;
      }
    }),
  )
  .map((t) => ({
    category: "parse/not-json",
    transports: BOTH,
    render: () => ({ bytes: encoder.encode(t) }),
    http: httpSpec([...BASE_HEADERS, ["mcp-protocol-version", PROTOCOL_VERSION], ["mcp-method", "tools/list"]]),
    expect: PARSE_ERROR,
  }));

/** An empty or blank body: -32700 over HTTP; a blank line is skipped on stdio. */
const blankCase: fc.Arbitrary<Case> = fc.constantFrom("", " ", "\t", "\r", "  \t ").map((t) => ({
  category: "parse/blank",
  transports: BOTH,
  render: () => ({ bytes: encoder.encode(t) }),
  http: httpSpec([...BASE_HEADERS, ["mcp-protocol-version", PROTOCOL_VERSION]]),
  expect: PARSE_ERROR,
  stdioExpect: { answer: "silent", silentKind: "answered-notification" },
}));

/** Arguments nested `depth` levels below `arguments` (which is level 3 of the message). */
function nested(depth: number, leaf: J): J {
  let v = leaf;
  for (let k = 0; k < depth; k++) v = k % 2 ? [v] : { d: v };
  return v;
}

/** The same nesting as text, built without recursion (deep enough to overflow a recursive reader). */
function nestedText(depth: number): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let k = depth - 1; k >= 0; k--) {
    open.push(k % 2 ? "[" : '{"d":');
    close.push(k % 2 ? "]" : "}");
  }
  return `${open.join("")}1${close.reverse().join("")}`;
}

/** Nesting just under the 64-level limit (echoed), just over it, and far over it (-32600 before parsing). */
const deepCase: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(fc.integer({ min: 50, max: 61 }), fc.integer({ min: 62, max: 80 }), fc.integer({ min: 1000, max: 100_000 })),
    validId,
    validMeta,
  )
  .map(([depth, id, meta]) => {
    // message (1), params (2), arguments (3), then `depth` levels of `deep`.
    const total = 3 + depth;
    const within = total <= 64;
    const args: J = within ? { deep: nested(depth, 1) } : { deep: new Raw(nestedText(depth)) };
    const params = { ...toolCall(TOOLS.echo, args), _meta: meta };
    return {
      category: within ? "deep/within-limit" : "deep/over-limit",
      transports: BOTH,
      render: renderTree(message("tools/call", params, "usual"), id),
      http: httpSpec(clientHeaders("tools/call", { name: TOOLS.echo, _meta: meta })),
      expect: within ? { ...RESULT, probe: { kind: "echo", args } } : INVALID_REQUEST_NO_ID,
    };
  });

/** Huge strings: echoed whole under the 4 MiB limit; a body over it is refused (413, or -32600 on stdio). */
const hugeCase: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.integer({ min: 10_000, max: LIMITS.hugeStringChars }), weight: 9 },
      { arbitrary: fc.constant(4 * 1024 * 1024 + 1), weight: 1 },
    ),
    fc.constantFrom("x", "é", "😀", "\\"),
    validId,
    validMeta,
  )
  .map(([length, unit, id, meta]) => {
    const big = unit.repeat(Math.ceil(length / unit.length));
    const args: J = { text: big };
    const params = { ...toolCall(TOOLS.echo, args), _meta: meta };
    const tree = message("tools/call", params, "usual");
    const size = Buffer.byteLength(stringify(tree, "1"));
    const over = size > 4 * 1024 * 1024;
    return {
      category: over ? "huge/over-limit" : "huge/string",
      transports: BOTH,
      render: renderTree(tree, id),
      http: httpSpec(clientHeaders("tools/call", params)),
      expect: over
        ? error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", "same-or-none", [413])
        : { ...RESULT, probe: { kind: "echo", args } },
      ...(over ? { stdioExpect: error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", "same-or-none", []) } : {}),
    };
  });

// ---------------------------------------------------------------- JSON-RPC

/** JSON that is no object: a number, a string, null, a boolean. */
const notObjectCase: fc.Arbitrary<Case> = fc.oneof(fc.constant<J>(null), fc.boolean(), number, text).map((v) => ({
  category: "jsonrpc/not-an-object",
  transports: BOTH,
  render: () => ({ bytes: encoder.encode(stringify(v)) }),
  http: httpSpec([...BASE_HEADERS, ["mcp-protocol-version", PROTOCOL_VERSION]]),
  expect: INVALID_REQUEST_NO_ID,
}));

/** Batches (refused whole by this revision, -32600 without an id): of requests, notifications, or empty. */
const batchCase: fc.Arbitrary<Case> = fc.array(fc.tuple(validRequest, fc.boolean()), { maxLength: 4 }).map((items) => {
  const tree: J = items.map(([r, notification]) =>
    notification ? { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } } : message(r.method, r.params, "usual"),
  );
  return {
    category: "jsonrpc/batch",
    transports: BOTH,
    render: (index: number) => ({ bytes: encoder.encode(stringify(tree, String(2_000_000 + index))) }),
    http: httpSpec([...BASE_HEADERS, ["mcp-protocol-version", PROTOCOL_VERSION]]),
    expect: INVALID_REQUEST_NO_ID,
  };
});

/** A request whose own shape is wrong: -32600, with its id when it could be read. */
const badShapeCase: fc.Arbitrary<Case> = fc
  .tuple(
    validRequest,
    validId,
    fc.oneof(
      fc.constantFrom<[string, J | undefined]>(
        ["jsonrpc", undefined],
        ["jsonrpc", "1.0"],
        ["jsonrpc", 2],
        ["jsonrpc", "2.0 "],
        ["jsonrpc", null],
        ["jsonrpc", "2"],
      ),
      fc.constantFrom<[string, J | undefined]>(
        ["method", undefined],
        ["method", 5],
        ["method", null],
        ["method", ["tools/list"]],
        ["method", { m: 1 }],
        ["method", true],
      ),
      fc.constantFrom<[string, J | undefined]>(
        ["params", []],
        ["params", "x"],
        ["params", 5],
        ["params", null],
        ["params", true],
        ["params", [{}]],
      ),
    ),
  )
  .map(([r, id, [field, value]]) => {
    const entries: [string, J][] = [
      ["jsonrpc", "2.0"],
      ["id", ID_SLOT],
      ["method", r.method],
      ["params", r.params],
    ];
    const mutated = entries.filter(([k]) => k !== field);
    if (value !== undefined) mutated.push([field, value]);
    // params of the wrong type are invalid params to some readers, an invalid request to others.
    const codes = field === "params" ? [ErrorCode.InvalidRequest, ErrorCode.InvalidParams] : [ErrorCode.InvalidRequest];
    return {
      category: `jsonrpc/bad-${field}`,
      transports: BOTH,
      render: renderTree(obj(mutated), id),
      http: httpSpec(clientHeaders(r.method, r.params, r.headerParams)),
      expect: error(codes, "wrong-code-invalid-request", "same-or-none", [400]),
    };
  });

/** Ids of every JSON type a request may not use: -32600 without an id. Integers too large for a double may be answered either way. */
const badIdCase: fc.Arbitrary<Case> = fc
  .tuple(
    validRequest,
    fc.oneof(
      fc.constantFrom("null", "true", "false", "1.5", "-0.5", "1e-3", "{}", "[]", "[1]", '{"id":1}', "0.1"),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .filter((d) => !Number.isInteger(d))
        .map((d) => JSON.stringify(d)),
    ),
  )
  .map(([r, raw]) => ({
    category: "jsonrpc/bad-id",
    transports: BOTH,
    render: renderTree(message(r.method, r.params, "usual"), { kind: "raw", text: raw }),
    http: httpSpec(clientHeaders(r.method, r.params, r.headerParams)),
    expect: INVALID_REQUEST_NO_ID,
  }));

const hugeIdCase: fc.Arbitrary<Case> = fc.tuple(validRequest, overflowText).map(([r, raw]) => ({
  category: "jsonrpc/overflow-id",
  transports: BOTH,
  render: renderTree(message(r.method, r.params, "usual"), { kind: "raw", text: raw.text }),
  http: httpSpec(clientHeaders(r.method, r.params, r.headerParams)),
  // 1e400 is an integer no double holds: echoing it exactly and refusing it are both fair.
  expect: { answer: "response", id: "same-or-none", outcome: "any", status: [200, 400] },
}));

/** Notifications: never answered (HTTP 202, empty). */
const notificationCase: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(
        "notifications/cancelled",
        "notifications/progress",
        "notifications/message",
        "notifications/initialized",
        "notifications/roots/list_changed",
      ),
      fc.string({ maxLength: 20 }),
    ),
    fc.option(
      fc.oneof(
        validMeta.map((m) => ({ requestId: 1_000_000, _meta: m }) as J),
        fc.array(fc.tuple(key, jsonValue), { maxLength: 3 }).map(obj),
      ),
    ),
  )
  .map(([method, params]) => {
    const entries: [string, J][] = [
      ["jsonrpc", "2.0"],
      ["method", method],
    ];
    if (params !== null) entries.push(["params", params]);
    const tree = obj(entries);
    return {
      category: "notification/valid",
      transports: BOTH,
      render: () => ({ bytes: encoder.encode(stringify(tree)) }),
      http: httpSpec([...BASE_HEADERS, ["mcp-protocol-version", PROTOCOL_VERSION], ["mcp-method", method.replace(/[^\x20-\x7e]/g, "?")]]),
      expect: { answer: "silent", silentKind: "answered-notification", status: [202] },
    };
  });

/** Notifications whose params are no object: unanswered, or an error without an id. */
const badNotificationCase: fc.Arbitrary<Case> = fc.constantFrom<J>([], [1], "x", 5, null, true).map((params) => ({
  category: "notification/bad-params",
  transports: BOTH,
  render: () => ({ bytes: encoder.encode(stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params })) }),
  http: httpSpec([...BASE_HEADERS, ["mcp-protocol-version", PROTOCOL_VERSION]]),
  expect: { answer: "silent-or-idless-error", silentKind: "answered-notification", status: [202, 400] },
}));

/** Well-formed responses the server never asked for (this revision's server sends no requests): never answered; HTTP 202. */
const unsolicitedCase: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(validId, fc.constant<IdSpec>({ kind: "raw", text: "null" })),
    fc.oneof(
      jsonValue.map((result) => ["result", result] as [string, J]),
      fc
        .record(
          { code: fc.integer({ min: -32768, max: 32767 }), message: fc.string({ maxLength: 20 }), data: jsonValue },
          { requiredKeys: ["code", "message"] },
        )
        .map((e) => ["error", e as J] as [string, J]),
      fc.constant<[string, J]>(["result", { action: "accept", content: { name: "x" } }]),
    ),
  )
  .map(([id, member]) => {
    // A null id only goes with an error (a response to a message whose id could not be read).
    const entry: [string, J] = id.kind === "raw" && member[0] === "result" ? ["error", { code: -32700, message: "Parse error" }] : member;
    const tree = obj([["jsonrpc", "2.0"], ["id", ID_SLOT], entry]);
    return {
      category: `response/${entry[0]}`,
      transports: BOTH,
      render: renderTree(tree, id),
      http: httpSpec([...BASE_HEADERS, ["mcp-protocol-version", PROTOCOL_VERSION]]),
      // Accepted as it is well formed: 202 (a malformed one gets 400: era-cases.ts).
      expect: { answer: "silent", silentKind: "answered-response", status: [202] },
      stdioExpect: { answer: "silent", silentKind: "answered-response" },
    };
  });

// ---------------------------------------------------------------- _meta

/** `_meta` core members missing or of the wrong type: -32602 before any handler (HTTP 400). */
const metaCoreCase: fc.Arbitrary<Case> = fc
  .tuple(
    validRequest,
    validId,
    fc.oneof(
      fc.constantFrom<[string, J | undefined]>(["_meta", undefined], ["_meta", null], ["_meta", []], ["_meta", "x"], ["_meta", 5]),
      fc.constantFrom<[string, J | undefined]>(
        [META_PROTOCOL_VERSION, undefined],
        [META_PROTOCOL_VERSION, ""],
        [META_PROTOCOL_VERSION, 20260728],
        [META_PROTOCOL_VERSION, null],
        [META_PROTOCOL_VERSION, ["2026-07-28"]],
        [META_CLIENT_CAPABILITIES, undefined],
        [META_CLIENT_CAPABILITIES, null],
        [META_CLIENT_CAPABILITIES, []],
        [META_CLIENT_CAPABILITIES, "all"],
        [META_CLIENT_CAPABILITIES, 1],
        ["progressToken", true],
        ["progressToken", 1.5],
        ["progressToken", {}],
        ["progressToken", null],
        [META_CLIENT_INFO, "x"],
        [META_CLIENT_INFO, { name: "x" }],
        [META_CLIENT_INFO, { name: 5, version: "1" }],
        [META_CLIENT_INFO, null],
      ),
    ),
  )
  .map(([r, id, [member, value]]) => {
    const meta = r.params._meta as { [key: string]: J };
    let params: { [key: string]: J };
    if (member === "_meta") {
      const { _meta: _dropped, ...rest } = r.params;
      params = value === undefined ? rest : { ...rest, _meta: value };
    } else {
      const entries = Object.entries(meta).filter(([k]) => k !== member);
      if (value !== undefined) entries.push([member, value]);
      params = { ...r.params, _meta: obj(entries) };
    }
    return {
      category: `meta/core-${member === "_meta" ? "meta" : member.replace("io.modelcontextprotocol/", "")}`,
      transports: BOTH,
      render: renderTree(message(r.method, params, "usual"), id),
      http: httpSpec(clientHeaders(r.method, r.params, r.headerParams)),
      expect: error([ErrorCode.InvalidParams], "wrong-code-invalid-params", "same", [400]),
    };
  });

/** Wrong types inside `_meta` members the schema types (capabilities, log level, client info): -32602. */
export const BAD_META_MEMBERS: readonly [string, J][] = [
  [META_CLIENT_CAPABILITIES, { sampling: 5 }],
  [META_CLIENT_CAPABILITIES, { roots: [] }],
  [META_CLIENT_CAPABILITIES, { elicitation: "yes" }],
  [META_CLIENT_CAPABILITIES, { elicitation: { form: "x" } }],
  [META_CLIENT_CAPABILITIES, { sampling: { tools: true } }],
  [META_CLIENT_CAPABILITIES, { experimental: { x: 1 } }],
  [META_CLIENT_CAPABILITIES, { extensions: { "io.example/x": "on" } }],
  [META_CLIENT_CAPABILITIES, { elicitation: null }],
  [META_LOG_LEVEL, ""],
  [META_LOG_LEVEL, "DEBUG"],
  [META_LOG_LEVEL, "verbose"],
  [META_LOG_LEVEL, 5],
  [META_LOG_LEVEL, null],
  [META_LOG_LEVEL, ["info"]],
  [META_CLIENT_INFO, { name: "x", version: "1", title: 5 }],
];

const metaMemberCase: fc.Arbitrary<Case> = fc
  .tuple(validRequest, validId, fc.constantFrom(...BAD_META_MEMBERS))
  .map(([r, id, [member, value]]) => {
    const meta = r.params._meta as { [key: string]: J };
    const entries = Object.entries(meta).filter(([k]) => k !== member);
    entries.push([member, value]);
    const params = { ...r.params, _meta: obj(entries) };
    return {
      category: `meta/bad-${member.replace("io.modelcontextprotocol/", "")}`,
      transports: BOTH,
      render: renderTree(message(r.method, params, "usual"), id),
      http: httpSpec(clientHeaders(r.method, r.params, r.headerParams)),
      expect: error([ErrorCode.InvalidParams], "wrong-code-invalid-params", "same", [400], { accepted: "bad-meta-accepted" }),
    };
  });

/** A protocol version the server does not speak (header and body agree): -32022, HTTP 400. */
const versionCase: fc.Arbitrary<Case> = fc
  .tuple(
    validRequest,
    validId,
    fc.oneof(
      fc.constantFrom("2025-11-25", "2025-06-18", "2024-11-05", "2026-07-29", "2026-7-28"),
      fc.stringMatching(/^[A-Za-z0-9.-]{1,16}$/),
    ),
  )
  .filter(([, , v]) => v !== PROTOCOL_VERSION)
  .map(([r, id, version]) => {
    const meta = obj([...Object.entries(r.params._meta as { [key: string]: J }), [META_PROTOCOL_VERSION, version]]);
    const params = { ...r.params, _meta: meta };
    return {
      category: "version/unsupported",
      transports: BOTH,
      render: renderTree(message(r.method, params, "usual"), id),
      http: httpSpec(clientHeaders(r.method, params, r.headerParams)),
      expect: error([ErrorCode.UnsupportedProtocolVersion], "wrong-code-other", "same", [400]),
    };
  });

// ---------------------------------------------------------------- methods and params

const REMOVED_OR_FOREIGN = [
  "initialize",
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
  "sampling/createMessage",
  "elicitation/create",
  "roots/list",
  "completion/complete",
  "notifications/cancelled",
  "tools/list/",
  "TOOLS/LIST",
  "tools/List",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "tools",
  "tools/",
  "/tools/list",
];
const KNOWN_METHODS = new Set([
  "server/discover",
  "tools/list",
  "tools/call",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "subscriptions/listen",
]);

/** Methods the server does not offer: -32601, HTTP 404. */
const unknownMethodCase: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(...REMOVED_OR_FOREIGN),
      fc.stringMatching(/^[!-~]([ -~]{0,30}[!-~])?$/).filter((m) => !KNOWN_METHODS.has(m)),
    ),
    validId,
    validMeta,
  )
  .map(([method, id, meta]) => {
    const params = { _meta: meta };
    return {
      category: "method/unknown",
      transports: BOTH,
      render: renderTree(message(method, params, "usual"), id),
      http: httpSpec(clientHeaders(method, params)),
      expect: error([ErrorCode.MethodNotFound], "wrong-code-method", "same", [404]),
    };
  });

/** Params a method refuses (unknown tool, name or uri of the wrong type, a bad cursor...): -32602 from the handler. */
const badParamsCase: fc.Arbitrary<Case> = fc
  .tuple(
    fc.oneof(
      fc
        .stringMatching(/^[a-z_]{1,12}$/)
        .filter((n) => !(Object.values(TOOLS) as string[]).includes(n))
        .map((n) => ["tools/call", { name: n, arguments: {} }] as const),
      fc.constantFrom<J>(5, null, {}, [], true).map((n) => ["tools/call", { name: n, arguments: {} }] as const),
      fc.constant(["tools/call", { arguments: {} }] as const),
      fc.constantFrom<J>(5, "x", [], null).map((a) => ["tools/call", { name: TOOLS.echo, arguments: a }] as const),
      fc.constantFrom("file:///missing", "fuzz://other/1", "", "not a uri").map((uri) => ["resources/read", { uri }] as const),
      fc.constantFrom<J>(5, null, []).map((uri) => ["resources/read", { uri }] as const),
      fc.constant(["resources/read", {}] as const),
      fc.constantFrom("nope", "GREET", "").map((name) => ["prompts/get", { name, arguments: { name: "x" } }] as const),
      fc.constant(["prompts/get", { name: PROMPT }] as const),
      fc.constantFrom<J>({ name: 5 }, [], "x", { name: null }).map((a) => ["prompts/get", { name: PROMPT, arguments: a }] as const),
      fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom<J>(5, null, {})).map((cursor) => ["tools/list", { cursor }] as const),
    ),
    validId,
    validMeta,
  )
  .map(([[method, p], id, meta]) => {
    const params = { ...(p as { [key: string]: J }), _meta: meta };
    const headers = clientHeaders(method, params);
    // The name a client cannot mirror: any Mcp-Name, so that the method, not the header check, decides.
    if ((method === "tools/call" || method === "prompts/get" || method === "resources/read") && !headers.some(([h]) => h === "mcp-name")) {
      headers.push(["mcp-name", "x"]);
    }
    return {
      category: `params/${method}`,
      transports: BOTH,
      render: renderTree(message(method, params, "usual"), id),
      http: httpSpec(headers),
      expect: error([ErrorCode.InvalidParams], "wrong-code-other", "same", [200, 400]),
    };
  });

// ---------------------------------------------------------------- HTTP headers, methods, paths

/** A few simple valid requests the header cases start from. */
const headerBase = fc.tuple(
  validRequest.filter((r) => ["echo", "route", "tools-list", "resources-read", "prompts-get"].includes(r.name)),
  validId,
);

const without = (headers: [string, string][], name: string) => headers.filter(([h]) => h !== name);
const replaced = (headers: [string, string][], name: string, value: string) => [
  ...without(headers, name),
  [name, value] as [string, string],
];
const HEADER_MISMATCH = error([ErrorCode.HeaderMismatch], "wrong-code-header", "same", [400]);

/** Mirror headers missing or unequal to the body: -32020, HTTP 400. */
const headerMismatchCase: fc.Arbitrary<Case> = fc
  .tuple(headerBase, fc.nat(), fc.stringMatching(/^[A-Za-z0-9._-]{1,16}$/))
  .map(([[r, id], pick, junk]) => {
    const headers = clientHeaders(r.method, r.params, r.headerParams);
    const name = headers.find(([h]) => h === "mcp-name")?.[1];
    const variants: [string, [string, string][]][] = [
      ["protocol-version-missing", without(headers, "mcp-protocol-version")],
      ["protocol-version-other", replaced(headers, "mcp-protocol-version", "2025-11-25")],
      ["protocol-version-junk", replaced(headers, "mcp-protocol-version", junk === PROTOCOL_VERSION ? "x" : junk)],
      ["method-missing", without(headers, "mcp-method")],
      ["method-other", replaced(headers, "mcp-method", r.method === "tools/list" ? "prompts/list" : "tools/list")],
      ["method-case", replaced(headers, "mcp-method", r.method.toUpperCase())],
    ];
    if (name !== undefined) {
      variants.push(
        ["name-missing", without(headers, "mcp-name")],
        ["name-other", replaced(headers, "mcp-name", `${junk}-other`)],
        ["name-bad-base64", replaced(headers, "mcp-name", "=?base64?!!!?=")],
        ["name-bad-utf8-base64", replaced(headers, "mcp-name", "=?base64?/w==?=")],
      );
    }
    if (r.name === "route") {
      const args = r.params.arguments as { [key: string]: J };
      const region = headers.find(([h]) => h === "mcp-param-region")?.[1];
      variants.push(["param-missing", without(headers, "mcp-param-region")]);
      variants.push(["param-other", replaced(headers, "mcp-param-region", region === "x-other" ? "y-other" : "x-other")]);
      if (typeof args.priority === "number") {
        const p = args.priority;
        variants.push(
          ["param-hex", replaced(headers, "mcp-param-priority", `0x${p.toString(16)}`)],
          ["param-exponent", replaced(headers, "mcp-param-priority", `${p}e0`)],
          ["param-plus", replaced(headers, "mcp-param-priority", `+${p}`)],
          ["param-off-by-one", replaced(headers, "mcp-param-priority", String(p === Number.MAX_SAFE_INTEGER ? p - 1 : p + 1))],
        );
      } else {
        variants.push(["param-for-absent-argument", [...headers, ["mcp-param-priority", "1"]]]);
      }
      if (typeof args.urgent === "boolean")
        variants.push(["param-bool-case", replaced(headers, "mcp-param-urgent", args.urgent ? "TRUE" : "False")]);
    }
    const [variant, mutated] = variants[pick % variants.length]!;
    return {
      category: `header/${variant}`,
      transports: HTTP_ONLY,
      render: renderTree(message(r.method, r.params, "usual"), id),
      http: httpSpec(mutated),
      expect: HEADER_MISMATCH,
    };
  });

/** Mirror headers spelled differently but equal to the body (Base64 sentinel, 42.0, spaces): served. */
const headerEquivalentCase: fc.Arbitrary<Case> = fc.tuple(headerBase, fc.nat()).map(([[r, id], pick]) => {
  const headers = clientHeaders(r.method, r.params, r.headerParams);
  const variants: [string, [string, string][]][] = [["version-padded", replaced(headers, "mcp-protocol-version", ` ${PROTOCOL_VERSION} `)]];
  const name = r.params.name ?? r.params.uri;
  if (typeof name === "string")
    variants.push(["name-base64", replaced(headers, "mcp-name", `=?base64?${Buffer.from(name).toString("base64")}?=`)]);
  if (r.name === "route") {
    const args = r.params.arguments as { [key: string]: J };
    if (typeof args.priority === "number")
      variants.push(["param-fraction-zero", replaced(headers, "mcp-param-priority", `${args.priority}.0`)]);
    if (typeof args.region === "string")
      variants.push(["param-base64", replaced(headers, "mcp-param-region", `=?base64?${Buffer.from(args.region).toString("base64")}?=`)]);
  }
  const [variant, mutated] = variants[pick % variants.length]!;
  return {
    category: `header/equivalent-${variant}`,
    transports: HTTP_ONLY,
    render: renderTree(message(r.method, r.params, "usual"), id),
    http: httpSpec(mutated),
    expect: { ...RESULT, ...(r.probe ? { probe: r.probe } : {}) },
  };
});

/** Host headers that name another host (DNS rebinding) or are malformed: refused (403 or 400), never served. */
export const ATTACK_HOSTS = [
  "[::1].attacker.com",
  "localhost:4103.attacker.com",
  "127.0.0.1:80.attacker.com",
  "localhost.attacker.com",
  "127.0.0.1.nip.io",
  "attacker.com",
  "localhost@attacker.com",
  "[::1]attacker.com",
  "[::1]:80.attacker.com",
  "localhost:abc",
  "localhost:",
  "localhost:{port}:{port}",
  "localhost:{port} attacker.com",
  "",
];

const hostCase: fc.Arbitrary<Case> = fc
  .tuple(
    headerBase,
    fc.oneof(
      { arbitrary: fc.constantFrom(...ATTACK_HOSTS).map((h) => ({ name: "attack", hosts: [h] })), weight: 6 },
      {
        arbitrary: fc
          .constantFrom(
            ["localhost:{port}", "attacker.com"],
            ["attacker.com", "localhost:{port}"],
            ["127.0.0.1:{port}", "127.0.0.1:{port}"],
          )
          .map((hosts) => ({ name: "two", hosts })),
        weight: 2,
      },
      {
        arbitrary: fc
          .constantFrom("127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "[::1]:{port}", "localhost", "127.0.0.1")
          .map((h) => ({ name: "loopback", hosts: [h] })),
        weight: 3,
      },
      { arbitrary: fc.constant({ name: "missing", hosts: [] as string[] }), weight: 1 },
    ),
  )
  .map(([[r, id], { name, hosts }]) => {
    const headers = clientHeaders(r.method, r.params, r.headerParams);
    const tree = message(r.method, r.params, "usual");
    const refused: Expect = {
      answer: "response",
      id: "same-or-none",
      outcome: { codes: [ErrorCode.InvalidRequest] },
      wrongCode: "wrong-code-invalid-request",
      accepted: "host-accepted",
      status: [400, 403, 421],
    };
    return {
      category: `host/${name}`,
      transports: HTTP_ONLY,
      render: renderTree(tree, id),
      http: httpSpec([...headers, ...hosts.map((h) => ["host", h] as [string, string])], { omitHost: hosts.length === 0 }),
      // A missing Host is malformed HTTP/1.1 (400), as is a second Host.
      expect:
        name === "loopback"
          ? { ...RESULT, ...(r.probe ? { probe: r.probe } : {}) }
          : name === "missing"
            ? { ...refused, status: [400] }
            : refused,
    };
  });

/** Origin headers: a foreign one is refused with 403; a loopback one is served. */
const originCase: fc.Arbitrary<Case> = fc
  .tuple(
    headerBase,
    fc.constantFrom(
      "http://attacker.com",
      "null",
      "http://localhost.attacker.com",
      "file://",
      "http://[::1].attacker.com",
      "http://localhost:3000",
      "http://127.0.0.1",
    ),
  )
  .map(([[r, id], origin]) => {
    const loopback = origin === "http://localhost:3000" || origin === "http://127.0.0.1";
    return {
      category: loopback ? "origin/loopback" : "origin/foreign",
      transports: HTTP_ONLY,
      render: renderTree(message(r.method, r.params, "usual"), id),
      http: httpSpec([...clientHeaders(r.method, r.params, r.headerParams), ["origin", origin]]),
      expect: loopback
        ? { ...RESULT, ...(r.probe ? { probe: r.probe } : {}) }
        : {
            answer: "response",
            id: "same-or-none",
            outcome: { codes: [ErrorCode.InvalidRequest] },
            wrongCode: "wrong-code-invalid-request",
            accepted: "origin-accepted",
            status: [403],
          },
    };
  });

/** Accept headers: one that admits neither JSON nor SSE gets 406; the rest are served. */
const acceptCase: fc.Arbitrary<Case> = fc
  .tuple(
    headerBase,
    fc.constantFrom(
      "text/html",
      "image/png",
      "application/xml",
      "text/plain",
      "application/json",
      "text/event-stream",
      "*/*",
      "application/*",
      "",
      "APPLICATION/JSON",
      "application/json;q=0.9",
    ),
  )
  .map(([[r, id], accept]) => {
    const refused = ["text/html", "image/png", "application/xml", "text/plain"].includes(accept);
    return {
      category: refused ? "accept/refused" : "accept/served",
      transports: HTTP_ONLY,
      render: renderTree(message(r.method, r.params, "usual"), id),
      http: httpSpec(replaced(clientHeaders(r.method, r.params, r.headerParams), "accept", accept)),
      expect: refused
        ? {
            answer: "response",
            id: "same-or-none",
            outcome: { codes: [ErrorCode.InvalidRequest] },
            wrongCode: "wrong-code-invalid-request",
            status: [406],
          }
        : { ...RESULT, ...(r.probe ? { probe: r.probe } : {}) },
    };
  });

/** Content-Type headers that are not JSON: served as JSON anyway, or refused with 415; either way a JSON answer. */
const contentTypeCase: fc.Arbitrary<Case> = fc
  .tuple(
    headerBase,
    fc.constantFrom<string | undefined>(
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "application/json; charset=latin1",
    ),
  )
  .map(([[r, id], type]) => {
    const headers = without(clientHeaders(r.method, r.params, r.headerParams), "content-type");
    if (type !== undefined) headers.push(["content-type", type]);
    return {
      category: "content-type/other",
      transports: HTTP_ONLY,
      render: renderTree(message(r.method, r.params, "usual"), id),
      http: httpSpec(headers),
      expect: { answer: "response", id: "same-or-none", outcome: "any", status: [200, 400, 415] },
    };
  });

/** HTTP methods other than POST: 405 with a JSON body (HEAD: none). */
const httpMethodCase: fc.Arbitrary<Case> = fc
  .tuple(headerBase, fc.constantFrom("GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE"))
  .map(([[r, id], method]) => ({
    category: `http-method/${method}`,
    transports: HTTP_ONLY,
    render:
      method === "GET" || method === "HEAD" || method === "TRACE"
        ? () => ({ bytes: new Uint8Array(0) })
        : renderTree(message(r.method, r.params, "usual"), id),
    http: httpSpec(clientHeaders(r.method, r.params, r.headerParams), { method }),
    expect: {
      answer: "response",
      id: "same-or-none",
      outcome: { codes: [ErrorCode.InvalidRequest] },
      wrongCode: "wrong-code-invalid-request",
      status: [405],
    },
  }));

/** Paths other than the endpoint: 404, with a JSON body like every other answer. A query string is still the endpoint. */
const pathCase: fc.Arbitrary<Case> = fc
  .tuple(
    headerBase,
    fc.oneof(
      fc.constantFrom(
        "/",
        "/mcp/",
        "/mcpx",
        "/MCP",
        "/other",
        "/mcp/../mcp",
        "//mcp",
        "/mcp%2f",
        "/.well-known/oauth-authorization-server",
        "*",
      ),
      fc.stringMatching(/^\/[A-Za-z0-9._~-]{1,20}$/).filter((p) => p !== ENDPOINT_PATH),
    ),
    fc.boolean(),
  )
  .map(([[r, id], path, query]) => ({
    category: query ? "path/endpoint-with-query" : "path/other",
    transports: HTTP_ONLY,
    render: renderTree(message(r.method, r.params, "usual"), id),
    http: httpSpec(clientHeaders(r.method, r.params, r.headerParams), {
      path: query ? `${ENDPOINT_PATH}?x=${encodeURIComponent(path)}` : path,
    }),
    expect: query
      ? { ...RESULT, ...(r.probe ? { probe: r.probe } : {}) }
      : { answer: "response", id: "same-or-none", outcome: "any", status: [404] },
  }));

// ---------------------------------------------------------------- the mix

/** Every case family with its weight (out of 1000), and the transports it applies to. */
export const FAMILIES: readonly { name: string; weight: number; arbitrary: fc.Arbitrary<Case>; transports: readonly Transport[] }[] = [
  { name: "valid", weight: 300, arbitrary: validCase, transports: BOTH },
  { name: "route-bom", weight: 5, arbitrary: routeBomCase, transports: BOTH },
  { name: "progress-token-bigint", weight: 5, arbitrary: bigProgressTokenCase, transports: BOTH },
  { name: "add-numbers", weight: 20, arbitrary: addNumbersCase, transports: BOTH },
  { name: "extra-fields", weight: 20, arbitrary: extraFieldsCase, transports: BOTH },
  { name: "truncated", weight: 40, arbitrary: truncatedCase, transports: BOTH },
  { name: "invalid-utf8", weight: 30, arbitrary: badUtf8Case, transports: BOTH },
  { name: "not-json", weight: 30, arbitrary: notJsonCase, transports: BOTH },
  { name: "blank", weight: 5, arbitrary: blankCase, transports: BOTH },
  { name: "deep", weight: 20, arbitrary: deepCase, transports: BOTH },
  { name: "huge", weight: 3, arbitrary: hugeCase, transports: BOTH },
  { name: "not-an-object", weight: 15, arbitrary: notObjectCase, transports: BOTH },
  { name: "batch", weight: 15, arbitrary: batchCase, transports: BOTH },
  { name: "bad-shape", weight: 40, arbitrary: badShapeCase, transports: BOTH },
  { name: "bad-id", weight: 25, arbitrary: badIdCase, transports: BOTH },
  { name: "overflow-id", weight: 5, arbitrary: hugeIdCase, transports: BOTH },
  { name: "notification", weight: 30, arbitrary: notificationCase, transports: BOTH },
  { name: "bad-notification", weight: 10, arbitrary: badNotificationCase, transports: BOTH },
  { name: "unsolicited", weight: 30, arbitrary: unsolicitedCase, transports: BOTH },
  { name: "meta-core", weight: 40, arbitrary: metaCoreCase, transports: BOTH },
  { name: "meta-member", weight: 40, arbitrary: metaMemberCase, transports: BOTH },
  { name: "version", weight: 15, arbitrary: versionCase, transports: BOTH },
  { name: "unknown-method", weight: 30, arbitrary: unknownMethodCase, transports: BOTH },
  { name: "bad-params", weight: 40, arbitrary: badParamsCase, transports: BOTH },
  { name: "header-mismatch", weight: 50, arbitrary: headerMismatchCase, transports: HTTP_ONLY },
  { name: "header-equivalent", weight: 15, arbitrary: headerEquivalentCase, transports: HTTP_ONLY },
  { name: "host", weight: 30, arbitrary: hostCase, transports: HTTP_ONLY },
  { name: "origin", weight: 10, arbitrary: originCase, transports: HTTP_ONLY },
  { name: "accept", weight: 15, arbitrary: acceptCase, transports: HTTP_ONLY },
  { name: "content-type", weight: 10, arbitrary: contentTypeCase, transports: HTTP_ONLY },
  { name: "http-method", weight: 10, arbitrary: httpMethodCase, transports: HTTP_ONLY },
  { name: "path", weight: 15, arbitrary: pathCase, transports: HTTP_ONLY },
  // era-cases.ts: a 2026-07-28 request with Mcp-Session-Id is served as without it; malformed responses are never answered.
  {
    name: "session-header",
    weight: 40,
    arbitrary: withSessionHeader(
      fc.oneof(
        { arbitrary: validCase, weight: 6 },
        { arbitrary: extraFieldsCase, weight: 1 },
        { arbitrary: metaMemberCase, weight: 1 },
        { arbitrary: versionCase, weight: 1 },
        { arbitrary: unknownMethodCase, weight: 1 },
        { arbitrary: badParamsCase, weight: 1 },
        { arbitrary: headerMismatchCase, weight: 1 },
      ),
    ),
    transports: HTTP_ONLY,
  },
  { name: "invalid-response", weight: 30, arbitrary: malformedResponseCase, transports: BOTH },
  { name: "response-batch", weight: 10, arbitrary: responseBatchCase, transports: BOTH },
];

/** The weighted mix of every family that applies to `transport`. */
export function caseArbitrary(transport: Transport): fc.Arbitrary<Case> {
  const families = FAMILIES.filter((f) => f.transports.includes(transport));
  return fc.oneof(...families.map((f) => ({ arbitrary: f.arbitrary, weight: f.weight })));
}
