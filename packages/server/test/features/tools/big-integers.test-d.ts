// Type-level tests of what a tool handler is declared to receive for numbers (README "Numbers"):
// the schema's `number` by default, widened by the tool's `bigIntegers` opt-in. Nothing here runs.
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { McpServer, type ServerOptions, type ToolArguments } from "../../../src/index.js";

const server = new McpServer({ name: "typed", version: "1.0.0" });

const input = {
  type: "object",
  properties: {
    n: { type: "integer" },
    x: { type: "number" },
    list: { type: "array", items: { type: "number" } },
    nested: { type: "object", properties: { y: { type: "integer" } }, required: ["y"], additionalProperties: false },
    label: { type: "string" },
    level: { enum: [1, 2] },
  },
  required: ["n", "x", "list", "nested", "label", "level"],
  additionalProperties: false,
} as const;

describe("by default a number position is a number", () => {
  it("keeps the schema's types", () => {
    server.registerTool("plain", { inputSchema: input }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{
        n: number;
        x: number;
        list: number[];
        nested: { y: number };
        label: string;
        level: 1 | 2;
      }>();
      return String(args.n + args.x);
    });
  });
});

describe('bigIntegers: "bigint" widens every number position to number | bigint', () => {
  it("in properties, arrays, nested objects and enums; strings stay", () => {
    server.registerTool("exact", { bigIntegers: "bigint", inputSchema: input }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{
        n: number | bigint;
        x: number | bigint;
        list: (number | bigint)[];
        nested: { y: number | bigint };
        label: string;
        level: 1 | 2 | bigint;
      }>();
      // @ts-expect-error: a bigint cannot be mixed with a number without a conversion
      return String(args.n + 1);
    });
  });

  it("with a literal outputSchema, whose number positions may then carry a bigint back (written with every digit)", () => {
    const output = { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false } as const;
    server.registerTool("exact_out", { bigIntegers: "bigint", inputSchema: input, outputSchema: output }, ({ n }) => {
      expectTypeOf(n).toEqualTypeOf<number | bigint>();
      return { resultType: "complete", content: [], structuredContent: { n } };
    });
    // @ts-expect-error: without the opt-in the output's n is a number
    server.registerTool("plain_out", { inputSchema: input, outputSchema: output }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { n: 5n },
    }));
  });
});

describe('bigIntegers: "string" widens them to number | string', () => {
  it("gives the digits as a string where an integer was too big", () => {
    server.registerTool("digits", { bigIntegers: "string", inputSchema: input }, (args) => {
      expectTypeOf(args.n).toEqualTypeOf<number | string>();
      expectTypeOf(args.list).toEqualTypeOf<(number | string)[]>();
      expectTypeOf(args.nested.y).toEqualTypeOf<number | string>();
      expectTypeOf(args.label).toEqualTypeOf<string>();
      return "ok";
    });
  });
});

describe("a choice that is not a literal widens to both", () => {
  it("`bigint | string` from a variable", () => {
    const mode = "bigint" as "bigint" | "string";
    server.registerTool("either", { bigIntegers: mode, inputSchema: input }, (args) => {
      expectTypeOf(args.x).toEqualTypeOf<number | bigint | string>();
      return "ok";
    });
  });

  it("ToolArguments reads the opt-in", () => {
    expectTypeOf<ToolArguments<{ inputSchema: typeof input }>["n"]>().toEqualTypeOf<number>();
    expectTypeOf<ToolArguments<{ inputSchema: typeof input; bigIntegers: "bigint" }>["n"]>().toEqualTypeOf<number | bigint>();
    expectTypeOf<ToolArguments<{ inputSchema: typeof input; bigIntegers?: "bigint" | undefined }>["n"]>().toEqualTypeOf<number | bigint>();
  });
});

describe("what cannot opt in", () => {
  it("a Standard Schema inputSchema (its library's number is a double)", () => {
    server.registerTool("zod", { inputSchema: z.object({ n: z.number() }) }, ({ n }) => {
      expectTypeOf(n).toEqualTypeOf<number>();
      return "ok";
    });
    // @ts-expect-error: bigIntegers needs a JSON Schema inputSchema
    server.registerTool("zod_exact", { bigIntegers: "bigint", inputSchema: z.object({ n: z.number() }) }, () => "ok");
  });

  it("a value other than the two", () => {
    // @ts-expect-error: "number" is not a choice
    server.registerTool("bad", { bigIntegers: "number", inputSchema: input }, () => "ok");
  });

  it("the server-wide option, which is gone", () => {
    // @ts-expect-error: ServerOptions.bigIntegers was removed (a tool opts in)
    const options: ServerOptions = { bigIntegers: "bigint" };
    expectTypeOf(options).toEqualTypeOf<ServerOptions>();
  });
});
