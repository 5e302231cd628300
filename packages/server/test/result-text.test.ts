// resultText writes the usual tool result by its shape; wherever it writes
// anything, that must be the very text JSON.stringify gives.
import { callToolResult } from "@x/builders";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resultText } from "../src/result-text.js";

/** Mostly `usual`, now and then `other` (one in nine, picked from a list: fast-check's bias toward small values would pick by a number's size). */
const mostly = <T, U>(usual: fc.Arbitrary<T>, other: fc.Arbitrary<U>) =>
  fc.tuple(fc.constantFrom(...Array.from({ length: 8 }, () => true), false), usual, other).map(([pickUsual, u, o]) => (pickUsual ? u : o));

/** A content block: mostly plain text blocks, sometimes in another key order, with more keys, or of another type. */
const block = mostly(
  fc.string().map((text) => ({ type: "text", text })),
  fc.oneof(
    fc.string().map((text) => ({ text, type: "text" })),
    fc.string().map((text) => ({ type: "text", text, annotations: { priority: 1 } })),
    fc.constantFrom({ type: "image", data: "AA==", mimeType: "image/png" }, { type: "text", text: 5 }, null, "x"),
  ),
);

/** A tool result: the usual members in any order and mix, now and then another member or a value of another kind. */
const result = fc
  .tuple(
    fc.option(fc.array(block, { maxLength: 4 }), { nil: undefined }),
    fc.option(mostly(fc.boolean(), fc.constant("yes")), { nil: undefined }),
    fc.option(mostly(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }), fc.constantFrom(null, [1, 2])), { nil: undefined }),
    fc.option(mostly(fc.constantFrom("complete", "input_required"), fc.integer()), { nil: undefined }),
    mostly(fc.constant(undefined), fc.jsonValue()),
    fc.array(fc.constantFrom("content", "isError", "structuredContent", "resultType", "other"), { minLength: 5, maxLength: 5 }),
  )
  .map(([content, isError, structuredContent, resultType, other, order]) => {
    const members: Record<string, unknown> = { content, isError, structuredContent, resultType, other };
    const out: Record<string, unknown> = {};
    for (const key of new Set([...order, ...Object.keys(members)])) if (members[key] !== undefined) out[key] = members[key];
    return out;
  });

describe("resultText", () => {
  it("is JSON.stringify's text wherever it writes one, and writes the usual shapes (fast-check)", () => {
    let written = 0;
    fc.assert(
      fc.property(result, (r) => {
        const text = resultText(r);
        if (text !== undefined) {
          expect(text).toBe(JSON.stringify(r));
          written++;
        }
      }),
      { numRuns: 3000 },
    );
    expect(written).toBeGreaterThan(300);
  });

  it("writes the results the builders make and handlers return, with escapes and unicode", () => {
    for (const r of [
      {},
      { content: [] },
      { content: [{ type: "text", text: 'a "quoted" \\ line\nand \u2028 \u00e9 \ud83d\ude00' }] },
      { content: [{ type: "text", text: "3 rows" }], structuredContent: { rows: 3, list: [1, { a: null }] }, isError: false },
      callToolResult([{ type: "text", text: "built" }]),
      callToolResult([{ type: "text", text: "3 rows" }, { data: { rows: 3 } }]),
      { isError: true, content: [{ type: "text", text: "boom" }] },
      { __proto__: null, content: [{ type: "text", text: "no prototype" }] },
    ]) {
      expect(resultText(r)).toBe(JSON.stringify(r));
    }
  });

  it("leaves to JSON.stringify every other shape: toJSON, inherited or extra members, other blocks, holes", () => {
    class Block {
      type = "text";
      text = "t";
      toJSON() {
        return { type: "text", text: "other" };
      }
    }
    const inherited = Object.create({ isError: true });
    inherited.content = [];
    const holes: unknown[] = [];
    holes[1] = { type: "text", text: "after a hole" };
    const withJson = Object.assign([{ type: "text", text: "a" }], { toJSON: () => [] });
    for (const r of [
      { content: [new Block()] },
      { content: withJson },
      { content: holes },
      inherited,
      { content: [{ type: "image", data: "AA==", mimeType: "image/png" }] },
      { content: [{ type: "text", text: "t", _meta: { a: 1 } }] },
      { content: [], structuredContent: { toJSON: () => ({ replaced: true }) } },
      { content: [], structuredContent: "text" },
      { content: [], isError: 1 },
      { content: [], resultType: undefined },
      { content: [], _meta: {} },
      { 0: "x", content: [] },
    ]) {
      expect(resultText(r)).toBeUndefined();
    }
  });

  it("reads each member and each block's members at most once, and nothing JSON.stringify does not read", () => {
    const reads: string[] = [];
    const watched = <T extends object>(name: string, target: T) =>
      new Proxy(target, {
        get(t, key, receiver) {
          if (typeof key === "string") reads.push(`${name}.${key}`);
          return Reflect.get(t, key, receiver);
        },
      });
    const r = watched("result", { content: [watched("block", { type: "text", text: "once" })], isError: false });
    const text = resultText(r);
    const ours = reads.splice(0);
    expect(text).toBe(JSON.stringify(r));
    const theirs = new Set(reads);
    expect(new Set(ours).size).toBe(ours.length);
    expect(ours.filter((read) => !theirs.has(read))).toEqual([]);
    expect(ours).toEqual(expect.arrayContaining(["result.content", "result.isError", "block.type", "block.text"]));
  });

  it("leaves to JSON.stringify a block that is an array, a boxed value, a class instance or a proxy of an array", () => {
    class TextBlock {
      type = "text";
      text = "instance";
    }
    for (const block of [
      Object.assign([], { type: "text", text: "array" }),
      Object.assign(new Number(7), { type: "text", text: "boxed" }),
      new TextBlock(),
      new Proxy(Object.assign([], { type: "text", text: "proxied" }), {}),
    ]) {
      const r = { content: [block] };
      expect(resultText(r)).toBeUndefined();
    }
    // A block of another type with exactly these keys is still written as JSON.stringify writes it.
    const odd = { content: [{ type: "note", text: "n" }] };
    expect(resultText(odd)).toBe(JSON.stringify(odd));
  });

  it("reads the length of content once, and runs a getter once even when a later block is not a text block", () => {
    const grows: Record<string, unknown>[] = [];
    grows.push({
      type: "text",
      get text() {
        grows.push({ type: "text", text: "pushed" });
        return "a";
      },
    });
    const r1 = { content: grows };
    const t1 = resultText(r1);
    grows.length = 1;
    expect(t1).toBe(JSON.stringify(r1).replace(',{"type":"text","text":"pushed"}', ""));
    expect(JSON.parse(t1!).content).toHaveLength(1);

    let runs = 0;
    const counted = {
      content: [
        {
          type: "text",
          get text() {
            runs++;
            return "once";
          },
        },
        { type: "image", data: "AA==", mimeType: "image/png" },
      ],
    };
    // The stamp path: resultText, then JSON.stringify when it writes nothing.
    const text = resultText(counted) ?? JSON.stringify(counted);
    expect(runs).toBe(1);
    expect(JSON.parse(text).content[0].text).toBe("once");

    let toJsonReads = 0;
    const structured = {
      content: [],
      structuredContent: {
        n: 1,
        get toJSON() {
          toJsonReads++;
          return undefined;
        },
      },
    };
    const written = resultText(structured) ?? JSON.stringify(structured);
    const ours = toJsonReads;
    toJsonReads = 0;
    JSON.stringify(structured);
    // As many reads as JSON.stringify alone makes (it reads an own enumerable toJSON twice: as the hook and as a member).
    expect(ours).toBe(toJsonReads);
    expect(JSON.parse(written).structuredContent).toEqual({ n: 1 });
  });

  it("throws what JSON.stringify of structuredContent throws (bigint, cycle)", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => resultText({ content: [], structuredContent: { n: 1n } })).toThrow(TypeError);
    expect(() => resultText({ content: [], structuredContent: cyclic })).toThrow(TypeError);
  });
});

describe("a text block's text", () => {
  it("is quoted as JSON.stringify quotes it, whatever code units it holds (fast-check)", () => {
    // Any UTF-16 code unit: quotes, backslashes, control characters, pairs and lone surrogates.
    const anyText = fc.string({ unit: "binary" });
    fc.assert(
      fc.property(fc.oneof(anyText, fc.string()), (text) => {
        const r = { content: [{ type: "text", text }] };
        expect(resultText(r)).toBe(JSON.stringify(r));
      }),
      { numRuns: 3000 },
    );
  });

  it("is not copied by JSON.stringify when it holds nothing to escape (a 1 MB text)", () => {
    const text = "x".repeat(1 << 20);
    const seen: unknown[] = [];
    const stringify = JSON.stringify;
    JSON.stringify = ((value: unknown, ...rest: []) => {
      seen.push(value);
      return stringify(value, ...rest);
    }) as typeof JSON.stringify;
    let written: string | undefined;
    try {
      written = resultText({ content: [{ type: "text", text }] });
    } finally {
      JSON.stringify = stringify;
    }
    expect(seen.filter((value) => value === text)).toHaveLength(0);
    expect(written).toBe(stringify({ content: [{ type: "text", text }] }));
  });
});
