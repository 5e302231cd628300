import { fullFormats } from "ajv-formats/dist/formats.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ajvValidator } from "../src/ajv.js";
import { compileSchemaDetailed, DOCUMENT_FORMATS, documentCheck, SchemaCompileError } from "../src/index.js";

// Written with every keyword documentCheck applies, as the generated protocol documents are.
const DOCUMENT = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $ref: "#/$defs/Message",
  $defs: {
    Level: { type: "string", enum: ["debug", "info"], description: "an annotation" },
    Value: { anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "array", items: { $ref: "#/$defs/Value" } }] },
    Icon: {
      type: "object",
      properties: { src: { type: "string", format: "uri" }, sizes: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 } },
      required: ["src"],
    },
    Message: {
      type: "object",
      title: "Message",
      properties: {
        kind: { const: "note", type: "string" },
        level: { $ref: "#/$defs/Level" },
        count: { type: "integer", minimum: 0, maximum: 10 },
        ratio: { type: ["number", "null"] },
        data: { type: "string", format: "byte" },
        template: { type: "string", format: "uri-template" },
        icons: { type: "array", items: { $ref: "#/$defs/Icon" } },
        values: { type: "object", additionalProperties: { $ref: "#/$defs/Value" } },
        strict: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
        both: { allOf: [{ type: "object", required: ["x"] }, { required: ["y"] }] },
      },
      required: ["kind", "level"],
    },
  },
};

const byAjv = compileSchemaDetailed(DOCUMENT, ajvValidator);
const ours = documentCheck(DOCUMENT);

describe("documentCheck", () => {
  it("accepts a valid message in one pass", () => {
    const valid = {
      kind: "note",
      level: "info",
      count: 3,
      ratio: null,
      data: "aGk=",
      template: "file:///{path}",
      icons: [{ src: "https://a.example/i.png", sizes: ["48x48"] }],
      values: { a: [1, "two", [true]] },
      strict: { a: "b" },
      both: { x: 1, y: 2 },
    };
    expect(ours(valid)).toEqual([]);
    expect(byAjv(valid)).toEqual([]);
  });

  it("reports what ajv reports, in its order, with its keywords, figures and (compileSchema's) wording", () => {
    const invalid = {
      kind: 5,
      count: 11,
      ratio: "x",
      data: "not base64!",
      template: "{",
      icons: [{ sizes: [] }, { src: "no scheme", sizes: ["a", "b", "c", "d"] }],
      values: { a: { nested: 1 } },
      strict: { a: "b", extra: 1 },
      both: {},
    };
    const problems = ours(invalid);
    expect(problems).toEqual(byAjv(invalid));
    expect(problems).toContainEqual({
      path: "",
      message: 'is missing required property "level"',
      keyword: "required",
      params: { missingProperty: "level" },
    });
    expect(problems).toContainEqual({
      path: "/strict",
      message: 'has unknown property "extra"',
      keyword: "additionalProperties",
      params: { additionalProperty: "extra" },
    });
    expect(problems).toContainEqual({ path: "/values/a", message: "must match a schema in anyOf", keyword: "anyOf", params: {} });
  });

  it("gives ajv's verdict and problems on any value", () => {
    const member = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom("note", "info", "debug", "https://a.example", "aGk=", "{x}", 0, 10, 11, -1, 2.5, null),
    );
    const message = fc.record(
      Object.fromEntries(
        ["kind", "level", "count", "ratio", "data", "template", "icons", "values", "strict", "both"].map((key) => [key, member]),
      ),
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(message, fc.jsonValue({ maxDepth: 4 })), (value) => {
        expect(ours(value)).toEqual(byAjv(value));
      }),
      { numRuns: 500 },
    );
  });

  it("reads Infinity and NaN as ajv does (an integer Infinity passes, NaN does not): JSON cannot carry them, which callers check apart", () => {
    for (const n of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) {
      for (const value of [
        { kind: "note", level: "info", count: n, ratio: n },
        { kind: "note", level: "info", values: { a: [n] } },
      ])
        expect(ours(value)).toEqual(byAjv(value));
    }
  });

  it("checks an integer beyond 2^53 as its nearest double, as compileSchema does", () => {
    expect(ours({ kind: "note", level: "info", count: 9007199254740993n })).toEqual([
      { path: "/count", message: "must be <= 10", keyword: "maximum", params: { comparison: "<=", limit: 10 } },
    ]);
    expect(ours({ kind: "note", level: "info", ratio: 2n ** 64n })).toEqual([]);
  });

  it("applies a draft-07 document's $ref alone, its siblings ignored", () => {
    const draft07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { S: { type: "string" } },
      type: "object",
      properties: { s: { $ref: "#/definitions/S", maxItems: 0, type: "number" } },
    };
    const check = documentCheck(draft07);
    expect(check({ s: "a" })).toEqual([]);
    expect(check({ s: 1 })).toEqual(compileSchemaDetailed(draft07, ajvValidator)({ s: 1 }));
  });

  it("refuses, when compiled, a document with a keyword, format or reference it does not apply", () => {
    const refused = (document: object) => {
      try {
        documentCheck(document);
      } catch (error) {
        expect(error).toBeInstanceOf(SchemaCompileError);
        return (error as Error).message;
      }
      return "compiled";
    };
    expect(refused({ type: "string", pattern: "^a" })).toBe("protocol document: /pattern is a keyword this check does not apply");
    expect(refused({ properties: { a: { oneOf: [{}] } } })).toBe(
      "protocol document: /properties/a/oneOf is a keyword this check does not apply",
    );
    expect(refused({ type: "string", format: "email" })).toBe('protocol document: /format "email" is not a format this check knows');
    expect(refused({ $ref: "https://example.com/s" })).toBe('protocol document: $ref "https://example.com/s" is not inside the document');
    expect(refused({ $ref: "#/$defs/Missing" })).toBe('protocol document: $ref "#/$defs/Missing" does not resolve');
    expect(refused({ type: "string", "x-note": 1, title: "t" })).toBe("compiled");
  });
});

describe("DOCUMENT_FORMATS", () => {
  const samples = [
    "",
    "a",
    "https://example.com",
    "https://example.com/a b",
    "HTTPS://EXAMPLE.COM/PATH?Q=1#F",
    "urn:isbn:0451450523",
    "//example.com/relative",
    "/absolute/path",
    "http://[::1]:8080/",
    "http://a/%zz",
    "x://{a}",
    "file:///{+path}",
    "{a,b:3}",
    "{a:0}",
    "a b",
    "AAAA",
    "AA==",
    "A===",
    "aGk=\naGk=",
    "not base64!",
  ];

  it("are ajv-formats' checks (full mode), so protocol checks agree with the generated validators", () => {
    const reference = (name: string): ((value: string) => boolean) => {
      const format = fullFormats[name as keyof typeof fullFormats];
      if (typeof format === "function") return format as (value: string) => boolean;
      if (format instanceof RegExp) return (value) => format.test(value);
      return (format as { validate: (value: string) => boolean }).validate;
    };
    for (const [name, check] of Object.entries(DOCUMENT_FORMATS)) {
      for (const sample of samples) expect(check(sample), `${name} ${JSON.stringify(sample)}`).toBe(reference(name)(sample));
      fc.assert(
        fc.property(fc.string({ unit: "binary-ascii" }), (value) => check(value) === reference(name)(value)),
        { numRuns: 300 },
      );
    }
  });
});
