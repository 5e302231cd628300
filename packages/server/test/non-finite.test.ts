import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../src/index.js";
import { headersFor, meta } from "./helpers.js";

const sumSchema = { type: "object" as const, properties: { sum: { type: "number" } }, required: ["sum"] };

function nonFiniteServer(): McpServer {
  const server = new McpServer({ name: "non-finite", version: "1" });
  server.registerTool(
    "add",
    {
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      outputSchema: sumSchema,
    },
    (args) => ({ resultType: "complete", content: [], structuredContent: { sum: (args.a as number) + (args.b as number) } }),
  );
  server.registerTool("loose", { inputSchema: { type: "object" } }, (args) => JSON.stringify(args));
  server.registerTool("unschemed", {}, () => ({ resultType: "complete", content: [], structuredContent: { stats: { mean: Number.NaN } } }));
  server.registerTool("failed_with_nan", {}, () => ({
    resultType: "complete",
    content: [{ type: "text", text: "no ratio" }],
    isError: true,
    structuredContent: { ratio: 0 / 0 },
  }));
  server.registerTool("ask_number", {}, async (_args, ctx) =>
    JSON.stringify(await ctx.elicit("How many?", { type: "object", properties: { n: { type: "number" } }, required: ["n"] })),
  );
  return server;
}

let running: RunningHttpServer;
beforeAll(async () => {
  running = await listen(nonFiniteServer(), { port: 0 });
});
afterAll(() => running.close());

/** A tools/call sent as raw JSON text: `args` and `extra` are written as given, so `-1e400` reaches the server's parser. */
async function callRaw(name: string, args: string, extra = "") {
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name } };
  const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${args}${extra},"_meta":${JSON.stringify(
    meta({ "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } }),
  )}}}`;
  const response = await fetch(running.url, { method: "POST", headers: headersFor(body), body: text });
  // The server stamps its info in _meta; the rest is the tool's answer.
  const { _meta, ...result } = ((await response.json()) as { result: any }).result;
  return result;
}

describe("a non-finite number in a tool's arguments", () => {
  it("is refused by the input check, naming the argument, like any other invalid argument", async () => {
    const result = await callRaw("add", '{"a":-1e400,"b":1}');
    expect(result).toEqual({
      resultType: "complete",
      content: [
        { type: "text", text: "Invalid arguments for tool add:\n/a: is not a finite number (JSON has no Infinity, -Infinity or NaN)" },
      ],
      isError: true,
    });
    // The same shape as an argument that fails inputSchema.
    const wrongType = await callRaw("add", '{"a":"1","b":1}');
    expect(wrongType).toEqual({ ...result, content: [{ type: "text", text: "Invalid arguments for tool add:\n/a: must be number" }] });
  });

  it("is found anywhere, also where the schema says nothing", async () => {
    const result = await callRaw("loose", '{"options":{"weights":[0.5,1e999]}}');
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toBe(
      "Invalid arguments for tool loose:\n/options/weights/1: is not a finite number (JSON has no Infinity, -Infinity or NaN)",
    );
  });

  it("passes the largest finite numbers", async () => {
    const result = await callRaw("add", '{"a":1.7976931348623157e308,"b":-1.7976931348623157e308}');
    expect(result.structuredContent).toEqual({ sum: 0 });
  });
});

describe("a non-finite number in a tool's structuredContent", () => {
  it("is a tool error naming the path, never a silent null", async () => {
    const result = await callRaw("add", '{"a":1e308,"b":1e308}');
    expect(result).toEqual({
      resultType: "complete",
      content: [
        {
          type: "text",
          text: "Tool add returned structuredContent that JSON cannot carry:\n/sum: is not a finite number (JSON has no Infinity, -Infinity or NaN)",
        },
      ],
      isError: true,
    });
  });

  it("is a tool error also when the tool declares no outputSchema, or answers isError itself", async () => {
    const result = await callRaw("unschemed", "{}");
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/^Tool unschemed returned structuredContent that JSON cannot carry:\n\/stats\/mean: /);
    expect(result.structuredContent).toBeUndefined();
    const failed = await callRaw("failed_with_nan", "{}");
    expect(failed.content[0].text).toMatch(/^Tool failed_with_nan returned structuredContent that JSON cannot carry:\n\/ratio: /);
  });
});

describe("a non-finite number in an elicitation answer", () => {
  // Held by the protocol's own ElicitResult check (its number type admits finite numbers only): pinned here.
  it("is not accepted: the question is asked again", async () => {
    const refused = await callRaw("ask_number", "{}", ',"inputResponses":{"elicit-1":{"action":"accept","content":{"n":1e400}}}');
    expect(refused.resultType).toBe("input_required");
    const accepted = await callRaw("ask_number", "{}", ',"inputResponses":{"elicit-1":{"action":"accept","content":{"n":1e300}}}');
    expect(JSON.parse(accepted.content[0].text)).toEqual({ action: "accept", content: { n: 1e300 } });
  });

  it("leaves fractions alone: 95.5 is a valid answer (the generator's ElicitResult erratum)", async () => {
    const accepted = await callRaw("ask_number", "{}", ',"inputResponses":{"elicit-1":{"action":"accept","content":{"n":95.5}}}');
    expect(JSON.parse(accepted.content[0].text)).toEqual({ action: "accept", content: { n: 95.5 } });
  });
});
