import { describe, expect, it } from "vitest";
import { refusal } from "./refusal.js";
import { sorted, validators } from "./validators.js";
import {
  type CompileOptions,
  compileSchema,
  DEFAULT_SCHEMA_LIMITS,
  formatProblems,
  SchemaCompileError,
  untrustedSchemas,
} from "../src/index.js";

const sum = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"], additionalProperties: false };

describe.each(validators)("trusted schemas (%s)", (name, validator) => {
  const compileSchema = (schema: unknown, options: Omit<CompileOptions, "validator"> = {}) =>
    compileWith(schema, { ...options, validator });

  it("drops the root $id ($id or, in draft-04, id), so the same id compiles twice", () => {
    const schema = { $id: "https://example.com/t", type: "array", prefixItems: [{ type: "string" }] };
    const check = compileSchema(schema);
    expect(check(["a"])).toEqual([]);
    expect(check([1])).toEqual([{ path: "/0", message: "must be string" }]);
    // The same root $id again: nothing was registered, so it compiles.
    expect(compileSchema(schema)([])).toEqual([]);
    const draft04 = { $schema: "http://json-schema.org/draft-04/schema#", id: "https://example.com/t4", type: "string" };
    expect(compileSchema(draft04)(1)).toEqual([{ path: "", message: "must be string" }]);
    expect(compileSchema(draft04)("a")).toEqual([]);
  });

  it("names missing and unknown properties, and asserts formats", () => {
    const check = compileSchema({ ...sum, properties: { ...sum.properties, at: { type: "string", format: "date-time" } } });
    // ajv reports additionalProperties first, cfworker properties first: the same problems.
    expect(sorted(check({ sum: 1, extra: true, at: "yesterday" }))).toEqual([
      { path: "", message: 'has unknown property "extra"' },
      { path: "/at", message: 'must match format "date-time"' },
    ]);
    expect(check({})).toEqual([{ path: "", message: 'is missing required property "sum"' }]);
  });

  it("lists no allowed values, and throws the validator's error for a schema it cannot compile (ajv's own; cfworker's a SchemaCompileError)", () => {
    expect(compileSchema({ enum: ["a", "b"] })("c")).toEqual([{ path: "", message: "must be equal to one of the allowed values" }]);
    let thrown: unknown;
    try {
      compileSchema({ type: "object", properties: { n: { $ref: "#/$defs/missing" } } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    if (name === "ajv") expect(thrown).not.toBeInstanceOf(SchemaCompileError);
    else expect(thrown).toMatchObject({ reason: "unresolved-ref", data: { ref: "#/$defs/missing" } });
    expect((thrown as Error).message).toMatch(/can't resolve reference/);
  });
});

const compileWith = compileSchema;

describe.each(validators)("untrusted schemas (untrustedSchemas, %s)", (name, validator) => {
  const untrusted = untrustedSchemas();
  const compile = (schema: unknown) => compileWith(schema, { untrusted, validator });
  const compileSchema = (schema: unknown, options: Omit<CompileOptions, "validator"> = {}) =>
    compileWith(schema, { ...options, validator });

  it("fills in the default limits", () => {
    expect(untrusted.limits).toEqual(DEFAULT_SCHEMA_LIMITS);
    expect(untrustedSchemas({ maxDepth: 3 }).limits).toEqual({ maxBytes: 131072, maxDepth: 3 });
  });

  it("reads a schema without $schema, or with the 2020-12 one, as 2020-12", () => {
    for (const $schema of [undefined, "https://json-schema.org/draft/2020-12/schema"]) {
      const check = compile({ $schema, type: "array", prefixItems: [{ type: "string" }] });
      expect(check([1])).toEqual([{ path: "/0", message: "must be string" }]);
    }
  });

  it("reads a draft-07 schema by draft-07 rules", () => {
    // In draft-07 an array `items` is a tuple; 2020-12 would refuse it as invalid.
    const check = compile({ $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }] });
    expect(check(["a", 2])).toEqual([]);
    expect(check([1])).toEqual([{ path: "/0", message: "must be string" }]);
  });

  it("refuses an unknown dialect, naming it", () => {
    const error = refusal(() => compile({ $schema: "https://example.com/my-dialect", type: "object" }));
    expect(error.reason).toBe("unknown-dialect");
    expect(error.data).toEqual({ dialect: "https://example.com/my-dialect" });
    expect(error.message).toMatch(/dialect "https:\/\/example.com\/my-dialect" is not supported/);
  });

  it("bounds size and depth before compiling, and refuses what is not a JSON object", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 5; i++) deep = { type: "object", properties: { a: deep } };
    const tooDeep = refusal(() => compileSchema(deep, { untrusted: untrustedSchemas({ maxDepth: 4 }) }));
    expect(tooDeep).toMatchObject({ reason: "too-deep", data: { limit: 4 } });
    expect(() => compileSchema(deep, { untrusted: untrustedSchemas({ maxDepth: 20 }) })).not.toThrow();

    const wide = { type: "object", description: "x".repeat(200) };
    const tooLarge = refusal(() => compileSchema(wide, { untrusted: untrustedSchemas({ maxBytes: 100 }) }));
    expect(tooLarge).toMatchObject({ reason: "too-large", data: { bytes: JSON.stringify(wide).length, limit: 100 } });

    for (const schema of ["a string", null, [], 3]) expect(refusal(() => compile(schema)).reason).toBe("not-an-object");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(refusal(() => compileSchema(cyclic, { untrusted: untrustedSchemas({ maxDepth: 1000 }) })).reason).toBe("not-json");
  });

  it("refuses an invalid schema and an unresolved or remote $ref with ajv's reason", () => {
    const invalid = refusal(() => compile({ type: "wrong" }));
    expect(invalid.reason).toBe("invalid");
    // ajv's refusal carries ajv's error; cfworker's comes from this package's own check of the schema.
    if (name === "ajv") expect(invalid.cause).toBeInstanceOf(Error);
    expect(invalid.message).toMatch(/type/);
    const remote = refusal(() => compile({ properties: { p: { $ref: "https://example.com/never-fetched.json" } } }));
    expect(remote).toMatchObject({ reason: "unresolved-ref", data: { ref: "https://example.com/never-fetched.json" } });
  });

  it("keeps one validator per schema text, and copes with two schemas that share an $id", () => {
    const a = { $id: "https://example.com/shared-id", type: "object", required: ["a"] };
    const b = { $id: "https://example.com/shared-id", type: "object", required: ["b"] };
    const first = compile(a);
    expect(compile(structuredClone(a))).toBe(first);
    expect(compile(b)({ a: 1 })).toEqual([{ path: "", message: 'is missing required property "b"' }]);
    expect(first({ a: 1 })).toEqual([]);
  });

  it("lists the values an enum or const allows", () => {
    expect(compile({ enum: ["a", 1] })("c")).toEqual([{ path: "", message: 'must be equal to one of the allowed values: "a", 1' }]);
    expect(compile({ const: "k" })("c")).toEqual([{ path: "", message: 'must be equal to constant "k"' }]);
  });
});

describe("formatProblems", () => {
  const problems = [
    { path: "", message: 'is missing required property "a"' },
    { path: "/b", message: "must be number" },
  ];

  it("renders one problem a line, the root as (root)", () => {
    expect(formatProblems(problems)).toBe('(root): is missing required property "a"\n/b: must be number');
  });

  it("joins with another separator when asked", () => {
    expect(formatProblems(problems, "; ")).toBe('(root): is missing required property "a"; /b: must be number');
    expect(formatProblems([])).toBe("");
  });
});

describe.each(validators)("bigints (integers beyond 2^53, as parseJson reads them; %s)", (_name, validator) => {
  const big = 9007199254740993n;
  const compileSchema = (schema: unknown, options: Omit<CompileOptions, "validator"> = {}) =>
    compileWith(schema, { ...options, validator });

  it("pass type integer and number, fail type string, and meet bounds as the nearest double (trusted and untrusted)", () => {
    for (const compile of [(s: object) => compileSchema(s), (s: object) => compileSchema(s, { untrusted: untrustedSchemas() })]) {
      const check = compile({
        type: "object",
        properties: { i: { type: "integer" }, n: { type: "number", minimum: 0 }, s: { type: "string" }, small: { maximum: 100 } },
      });
      expect(check({ i: big, n: 2n ** 64n, list: [big] })).toEqual([]);
      expect(check({ s: big })).toEqual([{ path: "/s", message: "must be string" }]);
      expect(check({ small: big, n: -big })).toEqual([
        { path: "/n", message: "must be >= 0" },
        { path: "/small", message: "must be <= 100" },
      ]);
    }
  });

  it("in an untrusted schema itself, are read as doubles, and the schema is kept by its exact text", () => {
    const limits = untrustedSchemas();
    const a = compileSchema({ type: "integer", maximum: 18446744073709551615n }, { untrusted: limits });
    expect(a(big)).toEqual([]);
    expect(a(2n ** 65n)).toEqual([{ path: "", message: "must be <= 18446744073709552000" }]);
    expect(compileSchema({ type: "integer", maximum: 18446744073709551614n }, { untrusted: limits })).not.toBe(a);
  });
});
