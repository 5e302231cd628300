// Type-level tests of ctx.elicit with a Standard Schema (checked by tsc in the vitest run; nothing here runs):
// accepted content is typed as the schema's output, and a schema whose input is not flat fails to compile.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import type { RequestContext, StandardElicitAnswer } from "../../src/index.js";

declare const ctx: RequestContext;

describe("ctx.elicit with a Standard Schema", () => {
  it("types accepted content as the schema's output (zod)", async () => {
    const answer = await ctx.elicit(
      "Profile?",
      z.object({ name: z.string(), newsletter: z.boolean().default(false), color: z.enum(["r", "g"]).transform((c) => c === "r") }),
    );
    if (answer.action === "accept") {
      expectTypeOf(answer.content).toEqualTypeOf<{ name: string; newsletter: boolean; color: boolean }>();
      // @ts-expect-error: `age` is not in the schema
      answer.content.age;
    }
    // @ts-expect-error: only an accepted answer carries content
    answer.content;
  });

  it("types accepted content as the schema's output (valibot, arktype)", async () => {
    const valibot = await ctx.elicit("Name?", toStandardJsonSchema(v.object({ name: v.string(), title: v.optional(v.string(), "Dr") })));
    if (valibot.action === "accept") expectTypeOf(valibot.content).toEqualTypeOf<{ name: string; title: string }>();
    const ark = await ctx.elicit("Age?", type({ age: "number.integer>=0", "tags?": "string[]" }));
    if (ark.action === "accept") {
      expectTypeOf(ark.content).toEqualTypeOf<{ age: number; tags?: string[] }>();
      // @ts-expect-error: `age` is a number
      const age: string = ark.content.age;
      void age;
    }
  });

  it("refuses a schema whose input is not flat primitive properties", () => {
    // @ts-expect-error: a nested object is not an elicitation property (zod)
    ctx.elicit("Address?", z.object({ address: z.object({ city: z.string() }) }));
    // @ts-expect-error: an array of numbers is not an elicitation property (valibot)
    ctx.elicit("Scores?", toStandardJsonSchema(v.object({ scores: v.array(v.number()) })));
    // @ts-expect-error: a nested object is not an elicitation property (arktype)
    ctx.elicit("Where?", type({ where: { city: "string" } }));
  });

  it("types asks gathered with ctx.all", async () => {
    const plain = await ctx.elicit("Ok?", { type: "object", properties: { ok: { type: "boolean" } } });
    expectTypeOf(plain).toEqualTypeOf<StandardElicitAnswer<{ ok?: boolean }>>();
    const [first, second] = await ctx.all([
      ctx.ask.elicit("Name?", z.object({ name: z.string() })),
      ctx.ask.elicit("Ok?", { type: "object", properties: { ok: { type: "boolean" } } }),
    ]);
    if (first.action === "accept") expectTypeOf(first.content).toEqualTypeOf<{ name: string }>();
    expectTypeOf(second).toEqualTypeOf<StandardElicitAnswer<{ ok?: boolean }>>();
  });
});
