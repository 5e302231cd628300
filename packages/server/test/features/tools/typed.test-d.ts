// Type-level tests of registerTool's typing from literal JSON Schemas
// (checked by tsc in the vitest run; nothing here runs).
import { describe, expectTypeOf, it } from "vitest";
import { type InputSchema, McpServer, type OutputSchema } from "../../../src/index.js";

const server = new McpServer({ name: "typed", version: "1.0.0" });

const weatherInput = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer", default: 3 } },
  required: ["city"],
  additionalProperties: false,
} as const;
const weatherOutput = {
  type: "object",
  properties: { temperature: { type: "number" }, sky: { enum: ["clear", "cloudy"] } },
  required: ["temperature", "sky"],
  additionalProperties: false,
} as const;

describe("registerTool from a literal inputSchema", () => {
  it("types the arguments from an `as const` schema", () => {
    server.registerTool("weather", { inputSchema: weatherInput }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number }>();
      return args.city;
    });
  });

  it("types the arguments from a schema written inline, without `as const`", () => {
    server.registerTool(
      "inline",
      {
        inputSchema: {
          type: "object",
          properties: { n: { type: "number" }, tags: { type: "array", items: { type: "string" } } },
          required: ["n"],
        },
      },
      ({ n, tags }) => {
        expectTypeOf(n).toEqualTypeOf<number>();
        expectTypeOf(tags).toEqualTypeOf<string[] | undefined>();
        return String(n);
      },
    );
  });

  it("refuses a handler that reads a property the schema does not have", () => {
    server.registerTool("weather", { inputSchema: weatherInput }, (args) => {
      // @ts-expect-error: `country` is not in the schema (additionalProperties: false)
      return args.country;
    });
  });

  it("refuses a handler whose annotation contradicts the schema", () => {
    // @ts-expect-error: `city` is a string, not a number
    server.registerTool("weather", { inputSchema: weatherInput }, (args: { city: number }) => String(args.city));
  });

  it("gives JsonObject without a schema, or with one that is not a literal", () => {
    server.registerTool("none", {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return "ok";
    });
    const wide: InputSchema = { type: "object" };
    server.registerTool("wide", { inputSchema: wide }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return "ok";
    });
  });

  it("keeps an explicit type argument working, as before", () => {
    server.registerTool<{ text: string }>("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ text: string }>();
      return args.text;
    });
  });
});

describe("registerTool from a literal outputSchema", () => {
  it("accepts structuredContent of the schema's type", () => {
    server.registerTool("forecast", { inputSchema: weatherInput, outputSchema: weatherOutput }, async ({ city }) => ({
      resultType: "complete",
      content: [{ type: "text", text: city }],
      structuredContent: { temperature: 21.5, sky: "clear" },
    }));
  });

  it("keeps an enum's literal in a synchronous handler's structuredContent", () => {
    server.registerTool("forecast", { outputSchema: weatherOutput }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { temperature: 3, sky: "cloudy" },
    }));
  });

  it("accepts an error result without structuredContent", () => {
    server.registerTool("forecast", { outputSchema: weatherOutput }, () => ({
      resultType: "complete",
      content: [{ type: "text", text: "no such city" }],
      isError: true,
    }));
  });

  it("refuses structuredContent of the wrong shape", () => {
    // @ts-expect-error: `sky` must be "clear" or "cloudy"
    server.registerTool("forecast", { outputSchema: weatherOutput }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { temperature: 21.5, sky: "raining" },
    }));
    // @ts-expect-error: `temperature` is missing
    server.registerTool("forecast", { outputSchema: weatherOutput }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { sky: "clear" },
    }));
    // @ts-expect-error: `temperature` is a number
    server.registerTool("forecast", { outputSchema: weatherOutput }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { temperature: "21", sky: "clear" },
    }));
  });

  it("refuses a result without structuredContent, or a plain string", () => {
    // @ts-expect-error: a non-error result must carry structuredContent
    server.registerTool("forecast", { outputSchema: weatherOutput }, () => ({ resultType: "complete", content: [] }));
    // @ts-expect-error: a plain string carries no structuredContent
    server.registerTool("forecast", { outputSchema: weatherOutput }, () => "21 degrees");
  });

  it("leaves the result untyped for an outputSchema that is not a literal", () => {
    const wide: OutputSchema = { type: "object" };
    server.registerTool("wide_out", { outputSchema: wide }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { anything: 1 },
    }));
  });
});
