import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { AJV_COMPILES_PER_INSTANCE, ajvOptions, ajvValidator, loadAjv, loadAjvDraft07, newAjv, trustedAjv } from "../src/ajv.js";
import { compileSchema, DIALECT_KEYWORDS, SchemaCompileError, SUPPORTED_DIALECTS, untrustedSchemas } from "../src/index.js";

describe("trustedAjv", () => {
  it("is one instance per dialect, the one compileSchema uses, with formats asserted and ajv's error objects", () => {
    expect(trustedAjv("2020-12")).toBe(trustedAjv("2020-12"));
    expect(trustedAjv("draft-07")).not.toBe(trustedAjv("2020-12"));
    const check = trustedAjv("2020-12").compile({ type: "object", properties: { url: { type: "string", format: "uri" } } });
    expect(check({ url: "https://a.example" })).toBe(true);
    expect(check({ url: "not a uri" })).toBe(false);
    expect(check.errors?.[0]).toMatchObject({ instancePath: "/url", keyword: "format", params: { format: "uri" } });
    // compileSchema compiles on the same instance: a format added to it is asserted there too.
    trustedAjv("2020-12").addFormat("x-even-length", /^(?:..)*$/);
    const even = compileSchema({ type: "string", format: "x-even-length" }, { validator: ajvValidator });
    expect(even("ab")).toEqual([]);
    expect(even("abc")).toHaveLength(1);
  });
});

describe("the meta-schema check of newAjv's instances", () => {
  const META_2020 = "https://json-schema.org/draft/2020-12/schema";
  // ajv's SchemaEnv of a schema gets its `validate` when ajv compiles it (ajv internals, read-only here).
  const compiledMeta = (ajv: ReturnType<typeof newAjv>) =>
    (ajv as unknown as { schemas: Record<string, { validate?: unknown }> }).schemas[META_2020]?.validate !== undefined;

  it("runs on one instance per dialect: fresh instances compile schemas without compiling the meta-schema", () => {
    const first = newAjv("2020-12");
    const second = newAjv("2020-12");
    expect(first.compile({ type: "string" })("x")).toBe(true);
    expect(second.compile({ type: "integer" })(1)).toBe(true);
    expect(compiledMeta(first)).toBe(false);
    expect(compiledMeta(second)).toBe(false);
  });

  it("refuses an invalid schema with ajv's own message and errors, as the instance itself would", () => {
    const bad = { type: "object", properties: { n: { type: "integer", minimum: "zero" } } };
    const ajv = newAjv("2020-12");
    expect(() => ajv.compile(bad)).toThrow(/^schema is invalid: data\/properties\/n\/minimum must be number$/);
    expect(ajv.validateSchema(bad)).toBe(false);
    expect(ajv.errors?.[0]).toMatchObject({ instancePath: "/properties/n/minimum", keyword: "type" });
    expect(ajv.validateSchema({ type: "string" })).toBe(true);
    expect(ajv.errors).toBeNull();
    for (const dialect of SUPPORTED_DIALECTS)
      expect(() => newAjv(dialect).compile({ minLength: -1 }), dialect).toThrow(/schema is invalid/);
  });

  it("is ajv's own answer, errors included, from the check compiled at build time (2020-12, draft-07)", () => {
    const { Ajv2020, addFormats } = loadAjv();
    const Ajv07 = loadAjvDraft07();
    const corpus: object[] = [
      { type: "object", properties: { n: { type: "integer", minimum: "zero" } } },
      { type: "strnig" },
      { minLength: -1 },
      { $id: "has space" },
      { pattern: "(" },
      { $ref: "#/$defs/x", $defs: { x: { type: 5 } }, definitions: { y: { enum: 1 } } },
      { required: ["a", "a"] },
      { enum: [] },
      { format: 3 },
      { $anchor: "1bad" },
      { items: [{ type: "x" }], additionalItems: 3 },
      { dependentRequired: { a: [1] } },
      { unevaluatedProperties: "no" },
      { if: 1, else: [] },
      { "x-mcp-header": 3, type: "string" },
      { properties: { a: { properties: { b: { anyOf: [{ maximum: "1" }] } } } } },
      { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    ];
    const runtime = {
      "2020-12": new Ajv2020(ajvOptions("2020-12")),
      "draft-07": new Ajv07({ ...ajvOptions("draft-07"), logger: false }),
    } as const;
    for (const [dialect, reference] of Object.entries(runtime)) {
      addFormats(reference);
      const ajv = newAjv(dialect as "2020-12" | "draft-07");
      for (const schema of corpus) {
        const expected = reference.validateSchema(schema);
        expect(ajv.validateSchema(schema), `${dialect} ${JSON.stringify(schema)}`).toBe(expected);
        expect(ajv.errors, `${dialect} ${JSON.stringify(schema)}`).toEqual(reference.errors);
      }
    }
    // The instances above loaded the build's checks rather than compiling the meta-schema (fresh process: no earlier instance).
    const program = `
      import { createRequire } from "node:module";
      const { newAjv } = await import(${JSON.stringify(new URL("../dist/ajv.js", import.meta.url).href)});
      newAjv("2020-12").compile({ type: "string" }); newAjv("draft-07").compile({ type: "string" });
      console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes("/dist/meta/"))));`;
    const loaded = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8" })) as string[];
    expect(loaded.map((file) => file.slice(file.lastIndexOf("/") + 1)).sort()).toEqual(["2020-12.cjs", "draft-07.cjs"]);
  });

  it("leaves a schema that names its meta-schema to the instance, which may know one added to it alone", () => {
    const ajv = newAjv("2020-12");
    ajv.addMetaSchema({ $id: "https://example.com/meta", type: "object", properties: { minLength: { type: "integer" } } });
    expect(ajv.compile({ $schema: "https://example.com/meta", minLength: 2 })("abc")).toBe(true);
    expect(() => ajv.compile({ $schema: "https://example.com/meta", minLength: "two" })).toThrow(/schema is invalid/);
  });
});

describe("DIALECT_KEYWORDS", () => {
  it("are the keywords ajv's instance of each dialect knows, and $anchor from 2019-09 on", () => {
    for (const dialect of SUPPORTED_DIALECTS) {
      const ajv = Object.keys(newAjv(dialect).RULES.keywords);
      if (dialect === "2020-12" || dialect === "2019-09") ajv.push("$anchor");
      expect([...DIALECT_KEYWORDS[dialect]].sort(), dialect).toEqual(ajv.sort());
    }
  });
});

describe("memory of compiled schemas", () => {
  // ajv keeps everything it ever compiled on an instance, so the instances are
  // renewed every AJV_COMPILES_PER_INSTANCE compiles and a replaced one must be
  // collectable. Checked by that count and a WeakRef, in a child with --expose-gc;
  // the heap kept per compile is measured in bench/micro/schema-memory.mjs.
  it("a renewed shared instance is let go: after AJV_COMPILES_PER_INSTANCE more compiles the first instance is collected", () => {
    const program = `
      const { compileSchema } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
      const { ajvValidator, trustedAjv, AJV_COMPILES_PER_INSTANCE } = await import(${JSON.stringify(new URL("../dist/ajv.js", import.meta.url).href)});
      const compile = (i) => compileSchema({ type: "object", properties: { ["p" + i]: { type: "string" } } }, { validator: ajvValidator });
      compile(0);
      const first = new WeakRef(trustedAjv("2020-12"));
      for (let i = 1; i <= AJV_COMPILES_PER_INSTANCE; i++) compile(i);
      const renewed = trustedAjv("2020-12") !== first.deref();
      await new Promise((resolve) => setImmediate(resolve));
      globalThis.gc(); globalThis.gc();
      console.log(JSON.stringify({ renewed, collected: first.deref() === undefined }));`;
    const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", program], { encoding: "utf8" });
    expect(JSON.parse(out.trim())).toEqual({ renewed: true, collected: true });
  });

  it("a format added to the shared instance is still asserted after it was renewed", () => {
    trustedAjv("draft-07").addFormat("x-upper", /^[A-Z]+$/);
    const before = trustedAjv("draft-07");
    const draft07 = "http://json-schema.org/draft-07/schema#";
    for (let i = 0; i <= AJV_COMPILES_PER_INSTANCE; i++)
      compileSchema({ $schema: draft07, type: "string", maxLength: i }, { validator: ajvValidator });
    expect(trustedAjv("draft-07")).not.toBe(before);
    const upper = compileSchema({ $schema: draft07, type: "string", format: "x-upper" }, { validator: ajvValidator });
    expect(upper("ABC")).toEqual([]);
    expect(upper("abc")).toHaveLength(1);
  });

  it("a built-in format the caller replaced stays replaced after a renewal", () => {
    trustedAjv("2019-09").addFormat("email", /^[a-z]+@corp$/);
    const dialect = "https://json-schema.org/draft/2019-09/schema";
    const before = trustedAjv("2019-09");
    for (let i = 0; i <= AJV_COMPILES_PER_INSTANCE; i++)
      compileSchema({ $schema: dialect, type: "string", maxLength: i }, { validator: ajvValidator });
    expect(trustedAjv("2019-09")).not.toBe(before);
    const email = compileSchema({ $schema: dialect, type: "string", format: "email" }, { validator: ajvValidator });
    expect(email("a@corp")).toEqual([]);
    expect(email("a@example.com")).toHaveLength(1);
  });

  it("a compiled check still works after its schema left the cache", () => {
    const check = compileSchema(
      { type: "object", properties: { n: { $ref: "#/$defs/even" } }, $defs: { even: { type: "integer", multipleOf: 2 } } },
      { validator: ajvValidator },
    );
    expect(check({ n: 4 })).toEqual([]);
    expect(check({ n: 3 })).toHaveLength(1);
  });
});

describe("what ajvValidator checks of a schema before compiling it", () => {
  const dist = (file: string) => JSON.stringify(new URL(`../dist/${file}`, import.meta.url).href);
  /** The meta-schema checks a fresh process has loaded after running `code` (with compileSchema, untrustedSchemas and ajvValidator in scope). */
  const metaLoadedAfter = (code: string) => {
    const program = `
      import { createRequire } from "node:module";
      const { compileSchema, untrustedSchemas } = await import(${dist("index.js")});
      const { ajvValidator } = await import(${dist("ajv.js")});
      ${code}
      console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes("/dist/meta/"))));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8" });
    return (JSON.parse(out) as string[]).map((file) => file.slice(file.lastIndexOf("/") + 1));
  };

  it("a program's own schema: its keyword values, never the meta-schema (its checks are neither loaded nor needed)", () => {
    expect(metaLoadedAfter(`compileSchema({ type: "object", required: ["a"] }, { validator: ajvValidator });`)).toEqual([]);
    const refused = (schema: object) => {
      try {
        compileSchema(schema, { validator: ajvValidator });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    for (const [schema, message] of [
      [{ type: "object", required: "a" }, "schema is invalid: /required must be an array of distinct strings"],
      [{ type: "string", minLength: -1 }, "schema is invalid: /minLength must be a non-negative integer"],
      [{ properties: { n: { type: "integer", minimum: "zero" } } }, "schema is invalid: /properties/n/minimum must be a number"],
      [{ anyOf: [] }, "schema is invalid: /anyOf must be a non-empty array of schemas"],
    ] as const) {
      const error = refused(schema);
      expect(error, JSON.stringify(schema)).toBeInstanceOf(SchemaCompileError);
      expect((error as Error).message).toBe(message);
    }
  });

  it("a schema from elsewhere: the meta-schema too, with the check compiled at build time", () => {
    const untrusted = `compileSchema({ type: "object" }, { validator: ajvValidator, untrusted: untrustedSchemas() });`;
    expect(metaLoadedAfter(untrusted)).toEqual(["2020-12.cjs"]);
    const refusal = (() => {
      try {
        compileSchema(
          { type: "object", properties: { n: { minimum: "zero" } } },
          { validator: ajvValidator, untrusted: untrustedSchemas() },
        );
      } catch (error) {
        return error as SchemaCompileError;
      }
      return undefined;
    })();
    expect(refusal?.reason).toBe("invalid");
    expect(refusal?.message).toBe("schema is invalid: data/properties/n/minimum must be number");
    // A dialect without a check compiled at build time: the meta-schema compiled at run time, the same answer.
    expect(() =>
      compileSchema(
        { $schema: "https://json-schema.org/draft/2019-09/schema", minLength: -1 },
        { validator: ajvValidator, untrusted: untrustedSchemas() },
      ),
    ).toThrow(/^schema is invalid: data\/minLength must be >= 0$/);
  });
});
