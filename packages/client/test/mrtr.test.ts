// Multi Round-Trip Requests: scripted in-memory servers for the exchange's rules, and a real @x/server over
// Streamable HTTP on 127.0.0.1 for handlers that never answer.
import { listen, McpServer, type RunningHttpServer } from "@x/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, type ClientOptions, StreamableHttpTransport } from "../src/index.js";
import { fakeClock, listResult, memoryClient, textResult, tool } from "./helpers.js";

const elicit = (message: string) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
});

const params = (r: { message: { params?: unknown } }) => r.message.params as Record<string, unknown>;

describe("Multi Round-Trip Requests", () => {
  it("answers the input requests through the handlers and retries with a new id, the same params, the answers and the state", async () => {
    // A state with characters a careless client might normalise.
    const state = '  ÿ\u00e9\u0301 \\"{state}" ✓\n ';
    const { client, requests } = await memoryClient(
      {
        "tools/list": () => listResult("tools", [tool("deploy")]),
        "tools/call": (p) => {
          if (!p.inputResponses) {
            return {
              resultType: "input_required",
              inputRequests: {
                who: elicit("Your GitHub login?"),
                llm: {
                  method: "sampling/createMessage",
                  params: { messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 },
                },
                dirs: { method: "roots/list", params: {} },
              },
              requestState: state,
            };
          }
          return textResult("deployed");
        },
      },
      {
        handlers: {
          elicitation: (p) => ({ action: "accept", content: { name: `octocat for ${p.message}` } }),
          sampling: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "m" }),
          roots: () => ({ roots: [{ uri: "file:///repo" }] }),
        },
      },
    );
    const result = await client.callTool("deploy", { env: "prod" });
    expect(result.content).toEqual([{ type: "text", text: "deployed" }]);
    const [first, retry] = requests.slice(1).map(params);
    expect(retry!.name).toBe("deploy");
    expect(retry!.arguments).toEqual({ env: "prod" });
    expect(retry!.arguments).toEqual(first!.arguments);
    expect(retry!.requestState).toBe(state);
    expect(retry!.inputResponses).toEqual({
      who: { action: "accept", content: { name: "octocat for Your GitHub login?" } },
      llm: { role: "assistant", content: { type: "text", text: "4" }, model: "m" },
      dirs: { roots: [{ uri: "file:///repo" }] },
    });
    expect(first).not.toHaveProperty("inputResponses");
    expect(first).not.toHaveProperty("requestState");
    expect(requests[2]!.message.id).not.toBe(requests[1]!.message.id);
  });

  it("leaves requestState out of the retry when none came, and retries at once on state alone", async () => {
    let calls = 0;
    const { client, requests } = await memoryClient(
      {
        "tools/list": () => listResult("tools", [tool("t")]),
        "tools/call": (p) => {
          calls++;
          if (calls === 1) return { resultType: "input_required", inputRequests: { q: elicit("Name?") } };
          if (calls === 2) return { resultType: "input_required", requestState: "step-2" };
          return textResult(`done with ${String(p.requestState)}`);
        },
      },
      { handlers: { elicitation: () => ({ action: "decline" }) } },
    );
    expect((await client.callTool("t")).content).toEqual([{ type: "text", text: "done with step-2" }]);
    const [, second, third] = requests.slice(1).map(params);
    expect(second).not.toHaveProperty("requestState");
    expect(second!.inputResponses).toEqual({ q: { action: "decline" } });
    expect(third!.requestState).toBe("step-2");
    expect(third).not.toHaveProperty("inputResponses");
  });

  it("gives up with -32090 after the allowed rounds", async () => {
    const { client, requests } = await memoryClient(
      {
        "tools/list": () => listResult("tools", [tool("nag")]),
        "tools/call": () => ({ resultType: "input_required", inputRequests: { q: elicit("Again?") }, requestState: "s" }),
      },
      { handlers: { elicitation: () => ({ action: "cancel" }) }, maxInputRounds: 3 },
    );
    await expect(client.callTool("nag")).rejects.toMatchObject({ code: ClientErrorCode.InputRoundsExceeded, data: { rounds: 3 } });
    expect(requests.filter((r) => r.message.method === "tools/call")).toHaveLength(4);
  });

  it("hands back the InputRequiredResult with inputRequired: return, and continues from it when asked", async () => {
    const { client, requests } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("t")]),
      "tools/call": (p) =>
        p.inputResponses
          ? textResult(JSON.stringify(p.inputResponses))
          : { resultType: "input_required", inputRequests: { q: elicit("Name?") }, requestState: "abc" },
    });
    const first = await client.callTool("t", {}, { inputRequired: "return" });
    expect(first).toMatchObject({ resultType: "input_required", requestState: "abc" });
    const done = await client.callTool(
      "t",
      {},
      { inputResponses: { q: { action: "accept", content: { name: "x" } } }, requestState: "abc" },
    );
    expect(done.content).toEqual([{ type: "text", text: '{"q":{"action":"accept","content":{"name":"x"}}}' }]);
    expect(params(requests[2]!).requestState).toBe("abc");
  });

  it("fails with -32091 when no handler can answer, naming the method and key", async () => {
    const { client } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("t")]),
      "tools/call": () => ({
        resultType: "input_required",
        inputRequests: { pick: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } },
      }),
    });
    await expect(client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.InputRequestUnhandled,
      data: { key: "pick", method: "sampling/createMessage" },
      message: expect.stringMatching(/no sampling handler/),
    });
  });

  it("fails with -32091 on an unknown input method, a handler that throws, or one that returns junk", async () => {
    const { client } = await memoryClient(
      {
        "tools/list": () => listResult("tools", [tool("unknown"), tool("throws"), tool("junk")]),
        "tools/call": (p) =>
          p.name === "unknown"
            ? { resultType: "input_required", inputRequests: { x: { method: "tasks/get", params: {} } } }
            : { resultType: "input_required", inputRequests: { q: elicit(String(p.name)) } },
      },
      {
        handlers: {
          elicitation: (p) => {
            if (p.message === "throws") throw new Error("no terminal");
            return { action: "maybe" } as never;
          },
        },
      },
    );
    await expect(client.callTool("unknown")).rejects.toMatchObject({
      code: ClientErrorCode.InputRequestUnhandled,
      message: expect.stringMatching(/tasks\/get/),
    });
    await expect(client.callTool("throws")).rejects.toMatchObject({
      code: ClientErrorCode.InputRequestUnhandled,
      message: expect.stringMatching(/no terminal/),
    });
    await expect(client.callTool("junk")).rejects.toMatchObject({
      code: ClientErrorCode.InputRequestUnhandled,
      message: expect.stringMatching(/invalid ElicitResult/),
    });
  });

  it("refuses an input_required result with neither inputRequests nor requestState", async () => {
    const { client } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("t")]),
      "tools/call": () => ({ resultType: "input_required" }),
    });
    await expect(client.callTool("t")).rejects.toMatchObject({ code: ClientErrorCode.InvalidResult });
  });

  it("resolves prompts/get and resources/read the same way", async () => {
    const { client, requests } = await memoryClient(
      {
        "prompts/get": (p) =>
          p.inputResponses
            ? {
                resultType: "complete",
                messages: [{ role: "user", content: { type: "text", text: `Hi ${JSON.stringify(p.inputResponses)}` } }],
              }
            : { resultType: "input_required", inputRequests: { q: elicit("Name?") }, requestState: "p1" },
        "resources/read": (p) =>
          p.requestState === "r1"
            ? { resultType: "complete", ttlMs: 60_000, cacheScope: "public", contents: [{ uri: p.uri, text: "secret" }] }
            : { resultType: "input_required", inputRequests: { q: elicit("Why?") }, requestState: "r1" },
      },
      { handlers: { elicitation: () => ({ action: "accept", content: { name: "n" } }) } },
    );
    const prompt = await client.getPrompt("greet", { lang: "en" });
    expect(prompt.messages[0]!.content).toEqual({ type: "text", text: 'Hi {"q":{"action":"accept","content":{"name":"n"}}}' });
    expect(params(requests[1]!)).toMatchObject({ name: "greet", arguments: { lang: "en" }, requestState: "p1" });
    const read = await client.readResource("file:///s");
    expect(read.contents).toEqual([{ uri: "file:///s", text: "secret" }]);
    // A result reached through input rounds is never cached.
    await client.readResource("file:///s");
    expect(requests.filter((r) => r.message.method === "resources/read")).toHaveLength(4);
  });

  it("gives each input handler its key, the request being retried, the round and the signal", async () => {
    const seen: unknown[] = [];
    const { client } = await memoryClient(
      {
        "tools/list": () => listResult("tools", [tool("t")]),
        "tools/call": (p) => (p.inputResponses ? textResult("ok") : { resultType: "input_required", inputRequests: { k1: elicit("A?") } }),
      },
      {
        handlers: {
          elicitation: (_p, context) => {
            seen.push({
              key: context.key,
              method: context.method,
              params: context.params,
              round: context.round,
              signal: context.signal instanceof AbortSignal,
            });
            return { action: "accept", content: {} };
          },
        },
      },
    );
    await client.callTool("t", { a: 1 });
    expect(seen).toEqual([{ key: "k1", method: "tools/call", params: { name: "t", arguments: { a: 1 } }, round: 1, signal: true }]);
  });
});

describe("an input handler that never answers, against a real server over HTTP", () => {
  let running: RunningHttpServer;
  beforeAll(async () => {
    const server = new McpServer({ name: "asking", version: "1.0.0" });
    server.registerTool("ask", {}, async (_args, ctx) => {
      const answer = await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
      return `hello ${String((answer as { content?: { name?: unknown } }).content?.name)}`;
    });
    running = await listen(server, { port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await running?.close();
  });

  async function connect(handlers: ClientOptions["handlers"]) {
    const client = new Client({ name: "mrtr-http", version: "1.0.0" }, { handlers, onWarning: () => {} });
    await client.connect(new StreamableHttpTransport(running.url));
    return client;
  }

  it("the caller's signal rejects callTool with -32800 at once, aborts the handler's signal, and ignores its late answer", async () => {
    const signals: AbortSignal[] = [];
    let late: (error: Error) => void = () => {};
    const client = await connect({
      elicitation: (_params, context) => {
        signals.push(context.signal);
        return new Promise<never>((_resolve, reject) => (late = reject));
      },
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const controller = new AbortController();
      const call = client.callTool("ask", {}, { signal: controller.signal });
      for (let i = 0; i < 200 && signals.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(signals).toHaveLength(1);
      controller.abort(new Error("the user closed the dialog"));
      await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled, source: "client" });
      expect(signals[0]!.aborted).toBe(true);
      // The handler gives up later: its rejection goes nowhere.
      late(new Error("too late"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    await client.close();
  });

  it("a signal that aborts while the handler runs synchronously still ends the call with -32800", async () => {
    const controller = new AbortController();
    const client = await connect({
      elicitation: () => {
        controller.abort();
        return new Promise<never>(() => {});
      },
    });
    await expect(client.callTool("ask", {}, { signal: controller.signal })).rejects.toMatchObject({
      code: ClientErrorCode.RequestCancelled,
    });
    await client.close();
  });

  it("close() while a handler answers rejects the call with -32000 (closed) and aborts the handler's signal", async () => {
    let entered: (signal: AbortSignal) => void = () => {};
    const handlerSignal = new Promise<AbortSignal>((resolve) => (entered = resolve));
    const client = await connect({
      elicitation: (_params, context) => {
        entered(context.signal);
        return new Promise<never>(() => {});
      },
    });
    const call = client.callTool("ask");
    const signal = await handlerSignal;
    await client.close();
    // Checked before the call is awaited: before the fix nothing ever settled it.
    expect(signal.aborted).toBe(true);
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.TransportFailed, data: { reason: "closed" } });
  });

  it("timeout bounds each round trip, not the person answering: a handler slower than it completes the call", async () => {
    // Only setTimeout/clearTimeout are faked: the person takes ten times the timeout on the test's clock,
    // and a round trip, however slow the machine, takes none of it.
    const clock = fakeClock();
    try {
      const signals: AbortSignal[] = [];
      const client = await connect({
        elicitation: async (_params, context) => {
          signals.push(context.signal);
          clock.advance(10_000);
          return { action: "accept", content: { name: "Ada" } };
        },
      });
      const result = await client.callTool("ask", {}, { timeout: 1000 });
      expect(result.content).toEqual([{ type: "text", text: "hello Ada" }]);
      expect(signals.map((s) => s.aborted)).toEqual([false]);
      await client.close();
    } finally {
      clock.restore();
    }
  });
});
