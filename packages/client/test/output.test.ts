import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runBundleAlone } from "../../../test-support/bundle.js";
import { ClientErrorCode, cfworkerValidator, compileOutputSchema, defaultValidator } from "../src/index.js";
import { httpServer, listResult, memoryClient, textResult, tool } from "./helpers.js";

const sumSchema = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };

async function withOutput(outputSchema: unknown, structured: unknown, extra: Record<string, unknown> = {}) {
  return memoryClient({
    "tools/list": () => listResult("tools", [tool("t", { outputSchema })]),
    "tools/call": () => textResult("r", structured === undefined ? extra : { structuredContent: structured, ...extra }),
  });
}

describe("structuredContent and outputSchema", () => {
  it("passes a result that matches", async () => {
    const { client } = await withOutput(sumSchema, { sum: 42 });
    expect((await client.callTool("t")).structuredContent).toEqual({ sum: 42 });
  });

  it("refuses a mismatch with -32092 that says where", async () => {
    const { client } = await withOutput(sumSchema, { sum: "42" });
    const error = await client.callTool("t").catch((e) => e);
    expect(error).toMatchObject({
      code: ClientErrorCode.OutputSchemaMismatch,
      data: { tool: "t", problems: [{ path: "/sum", message: "must be number" }] },
    });
    expect(error.message).toMatch(/\/sum: must be number/);
  });

  it("refuses a missing structuredContent, but skips the check for a tool error or with validateOutput: false", async () => {
    const { client } = await withOutput(sumSchema, undefined);
    await expect(client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.OutputSchemaMismatch,
      message: expect.stringMatching(/no structuredContent/),
    });
    expect((await client.callTool("t", {}, { validateOutput: false })).content).toHaveLength(1);
    const failing = await withOutput(sumSchema, undefined, { isError: true });
    expect((await failing.client.callTool("t")).isError).toBe(true);
  });

  it("resolves a $ref inside the schema", async () => {
    const schema = { $defs: { n: { type: "integer" } }, type: "object", properties: { n: { $ref: "#/$defs/n" } }, required: ["n"] };
    const { client } = await withOutput(schema, { n: 1.5 });
    await expect(client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.OutputSchemaMismatch,
      data: { problems: [{ path: "/n" }] },
    });
  });

  it("never fetches a remote $ref: the schema is refused with -32093 and the URL is not requested", async () => {
    const hits: string[] = [];
    const canary = await httpServer((req, res) => {
      hits.push(req.url ?? "");
      res.end("{}");
    });
    try {
      const { client } = await withOutput(
        { type: "object", properties: { p: { $ref: `http://127.0.0.1:${canary.port}/schema.json` } } },
        { p: 1 },
      );
      await expect(client.callTool("t")).rejects.toMatchObject({
        code: ClientErrorCode.OutputSchemaUnusable,
        message: expect.stringMatching(/not fetched/),
      });
      expect(hits).toEqual([]);
    } finally {
      await canary.close();
    }
  });

  it("checks draft-07 schemas by their own rules and refuses an unknown dialect", async () => {
    const draft7 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { a: { type: "string" } },
      required: ["a"],
    };
    await expect((await withOutput(draft7, {})).client.callTool("t")).rejects.toMatchObject({ code: ClientErrorCode.OutputSchemaMismatch });
    const odd = { $schema: "https://example.com/my-dialect", type: "object" };
    await expect((await withOutput(odd, {})).client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.OutputSchemaUnusable,
      message: expect.stringMatching(/dialect/),
    });
  });

  it("bounds the schema's size and depth before compiling it", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 40; i++) deep = { type: "object", properties: { a: deep } };
    expect(() => compileOutputSchema(deep)).toThrowError(
      expect.objectContaining({ code: ClientErrorCode.OutputSchemaUnusable, message: expect.stringMatching(/nested/) }),
    );
    const wide = { type: "object", description: "x".repeat(200_000) };
    expect(() => compileOutputSchema(wide)).toThrowError(
      expect.objectContaining({ code: ClientErrorCode.OutputSchemaUnusable, message: expect.stringMatching(/bytes/) }),
    );
    expect(() => compileOutputSchema(wide, { maxBytes: 300_000 })).not.toThrow();
    expect(() => compileOutputSchema("not a schema")).toThrowError(expect.objectContaining({ code: ClientErrorCode.OutputSchemaUnusable }));
    expect(() => compileOutputSchema({ type: "wrong" })).toThrowError(
      expect.objectContaining({ code: ClientErrorCode.OutputSchemaUnusable, message: expect.stringMatching(/not a valid schema/) }),
    );
  });

  it("compiles each schema once, and copes with two schemas that share an $id", () => {
    const a = { $id: "https://example.com/out", type: "object", required: ["a"] };
    const b = { $id: "https://example.com/out", type: "object", required: ["b"] };
    const first = compileOutputSchema(a);
    expect(compileOutputSchema(structuredClone(a))).toBe(first);
    const second = compileOutputSchema(b);
    expect(first({ a: 1 })).toEqual([]);
    expect(second({ a: 1 })).toEqual([{ path: "", message: 'is missing required property "b"' }]);
  });

  it("asserts formats", () => {
    const check = compileOutputSchema({ type: "object", properties: { at: { type: "string", format: "date-time" } } });
    expect(check({ at: "yesterday" })).toEqual([{ path: "/at", message: 'must match format "date-time"' }]);
  });
});

describe("a bundled client", () => {
  it("carries its validator (it compiles with nothing beside it), and names one left out of the bundle (MissingDependencyError)", async () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const program = `import { compileOutputSchema } from ${JSON.stringify(join(here, "..", "dist", "index.js"))};
try { console.log(JSON.stringify(compileOutputSchema({ type: "object" })(1))); }
catch (e) { console.log(e.name + ": " + e.dependency + ": " + (e.code ?? "no code")); }`;
    expect(await runBundleAlone(program, here)).toBe('[{"path":"","message":"must be object"}]');
    expect(await runBundleAlone(program, here, { external: ["ajv", "ajv-formats"] })).toBe("MissingDependencyError: ajv: no code");
  });

  it("checks output schemas with the validator it is given", () => {
    const schema = { type: "object", properties: { n: { type: "integer" } } };
    for (const validator of [cfworkerValidator, defaultValidator()]) {
      expect(compileOutputSchema(schema, {}, validator)({ n: "x" })).toEqual([{ path: "/n", message: "must be integer" }]);
    }
    expect(defaultValidator().name).toBe("ajv");
  });
});
