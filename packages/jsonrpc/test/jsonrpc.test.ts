import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  classify,
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_MESSAGE_BYTES,
  decodeJson,
  errorResponse,
  isObject,
  isRequestId,
  isResponseShaped,
  JsonRpcErrorCode,
  jsonDepthExceeds,
  decodeJsonText,
  replaceBigInts,
  resultResponse,
  stringifyJson,
} from "../src/index.js";

const NOT_A_MESSAGE = "Invalid request: expected a JSON-RPC 2.0 request or notification";
const BAD_PARAMS = "Invalid request: params must be an object";
const BAD_ID = "Invalid request: id must be a string or an integer";
const bytes = (text: string) => new TextEncoder().encode(text);

describe("isObject", () => {
  it("accepts plain and null-prototype objects, refuses null, arrays and primitives", () => {
    expect(isObject({})).toBe(true);
    expect(isObject({ a: 1 })).toBe(true);
    expect(isObject(Object.create(null))).toBe(true);
    for (const value of [null, undefined, [], [1], "x", 1, true, 0n, Symbol("s"), () => {}]) expect(isObject(value)).toBe(false);
  });

  it("is true exactly for what JSON.parse makes of an object", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(isObject(value)).toBe(typeof value === "object" && value !== null && !Array.isArray(value));
      }),
    );
  });
});

describe("isRequestId", () => {
  it("accepts strings, safe integers and bigints only", () => {
    for (const id of ["", "a", 0, -1, 42, 1e3, Number.MAX_SAFE_INTEGER, 1n, 2n ** 64n, -(2n ** 64n)]) expect(isRequestId(id)).toBe(true);
    for (const id of [null, undefined, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, {}, []]) expect(isRequestId(id)).toBe(false);
  });

  it("refuses a number beyond ±(2^53 − 1): it may be rounded, so it could not be echoed exactly", () => {
    for (const id of [2 ** 53, -(2 ** 53), 1e20, Number.MAX_VALUE]) expect(isRequestId(id)).toBe(false);
  });

  it("agrees with Number.isSafeInteger on every number", () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(isRequestId(n)).toBe(Number.isSafeInteger(n));
      }),
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(isRequestId(s)).toBe(true);
      }),
    );
  });
});

describe("JsonRpcErrorCode", () => {
  it("holds the five standard codes", () => {
    expect(JsonRpcErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
    });
    expect(Object.isFrozen(JsonRpcErrorCode)).toBe(true);
  });
});

describe("errorResponse and resultResponse", () => {
  it("writes an id that could not be read as null (JSON-RPC 2.0), and leaves out undefined data", () => {
    expect(errorResponse(undefined, -32600, "bad")).toStrictEqual({ jsonrpc: "2.0", error: { code: -32600, message: "bad" }, id: null });
    expect(JSON.stringify(errorResponse(undefined, -32700, "Parse error"))).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}',
    );
    // What the builder writes, the classifier reads back as an error response without an id.
    expect(classify(errorResponse(undefined, -32700, "Parse error"))).toStrictEqual({
      kind: "response",
      error: { code: -32700, message: "Parse error" },
    });
    expect(errorResponse(7, -32602, "bad", { at: "x" })).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "bad", data: { at: "x" } },
    });
    expect(Object.hasOwn(errorResponse("a", 1, "m", undefined).error, "data")).toBe(false);
  });

  it("keeps data that is null or falsy", () => {
    expect(errorResponse(0, -32603, "m", null).error).toStrictEqual({ code: -32603, message: "m", data: null });
    expect(errorResponse(0, -32603, "m", 0).error.data).toBe(0);
  });

  it("serialises jsonrpc, error, id in that order", () => {
    expect(JSON.stringify(errorResponse(1, -32601, "no"))).toBe('{"jsonrpc":"2.0","error":{"code":-32601,"message":"no"},"id":1}');
  });

  it("builds result responses", () => {
    expect(resultResponse("r", { a: 1 })).toStrictEqual({ jsonrpc: "2.0", id: "r", result: { a: 1 } });
    expect(JSON.stringify(resultResponse(2, null))).toBe('{"jsonrpc":"2.0","id":2,"result":null}');
  });
});

describe("classify", () => {
  const table: [string, unknown, unknown][] = [
    ["a request", { jsonrpc: "2.0", id: 1, method: "m", params: { a: 1 } }, { kind: "request", id: 1, method: "m", params: { a: 1 } }],
    ["a request without params", { jsonrpc: "2.0", id: "x", method: "m" }, { kind: "request", id: "x", method: "m", params: {} }],
    ["a notification", { jsonrpc: "2.0", method: "n", params: { b: 2 } }, { kind: "notification", method: "n", params: { b: 2 } }],
    ["a notification without params", { jsonrpc: "2.0", method: "n" }, { kind: "notification", method: "n", params: {} }],
    ["a result response", { jsonrpc: "2.0", id: 3, result: { ok: true } }, { kind: "response", id: 3, result: { ok: true } }],
    ["a null result", { jsonrpc: "2.0", id: 3, result: null }, { kind: "response", id: 3, result: null }],
    [
      "an error response",
      { jsonrpc: "2.0", id: "e", error: { code: 1, message: "m" } },
      { kind: "response", id: "e", error: { code: 1, message: "m" } },
    ],
    ["a string", "hi", { kind: "invalid", message: NOT_A_MESSAGE }],
    ["null", null, { kind: "invalid", message: NOT_A_MESSAGE }],
    ["a batch", [{ jsonrpc: "2.0", id: 1, method: "m" }], { kind: "invalid", message: NOT_A_MESSAGE }],
    ["a wrong jsonrpc, id kept", { jsonrpc: "1.0", id: 4, method: "m" }, { kind: "invalid", id: 4, message: NOT_A_MESSAGE }],
    ["a missing jsonrpc", { id: 4, method: "m" }, { kind: "invalid", id: 4, message: NOT_A_MESSAGE }],
    ["a non-string method, id kept", { jsonrpc: "2.0", id: 5, method: 5 }, { kind: "invalid", id: 5, message: NOT_A_MESSAGE }],
    ["a non-string method, invalid id", { jsonrpc: "2.0", id: 1.5, method: 5 }, { kind: "invalid", message: NOT_A_MESSAGE }],
    ["neither result nor error", { jsonrpc: "2.0", id: 6 }, { kind: "invalid", id: 6, message: NOT_A_MESSAGE }],
    [
      "an error response with a null id (its request could not be read)",
      { jsonrpc: "2.0", id: null, error: { code: 1, message: "m" } },
      { kind: "response", error: { code: 1, message: "m" } },
    ],
    [
      "an error response without id",
      { jsonrpc: "2.0", error: { code: 1, message: "m" } },
      { kind: "response", error: { code: 1, message: "m" } },
    ],
    ["a response with a method", { jsonrpc: "2.0", id: 1, method: 1, result: {} }, { kind: "invalid", id: 1, message: NOT_A_MESSAGE }],
    ["array params, id kept", { jsonrpc: "2.0", id: 7, method: "m", params: [1] }, { kind: "invalid", id: 7, message: BAD_PARAMS }],
    ["null params", { jsonrpc: "2.0", id: 7, method: "m", params: null }, { kind: "invalid", id: 7, message: BAD_PARAMS }],
    ["string params, notification", { jsonrpc: "2.0", method: "m", params: "x" }, { kind: "invalid", message: BAD_PARAMS }],
    ["string params, invalid id", { jsonrpc: "2.0", id: {}, method: "m", params: "x" }, { kind: "invalid", message: BAD_PARAMS }],
    ["a null id", { jsonrpc: "2.0", id: null, method: "m" }, { kind: "invalid", message: BAD_ID }],
    ["a fractional id", { jsonrpc: "2.0", id: 1.5, method: "m" }, { kind: "invalid", message: BAD_ID }],
    ["an object id", { jsonrpc: "2.0", id: { a: 1 }, method: "m", params: {} }, { kind: "invalid", message: BAD_ID }],
  ];

  const INVALID_RESPONSES: [string, unknown, { id?: number; why: string }][] = [
    ["both result and error", { jsonrpc: "2.0", id: 6, result: 1, error: { code: 1, message: "m" } }, { id: 6, why: "it has both" }],
    ["a result with a null id", { jsonrpc: "2.0", id: null, result: {} }, { why: "a result needs the id" }],
    ["a result without id", { jsonrpc: "2.0", result: {} }, { why: "a result needs the id" }],
    ["a result with a fractional id", { jsonrpc: "2.0", id: 1.5, result: {} }, { why: "a result needs the id" }],
    ["an error that is not an object", { jsonrpc: "2.0", error: [[]] }, { why: "error must be an object" }],
    ["an error that is a string, id kept", { jsonrpc: "2.0", id: 2, error: "no" }, { id: 2, why: "error must be an object" }],
    ["an error without message", { jsonrpc: "2.0", id: 2, error: { code: 1 } }, { id: 2, why: "error must be an object" }],
    ["an error with a fractional code", { jsonrpc: "2.0", id: 2, error: { code: 1.5, message: "m" } }, { id: 2, why: "error must be" }],
    ["an error with a string code", { jsonrpc: "2.0", error: { code: "1", message: "m" } }, { why: "error must be an object" }],
    ["an error with an invalid id", { jsonrpc: "2.0", id: 1.5, error: { code: 1, message: "m" } }, { why: "id must be" }],
    ["an error with an object id", { jsonrpc: "2.0", id: {}, error: { code: 1, message: "m" } }, { why: "id must be" }],
    ["a result without jsonrpc", { id: 3, result: {} }, { id: 3, why: 'jsonrpc must be "2.0"' }],
    ["an error of JSON-RPC 1.0", { jsonrpc: "1.0", id: 3, error: { code: 1, message: "m" } }, { id: 3, why: 'jsonrpc must be "2.0"' }],
  ];

  it.each(INVALID_RESPONSES)("classifies %s as an invalid response, never as invalid", (_name, message, { id, why }) => {
    const classified = classify(message);
    expect(classified.kind).toBe("invalid-response");
    expect(classified.kind === "invalid-response" && classified.message).toMatch(new RegExp(`^Invalid response: ${why}`));
    expect("id" in classified ? classified.id : undefined).toBe(id);
  });

  it("takes an error code beyond 2^53 (read as a bigint) as an integer", () => {
    const error = { code: 9007199254740993n, message: "m" };
    expect(classify({ jsonrpc: "2.0", id: 1, error })).toStrictEqual({ kind: "response", id: 1, error });
  });

  it.each(table)("classifies %s", (_name, message, expected) => {
    expect(classify(message)).toStrictEqual(expected);
  });

  it("hands back the message's own params object", () => {
    const params = { a: 1 };
    const classified = classify({ jsonrpc: "2.0", id: 1, method: "m", params });
    expect(classified.kind === "request" && classified.params).toBe(params);
  });

  it("never throws, and an invalid message's id is always a valid id", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const classified = classify(value);
        if (classified.kind === "invalid" && "id" in classified) expect(isRequestId(classified.id)).toBe(true);
        if (classified.kind === "request") expect(isRequestId(classified.id)).toBe(true);
        if (classified.kind === "response" && "id" in classified) expect(isRequestId(classified.id)).toBe(true);
        if (classified.kind === "invalid-response" && "id" in classified) expect(isRequestId(classified.id)).toBe(true);
        // Shaped as a response (result or error, no method): a response of some kind, never "invalid".
        expect(isResponseShaped(value)).toBe(classified.kind === "response" || classified.kind === "invalid-response");
      }),
    );
  });

  it("classifies every well-formed request, notification and response as such", () => {
    const id = fc.oneof(fc.string(), fc.integer());
    const params = fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: undefined });
    fc.assert(
      fc.property(id, fc.string(), params, (i, method, p) => {
        const request = classify(p === undefined ? { jsonrpc: "2.0", id: i, method } : { jsonrpc: "2.0", id: i, method, params: p });
        expect(request).toStrictEqual({ kind: "request", id: i, method, params: p ?? {} });
        const notification = classify(p === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params: p });
        expect(notification).toStrictEqual({ kind: "notification", method, params: p ?? {} });
      }),
    );
    fc.assert(
      fc.property(id, fc.jsonValue(), fc.boolean(), (i, value, isError) => {
        const error = {
          code: typeof value === "number" && Number.isInteger(value) ? value : -32000,
          message: JSON.stringify(value),
          data: value,
        };
        const message = isError ? { jsonrpc: "2.0", id: i, error } : { jsonrpc: "2.0", id: i, result: value };
        expect(classify(message)).toStrictEqual(isError ? { kind: "response", id: i, error } : { kind: "response", id: i, result: value });
      }),
    );
  });
});

describe("jsonDepthExceeds", () => {
  it("counts object and array nesting", () => {
    expect(jsonDepthExceeds(bytes("{}"), 0)).toBe(true);
    expect(jsonDepthExceeds(bytes("{}"), 1)).toBe(false);
    expect(jsonDepthExceeds(bytes('{"a":[{"b":[]}]}'), 3)).toBe(true);
    expect(jsonDepthExceeds(bytes('{"a":[{"b":[]}]}'), 4)).toBe(false);
    expect(jsonDepthExceeds(bytes("[][][]"), 1)).toBe(false);
    expect(jsonDepthExceeds(bytes("1"), 0)).toBe(false);
  });

  it("skips brackets inside strings, escaped quotes included", () => {
    expect(jsonDepthExceeds(bytes('{"a":"[[[[{{{{"}'), 1)).toBe(false);
    expect(jsonDepthExceeds(bytes('{"a":"\\"[[[["}'), 1)).toBe(false);
    expect(jsonDepthExceeds(bytes('["\\\\",[]]'), 1)).toBe(true);
  });

  it("agrees with the depth of any JSON value", () => {
    const depthOf = (value: unknown): number =>
      typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.nat(8), (value, limit) => {
        expect(jsonDepthExceeds(bytes(JSON.stringify(value)), limit)).toBe(depthOf(value) > limit);
        // The same text as a string, non-ASCII characters included, gives the same answer.
        expect(jsonDepthExceeds(JSON.stringify(value), limit)).toBe(depthOf(value) > limit);
      }),
    );
  });
});

describe("decodeJsonText", () => {
  it("answers as decodeJson does for the same message, but for the UTF-8 check", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v)),
          fc.string(),
          fc.constantFrom("", " \t", "{", `{"a":${"[".repeat(70)}${"]".repeat(70)}}`, "9007199254740993", "[12345678901234567890]"),
        ),
        fc.constantFrom(4, 64),
        (text, depth) => {
          expect(decodeJsonText(text, depth, "the line")).toStrictEqual(decodeJson(bytes(text), depth, "the line"));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("decodeJson", () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_MAX_JSON_DEPTH).toBe(64);
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(4 * 1024 * 1024);
  });

  it("decodes UTF-8 JSON, dropping a byte order mark", () => {
    expect(decodeJson(bytes('{"a":"é"}'), 64)).toStrictEqual({ ok: true, value: { a: "é" }, lossless: false });
    expect(decodeJson(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes("[1]")]), 64)).toStrictEqual({ ok: true, value: [1], lossless: false });
  });

  it("refuses invalid UTF-8, blank text and bad JSON with -32700, naming the subject", () => {
    expect(decodeJson(new Uint8Array([0x22, 0xff, 0x22]), 64, "the body")).toStrictEqual({
      ok: false,
      code: -32700,
      message: "Parse error: the body is not UTF-8 JSON",
      reason: "utf-8",
    });
    expect(decodeJson(bytes(" \t\r"), 64, "the line")).toStrictEqual({
      ok: false,
      code: -32700,
      message: "Parse error: the line is not UTF-8 JSON",
      reason: "empty",
    });
    expect(decodeJson(new Uint8Array(), 64)).toMatchObject({ ok: false, code: -32700, reason: "empty" });
    expect(decodeJson(bytes("{"), 64)).toStrictEqual({
      ok: false,
      code: -32700,
      message: "Parse error: the message is not UTF-8 JSON",
      reason: "syntax",
    });
  });

  it("refuses too deep a nesting with -32600 before parsing", () => {
    expect(decodeJson(bytes("[[[]]]"), 2)).toStrictEqual({
      ok: false,
      code: -32600,
      message: "Invalid request: JSON nested deeper than 2",
      reason: "depth",
    });
    expect(decodeJson(bytes("[[]]"), 2)).toStrictEqual({ ok: true, value: [[]], lossless: false });
    // Deeper than JSON.parse's recursion could bear: refused without a stack overflow.
    expect(decodeJson(bytes("[".repeat(1_000_000)), DEFAULT_MAX_JSON_DEPTH)).toMatchObject({ ok: false, reason: "depth" });
  });

  it("round-trips any JSON value within the depth bound: the same text, and JSON.parse's value once bigints are numbers", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const text = JSON.stringify(value);
        const decoded = decodeJson(bytes(text), 64);
        if (!decoded.ok) throw new Error(`refused ${text}`);
        expect(stringifyJson(decoded.value)).toBe(text);
        expect(replaceBigInts(decoded.value, Number)).toStrictEqual(JSON.parse(text));
      }),
    );
  });

  it("reads an integer beyond 2^53 as a bigint with exactly its digits", () => {
    expect(decodeJson(bytes('{"id":9007199254740993}'), 64)).toStrictEqual({ ok: true, value: { id: 9007199254740993n }, lossless: true });
  });

  it("says lossless only for text with a run of 16 digits: otherwise the value is JSON.parse's, with no bigint to look for", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        const decoded = decodeJsonText(text, 64);
        if (!decoded.ok) throw new Error(`refused ${text}`);
        expect(decoded.lossless).toBe(/\d{16}/.test(text));
        if (!decoded.lossless) expect(decoded.value).toStrictEqual(JSON.parse(text));
      }),
    );
    // A run inside a string is a false alarm: read again, with nothing to change.
    expect(decodeJsonText('{"s":"1234567890123456"}', 64)).toStrictEqual({ ok: true, value: { s: "1234567890123456" }, lossless: true });
  });
});
