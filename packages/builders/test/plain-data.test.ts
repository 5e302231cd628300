// The builders read their input once, into a copy of plain JSON data, and check that copy: what they
// return is what JSON.stringify (stringifyJson on the wire) writes. A toJSON, a getter or a Proxy that
// answers differently on a second read cannot make the sent result differ from the checked one.
import { stringifyJson } from "@x/jsonrpc";
import { describe, expect, it } from "vitest";
import {
  callToolResult,
  capabilities,
  completeResult,
  createMessageRequest,
  elicitRequest,
  getPromptResult,
  inputRequiredResult,
  jsonRpcError,
  listToolsResult,
  readResourceResult,
  resourceContents,
} from "../src/index.js";
import { expectValid } from "./helpers.js";

/** What a peer reads: the result written as JSON (bigints with their digits) and read back. */
const sent = (value: unknown): unknown => JSON.parse(stringifyJson(value)!);

describe("a toJSON is refused, as it would send other JSON than the one checked", () => {
  it("on a content block, on data, on a resource entry, on a prompt message", () => {
    const swap = () => ({ type: "invoice" });
    expect(() => callToolResult([{ type: "text", text: "hi", toJSON: swap } as never])).toThrow(
      /^entries\[0\]\.toJSON is a function, not JSON data; the builders take plain JSON data/,
    );
    expect(() => callToolResult([["data", { a: 1, toJSON: () => 5 }]])).toThrow(/entries\[0\]\[1\]\.toJSON is a function/);
    expect(() => readResourceResult({ contents: [{ uri: "file:///x", text: "t", toJSON: () => ({}) } as never] })).toThrow(
      /options\.contents\[0\]\.toJSON is a function/,
    );
    expect(() => getPromptResult([{ role: "user", content: { type: "text", text: "hi", toJSON: swap } as never }])).toThrow(
      /entries\[0\]\.content\.toJSON is a function/,
    );
    expect(() => callToolResult([{ type: "text", text: "hi", toJSON: swap } as never])).toThrow(TypeError);
  });
});

describe("a getter or a Proxy is read once, and the result holds what it gave", () => {
  it("a block whose text changes from one read to the next", () => {
    let reads = 0;
    const block = {
      type: "text",
      get text() {
        reads += 1;
        return reads === 1 ? "hi" : 42;
      },
    };
    const result = callToolResult([block as never]);
    expect(reads).toBe(1);
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(Object.getOwnPropertyDescriptor(result.content[0], "text")).toMatchObject({ value: "hi" });
    expectValid("CallToolResult", result);
    expectValid("CallToolResult", sent(result));
    expect(sent(result)).toEqual(result);
  });

  it("a block whose type changes from one read to the next is the block its one read said", () => {
    let reads = 0;
    const block = {
      get type() {
        reads += 1;
        return reads === 1 ? "text" : "invoice";
      },
      text: "hi",
    };
    const result = callToolResult([block as never]);
    expect(reads).toBe(1);
    expect(sent(result)).toEqual({ resultType: "complete", content: [{ type: "text", text: "hi" }] });
    expectValid("CallToolResult", sent(result));
  });

  it("a Proxy whose get trap answers differently on a second read", () => {
    const gets: string[] = [];
    const block = new Proxy(
      { type: "text", text: "hi" },
      {
        get(target, key, receiver) {
          if (typeof key === "string") gets.push(key);
          return key === "text" && gets.filter((k) => k === "text").length > 1 ? 7 : Reflect.get(target, key, receiver);
        },
      },
    );
    const result = callToolResult([block as never]);
    expect(gets.sort()).toEqual(["text", "type"]);
    expectValid("CallToolResult", sent(result));
    expect(sent(result)).toEqual(result);
  });

  it("the same for a form schema, sampling params, an input request and a list of tools", () => {
    let reads = 0;
    const property = {
      get type() {
        reads += 1;
        return reads === 1 ? "string" : { nope: true };
      },
    };
    const request = elicitRequest("Name?", { type: "object", properties: { name: property as never } });
    expect(reads).toBe(1);
    expectValid("ElicitRequest", sent(request));
    const params = new Proxy(
      { messages: [], maxTokens: 10 },
      { get: (t, k) => (k === "maxTokens" && reads++ > 1 ? -1 : Reflect.get(t, k)) },
    );
    expectValid("CreateMessageRequest", sent(createMessageRequest(params as never)));
    expectValid("InputRequiredResult", sent(inputRequiredResult({ inputRequests: { a: request }, requestState: "s" })));
    const described = { describe: () => ({ name: "echo", inputSchema: { type: "object" as const }, toJSON: () => ({}) }) };
    expect(() => listToolsResult([described as never])).toThrow(/tools\[0\]\.toJSON is a function/);
  });

  it("a getter that throws is a TypeError naming the member, with the getter's error as cause", () => {
    const failure = new Error("no such row");
    const data = {
      get rows(): number {
        throw failure;
      },
    };
    let caught: unknown;
    try {
      callToolResult([["data", data]]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TypeError);
    expect((caught as Error).message).toBe("entries[0][1].rows could not be read: no such row");
    expect((caught as Error).cause).toBe(failure);
  });
});

describe("what is not plain JSON data is refused with a TypeError naming the member", () => {
  class Invoice {
    total = 3;
  }
  const cases: [string, unknown, RegExp][] = [
    ["a Date", { when: new Date(0) }, /entries\[0\]\[1\]\.when is a Date, not a plain object/],
    ["a Map", { m: new Map([[1, 2]]) }, /entries\[0\]\[1\]\.m is a Map, not a plain object/],
    ["a class instance", { invoice: new Invoice() }, /entries\[0\]\[1\]\.invoice is an Invoice, not a plain object/],
    ["a String object", { s: new String("hi") }, /entries\[0\]\[1\]\.s is a String, not a plain object/],
    ["a function", { f() {} }, /entries\[0\]\[1\]\.f is a function, not JSON data/],
    ["a symbol", { s: Symbol("s") }, /entries\[0\]\[1\]\.s is a symbol, not JSON data/],
    ["NaN", { n: Number.NaN }, /entries\[0\]\[1\]\.n is NaN, which JSON cannot carry/],
  ];
  for (const [name, data, message] of cases) {
    it(name, () => {
      expect(() => callToolResult([["data", data as never]])).toThrow(message);
      expect(() => callToolResult([["data", data as never]])).toThrow(TypeError);
    });
  }

  it("an Error as the data of a JSON-RPC error, a Date in a capability, a Set of completion values", () => {
    expect(() => jsonRpcError(1, -32603, "boom", new Error("x"))).toThrow(/^data is an Error, not a plain object/);
    expect(() => capabilities({ experimental: { since: new Date(0) } } as never)).toThrow(/capabilities\.experimental\.since is a Date/);
    expect(() => completeResult(new Set(["a"]) as never)).toThrow(/values is a Set/);
  });

  it("a cycle, and nesting deeper than 1000 levels (RangeError); a sparse array of 2^32 - 1 items is refused before it is read", () => {
    const cycle: Record<string, unknown> = { a: [] };
    (cycle.a as unknown[]).push(cycle);
    expect(() => callToolResult([["data", cycle]])).toThrow(/entries\[0\]\[1\]\.a\[0\] holds itself \(a cycle\)/);
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect(() => callToolResult([["data", { deep }]])).toThrow(RangeError);
    expect(() => callToolResult([["data", { deep }]])).toThrow(/is nested deeper than 1000 levels/);
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    expect(() => callToolResult(sparse as never)).toThrow(/entries has 4294967295 items, more than 16777216/);
  });
});

describe("the copy writes as JSON does", () => {
  it("a symbol-keyed or non-enumerable member is left out, as JSON leaves it out", () => {
    const data: Record<PropertyKey, unknown> = { a: 1, [Symbol("tag")]: { type: "invoice" } };
    Object.defineProperty(data, "hidden", { value: Number.NaN, enumerable: false });
    const result = callToolResult([["data", data]]);
    expect(Reflect.ownKeys(result.structuredContent as object)).toEqual(["a"]);
    expect(result.content).toEqual([{ type: "text", text: '{"a":1}' }]);
  });

  it("an undefined member is absent, an undefined item or a hole is null", () => {
    const xs: unknown[] = [undefined];
    xs[2] = 1; // a hole at 1
    const result = callToolResult([["data", { a: undefined, xs }]]);
    expect(result.structuredContent).toEqual({ xs: [null, null, 1] });
    expect(Object.keys(result.structuredContent!)).toEqual(["xs"]);
    expect(result.content).toEqual([{ type: "text", text: '{"xs":[null,null,1]}' }]);
  });

  it("an own __proto__ member stays a member, and a value met twice is copied once", () => {
    const parsed = JSON.parse('{"__proto__":{"type":"text"},"n":1}');
    const result = callToolResult([parsed]);
    expect(Object.getPrototypeOf(result.structuredContent)).toBe(Object.prototype);
    expect(Object.keys(result.structuredContent!)).toEqual(["__proto__", "n"]);
    expect(sent(result)).toEqual(JSON.parse(stringifyJson(result)!));
    let reads = 0;
    const shared = {
      get text() {
        reads += 1;
        return "same";
      },
      type: "text",
    };
    const twice = callToolResult([shared as never, shared as never]);
    expect(reads).toBe(1);
    expect(twice.content).toEqual([
      { type: "text", text: "same" },
      { type: "text", text: "same" },
    ]);
  });

  it("a bigint is kept and written with its digits; a resource entry built twice is equal", () => {
    const result = callToolResult([["data", { id: 9007199254740993n }]]);
    expect(result.structuredContent).toEqual({ id: 9007199254740993n });
    expect(result.content).toEqual([{ type: "text", text: '{"id":9007199254740993}' }]);
    expect(resourceContents({ uri: "file:///a", text: "a" })).toEqual(resourceContents({ uri: "file:///a", text: "a" }));
  });
});
