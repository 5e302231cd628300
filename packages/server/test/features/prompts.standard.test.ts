// Prompt arguments from a Standard Schema (src/features/prompts.ts): the advertised list derived from the schema,
// a request's arguments checked by the schema's own validation (-32602 listing its problems), its output given to the handler.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { listen, McpServer, type RunningHttpServer } from "../../src/index.js";
import { rpc } from "../helpers.js";

let running: RunningHttpServer;
beforeAll(async () => {
  const server = new McpServer({ name: "prompt-schemas", version: "1" });
  server.registerPrompt(
    "review",
    {
      arguments: z.object({
        code: z.string().min(1).describe("The code to review"),
        lang: z.enum(["ts", "py"]).optional(),
        tone: z.string().default("kind"),
      }),
      complete: { lang: () => ["ts", "py"] },
    },
    ({ code, lang, tone }) => `Review ${code} (${lang ?? "any"}, ${tone})`,
  );
  server.registerPrompt(
    "greet",
    { arguments: toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.title("Name")) })) },
    ({ name }) => `Hi ${name}`,
  );
  server.registerPrompt("echo", { arguments: type({ text: "string", "times?": "string.numeric.parse" }) }, ({ text, times }) =>
    text.repeat(times ?? 1),
  );
  running = await listen(server, { port: 0 });
});
afterAll(() => running.close());

const call = async (method: string, params: Record<string, unknown>) => (await rpc(running.url, method, params)).json;
const get = (name: string, args: Record<string, unknown>) => call("prompts/get", { name, arguments: args });

describe("prompt arguments from a Standard Schema", () => {
  it("advertises the argument list derived from the schema (zod, valibot, arktype)", async () => {
    const { prompts } = (await call("prompts/list", {})).result;
    expect(prompts.map((p: { arguments: unknown }) => p.arguments)).toEqual([
      [{ name: "code", description: "The code to review", required: true }, { name: "lang" }, { name: "tone" }],
      [{ name: "name", title: "Name", required: true }],
      [{ name: "text", required: true }, { name: "times" }],
    ]);
  });

  it("gives the handler the schema's output (defaults filled, transforms applied)", async () => {
    const review = (await get("review", { code: "x()" })).result;
    expect(review.messages[0].content.text).toBe("Review x() (any, kind)");
    expect((await get("echo", { text: "ab", times: "3" })).result.messages[0].content.text).toBe("ababab");
    expect((await get("greet", { name: "Bo" })).result.messages[0].content.text).toBe("Hi Bo");
  });

  it("answers -32602 listing the schema's problems", async () => {
    const empty = await get("review", { code: "", lang: "rs" });
    expect(empty.error.code).toBe(-32602);
    expect(empty.error.message).toMatch(/^Invalid arguments for prompt review:/);
    expect(empty.error.data.problems.map((p: { path: string }) => p.path).sort()).toEqual(["/code", "/lang"]);
    const missing = await get("greet", {});
    expect(missing.error.code).toBe(-32602);
    expect(missing.error.message).toBe("Missing required argument: name");
    expect((await get("echo", { text: "a", times: "many" })).error.code).toBe(-32602);
  });

  it("completes an argument the schema declares", async () => {
    const done = await call("completion/complete", { ref: { type: "ref/prompt", name: "review" }, argument: { name: "lang", value: "" } });
    expect(done.result.completion.values).toEqual(["ts", "py"]);
  });

  it("refuses at registration a schema whose property is not a string, or that is not an object", () => {
    const server = new McpServer({ name: "bad", version: "1" });
    // @ts-expect-error: a prompt argument is a string on the wire
    expect(() => server.registerPrompt("n", { arguments: z.object({ count: z.number() }) }, () => "x")).toThrow(
      "prompt n: arguments.count must accept a string: prompt arguments are strings on the wire",
    );
    // @ts-expect-error: arguments are an object of strings
    expect(() => server.registerPrompt("s", { arguments: z.string() }, () => "x")).toThrow(
      "prompt s: arguments must be an object schema with properties",
    );
  });
});
