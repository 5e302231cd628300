import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type Answer,
  answerToElicitResult,
  elicitationToRequest,
  mcpTools,
  type PlainTool,
  pendingOf,
  type Request,
  type RunEvent,
  runTool,
  streamTool,
  suspend,
  type ToolContext,
  type ToolResult,
  type WaitFor,
} from "../src/index.js";
import { listResult, memoryClient, textResult, tool } from "./helpers.js";

/** A `deploy` tool: asks which environment first, then deploys there. */
function deployTool(calls: Array<ToolContext | undefined>): PlainTool {
  return {
    name: "deploy",
    description: "Deploy, asking which environment first",
    inputSchema: { type: "object" },
    source: "custom",
    execute: (_args, ctx) => {
      calls.push(ctx);
      if (!ctx?.answer) return suspend({ id: "pnd-deploy-1", kind: "input", prompt: "Which environment?" });
      if (!ctx.answer.ok) return { output: `declined: ${ctx.answer.reason ?? "no reason"}`, isError: true };
      return { output: `deployed to ${String(ctx.answer.data?.env ?? "unknown")}` };
    },
  };
}

const formParams = {
  mode: "form" as const,
  message: "What is your shipping postal code?",
  requestedSchema: { type: "object" as const, properties: { postal_code: { type: "string" as const } } },
};
const urlParams = {
  mode: "url" as const,
  message: "Please authorize access to your calendar.",
  url: "https://example.com/oauth/authorize?state=abc123",
};

describe("tool context", () => {
  it("[A65] has signal, timeout (null when unset, not 0) and answer, and may be left out", async () => {
    const calls: Array<ToolContext | undefined> = [];
    const tool = deployTool(calls);
    const signal = new AbortController().signal;
    await runTool(tool, {}, { signal, waitFor: (r) => ({ id: r.id, ok: true, data: { env: "staging" } }) });
    expect(calls[0]).toEqual({ signal, timeout: null });
    expect(calls[1]).toEqual({ signal, timeout: null, answer: { id: "pnd-deploy-1", ok: true, data: { env: "staging" } } });
    await runTool(tool, {}, { timeout: 5000 });
    expect(calls[2]!.timeout).toBe(5000);
    // The context is optional: a tool is callable without one.
    expect(pendingOf(await tool.execute({}))).toEqual({ id: "pnd-deploy-1", kind: "input", prompt: "Which environment?" });
    expectTypeOf<ToolContext["timeout"]>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<PlainTool["execute"]>().parameter(1).toEqualTypeOf<ToolContext | undefined>();
  });

  it("[A66] carries answer only on the re-execution after waitFor", async () => {
    const calls: Array<ToolContext | undefined> = [];
    await runTool(deployTool(calls), {}, { waitFor: (r) => ({ id: r.id, ok: true, data: { env: "prod" } }) });
    expect(calls.map((ctx) => Object.hasOwn(ctx ?? {}, "answer"))).toEqual([false, true]);
    const plain: Array<ToolContext | undefined> = [];
    await runTool(
      {
        name: "plain",
        inputSchema: {},
        execute: (_a, ctx) => {
          plain.push(ctx);
          return { output: "ok" };
        },
      },
      {},
      { waitFor: () => ({ id: "x", ok: true }) },
    );
    expect(plain).toHaveLength(1);
    expect(Object.hasOwn(plain[0]!, "answer")).toBe(false);
  });
});

describe("suspensions", () => {
  it("[A67] are a ToolResult { output: prompt, isError: true, metadata: { pending: Request } }", () => {
    const request: Request = { id: "q-1", kind: "input", prompt: "Which environment?" };
    const result: ToolResult = suspend(request);
    expect(result).toEqual({ output: "Which environment?", isError: true, metadata: { pending: request } });
    expect(pendingOf(result)).toBe(request);
    expect(pendingOf({ output: "Which environment?", isError: false, metadata: { pending: request } })).toBeUndefined();
    expect(pendingOf({ output: "plain" })).toBeUndefined();
  });
});

describe("the elicitation bridge", () => {
  it("[A68] uses Request {id, kind, prompt, url?, data?, expiresAt?} and Answer {id, ok, data?, reason?}, keys spelled the same in every port", () => {
    expectTypeOf<keyof Request>().toEqualTypeOf<"id" | "kind" | "prompt" | "url" | "data" | "expiresAt">();
    expectTypeOf<keyof Answer>().toEqualTypeOf<"id" | "ok" | "data" | "reason">();
    const full: Required<Request> = {
      id: "r",
      kind: "authorization",
      prompt: "p",
      url: "https://x",
      data: {},
      expiresAt: "2026-07-28T00:00:00Z",
    };
    expect(Object.keys(full)).toEqual(["id", "kind", "prompt", "url", "data", "expiresAt"]);
    const answer: Required<Answer> = { id: "r", ok: false, data: {}, reason: "declined" };
    expect(Object.keys(answer)).toEqual(["id", "ok", "data", "reason"]);
    for (const request of [elicitationToRequest(formParams), elicitationToRequest(urlParams)]) {
      for (const key of Object.keys(request)) expect(["id", "kind", "prompt", "url", "data", "expiresAt"]).toContain(key);
    }
  });

  it("[A69] maps a form-mode elicitation to kind input, prompt = message, data = {schema}, and no url", () => {
    const request = elicitationToRequest(formParams);
    expect(request).toEqual({
      id: expect.any(String),
      kind: "input",
      prompt: "What is your shipping postal code?",
      data: { schema: formParams.requestedSchema },
    });
    expect(request).not.toHaveProperty("url");
    // Without a mode, an elicitation is form mode.
    const { mode: _mode, ...noMode } = formParams;
    expect(elicitationToRequest(noMode as never)).toMatchObject({ kind: "input", data: { schema: formParams.requestedSchema } });
  });

  it("[A70] maps a URL-mode elicitation to kind authorization with url and no data", () => {
    const request = elicitationToRequest(urlParams);
    expect(request).toEqual({
      id: expect.any(String),
      kind: "authorization",
      prompt: "Please authorize access to your calendar.",
      url: "https://example.com/oauth/authorize?state=abc123",
    });
    expect(request).not.toHaveProperty("data");
    expect(() => elicitationToRequest({ mode: "url", message: "no url" } as never)).toThrow(TypeError);
    expect(() => elicitationToRequest({ mode: "carrier-pigeon", message: "?" } as never)).toThrow(TypeError);
  });

  it("[A71] gives every mapped request a fresh id starting with elc-", () => {
    const ids = [elicitationToRequest(formParams), elicitationToRequest(formParams), elicitationToRequest(urlParams)].map((r) => r.id);
    for (const id of ids) expect(id).toMatch(/^elc-./);
    expect(new Set(ids).size).toBe(3);
  });

  it("[A72] maps ok to accept with content = data or {}, and ok:false to decline only for reason declined, else cancel", () => {
    expect(answerToElicitResult({ id: "elc-1", ok: true, data: { postal_code: "12345" } })).toEqual({
      action: "accept",
      content: { postal_code: "12345" },
    });
    expect(answerToElicitResult({ id: "elc-2", ok: true })).toEqual({ action: "accept", content: {} });
    expect(answerToElicitResult({ id: "elc-3", ok: false, reason: "declined" })).toEqual({ action: "decline" });
    expect(answerToElicitResult({ id: "elc-4", ok: false, reason: "expired" })).toEqual({ action: "cancel" });
    expect(answerToElicitResult({ id: "elc-5", ok: false, reason: "cancelled" })).toEqual({ action: "cancel" });
    expect(answerToElicitResult({ id: "elc-6", ok: false })).toEqual({ action: "cancel" });
    expect(() => answerToElicitResult({ id: "x" } as never)).toThrow(TypeError);
  });
});

describe("the loop rule", () => {
  it("[A73] re-executes once with ctx.answer when waitFor answers ok", async () => {
    const calls: Array<ToolContext | undefined> = [];
    const asked: Request[] = [];
    const result = await runTool(
      deployTool(calls),
      {},
      {
        waitFor: (r) => {
          asked.push(r);
          return { id: r.id, ok: true, data: { env: "staging" } };
        },
      },
    );
    expect(result).toEqual({ status: "done", result: { output: "deployed to staging" } });
    expect(asked).toEqual([{ id: "pnd-deploy-1", kind: "input", prompt: "Which environment?" }]);
    expect(calls).toHaveLength(2);
  });

  it("[A73] ends with the error unresolved: <prompt> when the tool suspends again", async () => {
    const stubborn: PlainTool = {
      name: "s",
      inputSchema: {},
      execute: (_a, ctx) => suspend({ id: "q", kind: "input", prompt: ctx?.answer ? "Still need more" : "First question" }),
    };
    expect(await runTool(stubborn, {}, { waitFor: (r) => ({ id: r.id, ok: true }) })).toEqual({
      status: "done",
      result: { output: "unresolved: Still need more", isError: true },
    });
  });

  it("[A73] ends with the error declined/expired: <prompt> when the answer is not ok, without re-executing", async () => {
    const calls: Array<ToolContext | undefined> = [];
    const result = await runTool(deployTool(calls), {}, { waitFor: (r) => ({ id: r.id, ok: false, reason: "expired" }) });
    expect(result).toEqual({ status: "done", result: { output: "declined/expired: Which environment?", isError: true } });
    expect(calls).toHaveLength(1);
  });

  it("[A73] returns status pending with the request when there is no waitFor", async () => {
    expect(await runTool(deployTool([]), {})).toEqual({
      status: "pending",
      pending: { id: "pnd-deploy-1", kind: "input", prompt: "Which environment?" },
    });
  });

  it("[A73] emits {type: pending, request} on the stream", async () => {
    const events: RunEvent[] = [];
    const stream = streamTool(deployTool([]), {}, { waitFor: (r) => ({ id: r.id, ok: true, data: { env: "qa" } }) });
    let step = await stream.next();
    while (!step.done) {
      events.push(step.value);
      step = await stream.next();
    }
    expect(events).toEqual([
      { type: "pending", request: { id: "pnd-deploy-1", kind: "input", prompt: "Which environment?" } },
      { type: "answer", answer: { id: "pnd-deploy-1", ok: true, data: { env: "qa" } } },
      { type: "result", result: { output: "deployed to qa" } },
    ]);
    expect(step.value).toEqual({ status: "done", result: { output: "deployed to qa" } });
    const seen: RunEvent[] = [];
    await runTool(deployTool([]), {}, { onEvent: (e) => seen.push(e) });
    expect(seen).toEqual([{ type: "pending", request: { id: "pnd-deploy-1", kind: "input", prompt: "Which environment?" } }]);
  });

  it("contains a tool that throws or returns junk as an isError result", async () => {
    const throwing: PlainTool = {
      name: "boom",
      inputSchema: {},
      execute: () => {
        throw new Error("kaboom");
      },
    };
    expect(await runTool(throwing)).toMatchObject({ status: "done", result: { output: "boom failed: kaboom", isError: true } });
    expect(await runTool({ name: "junk", inputSchema: {}, execute: () => 42 as never })).toMatchObject({
      status: "done",
      result: { isError: true },
    });
  });
});

describe("capabilities", () => {
  it("[A74] advertises elicitation only when waitFor is set", async () => {
    const capabilitiesOf = async (options: { waitFor?: WaitFor }) => {
      const { client, requests } = await memoryClient({ "tools/list": () => listResult("tools", []) }, options);
      await client.listTools();
      return (requests[0]!.message.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/clientCapabilities"];
    };
    expect(await capabilitiesOf({})).toEqual({});
    expect(await capabilitiesOf({ waitFor: (r) => ({ id: r.id, ok: false }) })).toEqual({ elicitation: { form: {}, url: {} } });
  });
});

describe("server tools as plain tools", () => {
  const elicitingServer = (log: Array<Record<string, unknown>>) => ({
    "tools/list": () => listResult("tools", [tool("ship", { description: "Ship an order" }), tool("login")]),
    "tools/call": (p: Record<string, unknown>) => {
      log.push(p);
      if (p.name === "login") {
        return p.inputResponses
          ? textResult("logged in")
          : { resultType: "input_required", inputRequests: { auth: { method: "elicitation/create", params: urlParams } } };
      }
      if (!p.inputResponses) {
        return {
          resultType: "input_required",
          inputRequests: { zip: { method: "elicitation/create", params: formParams } },
          requestState: "order-17",
        };
      }
      const answer = (p.inputResponses as Record<string, { action: string; content?: { postal_code?: string } }>).zip!;
      return answer.action === "accept"
        ? textResult(`shipped to ${answer.content?.postal_code}`, { structuredContent: { ok: true } })
        : textResult(`not shipped: ${answer.action}`, { isError: true });
    },
  });

  it("answers a server's questions inline through the client's waitFor", async () => {
    const log: Array<Record<string, unknown>> = [];
    const asked: Request[] = [];
    const { client } = await memoryClient(elicitingServer(log), {
      waitFor: (r) => {
        asked.push(r);
        return r.kind === "authorization" ? { id: r.id, ok: true } : { id: r.id, ok: true, data: { postal_code: "12345" } };
      },
    });
    const tools = await mcpTools(client, { prefix: "shop." });
    expect(tools.map((t) => [t.name, t.source, t.description])).toEqual([
      ["shop.ship", "mcp", "Ship an order"],
      ["shop.login", "mcp", undefined],
    ]);
    expect(await tools[0]!.execute({ order: 17 })).toEqual({
      output: "shipped to 12345",
      isError: false,
      metadata: { content: [{ type: "text", text: "shipped to 12345" }], structuredContent: { ok: true } },
    });
    expect(asked[0]).toMatchObject({ kind: "input", prompt: formParams.message, data: { schema: formParams.requestedSchema } });
    expect(log[1]).toMatchObject({
      requestState: "order-17",
      inputResponses: { zip: { action: "accept", content: { postal_code: "12345" } } },
    });
    expect((await tools[1]!.execute({})).output).toBe("logged in");
    expect(asked[1]).toMatchObject({ kind: "authorization", url: urlParams.url });
  });

  it("suspends without waitFor, and continues the same exchange when run again with ctx.answer", async () => {
    const log: Array<Record<string, unknown>> = [];
    const { client } = await memoryClient(elicitingServer(log));
    const [ship] = await mcpTools(client);
    const first = await ship!.execute({ order: 17 });
    const pending = pendingOf(first)!;
    expect(first).toEqual({ output: formParams.message, isError: true, metadata: { pending } });
    expect(pending).toMatchObject({ id: expect.stringMatching(/^elc-/), kind: "input" });

    const result = await runTool(ship!, { order: 17 }, { waitFor: (r) => ({ id: r.id, ok: true, data: { postal_code: "99999" } }) });
    expect(result).toMatchObject({ status: "done", result: { output: "shipped to 99999", isError: false } });
    const retry = log[log.length - 1]!;
    expect(retry).toMatchObject({
      name: "ship",
      arguments: { order: 17 },
      requestState: "order-17",
      inputResponses: { zip: { action: "accept", content: { postal_code: "99999" } } },
    });

    // Without a waitFor, the run stops at the question.
    expect(await runTool(ship!, { order: 18 })).toMatchObject({
      status: "pending",
      pending: { kind: "input", prompt: formParams.message },
    });
  });

  it("reports failures as isError results carrying the JSON-RPC code, never throwing", async () => {
    const { client } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("gone")]),
      "tools/call": () => ({ error: { code: -32602, message: "Unknown tool: gone" } }),
    });
    const [gone] = await mcpTools(client);
    expect(await gone!.execute({})).toEqual({
      output: "Unknown tool: gone",
      isError: true,
      metadata: { error: { code: -32602, data: undefined } },
    });
  });
});
