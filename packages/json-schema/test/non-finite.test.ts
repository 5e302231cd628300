import { describe, expect, it } from "vitest";
import { findNonFinite, nonFiniteProblem } from "../src/index.js";

describe("findNonFinite", () => {
  it("finds nothing in JSON values", () => {
    for (const value of [undefined, null, 0, -1.5, 1e308, "Infinity", true, [], {}, { a: [1, { b: 2 }], c: "x" }]) {
      expect(findNonFinite(value)).toBeUndefined();
    }
  });

  it("names the first Infinity, -Infinity or NaN by its JSON Pointer", () => {
    expect(findNonFinite(Number.POSITIVE_INFINITY)).toBe("");
    expect(findNonFinite({ sum: 1e308 + 1e308 })).toBe("/sum");
    expect(findNonFinite(JSON.parse('{"a": {"b": [1, -1e400]}}'))).toBe("/a/b/1");
    expect(findNonFinite([{ ok: 1 }, { n: Number.NaN }])).toBe("/1/n");
    // Pointer escaping, as in the paths of schema problems.
    expect(findNonFinite({ "a/b": { "c~d": Number.NaN } })).toBe("/a~1b/c~0d");
  });

  it("ends on a cycle (a value no JSON text can hold), also one that branches", () => {
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    cyclic.again = [cyclic, cyclic];
    expect(findNonFinite(cyclic)).toBeUndefined();
    cyclic.last = Number.NaN;
    expect(findNonFinite(cyclic)).toBe("/last");
  });

  it("finds one in a value too large or too deep for the quick walk", () => {
    const wide = Array.from({ length: 300_000 }, (_, i) => ({ i }));
    wide.push({ i: Number.POSITIVE_INFINITY });
    expect(findNonFinite(wide)).toBe("/300000/i");
    let deep: unknown = [Number.NaN];
    for (let i = 0; i < 100; i++) deep = { d: deep };
    expect(findNonFinite(deep)).toBe(`${"/d".repeat(100)}/0`);
  });

  it("finds one at the end of a 1 MB result of 20 000 objects, within the quick walk", () => {
    const items: Record<string, unknown>[] = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item-${i}`, value: i * 0.5 }));
    expect(findNonFinite({ items })).toBeUndefined();
    items[19_999]!.value = Number.NaN;
    expect(findNonFinite({ items })).toBe("/items/19999/value");
  });

  it("words the problem once for every check", () => {
    expect(nonFiniteProblem({ x: [Number.NEGATIVE_INFINITY] })).toEqual({
      path: "/x/0",
      message: "is not a finite number (JSON has no Infinity, -Infinity or NaN)",
    });
    expect(nonFiniteProblem({ x: 1 })).toBeUndefined();
  });
});
