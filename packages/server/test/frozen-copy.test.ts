// frozenJsonCopy (src/objects.ts): the published tool definitions are deep
// frozen copies, so their kept JSON text cannot drift from them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frozenJsonCopy } from "../src/objects.js";

/** Every object and array reachable from `value` is frozen. */
function deepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== "object") return true;
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen);
}

describe("frozenJsonCopy", () => {
  it("gives a deep-frozen copy with the same JSON text, leaving the original as it was (fast-check)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const before = JSON.stringify(value);
        const copy = frozenJsonCopy(value);
        expect(JSON.stringify(copy)).toBe(before);
        expect(deepFrozen(copy)).toBe(true);
        if (value !== null && typeof value === "object") {
          expect(copy).not.toBe(value);
          expect(Object.isFrozen(value)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps what JSON.stringify reads of the unusual but plain: an own __proto__ key, null prototypes, bigints, holes, undefined", () => {
    const odd = JSON.parse('{"__proto__":{"x":1},"a":[1,2]}');
    const bare = Object.assign(Object.create(null), { k: "v" });
    // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
    const value = { odd, bare, big: 2n ** 70n, holes: [1, , 3], gone: undefined };
    const copy = frozenJsonCopy(value)!;
    const text = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
    expect(text(copy)).toBe(text(value));
    expect(Object.hasOwn(copy.odd, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(copy.bare)).toBe(null);
  });

  it("refuses what could write a different text later: class instances, toJSON, getters, functions, cycles, stack-deep nesting", () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    const cases: unknown[] = [
      { at: new URL("https://example.com") },
      { when: new Date(0) },
      { toJSON: () => "x" },
      Object.defineProperty({}, "live", { get: () => Math.random(), enumerable: true }),
      { f: () => 1 },
      [new Map()],
      cycle,
      deep,
      { hidden: Object.defineProperty({ a: 1 }, "toJSON", { value: () => "HIDDEN" }) },
      { list: Object.assign([1, 2], { toJSON: () => "ARR" }) },
      [Object.defineProperty([1], "0", { get: () => Math.random(), enumerable: true })],
    ];
    for (const value of cases) expect(frozenJsonCopy(value)).toBeUndefined();
    // A shared (not cyclic) object appears twice: copied twice.
    const shared = { s: 1 };
    expect(JSON.stringify(frozenJsonCopy({ a: shared, b: shared }))).toBe('{"a":{"s":1},"b":{"s":1}}');
  });
});
