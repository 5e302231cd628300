import { describe, expect, it } from "vitest";
import { McpServer } from "../src/index.js";
import { meta } from "./helpers.js";

const caps = (c: Record<string, unknown>) => meta({ "io.modelcontextprotocol/clientCapabilities": c });
let nextId = 1;

async function call(server: McpServer, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const outcome = await server.handle({
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name, arguments: args, ...extra, _meta: caps({ elicitation: {} }) },
  });
  return (outcome.response as { result: any }).result;
}

function registrationError(register: () => unknown): Error {
  try {
    register();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected registerTool to throw");
}

describe("a tool's schemas are read in the dialect their $schema declares", () => {
  it("registers a draft-07 inputSchema with a tuple items and checks arguments by it", async () => {
    const server = new McpServer({ name: "d7", version: "1" });
    server.registerTool(
      "point",
      {
        inputSchema: {
          $schema: "http://json-schema.org/draft-07/schema#",
          type: "object",
          properties: { at: { type: "array", items: [{ type: "number" }, { type: "number" }] } },
          required: ["at"],
        },
      },
      (args) => JSON.stringify(args.at),
    );
    expect((await call(server, "point", { at: [1, 2] })).isError).toBeUndefined();
    const bad = await call(server, "point", { at: ["x", 2] });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toBe("Invalid arguments for tool point:\n/at/0: must be number");
  });

  it("ignores a $ref's siblings in a draft-07 outputSchema, applies them in 2020-12", async () => {
    const server = new McpServer({ name: "ref", version: "1" });
    const properties = { code: { $ref: "#/definitions/code", maxLength: 2 } };
    const answer = () => ({ resultType: "complete" as const, content: [], structuredContent: { code: "ABCD" } });
    server.registerTool(
      "d7",
      {
        outputSchema: {
          $schema: "http://json-schema.org/draft-07/schema",
          type: "object",
          definitions: { code: { type: "string" } },
          properties,
        },
      },
      answer,
    );
    server.registerTool("d2020", { outputSchema: { type: "object", definitions: { code: { type: "string" } }, properties } }, answer);
    expect((await call(server, "d7", {})).isError).toBeUndefined();
    const strict = await call(server, "d2020", {});
    expect(strict.isError).toBe(true);
    expect(strict.content[0].text).toMatch(/\/code: must NOT have more than 2 characters/);
  });

  it("refuses an unknown $schema at registration, naming the tool and the dialect", () => {
    const server = new McpServer({ name: "odd", version: "1" });
    const input = registrationError(() =>
      server.registerTool("odd_in", { inputSchema: { $schema: "https://example.com/my-dialect", type: "object" } }, () => "x"),
    );
    expect(input.message).toMatch(/^tool odd_in: inputSchema /);
    expect(input.message).toContain('"https://example.com/my-dialect" is not supported');
    const output = registrationError(() =>
      // @ts-expect-error: a plain string from a tool with an outputSchema (the registration is refused first)
      server.registerTool("odd_out", { outputSchema: { $schema: "http://json-schema.org/draft-03/schema#", type: "object" } }, () => "x"),
    );
    expect(output.message).toMatch(/^tool odd_out: outputSchema /);
    expect(output.message).toContain('"http://json-schema.org/draft-03/schema#" is not supported');
  });

  it("refuses an elicitation whose requestedSchema names an unknown dialect, at ask time", async () => {
    const server = new McpServer({ name: "ask", version: "1" });
    server.registerTool("asks", {}, async (_args, ctx) => {
      const schema = { $schema: "https://example.com/my-dialect", type: "object", properties: { name: { type: "string" } } };
      await ctx.elicit("Name?", schema as never);
      return "never";
    });
    const result = await call(server, "asks", {});
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ errorType: "tool_fault", tool: "asks", exception: "TypeError" });
    expect(result.structuredContent.message).toMatch(/^elicit: requestedSchema .*"https:\/\/example.com\/my-dialect" is not supported/);
  });

  it("asks with a draft-07 requestedSchema and checks the answer by it", async () => {
    const server = new McpServer({ name: "ask7", version: "1" });
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object" as const,
      properties: { age: { type: "integer" as const, minimum: 0 } },
      required: ["age"],
    };
    server.registerTool("asks", {}, async (_args, ctx) => JSON.stringify(await ctx.elicit("Age?", schema as never)));
    expect((await call(server, "asks", {})).resultType).toBe("input_required");
    const refused = await call(server, "asks", {}, { inputResponses: { "elicit-1": { action: "accept", content: { age: -1 } } } });
    expect(refused.resultType).toBe("input_required");
    const accepted = await call(server, "asks", {}, { inputResponses: { "elicit-1": { action: "accept", content: { age: 3 } } } });
    expect(JSON.parse(accepted.content[0].text)).toEqual({ action: "accept", content: { age: 3 } });
  });
});
