// Type-level tests of ctx.elicit with a literal JSON Schema (checked by tsc in the vitest run; nothing here runs):
// an accepted answer's content is typed as the schema's declared properties.
import { describe, expectTypeOf, it } from "vitest";
import type { ElicitAnswer, RequestContext } from "../../src/index.js";

declare const ctx: RequestContext;

describe("ctx.elicit with a literal JSON Schema", () => {
  it("types accepted content from an inline schema", async () => {
    const answer = await ctx.elicit("Proceed?", {
      type: "object",
      properties: { confirm: { type: "boolean" }, reason: { type: "string" }, size: { type: "string", enum: ["s", "m"] } },
      required: ["confirm"],
    });
    if (answer.action === "accept") {
      expectTypeOf(answer.content).toEqualTypeOf<{ confirm: boolean; reason?: string; size?: "s" | "m" }>();
      // @ts-expect-error: `confrm` is misspelt
      answer.content.confrm;
      // @ts-expect-error: `confirm` is a boolean
      const confirm: string = answer.content.confirm;
      void confirm;
    }
    // @ts-expect-error: only an accepted answer carries content
    answer.content;
  });

  it("types accepted content from an `as const` schema, through ctx.ask too", async () => {
    const schema = { type: "object", properties: { age: { type: "integer" } }, required: ["age"] } as const;
    const answer = await ctx.elicit("Age?", schema);
    if (answer.action === "accept") expectTypeOf(answer.content).toEqualTypeOf<{ age: number }>();
    const [asked] = await ctx.all([ctx.ask.elicit("Age?", schema)]);
    if (asked.action === "accept") expectTypeOf(asked.content).toEqualTypeOf<{ age: number }>();
  });

  it("keeps a schema that is not a literal typed as ElicitAnswer", async () => {
    const loose: { type: "object"; properties: Record<string, { type: "string" }> } = { type: "object", properties: {} };
    expectTypeOf(await ctx.elicit("Any?", loose)).toEqualTypeOf<ElicitAnswer>();
  });
});
