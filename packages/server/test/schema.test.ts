import { describe, expect, it } from "vitest";
import { compileSchema, compileWithAjv, formatProblems } from "../src/schema.js";

/** A small seeded generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

const TYPES = ["string", "number", "integer", "boolean", "null", "array", "object"] as const;
const NAMES = ["a", "b", "c", "a/b", "x~y", "0", "10", "constructor", "toString", "ä"];

type Rng = ReturnType<typeof random>;

/** A schema inside the built-in checker's subset. */
function liteSchema(rng: Rng, depth: number): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  const typed = rng.next() < 0.8;
  const type = typed ? rng.pick(TYPES) : undefined;
  if (type) schema.type = type;
  if (rng.next() < 0.3) schema.description = "some words";
  if (rng.next() < 0.1) schema["x-mcp-header"] = "X";
  if (rng.next() < 0.1) schema.default = rng.pick([1, "d", null, { a: 1 }]);
  if ((type === "object" || type === undefined) && depth > 0) {
    if (rng.next() < 0.8) {
      const properties: Record<string, unknown> = {};
      for (let i = rng.int(4); i > 0; i--) properties[rng.pick(NAMES)] = liteSchema(rng, depth - 1);
      schema.properties = properties;
    }
    if (rng.next() < 0.6) schema.required = [...new Set(Array.from({ length: rng.int(4) }, () => rng.pick(NAMES)))];
    if (rng.next() < 0.4) schema.additionalProperties = rng.next() >= 0.7;
  }
  if ((type === "array" || type === undefined) && depth > 0 && rng.next() < 0.7) schema.items = liteSchema(rng, depth - 1);
  return schema;
}

function value(rng: Rng, depth: number): unknown {
  switch (rng.int(depth > 0 ? 10 : 7)) {
    case 0:
      return rng.pick(["", "s", "hello"]);
    case 1:
      return rng.pick([0, 1, -3, 2.5, 1e300, Number.NaN, Number.POSITIVE_INFINITY]);
    case 2:
      return rng.pick([true, false]);
    case 3:
      return null;
    case 4:
      return undefined;
    case 5:
      return rng.pick([7, 8.5]);
    case 6:
      return () => 1;
    case 7:
    case 8: {
      const object: Record<string, unknown> = {};
      for (let i = rng.int(5); i > 0; i--) object[rng.pick(NAMES)] = value(rng, depth - 1);
      return object;
    }
    default:
      return Array.from({ length: rng.int(4) }, () => value(rng, depth - 1));
  }
}

/** A value shaped like `schema` most of the time, with mistakes and extra keys mixed in. */
function valueFor(rng: Rng, schema: Record<string, unknown>, depth: number): unknown {
  if (rng.next() < 0.25 || depth < 0) return value(rng, 2);
  if (schema.type === "object" || (schema.type === undefined && schema.properties)) {
    const object: Record<string, unknown> = {};
    for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      if (rng.next() < 0.75) object[name] = valueFor(rng, child, depth - 1);
    }
    if (rng.next() < 0.3) object[rng.pick(NAMES)] = value(rng, 1);
    return object;
  }
  if (schema.type === "array" || (schema.type === undefined && schema.items)) {
    return Array.from({ length: rng.int(4) }, () => valueFor(rng, (schema.items ?? {}) as Record<string, unknown>, depth - 1));
  }
  return value(rng, 0);
}

describe("compileSchema", () => {
  it("reports the same problems as ajv, in the same order, for schemas of the built-in subset", () => {
    const rng = random(20261129);
    let compared = 0;
    let withProblems = 0;
    for (let s = 0; s < 400; s++) {
      const schema = liteSchema(rng, 3);
      const lite = compileSchema(schema);
      const full = compileWithAjv(schema);
      for (let v = 0; v < 25; v++) {
        const data = rng.next() < 0.7 ? valueFor(rng, schema, 3) : value(rng, 3);
        const problems = lite(data);
        expect(problems, `schema ${JSON.stringify(schema)} value ${String(JSON.stringify(data))}`).toEqual(full(data));
        compared++;
        if (problems.length > 1) withProblems++;
      }
    }
    expect(compared).toBe(10_000);
    // The comparison covers answers with several problems (their order matters), not only valid values.
    expect(withProblems).toBeGreaterThan(500);
  });

  it("gives ajv's answers for the usual tool schema", () => {
    const check = compileSchema({
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
      required: ["city"],
      additionalProperties: false,
    });
    expect(check({ city: "Paris", days: 3, tags: ["a"] })).toEqual([]);
    expect(formatProblems(check({ days: 1.5, tags: ["a", 2], extra: true }))).toBe(
      ['(root): is missing required property "city"', '(root): has unknown property "extra"', "/days: must be integer", "/tags/1: must be string"].join("\n"),
    );
  });

  it("hands every other schema to ajv: formats, enums, $ref", () => {
    const check = compileSchema({
      type: "object",
      properties: { when: { type: "string", format: "date" }, unit: { enum: ["c", "f"] }, point: { $ref: "#/$defs/point" } },
      $defs: { point: { type: "object", required: ["x"] } },
    });
    expect(check({ when: "2026-11-29", unit: "c", point: { x: 1 } })).toEqual([]);
    expect(check({ when: "soon", unit: "k", point: {} }).map((p) => p.path)).toEqual(["/when", "/unit", "/point"]);
  });

  it("still refuses a schema ajv refuses, with ajv's reason", () => {
    expect(() => compileSchema({ type: "object", required: ["a", "a"] })).toThrow(/duplicate items/);
    expect(() => compileSchema({ type: "object", properties: { a: { type: "strnig" } } })).toThrow(/schema is invalid/);
    expect(() => compileSchema({ type: "object", description: 5 })).toThrow(/description must be string/);
    expect(() => compileSchema({ $ref: "https://example.com/remote.json" })).toThrow();
  });
});
