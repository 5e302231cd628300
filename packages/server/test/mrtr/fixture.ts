/** The server the Multi Round-Trip tests (test/mrtr/) ask through: tools, a prompt and a resource that ask. */
import { inputRequiredResult } from "@x/builders";
import { afterAll, beforeAll } from "vitest";
import { listen, McpServer, type RequestContext, type RunningHttpServer } from "../../src/index.js";
import { capabilities, rpc } from "../helpers.js";

export const ELICIT = { elicitation: {} };
export const ALL = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
export const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
export const ageSchema = { type: "object" as const, properties: { age: { type: "integer" as const, minimum: 0 } }, required: ["age"] };
/** `rpc` options declaring these client capabilities. */
export const caps = (c: Record<string, unknown>) => ({ meta: capabilities(c) });

/** What the handlers saw: runs by tool, `ctx.answers` of `one_question`, the error of a detached ask. */
export const observed: { runs: Record<string, number>; answers: unknown[]; outsideError: unknown } = {
  runs: {},
  answers: [],
  outsideError: undefined,
};
const count = (name: string) => {
  observed.runs[name] = (observed.runs[name] ?? 0) + 1;
};

export function mrtrServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: "mrtr", version: "1" }, options);
  server.registerTool("two_questions", {}, async (_args, ctx) => {
    count("two_questions");
    const name = await ctx.elicit("Name?", nameSchema);
    const age = await ctx.elicit("Age?", ageSchema);
    return JSON.stringify({ name, age });
  });
  server.registerTool("one_question", {}, async (_args, ctx) => {
    count("one_question");
    observed.answers.push(ctx.answers);
    const answer = await ctx.elicit("Name?", nameSchema, { key: "user_name" });
    return JSON.stringify(answer);
  });
  server.registerTool("kinds", {}, async (_args, ctx) => {
    const [form, url, sample, roots] = await ctx.all([
      ctx.ask.elicit("Name?", nameSchema),
      ctx.ask.elicitUrl("Log in", "https://example.com/login"),
      ctx.ask.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 10 }),
      ctx.ask.listRoots(),
    ]);
    return JSON.stringify({ form, url, sample, roots });
  });
  server.registerTool("duplicate_key", {}, async (_args, ctx) => {
    await ctx.all([ctx.ask.elicit("a", nameSchema, { key: "k" }), ctx.ask.elicit("b", nameSchema, { key: "k" })]);
    return "never";
  });
  server.registerTool("swallows", {}, async (_args, ctx) => {
    try {
      await ctx.elicit("Name?", nameSchema);
    } catch {
      // A handler that swallows the end of the round still answers input_required.
    }
    return "the return value is ignored";
  });
  server.registerTool("detached", {}, async (_args, ctx: RequestContext) => {
    setTimeout(() => {
      ctx.elicit("late?", nameSchema).catch((error) => {
        observed.outsideError = error;
      });
    }, 5);
    return "returned";
  });
  server.registerTool("explicit", {}, (args) =>
    args.confirmed === true
      ? "confirmed"
      : inputRequiredResult({
          inputRequests: { confirm: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: nameSchema } } },
        }),
  );
  server.registerTool("echo_args", { inputSchema: { type: "object", properties: { n: { type: "integer" } } } }, async (args, ctx) => {
    count("echo_args");
    const answer = await ctx.elicit("Name?", nameSchema);
    return JSON.stringify({ n: args.n, answer });
  });
  server.registerPrompt("asking_prompt", { description: "asks" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Context?", { type: "object", properties: { context: { type: "string" } } });
    return `context: ${JSON.stringify(answer)}`;
  });
  server.registerResource("asking_resource", "file:///secret", { cache: { ttlMs: 1000, cacheScope: "public" } }, async (_uri, ctx) => {
    const answer = await ctx.elicit("Password?", { type: "object", properties: { password: { type: "string" } } });
    return answer.action === "accept" ? "the secret" : "no";
  });
  return server;
}

/**
 * Serves {@link mrtrServer} over HTTP for the test file that calls it (keys
 * shared, the principal taken from the `x-user` header): `url`, and `call`,
 * one `tools/call` that declares `elicitation` unless told otherwise.
 */
export function serveMrtr() {
  let running: RunningHttpServer;
  beforeAll(async () => {
    running = await listen(
      mrtrServer({ requestStateKeys: [Buffer.alloc(32, 1)], principal: (ctx) => ctx.assigns.user as string | undefined }),
      { port: 0, assigns: (header) => ({ user: header("x-user") }) },
    );
  });
  afterAll(() => running.close());
  return {
    get url() {
      return running.url;
    },
    async call(name: string, extra: Record<string, unknown> = {}, options: Parameters<typeof rpc>[3] = caps(ELICIT)) {
      return (await rpc(running.url, "tools/call", { name, arguments: {}, ...extra }, options)).json;
    },
  };
}
