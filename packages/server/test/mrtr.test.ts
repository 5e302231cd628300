import { inputRequiredResult } from "@x/builders";
import { validate } from "@x/mcp-v2607";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNotSupported, listen, McpServer, type RequestContext, type RunningHttpServer } from "../src/index.js";
import { buildContext, runHandler } from "../src/testing.js";
import { rpc } from "./helpers.js";

const ELICIT = { elicitation: {} };
const ALL = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
const ageSchema = { type: "object" as const, properties: { age: { type: "integer" as const, minimum: 0 } }, required: ["age"] };
const caps = (c: Record<string, unknown>) => ({ meta: { "io.modelcontextprotocol/clientCapabilities": c } });

let runs: Record<string, number> = {};
const count = (name: string) => {
  runs[name] = (runs[name] ?? 0) + 1;
};
let seenAnswers: unknown[] = [];
let outsideError: unknown;

function mrtrServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: "mrtr", version: "1" }, options);
  server.registerTool("two_questions", {}, async (_args, ctx) => {
    count("two_questions");
    const name = await ctx.elicit("Name?", nameSchema);
    const age = await ctx.elicit("Age?", ageSchema);
    return JSON.stringify({ name, age });
  });
  server.registerTool("one_question", {}, async (_args, ctx) => {
    count("one_question");
    seenAnswers.push(ctx.answers);
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
        outsideError = error;
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

let running: RunningHttpServer;
beforeAll(async () => {
  running = await listen(
    mrtrServer({ requestStateKeys: [Buffer.alloc(32, 1)], principal: (ctx) => ctx.assigns.user as string | undefined }),
    {
      port: 0,
      assigns: (header) => ({ user: header("x-user") }),
    },
  );
});
afterAll(() => running.close());

async function call(name: string, extra: Record<string, unknown> = {}, options: Parameters<typeof rpc>[3] = caps(ELICIT)) {
  return (await rpc(running.url, "tools/call", { name, arguments: {}, ...extra }, options)).json;
}

describe("Multi Round-Trip Requests over HTTP", () => {
  it("[A37] [A32] [A33] a tool that asks 2 questions runs its body 3 times: each answer found by position, each missing one ends the round with input_required and requestState; [A29] keys are elicit-1, elicit-2", async () => {
    runs = {};
    const r1 = await call("two_questions");
    expect(r1.result.resultType).toBe("input_required");
    expect(validate("InputRequiredResult", r1.result).ok).toBe(true);
    expect(Object.keys(r1.result.inputRequests)).toEqual(["elicit-1"]);
    expect(r1.result.inputRequests["elicit-1"]).toEqual({
      method: "elicitation/create",
      params: { message: "Name?", requestedSchema: nameSchema },
    });
    expect("ttlMs" in r1.result).toBe(false);
    const r2 = await call("two_questions", {
      inputResponses: { "elicit-1": { action: "accept", content: { name: "Ada" } } },
      requestState: r1.result.requestState,
    });
    expect(Object.keys(r2.result.inputRequests)).toEqual(["elicit-2"]);
    expect(r2.result.requestState).not.toBe(r1.result.requestState);
    const r3 = await call("two_questions", {
      inputResponses: { "elicit-2": { action: "accept", content: { age: 36 } } },
      requestState: r2.result.requestState,
    });
    expect(r3.result.resultType).toBe("complete");
    expect(JSON.parse(r3.result.content[0].text)).toEqual({
      name: { action: "accept", content: { name: "Ada" } },
      age: { action: "accept", content: { age: 36 } },
    });
    expect(runs.two_questions).toBe(3);
  });

  it("[A29] this round's answers are merged over earlier rounds'; {} on a first round", async () => {
    seenAnswers = [];
    await call("one_question");
    await call("one_question", { inputResponses: { user_name: { action: "decline" } } });
    expect(seenAnswers).toEqual([{}, { user_name: { action: "decline" } }]);
  });

  it("[A34] accept, decline and cancel are returned to the tool and never asked again", async () => {
    for (const answer of [{ action: "accept", content: { name: "Bo" } }, { action: "decline" }, { action: "cancel" }]) {
      const r = await call("one_question", { inputResponses: { user_name: answer } });
      expect(r.result.resultType).toBe("complete");
      expect(JSON.parse(r.result.content[0].text)).toEqual(answer);
    }
  });

  it("[A30] [A31] without the capability an ask answers not_supported and never reads the answers", async () => {
    for (const c of [{}, { elicitation: { url: {} } }]) {
      const r = await call("one_question", { inputResponses: { user_name: { action: "accept", content: { name: "ignored" } } } }, caps(c));
      expect(r.result.resultType).toBe("complete");
      expect(JSON.parse(r.result.content[0].text)).toEqual({ action: "not_supported", capability: "elicitation.form" });
    }
  });

  it("asks only what the client declared, each kind keyed by kind and position, in one round", async () => {
    const only = await call("kinds", {}, caps({ sampling: {} }));
    expect(Object.keys(only.result.inputRequests)).toEqual(["sample-1"]);
    const all = await call("kinds", {}, caps(ALL));
    expect(Object.keys(all.result.inputRequests)).toEqual(["elicit-1", "elicit-2", "sample-1", "roots-1"]);
    expect(all.result.inputRequests["elicit-2"].params).toEqual({ mode: "url", message: "Log in", url: "https://example.com/login" });
    const answers = {
      "elicit-1": { action: "accept", content: { name: "Cy" } },
      "elicit-2": { action: "accept" },
      "sample-1": { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" },
      "roots-1": { roots: [{ uri: "file:///home" }] },
    };
    const done = await call("kinds", { inputResponses: answers, requestState: all.result.requestState }, caps(ALL));
    expect(done.result.resultType).toBe("complete");
    expect(JSON.parse(done.result.content[0].text)).toEqual({
      form: answers["elicit-1"],
      url: answers["elicit-2"],
      sample: answers["sample-1"],
      roots: answers["roots-1"],
    });
  });

  it("asks again for missing answers and for accepted content that fails requestedSchema; ignores extra keys", async () => {
    const missing = await call("one_question", { inputResponses: { wrong_key: { action: "accept", content: {} } } });
    expect(missing.result.resultType).toBe("input_required");
    const invalid = await call("one_question", { inputResponses: { user_name: { action: "accept", content: { name: 42 } } } });
    expect(invalid.result.resultType).toBe("input_required");
    const badShape = await call("one_question", { inputResponses: { user_name: { action: "maybe" } } });
    expect(badShape.result.resultType).toBe("input_required");
    const extra = await call("one_question", { inputResponses: { user_name: { action: "decline" }, other: { x: 1 } } });
    expect(extra.result.resultType).toBe("complete");
  });

  it("refuses inputResponses that is not an object, or an entry that is not one, with -32602", async () => {
    for (const inputResponses of [null, [], "x", { user_name: 12345 }, { user_name: null }]) {
      const r = await call("one_question", { inputResponses });
      expect(r.error?.code, JSON.stringify(inputResponses)).toBe(-32602);
    }
  });

  it("a duplicate key in one run is a fault, not a question", async () => {
    const r = await call("duplicate_key");
    expect(r.result.isError).toBe(true);
    expect(r.result.content[0].text).toContain("used twice");
  });

  it("[A36] a catch around an ask does not swallow the end of the round", async () => {
    const r = await call("swallows");
    expect(r.result.resultType).toBe("input_required");
  });

  it("[A36] an ask from a detached timer is refused by name", async () => {
    outsideError = undefined;
    const r = await call("detached");
    expect(r.result.content[0].text).toBe("returned");
    for (let i = 0; i < 50 && !outsideError; i++) await new Promise((res) => setTimeout(res, 10));
    expect(String(outsideError)).toMatch(/ctx\.elicit was called outside the handler's run/);
  });

  it("serves the explicit return form", async () => {
    const r = await call("explicit");
    expect(r.result).toMatchObject({ resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create" } } });
    expect("requestState" in r.result).toBe(false);
  });

  it("asks from prompts/get and resources/read too, never with cache hints", async () => {
    const prompt = (await rpc(running.url, "prompts/get", { name: "asking_prompt" }, caps(ELICIT))).json.result;
    expect(prompt.resultType).toBe("input_required");
    const read = (await rpc(running.url, "resources/read", { uri: "file:///secret" }, caps(ELICIT))).json.result;
    expect(read.resultType).toBe("input_required");
    expect("ttlMs" in read || "cacheScope" in read).toBe(false);
    const answered = (
      await rpc(
        running.url,
        "resources/read",
        {
          uri: "file:///secret",
          inputResponses: { "elicit-1": { action: "accept", content: { password: "x" } } },
          requestState: read.requestState,
        },
        caps(ELICIT),
      )
    ).json.result;
    expect(answered).toMatchObject({ resultType: "complete", contents: [{ text: "the secret" }], ttlMs: 1000, cacheScope: "public" });
  });
});

describe("sealed requestState", () => {
  async function firstRound(options: Parameters<typeof rpc>[3] = caps(ELICIT), extra: Record<string, unknown> = {}) {
    const r = await call("echo_args", { arguments: { n: 1 }, ...extra }, options);
    expect(r.result.resultType).toBe("input_required");
    return r.result.requestState as string;
  }
  const answer = { "elicit-1": { action: "accept", content: { name: "Ann" } } };

  it("completes with the state it sealed", async () => {
    const state = await firstRound();
    const r = await call("echo_args", { arguments: { n: 1 }, inputResponses: answer, requestState: state });
    expect(JSON.parse(r.result.content[0].text)).toEqual({ n: 1, answer: answer["elicit-1"] });
  });

  it("refuses a state with one byte changed, and the handler does not run", async () => {
    const state = await firstRound();
    runs = {};
    for (const i of [0, 10, state.indexOf(".") + 3, state.length - 2]) {
      const c = state[i]!;
      const tampered = `${state.slice(0, i)}${c === "A" ? "B" : "A"}${state.slice(i + 1)}`;
      const r = await call("echo_args", { arguments: { n: 1 }, inputResponses: answer, requestState: tampered });
      expect(r.error?.code).toBe(-32602);
      expect(r.error.message).toMatch(/requestState/);
    }
    expect((await call("echo_args", { arguments: { n: 1 }, inputResponses: answer, requestState: `${state}-TAMPERED` })).error.code).toBe(
      -32602,
    );
    expect(runs.echo_args).toBeUndefined();
  });

  it("refuses a state replayed on another request (other arguments or another tool)", async () => {
    const state = await firstRound();
    expect((await call("echo_args", { arguments: { n: 2 }, inputResponses: answer, requestState: state })).error.code).toBe(-32602);
    expect((await call("one_question", { inputResponses: answer, requestState: state })).error.code).toBe(-32602);
  });

  it("refuses a state replayed by another principal", async () => {
    const state = await firstRound({ ...caps(ELICIT), headers: { "x-user": "alice" } });
    const bob = await call(
      "echo_args",
      { arguments: { n: 1 }, inputResponses: answer, requestState: state },
      { ...caps(ELICIT), headers: { "x-user": "bob" } },
    );
    expect(bob.error.code).toBe(-32602);
    expect(bob.error.message).toMatch(/principal/);
    const alice = await call(
      "echo_args",
      { arguments: { n: 1 }, inputResponses: answer, requestState: state },
      { ...caps(ELICIT), headers: { "x-user": "alice" } },
    );
    expect(alice.result.resultType).toBe("complete");
  });

  it("refuses an expired state", async () => {
    const s = mrtrServer({ requestStateTtlMs: 1 });
    const r = await listen(s, { port: 0 });
    try {
      const first = (await rpc(r.url, "tools/call", { name: "echo_args", arguments: { n: 1 } }, caps(ELICIT))).json.result;
      await new Promise((res) => setTimeout(res, 10));
      const late = (
        await rpc(
          r.url,
          "tools/call",
          { name: "echo_args", arguments: { n: 1 }, inputResponses: answer, requestState: first.requestState },
          caps(ELICIT),
        )
      ).json;
      expect(late.error).toMatchObject({ code: -32602, message: "Invalid requestState: expired" });
    } finally {
      await r.close();
    }
  });

  it("accepts a state signed with a rotated-out key still in the ring, and refuses it once the key is gone", async () => {
    const oldKey = Buffer.alloc(32, 1);
    const newKey = Buffer.alloc(32, 2);
    const state = await firstRound();
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": ELICIT };
    const retry = (server: McpServer) =>
      server.handle({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "echo_args", arguments: { n: 1 }, inputResponses: answer, requestState: state, _meta: meta },
      });
    const rotated = (await retry(mrtrServer({ requestStateKeys: [newKey, oldKey] }))).response as any;
    expect(rotated.result.resultType).toBe("complete");
    const dropped = (await retry(mrtrServer({ requestStateKeys: [newKey] }))).response as any;
    expect(dropped.error.code).toBe(-32602);
  });

  it("takes keys from MCP_REQUEST_STATE_KEYS when no option is given", async () => {
    process.env.MCP_REQUEST_STATE_KEYS = `${Buffer.alloc(32, 9).toString("base64")}`;
    try {
      const a = mrtrServer();
      const b = mrtrServer();
      expect(a.keys.ephemeral).toBe(false);
      const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": ELICIT };
      const first = (await a.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "one_question", _meta: meta } }))
        .response as any;
      const second = (
        await b.handle({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "one_question",
            inputResponses: { user_name: { action: "decline" } },
            requestState: first.result.requestState,
            _meta: meta,
          },
        })
      ).response as any;
      expect(second.result.resultType).toBe("complete");
    } finally {
      delete process.env.MCP_REQUEST_STATE_KEYS;
    }
  });
});

describe("test helpers (@x/server/testing)", () => {
  const tool = async (_args: unknown, ctx: RequestContext) => {
    const first = await ctx.elicit("Name?", nameSchema);
    const second = await ctx.elicit("Age?", ageSchema);
    return { first, second };
  };

  it("[A38] buildContext with a preset answer plus runHandler answers the first elicit at once, and shows the next question", async () => {
    const ctx = buildContext({ capabilities: ELICIT, answers: { "elicit-1": { action: "accept", content: { name: "Di" } } } });
    expect(ctx.answers).toEqual({ "elicit-1": { action: "accept", content: { name: "Di" } } });
    const outcome = await runHandler(tool, {}, ctx);
    expect(outcome.status).toBe("input_required");
    if (outcome.status !== "input_required") return;
    expect(outcome.question).toEqual({
      key: "elicit-2",
      request: { method: "elicitation/create", params: { message: "Age?", requestedSchema: ageSchema } },
    });
    expect(outcome.used).toEqual({ "elicit-1": { action: "accept", content: { name: "Di" } } });
  });

  it("[A38] with both answers the run completes", async () => {
    const ctx = buildContext({
      capabilities: ELICIT,
      answers: { "elicit-1": { action: "decline" }, "elicit-2": { action: "accept", content: { age: 3 } } },
    });
    const outcome = await runHandler(tool, {}, ctx);
    expect(outcome).toEqual({
      status: "complete",
      result: { first: { action: "decline" }, second: { action: "accept", content: { age: 3 } } },
    });
  });

  it("[A38] [A36] with the capability but no open round, elicit throws by name", async () => {
    const ctx = buildContext({ capabilities: ELICIT });
    await expect(ctx.elicit("Name?", nameSchema)).rejects.toThrow(/ctx\.elicit was called outside the handler's run/);
  });

  it("[A30] a context that never reached the wire answers not_supported; [A29] its answers are {}", async () => {
    const ctx = buildContext();
    expect(ctx.answers).toEqual({});
    const answer = await ctx.elicit("Name?", nameSchema);
    expect(isNotSupported(answer)).toBe(true);
  });

  it("[A35] the schema must be a flat object of primitive properties", async () => {
    const ctx = buildContext({ capabilities: ELICIT });
    const nested = { type: "object", properties: { address: { type: "object", properties: {} } } };
    const outcome = runHandler((_a, c) => c.elicit("x", nested as never), {}, ctx);
    await expect(outcome).rejects.toThrow(TypeError);
    await expect(runHandler((_a, c) => c.elicit("x", nested as never), {}, ctx)).rejects.toThrow(
      /^elicit: requestedSchema\.properties\.address/,
    );
  });

  it("what a handler asks is checked by the builders' rules, before anything is sent", async () => {
    const ctx = buildContext({ capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } });
    await expect(runHandler((_a, c) => c.elicitUrl("Sign in", "not a url"), {}, ctx)).rejects.toThrow(
      /^elicitUrl: url must be an absolute URL/,
    );
    const messages = [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }];
    await expect(runHandler((_a, c) => c.createMessage({ messages, maxTokens: 0 }), {}, ctx)).rejects.toThrow(RangeError);
    await expect(
      runHandler((_a, c) => c.createMessage({ messages: [{ role: "system" }] as never, maxTokens: 5 }), {}, ctx),
    ).rejects.toThrow(/^createMessage: messages\[0\]/);
    // A well-formed ask goes out as an input request.
    const asked = await runHandler((_a, c) => c.createMessage({ messages, maxTokens: 5 }), {}, ctx);
    expect(asked.status).toBe("input_required");
  });

  it("asks are refused on methods that may not answer input_required", async () => {
    const ctx = buildContext({ capabilities: ELICIT, method: "tools/list" });
    await expect(runHandler((_a, c) => c.elicit("x", nameSchema), {}, ctx)).rejects.toThrow(/only allowed in tools\/call/);
  });
});

describe("the per-process key", () => {
  it("warns once that several instances need a shared key", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => {
      if (w.code === "X_MCP_EPHEMERAL_STATE_KEY") warnings.push(w.message);
    };
    process.on("warning", onWarning);
    try {
      const s = mrtrServer();
      const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": ELICIT };
      await s.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "one_question", _meta: meta } });
      await s.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "one_question", _meta: meta } });
      await new Promise((r) => setTimeout(r, 10));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/shared key/);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
