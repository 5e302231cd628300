// Type-level tests of registerPrompt with a Standard Schema `arguments` (checked by tsc in the vitest run).
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { McpServer } from "../../src/index.js";

const server = new McpServer({ name: "typed", version: "1.0.0" });

describe("registerPrompt from a Standard Schema", () => {
  it("types the handler's arguments as the schema's output (zod)", () => {
    server.registerPrompt("review", { arguments: z.object({ code: z.string(), lang: z.string().optional() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ code: string; lang?: string | undefined }>();
      // @ts-expect-error: `cde` is not in the schema
      args.cde;
      return args.code;
    });
  });

  it("types the handler's arguments as the schema's output (valibot, arktype)", () => {
    server.registerPrompt("greet", { arguments: toStandardJsonSchema(v.object({ name: v.optional(v.string(), "you") })) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string }>();
      return args.name;
    });
    server.registerPrompt("echo", { arguments: type({ text: "string", "times?": "string.numeric.parse" }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ text: string; times?: number }>();
      return args.text;
    });
  });

  it("refuses a handler that reads a property with the wrong type", () => {
    // @ts-expect-error: `code` is a string
    server.registerPrompt("review", { arguments: z.object({ code: z.string() }) }, (args: { code: number }) => String(args.code));
  });

  it("refuses a schema whose input is not an object of strings", () => {
    // @ts-expect-error: a number is not a prompt argument
    server.registerPrompt("n", { arguments: z.object({ count: z.number() }) }, () => "x");
  });
});
