import { describe, expect, it } from "vitest";
import { ajvValidator } from "../src/ajv.js";
import { CFWORKER_FORMATS, cfworkerValidator, compileSchema, untrustedSchemas } from "../src/index.js";
import { refusal } from "./refusal.js";
import { sorted } from "./validators.js";

/** Schemas and values on which both validators must find the same problems, worded alike (order aside). */
const CASES: Array<[string, object, unknown[]]> = [
  ["type, one or several", { type: ["string", "null"] }, ["a", null, 1, {}]],
  ["integer", { type: "integer" }, [1, 1.5, "1"]],
  ["number bounds", { minimum: 1, maximum: 5, exclusiveMinimum: 0, exclusiveMaximum: 6, multipleOf: 2 }, [0, 2, 3, 7]],
  ["string bounds", { minLength: 2, maxLength: 3, pattern: "^a" }, ["a", "ab", "abcd", "ba"]],
  ["formats", { type: "string", format: "email" }, ["a@example.com", "nope"]],
  [
    "uuid, uri, date",
    { properties: { u: { format: "uuid" }, r: { format: "uri" }, d: { format: "date" } } },
    [{ u: "x", r: "y", d: "2020-13-45" }],
  ],
  [
    "enum and const",
    { properties: { e: { enum: [1, "a", null] }, c: { const: { k: 1 } } } },
    [
      { e: 2, c: { k: 1 } },
      { e: "a", c: { k: 2 } },
    ],
  ],
  [
    "required and unknown properties",
    { type: "object", required: ["a", "b"], properties: { a: {} }, additionalProperties: false },
    [{ c: 1 }],
  ],
  ["additionalProperties as a schema", { properties: { a: {} }, additionalProperties: { type: "number" } }, [{ a: "x", b: "y", c: 1 }]],
  ["patternProperties", { patternProperties: { "^n_": { type: "number" } } }, [{ n_a: 1, n_b: "x", other: "y" }]],
  ["array bounds and unique items", { minItems: 2, maxItems: 3, uniqueItems: true }, [[1], [1, 2], [1, 1], [1, 2, 3, 4]]],
  [
    "items and prefixItems",
    { prefixItems: [{ type: "string" }], items: { type: "number" } },
    [
      ["a", 1, 2],
      [1, "b"],
    ],
  ],
  ["tuple closed by items: false", { prefixItems: [{}], items: false }, [[1], [1, 2]]],
  ["min/maxContains", { contains: { type: "string" }, minContains: 2, maxContains: 3 }, [["a", "b"], ["a"], ["a", "b", "c", "d"]]],
  ["object bounds", { minProperties: 1, maxProperties: 2 }, [{}, { a: 1 }, { a: 1, b: 2, c: 3 }]],
  ["dependentRequired", { dependentRequired: { a: ["b"] } }, [{ a: 1 }, { a: 1, b: 2 }, {}]],
  ["nested paths, escaped", { properties: { "a/b": { properties: { "c~d": { type: "string" } } } } }, [{ "a/b": { "c~d": 1 } }]],
  [
    "$ref with siblings (2020-12)",
    { $defs: { n: { type: "number" } }, properties: { x: { $ref: "#/$defs/n", minimum: 3 } } },
    [{ x: 1 }, { x: "a" }],
  ],
  ["recursive $ref", { properties: { child: { $ref: "#" }, n: { type: "number" } } }, [{ child: { child: { n: "x" } } }]],
  ["boolean subschemas", { properties: { no: false, yes: true } }, [{ no: 1, yes: 2 }, { yes: 1 }]],
  ["not", { not: { type: "string" } }, ["a", 1]],
];

describe("both validators give one verdict, worded alike", () => {
  for (const [name, schema, values] of CASES) {
    it(name, () => {
      const ajv = compileSchema(schema, { validator: ajvValidator });
      const cfworker = compileSchema(schema, { validator: cfworkerValidator });
      for (const value of values) expect(sorted(cfworker(value)), JSON.stringify(value)).toEqual(sorted(ajv(value)));
    });
  }
});

describe("where the two differ (documented in the README)", () => {
  const both = (schema: object, value: unknown) => ({
    ajv: compileSchema(schema, { validator: ajvValidator })(value),
    cfworker: compileSchema(schema, { validator: cfworkerValidator })(value),
  });

  it("anyOf, oneOf and if: the same problems, each reported once; ajv puts the combinator's own after its branches", () => {
    const { ajv, cfworker } = both({ anyOf: [{ type: "string" }, { type: "number" }] }, null);
    expect(sorted(cfworker)).toEqual(sorted(ajv));
    expect(ajv.at(-1)).toEqual({ path: "", message: "must match a schema in anyOf" });
    expect(cfworker[0]).toEqual({ path: "", message: "must match a schema in anyOf" });
    const oneOf = both({ oneOf: [{ type: "number" }, { minimum: 0 }] }, 1);
    expect(oneOf.cfworker).toEqual(oneOf.ajv);
    // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
    const cond = both({ if: { type: "number" }, then: { minimum: 5 } }, 1);
    expect(sorted(cond.cfworker)).toEqual(sorted(cond.ajv));
  });

  it("contains: the same refusal; ajv also lists each item's problems", () => {
    const { ajv, cfworker } = both({ contains: { type: "string" } }, [1, 2]);
    expect(cfworker).toEqual([{ path: "", message: "must contain at least 1 valid item(s)" }]);
    expect(sorted(ajv)).toEqual(
      sorted([...cfworker, { path: "/0", message: "must be string" }, { path: "/1", message: "must be string" }]),
    );
    expect(both({ contains: { type: "string" } }, [1, "a"])).toEqual({ ajv: [], cfworker: [] });
  });

  it("propertyNames: ajv names the keyword that failed, cfworker the property name", () => {
    const { ajv, cfworker } = both({ propertyNames: { maxLength: 2 } }, { abc: 1 });
    expect(ajv.map((p) => p.path)).toEqual(["", ""]);
    expect(cfworker).toEqual([{ path: "", message: 'property name "abc" is invalid' }]);
  });
});

describe("the cfworker validator", () => {
  const compile = (schema: unknown) => compileSchema(schema, { validator: cfworkerValidator });
  const untrusted = (schema: unknown) => compileSchema(schema, { validator: cfworkerValidator, untrusted: untrustedSchemas() });

  it("refuses a schema whose keyword has a value of the wrong kind, naming where", () => {
    for (const [schema, where] of [
      [{ type: "wrong" }, "/type"],
      [{ required: "a" }, "/required"],
      [{ properties: { a: { minLength: -1 } } }, "/properties/a/minLength"],
      [{ items: [{ type: "string" }] }, "/items"],
      [{ pattern: "(" }, "/pattern"],
      [{ anyOf: [] }, "/anyOf"],
    ] as const) {
      const error = refusal(() => untrusted(schema));
      expect(error.reason).toBe("invalid");
      expect(error.message).toContain(where);
      expect(refusal(() => compile(schema)).reason).toBe("invalid");
    }
    // An array items is a tuple before 2020-12.
    expect(compile({ $schema: "http://json-schema.org/draft-07/schema#", items: [{ type: "string" }] })([1])).toHaveLength(1);
  });

  it("refuses the keywords it does not implement rather than skipping their check", () => {
    for (const keyword of ["$dynamicRef", "nullable", "formatMaximum"]) {
      const error = refusal(() => compile({ properties: { a: { [keyword]: keyword === "nullable" ? true : "#x" } } }));
      expect(error.message).toContain(`/properties/a uses ${keyword}`);
    }
  });

  it("refuses a $ref that does not resolve inside the schema, and never fetches a remote one", () => {
    expect(refusal(() => compile({ $ref: "#/$defs/none" }))).toMatchObject({ reason: "unresolved-ref", data: { ref: "#/$defs/none" } });
    expect(refusal(() => untrusted({ $ref: "https://example.com/s.json" }))).toMatchObject({ reason: "unresolved-ref" });
  });

  it("does not change the schema it was given (it compiles a copy)", () => {
    const schema = Object.freeze({
      type: "object",
      properties: Object.freeze({ a: Object.freeze({ $ref: "#/$defs/n" }) }),
      $defs: { n: { type: "number" } },
    });
    expect(compile(schema)({ a: "x" })).toEqual([{ path: "/a", message: "must be number" }]);
    expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(["$ref"]);
  });

  it("says so for a value JSON cannot carry, instead of throwing", () => {
    expect(compile({ properties: { a: { type: "number" } } })({ a: undefined })).toEqual([
      { path: "", message: "holds a value JSON cannot carry (undefined)" },
    ]);
  });
});

describe("CFWORKER_FORMATS", () => {
  it("are the formats the library asserts", async () => {
    const { format } = await import("@cfworker/json-schema");
    expect([...CFWORKER_FORMATS].sort()).toEqual(Object.keys(format).sort());
  });
});
