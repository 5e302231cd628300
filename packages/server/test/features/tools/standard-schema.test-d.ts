// Type-level tests of registerTool typed from Standard Schemas: zod 4, valibot (with @valibot/to-json-schema) and
// arktype (checked by tsc in the vitest run; nothing here runs). Each wrong case carries `@ts-expect-error`, so the
// run fails if it ever compiles.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { McpServer } from "../../../src/index.js";

const server = new McpServer({ name: "typed", version: "1.0.0" });

describe("any library", () => {
  it("refuses a schema whose input is not an object: a tool's arguments are one", () => {
    // @ts-expect-error: zod
    server.registerTool("scalar", { inputSchema: z.string() }, () => "x");
    // @ts-expect-error: valibot
    server.registerTool("scalar", { inputSchema: toStandardJsonSchema(v.array(v.string())) }, () => "x");
    // @ts-expect-error: arktype
    server.registerTool("scalar", { inputSchema: type("number") }, () => "x");
  });
});

describe("zod 4", () => {
  const input = z.object({
    city: z.string(),
    days: z.number().int().default(3),
    unit: z.enum(["c", "f"]).transform((u) => (u === "c" ? "celsius" : "fahrenheit")),
  });
  const output = z.object({ temperature: z.number(), sky: z.enum(["clear", "cloudy"]).default("clear") });

  it("types the arguments as the schema's output: defaults filled, transforms applied", () => {
    server.registerTool("weather", { inputSchema: input }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; days: number; unit: "celsius" | "fahrenheit" }>();
      return args.city;
    });
  });

  it("refuses a property the schema does not have, and a use at the wrong type", () => {
    server.registerTool("weather", { inputSchema: input }, (args) => {
      // @ts-expect-error: `country` is not in the schema
      return args.country;
    });
    server.registerTool("weather", { inputSchema: input }, (args) => {
      // @ts-expect-error: `days` is a number, not a string
      const days: string = args.days;
      // @ts-expect-error: after the transform, `unit` is never "c"
      const short: "c" = args.unit;
      return `${days}${short}`;
    });
    // @ts-expect-error: `city` is a string, not a number
    server.registerTool("weather", { inputSchema: input }, (args: { city: number }) => String(args.city));
  });

  it("takes structuredContent of the output schema's input type (a defaulted property may be left out)", () => {
    server.registerTool("forecast", { inputSchema: input, outputSchema: output }, async (args) => ({
      resultType: "complete",
      content: [],
      structuredContent: { temperature: args.days * 10 },
    }));
    server.registerTool("forecast", { outputSchema: output }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { temperature: 1, sky: "cloudy" },
    }));
    server.registerTool("forecast", { outputSchema: output }, () => ({ resultType: "complete", content: [], isError: true }));
  });

  it("refuses structuredContent of the wrong shape, or none", () => {
    // @ts-expect-error: `sky` must be "clear" or "cloudy"
    server.registerTool("forecast", { outputSchema: output }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { temperature: 1, sky: "raining" },
    }));
    // @ts-expect-error: `temperature` is missing
    server.registerTool("forecast", { outputSchema: output }, () => ({ resultType: "complete", content: [], structuredContent: {} }));
    // @ts-expect-error: `temperature` is a number
    server.registerTool("forecast", { outputSchema: output }, async () => ({
      resultType: "complete",
      content: [],
      structuredContent: { temperature: "21" },
    }));
    // @ts-expect-error: a plain string carries no structuredContent
    server.registerTool("forecast", { outputSchema: output }, () => "21 degrees");
    // @ts-expect-error: a non-error result must carry structuredContent
    server.registerTool("forecast", { outputSchema: output }, () => ({ resultType: "complete", content: [] }));
  });

  it("mixes with a literal JSON Schema on the other side", () => {
    const jsonOut = { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false } as const;
    server.registerTool("mixed", { inputSchema: input, outputSchema: jsonOut }, (args) => ({
      resultType: "complete",
      content: [],
      structuredContent: { n: args.days },
    }));
    // @ts-expect-error: `n` is a number
    server.registerTool("mixed", { inputSchema: input, outputSchema: jsonOut }, (args) => ({
      resultType: "complete",
      content: [],
      structuredContent: { n: args.city },
    }));
    const jsonIn = { type: "object", properties: { q: { type: "string" } }, required: ["q"] } as const;
    server.registerTool("mixed", { inputSchema: jsonIn, outputSchema: output }, (args) => ({
      resultType: "complete",
      content: [],
      structuredContent: { temperature: args.q.length },
    }));
  });

  it("keeps an explicit type argument working", () => {
    server.registerTool<{ city: string }>("explicit", { inputSchema: input }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string }>();
      return args.city;
    });
  });
});

describe("valibot (with toStandardJsonSchema)", () => {
  const input = toStandardJsonSchema(
    v.object({ name: v.pipe(v.string(), v.minLength(2)), times: v.optional(v.number(), 2), loud: v.optional(v.boolean()) }),
  );
  const output = toStandardJsonSchema(v.object({ greeting: v.string(), mood: v.picklist(["happy", "calm"]) }));

  it("types the arguments as the schema's output: an optional with a default is always there", () => {
    server.registerTool("greet", { inputSchema: input }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string; times: number; loud?: boolean | undefined }>();
      return args.name;
    });
  });

  it("refuses a property the schema does not have, and a use at the wrong type", () => {
    server.registerTool("greet", { inputSchema: input }, (args) => {
      // @ts-expect-error: `age` is not in the schema
      return String(args.age);
    });
    server.registerTool("greet", { inputSchema: input }, (args) => {
      // @ts-expect-error: `loud` may be undefined
      const loud: boolean = args.loud;
      return String(loud);
    });
  });

  it("takes structuredContent of the output schema's type and refuses the wrong shape", () => {
    server.registerTool("greet", { inputSchema: input, outputSchema: output }, (args) => ({
      resultType: "complete",
      content: [],
      structuredContent: { greeting: `hello ${args.name}`, mood: "calm" },
    }));
    // @ts-expect-error: `mood` must be "happy" or "calm"
    server.registerTool("greet", { outputSchema: output }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { greeting: "hi", mood: "grumpy" },
    }));
    // @ts-expect-error: `greeting` is missing
    server.registerTool("greet", { outputSchema: output }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { mood: "calm" },
    }));
  });
});

describe("arktype", () => {
  const input = type({ word: "string>=1", "repeat?": "number.integer" });
  const morphed = input.pipe((o) => ({ ...o, length: o.word.length }));
  const output = type({ length: "number", kind: "'short'|'long'" });

  it("types the arguments as the type's output, a morph's result included", () => {
    server.registerTool("length", { inputSchema: input }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ word: string; repeat?: number }>();
      return args.word;
    });
    server.registerTool("length", { inputSchema: morphed }, (args) => {
      expectTypeOf(args.length).toEqualTypeOf<number>();
      return String(args.length);
    });
  });

  it("refuses a property the type does not have, and a use at the wrong type", () => {
    server.registerTool("length", { inputSchema: input }, (args) => {
      // @ts-expect-error: `letters` is not in the type
      return args.letters;
    });
    // @ts-expect-error: `word` is a string, not a number
    server.registerTool("length", { inputSchema: input }, (args: { word: number }) => String(args.word));
  });

  it("takes structuredContent of the output type and refuses the wrong shape", () => {
    server.registerTool("length", { inputSchema: morphed, outputSchema: output }, (args) => ({
      resultType: "complete",
      content: [],
      structuredContent: { length: args.length, kind: args.length > 5 ? "long" : "short" },
    }));
    // @ts-expect-error: `kind` must be "short" or "long"
    server.registerTool("length", { outputSchema: output }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { length: 1, kind: "medium" },
    }));
    // @ts-expect-error: `length` is a number
    server.registerTool("length", { outputSchema: output }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { length: "1", kind: "short" },
    }));
  });
});
