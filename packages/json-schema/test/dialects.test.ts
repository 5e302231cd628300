import { describe, expect, it } from "vitest";
import { refusal } from "./refusal.js";
import { validators } from "./validators.js";
import { type CompileOptions, compileSchema, untrustedSchemas } from "../src/index.js";

// Both paths read the dialect by the same rule, whichever validator compiles.
const paths: Array<[string, () => CompileOptions]> = validators.flatMap(
  ([name, validator]): Array<[string, () => CompileOptions]> => [
    [`trusted, ${name}`, () => ({ validator })],
    [`untrusted, ${name}`, () => ({ untrusted: untrustedSchemas(), validator })],
  ],
);

const spellings = (path: string) => [
  `http://json-schema.org/${path}/schema#`,
  `http://json-schema.org/${path}/schema`,
  `https://json-schema.org/${path}/schema#`,
  `https://json-schema.org/${path}/schema`,
];

describe.each(paths)("the declared $schema (%s)", (_name, options) => {
  const compile = (schema: unknown) => compileSchema(schema, options());

  it("reads a schema without $schema as 2020-12", () => {
    const check = compile({ type: "array", prefixItems: [{ type: "string" }] });
    expect(check([1])).toEqual([{ path: "/0", message: "must be string" }]);
  });

  it("accepts each supported dialect with or without the trailing #, over http or https", () => {
    for (const [dialect, path] of [
      ["2020-12", "draft/2020-12"],
      ["2019-09", "draft/2019-09"],
      ["draft-07", "draft-07"],
      ["draft-06", "draft-06"],
      ["draft-04", "draft-04"],
    ] as const) {
      for (const $schema of spellings(path)) {
        const check = compile({ $schema, type: "object", properties: { n: { type: "integer" } } });
        expect(check({ n: "x" }), `${dialect}: ${$schema}`).toEqual([{ path: "/n", message: "must be integer" }]);
      }
    }
  });

  it("reads draft-07 by its own rules: an array items is a tuple, a $ref's siblings are ignored", () => {
    const tuple = compile({ $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }] });
    expect(tuple(["a", 2])).toEqual([]);
    expect(tuple([1])).toEqual([{ path: "/0", message: "must be string" }]);
    const ref = compile({
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { s: { type: "string" } },
      properties: { a: { $ref: "#/definitions/s", maxLength: 2 } },
    });
    expect(ref({ a: "longer than two" })).toEqual([]);
    expect(ref({ a: 1 })).toEqual([{ path: "/a", message: "must be string" }]);
  });

  it("applies a $ref's siblings in 2020-12 and 2019-09", () => {
    for (const $schema of [undefined, "https://json-schema.org/draft/2019-09/schema"]) {
      const ref = compile({ $schema, $defs: { s: { type: "string" } }, properties: { a: { $ref: "#/$defs/s", maxLength: 2 } } });
      expect(ref({ a: "long" })).toEqual([{ path: "/a", message: "must NOT have more than 2 characters" }]);
    }
  });

  it("reads 2019-09 by its rules: an array items is a tuple, additionalItems bounds the rest", () => {
    const check = compile({
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "array",
      items: [{ type: "string" }],
      additionalItems: false,
    });
    expect(check(["a"])).toEqual([]);
    expect(check(["a", "b"])).toEqual([{ path: "", message: "must NOT have more than 1 items" }]);
  });

  it("reads draft-06 without the keywords draft-07 added (if/then/else)", () => {
    const check = compile({
      $schema: "http://json-schema.org/draft-06/schema#",
      type: "number",
      exclusiveMinimum: 0,
      if: { minimum: 10 },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
      then: { multipleOf: 7 },
    });
    expect(check(11)).toEqual([]);
    expect(check(0)).toEqual([{ path: "", message: "must be > 0" }]);
  });

  it("reads draft-04 by its rules: exclusiveMaximum is a boolean beside maximum", () => {
    const check = compile({ $schema: "http://json-schema.org/draft-04/schema#", type: "number", maximum: 5, exclusiveMaximum: true });
    expect(check(4)).toEqual([]);
    expect(check(5)).toEqual([{ path: "", message: "must be < 5" }]);
  });

  it("refuses an unknown dialect, naming it and the supported ones", () => {
    for (const $schema of ["https://example.com/my-dialect", "http://json-schema.org/draft-03/schema#", "draft-07", 7]) {
      const error = refusal(() => compile({ $schema, type: "object" }));
      expect(error.reason).toBe("unknown-dialect");
      expect(error.data).toEqual({ dialect: $schema });
      expect(error.message).toContain(`dialect ${JSON.stringify($schema)} is not supported`);
      expect(error.message).toContain("(supported: 2020-12, 2019-09, draft-07, draft-06, draft-04)");
    }
  });
});
