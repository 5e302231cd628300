// ctx.elicit with a Standard Schema as requestedSchema (src/mrtr/asks.ts, src/standard-schema.ts): the question is
// the library's JSON Schema conversion, checked by the spec's flatness rules, and an accepted answer is checked by
// the library's own validation, whose output the handler receives.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { McpServer } from "../../src/index.js";
import { buildContext, runHandler } from "../../src/testing.js";
import { capabilities, send } from "../helpers.js";
import { stdioConnect } from "../legacy/helpers.js";
import { ELICIT } from "./fixture.js";

const profile = z.object({
  name: z.string().min(1),
  age: z.number().int().min(0).optional(),
  newsletter: z.boolean().default(false),
  color: z.enum(["red", "green"]).transform((c) => c.toUpperCase()),
});

function askingServer(): McpServer {
  const server = new McpServer({ name: "asking", version: "1" });
  server.registerTool("profile", {}, async (_args, ctx) => {
    const answer = await ctx.elicit("Your profile?", profile);
    return answer.action === "accept" ? JSON.stringify(answer.content) : answer.action;
  });
  server.registerTool("both", {}, async (_args, ctx) => {
    const [first, second] = await ctx.all([
      ctx.ask.elicit("Name?", toStandardJsonSchema(v.object({ name: v.string(), title: v.optional(v.string(), "Dr") }))),
      ctx.ask.elicit("Plain?", { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] }),
    ]);
    return JSON.stringify({ first, second });
  });
  server.registerTool("code", {}, async (_args, ctx) => {
    const answer = await ctx.elicit("Code?", z.object({ code: z.string().refine(async (c) => c === "1234", "wrong code") }));
    return answer.action === "accept" ? `code ${answer.content.code}` : answer.action;
  });
  return server;
}

const server = askingServer();
const asking = { meta: capabilities(ELICIT) };

async function call(name: string, extra: Record<string, unknown> = {}) {
  const answer = await send(server, "tools/call", { name, arguments: {}, ...extra }, asking);
  expect(answer.error).toBeUndefined();
  return answer.result;
}

describe("ctx.elicit with a Standard Schema", () => {
  it("[A87] asks with the library's JSON Schema conversion of the schema's input side", async () => {
    const first = await call("profile");
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests["elicit-1"]).toEqual({
      method: "elicitation/create",
      params: {
        message: "Your profile?",
        requestedSchema: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          properties: {
            name: { type: "string", minLength: 1 },
            age: { type: "integer", minimum: 0, maximum: 9007199254740991 },
            newsletter: { default: false, type: "boolean" },
            color: { type: "string", enum: ["red", "green"] },
          },
          required: ["name", "color"],
        },
      },
    });
  });

  it("[A87] gives the handler the validated content (defaults filled, transforms applied), and asks again when it fails", async () => {
    const first = await call("profile");
    const retry = (content: Record<string, unknown>) =>
      call("profile", { inputResponses: { "elicit-1": { action: "accept", content } }, requestState: first.requestState });
    const done = await retry({ name: "Ada", color: "red" });
    expect(done.resultType).toBe("complete");
    expect(JSON.parse(done.content[0].text)).toEqual({ name: "Ada", newsletter: false, color: "RED" });
    // An answer the library refuses (an unknown option, a negative age) is not the handler's: the question is asked again.
    for (const bad of [{ name: "Ada", color: "blue" }, { name: "Ada", color: "red", age: -1 }, { color: "red" }]) {
      const again = await retry(bad);
      expect(again.resultType).toBe("input_required");
      expect(Object.keys(again.inputRequests)).toEqual(["elicit-1"]);
    }
    const declined = await call("profile", { inputResponses: { "elicit-1": { action: "decline" } }, requestState: first.requestState });
    expect(declined.content[0].text).toBe("decline");
  });

  it("[A87] mixes with a JSON Schema ask in one round, and waits for an asynchronous validation", async () => {
    const first = await call("both");
    expect(Object.keys(first.inputRequests)).toEqual(["elicit-1", "elicit-2"]);
    const done = await call("both", {
      inputResponses: {
        "elicit-1": { action: "accept", content: { name: "Ada" } },
        "elicit-2": { action: "accept", content: { ok: true } },
      },
      requestState: first.requestState,
    });
    expect(JSON.parse(done.content[0].text)).toEqual({
      first: { action: "accept", content: { name: "Ada", title: "Dr" } },
      second: { action: "accept", content: { ok: true } },
    });
    const wrong = await call("code", { inputResponses: { "elicit-1": { action: "accept", content: { code: "0000" } } } });
    expect(wrong.resultType).toBe("input_required");
    const right = await call("code", { inputResponses: { "elicit-1": { action: "accept", content: { code: "1234" } } } });
    expect(right.content[0].text).toBe("code 1234");
  });

  it("[A87] refuses a conversion the spec's flatness rules refuse, and a schema without a conversion", async () => {
    const ctx = buildContext({ capabilities: ELICIT });
    const nested = z.object({ address: z.object({ city: z.string() }) });
    await expect(runHandler((_a, c) => c.elicit("x", nested as never), {}, ctx)).rejects.toThrow(
      /^elicit: requestedSchema\.properties\.address must be a primitive schema/,
    );
    // arktype writes a string union as an enum without `type`, which the spec's EnumSchema requires.
    await expect(runHandler((_a, c) => c.elicit("x", type({ color: "'red'|'green'" })), {}, ctx)).rejects.toThrow(
      /^elicit: requestedSchema\.properties\.color must be a primitive schema/,
    );
    await expect(runHandler((_a, c) => c.elicit("x", v.object({ name: v.string() })), {}, ctx)).rejects.toThrow(
      'elicit: requestedSchema is a Standard Schema (vendor "valibot") without a JSON Schema conversion (~standard.jsonSchema.input): wrap it with toStandardJsonSchema(schema) from "@valibot/to-json-schema"',
    );
    // A flat arktype schema is asked like any other.
    const asked = await runHandler((_a, c) => c.elicit("x", type({ name: "string", "age?": "number.integer>=0" })), {}, ctx);
    expect(asked.status).toBe("input_required");
  });

  it("[A87] in the initialize era, the client's answer is validated and transformed before the handler sees it", async () => {
    const era = new McpServer({ name: "era", version: "1" });
    era.registerTool("profile", {}, async (_args, ctx) => {
      try {
        const answer = await ctx.elicit("Your profile?", profile);
        return answer.action === "accept" ? JSON.stringify(answer.content) : answer.action;
      } catch (error) {
        return `ask failed: ${(error as Error).message}`;
      }
    });
    const c = stdioConnect(era);
    try {
      await c.initialize({ elicitation: {} });
      const good = c.request("tools/call", { name: "profile", arguments: {} });
      const asked = await c.next();
      expect(asked.params.requestedSchema.properties.color).toEqual({ type: "string", enum: ["red", "green"] });
      c.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Cy", color: "green" } } });
      expect(JSON.parse((await c.answer(good)).response.result.content[0].text)).toEqual({ name: "Cy", newsletter: false, color: "GREEN" });
      const bad = c.request("tools/call", { name: "profile", arguments: {} });
      const again = await c.next();
      c.send({ jsonrpc: "2.0", id: again.id, result: { action: "accept", content: { name: "Cy", color: "blue" } } });
      expect((await c.answer(bad)).response.result.content[0].text).toBe(
        "ask failed: ctx.elicit: the client's answer to elicitation/create does not fit what was asked",
      );
    } finally {
      await c.end();
    }
  });
});
