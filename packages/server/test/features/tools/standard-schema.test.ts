// Tools whose schemas are Standard Schemas (src/standard-schema.ts, src/features/tools/define.ts and run.ts):
// zod 4, valibot (with @valibot/to-json-schema) and arktype tools registered on a real server, listed and called
// through its own request handling and over HTTP.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { listen, McpServer, type RunningHttpServer } from "../../../src/index.js";
import { meta, rpc, send } from "../../helpers.js";

const text = (result: { content: { text: string }[] }) => result.content[0]!.text;

function standardServer(): McpServer {
  const server = new McpServer({ name: "standard", version: "1.0.0" });
  server.registerTool(
    "zod_weather",
    {
      inputSchema: z.object({
        city: z.string().min(2),
        days: z.number().int().default(3),
        unit: z.enum(["c", "f"]).transform((u) => (u === "c" ? "celsius" : "fahrenheit")),
      }),
      outputSchema: z.object({ temperature: z.number(), sky: z.enum(["clear", "cloudy"]).default("clear") }),
    },
    (args) => ({
      resultType: "complete",
      content: [{ type: "text", text: JSON.stringify(args) }],
      structuredContent: { temperature: args.days * 10 },
    }),
  );
  server.registerTool(
    "zod_bad_output",
    { outputSchema: z.object({ temperature: z.number() }) },
    // @ts-expect-error: deliberately the wrong shape, to test the run-time output check
    () => ({ resultType: "complete", content: [], structuredContent: { temperature: "warm" } }),
  );
  server.registerTool(
    "zod_async",
    { inputSchema: z.object({ code: z.string().refine(async (code) => code === "open sesame", "wrong code") }) },
    async (args) => `in with ${args.code}`,
  );
  server.registerTool("zod_nested", { inputSchema: z.object({ items: z.array(z.object({ "a/b~c": z.string() })) }) }, (args) =>
    String(args.items.length),
  );
  server.registerTool("zod_number", { inputSchema: z.object({ n: z.number() }) }, (args) => `${typeof args.n} ${args.n}`);
  server.registerTool(
    "valibot_greet",
    {
      inputSchema: toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(2)), times: v.optional(v.number(), 2) })),
      outputSchema: toStandardJsonSchema(v.object({ greeting: v.string() })),
    },
    (args) => ({ resultType: "complete", content: [], structuredContent: { greeting: `hello ${args.name} x${args.times}` } }),
  );
  server.registerTool(
    "valibot_bad_output",
    { outputSchema: toStandardJsonSchema(v.object({ greeting: v.string() })) },
    // @ts-expect-error: deliberately the wrong shape, to test the run-time output check
    () => ({ resultType: "complete", content: [], structuredContent: { greeting: 42 } }),
  );
  server.registerTool(
    "ark_length",
    {
      inputSchema: type({ word: "string>=1", "repeat?": "number.integer" }).pipe((o) => ({ ...o, length: o.word.length })),
      outputSchema: type({ length: "number.integer" }),
    },
    (args) => ({ resultType: "complete", content: [], structuredContent: { length: args.length * (args.repeat ?? 1) } }),
  );
  server.registerTool(
    "ark_bad_output",
    { outputSchema: type({ length: "number.integer" }) },
    // An integer is a `number` to TypeScript: only the run-time check can refuse 1.5.
    () => ({ resultType: "complete", content: [], structuredContent: { length: 1.5 } }),
  );
  return server;
}

const server = standardServer();

async function call(name: string, args: Record<string, unknown>) {
  const answer = await send(server, "tools/call", { name, arguments: args });
  expect(answer.error).toBeUndefined();
  return answer.result;
}

describe("a Standard Schema is published as its library's JSON Schema conversion", () => {
  it("[A84] lists the input side of inputSchema and the output side of outputSchema, in dialect 2020-12", async () => {
    const list = (await send(server, "tools/list")).result;
    const byName = new Map(list.tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.get("zod_weather")).toEqual({
      name: "zod_weather",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          city: { type: "string", minLength: 2 },
          days: { default: 3, type: "integer", minimum: -9007199254740991, maximum: 9007199254740991 },
          unit: { type: "string", enum: ["c", "f"] },
        },
        required: ["city", "unit"],
      },
      // The output side: a defaulted property is always there once validated.
      outputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { temperature: { type: "number" }, sky: { default: "clear", type: "string", enum: ["clear", "cloudy"] } },
        required: ["temperature", "sky"],
        additionalProperties: false,
      },
    });
    expect((byName.get("valibot_greet") as { inputSchema: unknown }).inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { name: { type: "string", minLength: 2 }, times: { type: "number", default: 2 } },
      required: ["name"],
    });
    expect((byName.get("ark_length") as { inputSchema: unknown }).inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { word: { type: "string", minLength: 1 }, repeat: { type: "integer" } },
      required: ["word"],
    });
  });

  it("[A84] refuses a valibot schema without a conversion, naming the tool and the helper to wrap it in", () => {
    const s = new McpServer({ name: "refuse", version: "1" });
    expect(() => s.registerTool("plain_valibot", { inputSchema: v.object({ name: v.string() }) }, () => "x")).toThrow(
      'tool plain_valibot: inputSchema is a Standard Schema (vendor "valibot") without a JSON Schema conversion (~standard.jsonSchema.input): wrap it with toStandardJsonSchema(schema) from "@valibot/to-json-schema"',
    );
    expect(() => s.registerTool("plain_out", { outputSchema: v.object({ name: v.string() }) }, () => "x" as never)).toThrow(
      /^tool plain_out: outputSchema is a Standard Schema .*toStandardJsonSchema/,
    );
    // Any other library's schema without a converter is told of the interface.
    const bare = { "~standard": { version: 1 as const, vendor: "mine", validate: (value: unknown) => ({ value }) } };
    expect(() => s.registerTool("bare", { inputSchema: bare }, () => "x")).toThrow(
      /tool bare: inputSchema .*Standard JSON Schema interface/,
    );
    expect(s.capabilities().tools).toBeUndefined();
  });

  it("[A84] refuses an input schema whose root is not an object, and one the library cannot convert, naming the tool", () => {
    const s = new McpServer({ name: "refuse", version: "1" });
    // @ts-expect-error: a schema whose input is not an object does not compile either
    expect(() => s.registerTool("stringly", { inputSchema: z.string() }, () => "x")).toThrow(
      'tool stringly: inputSchema must have type "object" (the zod schema converts to type "string": use an object schema)',
    );
    expect(() => s.registerTool("dated", { inputSchema: z.object({ at: z.date() }) }, () => "x")).toThrow(
      "tool dated: inputSchema: the zod schema cannot be converted to JSON Schema (input side): Date cannot be represented in JSON Schema",
    );
    // A transform's result has no JSON Schema: as an output schema it cannot be published.
    expect(() =>
      s.registerTool("transformed", { outputSchema: z.object({ n: z.string().transform((t) => t.length) }) }, () => "x" as never),
    ).toThrow(/^tool transformed: outputSchema: the zod schema cannot be converted to JSON Schema \(output side\): Transforms cannot/);
    // @ts-expect-error: as above
    expect(() => s.registerTool("ark_string", { inputSchema: type("string") }, () => "x")).toThrow(
      /^tool ark_string: inputSchema must have type "object" \(the arktype schema/,
    );
    // arktype's standard conversion would publish a Date or a bigint as {} (any value), and every call would then fail.
    expect(() => s.registerTool("ark_dated", { inputSchema: type({ at: "Date" }) }, () => "x")).toThrow(
      "tool ark_dated: inputSchema: the arktype schema cannot be converted to JSON Schema (input side): a date type cannot be written as JSON Schema",
    );
    expect(() => s.registerTool("ark_big", { inputSchema: type({ n: "bigint" }) }, () => "x")).toThrow(
      /^tool ark_big: inputSchema: the arktype schema cannot be converted .*: a domain type cannot be written as JSON Schema$/,
    );
    // Its looser conversions stay: a narrowed string is published as a string, and arktype still checks the narrowing.
    s.registerTool("ark_narrow", { inputSchema: type({ code: type("string").narrow((c) => c.length === 3) }) }, ({ code }) => code);
    expect(s.capabilities().tools).toBeDefined();
  });
});

describe("arguments are checked by the library, and the handler gets its output", () => {
  it("[A85] gives the handler the validated value: defaults filled, transforms applied", async () => {
    const zod = await call("zod_weather", { city: "Paris", unit: "c" });
    expect(JSON.parse(text(zod))).toEqual({ city: "Paris", days: 3, unit: "celsius" });
    const ark = await call("ark_length", { word: "hello", repeat: 2 });
    expect(ark.structuredContent).toEqual({ length: 10 });
    const valibot = await call("valibot_greet", { name: "Ada" });
    expect(valibot.structuredContent).toEqual({ greeting: "hello Ada x2" });
  });

  it("[A85] answers bad arguments with the library's messages at their JSON Pointer paths, as for a JSON Schema", async () => {
    const zod = await call("zod_weather", { city: "P", unit: "k" });
    expect(zod.isError).toBe(true);
    expect(zod.structuredContent).toBeUndefined();
    expect(text(zod)).toBe(
      'Invalid arguments for tool zod_weather:\n/city: Too small: expected string to have >=2 characters\n/unit: Invalid option: expected one of "c"|"f"',
    );
    const valibot = await call("valibot_greet", { name: 7 });
    expect(text(valibot)).toBe("Invalid arguments for tool valibot_greet:\n/name: Invalid type: Expected string but received 7");
    const ark = await call("ark_length", { word: "", repeat: 1.5 });
    expect(text(ark)).toBe(
      "Invalid arguments for tool ark_length:\n/word: word must be non-empty\n/repeat: repeat must be an integer (was 1.5)",
    );
  });

  it("[A85] escapes path segments as JSON Pointer tokens", async () => {
    const r = await call("zod_nested", { items: [{ "a/b~c": "ok" }, { "a/b~c": 1 }] });
    expect(text(r)).toBe("Invalid arguments for tool zod_nested:\n/items/1/a~1b~0c: Invalid input: expected string, received number");
  });

  it("[A85] waits for a library's asynchronous validation", async () => {
    expect(text(await call("zod_async", { code: "open sesame" }))).toBe("in with open sesame");
    const refused = await call("zod_async", { code: "abracadabra" });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe("Invalid arguments for tool zod_async:\n/code: wrong code");
  });

  it("[A85] reports a number JSON cannot carry before the library's problems, and hands the library doubles, not bigints", async () => {
    const message = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "zod_number", arguments: { n: 9007199254740993n }, _meta: meta() },
    };
    const big = (await server.handle(message)).response as unknown as { result: { content: { text: string }[] } };
    expect(text(big.result)).toBe("number 9007199254740992");
    const infinite = await call("zod_number", { n: Number.POSITIVE_INFINITY });
    expect(text(infinite)).toBe(
      "Invalid arguments for tool zod_number:\n/n: is not a finite number (JSON has no Infinity, -Infinity or NaN)\n/n: Invalid input: expected number, received Infinity",
    );
  });

  it("[A85] reports a validation that throws as one problem at the root", async () => {
    const s = new McpServer({ name: "throwing", version: "1" });
    const throwing = {
      "~standard": {
        version: 1 as const,
        vendor: "mine",
        validate: (): never => {
          throw new Error("validator broke");
        },
        jsonSchema: { input: () => ({ type: "object" }), output: () => ({ type: "object" }) },
      },
    };
    s.registerTool("throwing", { inputSchema: throwing }, () => "never");
    const r = (await send(s, "tools/call", { name: "throwing", arguments: {} })).result;
    expect(r.isError).toBe(true);
    expect(text(r)).toBe("Invalid arguments for tool throwing:\n(root): validation failed: validator broke");
  });
});

describe("structuredContent is checked by the library, and its output is sent", () => {
  it("[A86] sends the validated output (a default filled in) and leaves the text block as the handler wrote it", async () => {
    const r = await call("zod_weather", { city: "Oslo", days: 2, unit: "f" });
    expect(r.isError).toBeUndefined();
    expect(r.structuredContent).toEqual({ temperature: 20, sky: "clear" });
    expect(JSON.parse(text(r))).toEqual({ city: "Oslo", days: 2, unit: "fahrenheit" });
  });

  it("[A86] refuses structuredContent that fails the schema, as a JSON Schema outputSchema does", async () => {
    for (const [name, problem] of [
      ["zod_bad_output", "/temperature: Invalid input: expected number, received string"],
      ["valibot_bad_output", "/greeting: Invalid type: Expected string but received 42"],
      ["ark_bad_output", "/length: length must be an integer (was 1.5)"],
    ] as const) {
      const r = await call(name, {});
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect(text(r)).toBe(`Tool ${name} returned structuredContent that does not match its outputSchema:\n${problem}`);
    }
  });

  it("[A86] refuses a result without structuredContent", async () => {
    const s = new McpServer({ name: "none", version: "1" });
    s.registerTool("no_content", { outputSchema: z.object({ n: z.number() }) }, () => ({ resultType: "complete", content: [] }) as never);
    const r = (await send(s, "tools/call", { name: "no_content", arguments: {} })).result;
    expect(text(r)).toBe("Tool no_content declares an outputSchema but returned no structuredContent");
  });
});

describe("over HTTP", () => {
  let running: RunningHttpServer;
  beforeAll(async () => {
    running = await listen(standardServer(), { port: 0 });
  });
  afterAll(async () => {
    await running.close();
  });

  it("lists and calls a zod tool: good arguments give the transformed value, bad ones the library's message", async () => {
    const listed = await rpc(running.url, "tools/list");
    expect(listed.status).toBe(200);
    expect(listed.json.result.tools.find((t: { name: string }) => t.name === "zod_weather").inputSchema.required).toEqual(["city", "unit"]);
    const good = await rpc(running.url, "tools/call", { name: "zod_weather", arguments: { city: "Rome", unit: "c" } });
    expect(good.json.result.structuredContent).toEqual({ temperature: 30, sky: "clear" });
    expect(JSON.parse(good.json.result.content[0].text)).toEqual({ city: "Rome", days: 3, unit: "celsius" });
    const bad = await rpc(running.url, "tools/call", { name: "zod_weather", arguments: { unit: "c" } });
    expect(bad.status).toBe(200);
    expect(bad.json.result.isError).toBe(true);
    expect(bad.json.result.content[0].text).toBe(
      "Invalid arguments for tool zod_weather:\n/city: Invalid input: expected string, received undefined",
    );
  });
});
