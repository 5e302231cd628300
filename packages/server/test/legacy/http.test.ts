// The initialize era over Streamable HTTP (spec 2025-11-25, basic/transports),
// with raw fetch against a node:http server on 127.0.0.1: the handshake, every
// feature through the same handlers, sessions and their bad cases,
// server-to-client requests, and resumability.
import * as V2511 from "@x/mcp-v2511/validators";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchHandler, McpServer, MemoryEventStore } from "../../src/index.js";
import type { InitializeEra } from "../../src/revisions/initialize/plugin.js";
import { partsOf } from "../../src/server.js";
import { headersFor, meta } from "../helpers.js";
import { answerOf, initializeBody, JSON_AND_SSE, type Message, open, post, rq, sse, start } from "./helpers.js";

let released: (() => void) | undefined;
let sawAbort = 0;
function eraServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: "era", version: "1.0.0" }, { logging: true, instructions: "hi", ...options });
  server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => String(args.text));
  server.registerTool("logs", {}, (_args, ctx) => {
    ctx.log("debug", "quiet");
    ctx.log("error", "loud");
    return "logged";
  });
  server.registerTool("ask", {}, async (_args, ctx) => {
    try {
      const answer = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
      return answer.action === "accept" ? `Hello ${String(answer.content?.name)}` : `no (${answer.action})`;
    } catch (error) {
      return {
        resultType: "complete" as const,
        content: [{ type: "text" as const, text: `ask failed: ${(error as Error).message}` }],
        isError: true,
      };
    }
  });
  server.registerTool("sample", {}, async (_args, ctx) => {
    const answer = await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
    return JSON.stringify(answer);
  });
  server.registerTool("roots", {}, async (_args, ctx) => JSON.stringify(await ctx.listRoots()));
  server.registerTool("ask_uncaught", {}, async (_args, ctx) => {
    const answer = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } } });
    return String(answer.action);
  });
  server.registerTool("steps", {}, async (_args, ctx) => {
    ctx.progress(1, 2);
    await new Promise<void>((resolve) => {
      released = resolve;
    });
    ctx.progress(2, 2);
    return "stepped";
  });
  server.registerTool("wait", {}, (_args, ctx) => {
    return new Promise<string>((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        sawAbort++;
        resolve("aborted");
      });
    });
  });
  server.registerPrompt(
    "greet",
    { arguments: [{ name: "who", required: true }], complete: { who: (v) => ["ada", "alan"].filter((n) => n.startsWith(v)) } },
    ({ who }) => `Hi ${who}`,
  );
  server.registerResource("doc", "test://doc", { mimeType: "text/plain" }, () => "the doc");
  server.registerResourceTemplate("item", "test://item/{id}", { mimeType: "text/plain" }, (uri, { id }) => ({ uri, text: `item ${id}` }));
  return server;
}

describe("initialize era over Streamable HTTP", () => {
  let mcp: McpServer;
  let srv: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    // The client's answers are waited for as long as a loaded machine needs; the one test of the time-out has a server of its own.
    mcp = eraServer();
    srv = await start(mcp);
  });
  afterAll(async () => {
    await srv.stop();
  });

  it("initialize negotiates each version of the era and mints a visible-ASCII session id", async () => {
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
      const res = await post(srv.url, initializeBody(version));
      const body = await res.json();
      expect(body.result.protocolVersion).toBe(version);
      expect(res.headers.get("mcp-session-id")).toMatch(/^[\x21-\x7e]{16,}$/);
    }
    const other = await (await post(srv.url, initializeBody("2099-01-01"))).json();
    expect(other.result.protocolVersion).toBe("2025-11-25");
    const { result } = await open(srv.url);
    expect(V2511.InitializeResult(result)).toBe(true);
    expect(result).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        completions: {},
        logging: {},
      },
      serverInfo: { name: "era", version: "1.0.0" },
      instructions: "hi",
    });
  });

  it("refuses initialize params that are not InitializeRequestParams with -32602", async () => {
    const res = await post(srv.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32602);
    expect(res.headers.get("mcp-session-id")).toBeNull();
  });

  it("serves every feature through the same handlers, with results of the era's schema", async () => {
    const { headers } = await open(srv.url);
    const call = async (method: string, params: Message = {}) => (await answerOf(await post(srv.url, rq(method, params), headers))).result;
    const tools = await call("tools/list");
    expect(V2511.ListToolsResult(tools)).toBe(true);
    expect(tools.resultType).toBeUndefined();
    const echoed = await call("tools/call", { name: "echo", arguments: { text: "x" } });
    expect(V2511.CallToolResult(echoed)).toBe(true);
    expect(echoed).toEqual({ content: [{ type: "text", text: "x" }] });
    const prompts = await call("prompts/list");
    expect(V2511.ListPromptsResult(prompts) && prompts.prompts[0]!.name).toBe("greet");
    const prompt = await call("prompts/get", { name: "greet", arguments: { who: "ada" } });
    expect(V2511.GetPromptResult(prompt) && (prompt.messages[0]!.content as { text: string }).text).toBe("Hi ada");
    const resources = await call("resources/list");
    expect(V2511.ListResourcesResult(resources)).toBe(true);
    expect(resources.ttlMs).toBeUndefined();
    const read = await call("resources/read", { uri: "test://item/7" });
    expect(V2511.ReadResourceResult(read) && (read.contents[0] as { text: string }).text).toBe("item 7");
    const templates = await call("resources/templates/list");
    expect(V2511.ListResourceTemplatesResult(templates)).toBe(true);
    const completion = await call("completion/complete", {
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "who", value: "a" },
    });
    expect(V2511.CompleteResult(completion) && completion.completion.values).toEqual(["ada", "alan"]);
    expect(await call("ping")).toEqual({});
    expect(await call("resources/subscribe", { uri: "test://doc" })).toEqual({});
    expect(await call("resources/unsubscribe", { uri: "test://doc" })).toEqual({});
    // The 2026-07-28-only methods do not exist on the session.
    const res = await post(srv.url, rq("server/discover"), headers);
    // HTTP 200: a 404 would read as "session ended" to a client of the era.
    expect(res.status).toBe(200);
    expect((await answerOf(res)).error.code).toBe(-32601);
    const unknownTool = await post(srv.url, rq("tools/call", { name: "nope", arguments: {} }), { ...headers, accept: "application/json" });
    expect(unknownTool.status).toBe(200);
    expect((await unknownTool.json()).error.code).toBe(-32602);
  });

  it("logging/setLevel decides which ctx.log messages the session hears", async () => {
    const { headers } = await open(srv.url);
    const silent = await answerOf(await post(srv.url, rq("tools/call", { name: "logs", arguments: {} }), headers));
    expect(silent.result.content[0].text).toBe("logged");
    expect((await answerOf(await post(srv.url, rq("logging/setLevel", { level: "warning" }), headers))).result).toEqual({});
    const res = await post(srv.url, rq("tools/call", { name: "logs", arguments: {} }), headers);
    const events = sse(res);
    const first = await events.message();
    expect(first).toMatchObject({ method: "notifications/message", params: { level: "error", data: "loud" } });
    expect((await events.message())?.result.content[0].text).toBe("logged");
    const bad = await answerOf(await post(srv.url, rq("logging/setLevel", { level: "LOUD" }), headers));
    expect(bad.error.code).toBe(-32602);
  });

  it("answers a tools/call it answers at once as JSON, one that runs on as SSE opening with the priming event", async () => {
    const { headers } = await open(srv.url);
    const now = await post(srv.url, rq("tools/call", { name: "echo", arguments: { text: "hi" } }), headers);
    expect(now.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await now.json()).result.content[0].text).toBe("hi");
    // A notification sent before an answer given at once: an SSE body complete when written, so
    // it goes with a Content-Length, in one piece.
    expect((await answerOf(await post(srv.url, rq("logging/setLevel", { level: "warning" }), headers))).result).toEqual({});
    const logged = await post(srv.url, rq("tools/call", { name: "logs", arguments: {} }), headers);
    expect(logged.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const body = await logged.text();
    expect(logged.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
    expect(body).toMatch(
      /^id: \S+\nretry: 1000\ndata: \n\nid: \S+\nevent: message\ndata: \{"jsonrpc":"2.0","method":"notifications\/message"/,
    );
    expect(body).toContain('"text":"logged"');
    // A call that does not answer at once: the stream is open (no length) before its first progress.
    const res = await post(
      srv.url,
      { ...rq("tools/call", { name: "steps", arguments: {} }), params: { name: "steps", arguments: {}, _meta: { progressToken: "p" } } },
      headers,
    );
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("content-length")).toBeNull();
    const events = sse(res);
    const priming = await events.next();
    expect(priming?.id).toBeDefined();
    expect(priming?.data).toBe("");
    expect((await events.message())?.params).toMatchObject({ progress: 1 });
    released?.();
    expect((await events.message())?.params).toMatchObject({ progress: 2 });
    expect((await events.message())?.result.content[0].text).toBe("stepped");
  });

  it("keeps a session's open streams alive with comments on the handler's one keep-alive timer", async () => {
    const own = await start(eraServer(), { keepAliveMs: 25 });
    try {
      const { headers } = await open(own.url);
      const call = (token: string) =>
        post(
          own.url,
          {
            ...rq("tools/call", { name: "steps", arguments: {} }),
            params: { name: "steps", arguments: {}, _meta: { progressToken: token } },
          },
          headers,
        );
      const reader = (await call("a")).body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      const comments = () => (text.match(/(^|\n):\n\n/g) ?? []).length;
      for (let i = 0; i < 100 && comments() < 2; i++) text += (await reader.read()).value ?? "";
      expect(comments()).toBeGreaterThanOrEqual(2);
      released?.();
      await reader.cancel().catch(() => {});
    } finally {
      await own.stop();
    }
  });

  it("requires the session: missing 400, unknown 404, malformed 400, ended by DELETE 404", async () => {
    const { headers, id } = await open(srv.url);
    const missing = await post(srv.url, rq("tools/list"), { "mcp-protocol-version": "2025-11-25" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toMatch(/Mcp-Session-Id/);
    const unknown = await post(srv.url, rq("tools/list"), { ...headers, "mcp-session-id": "no-such-session" });
    expect(unknown.status).toBe(404);
    const malformed = await post(srv.url, rq("tools/list"), { ...headers, "mcp-session-id": "a b" });
    expect(malformed.status).toBe(400);
    const deleted = await fetch(srv.url, { method: "DELETE", headers });
    expect(deleted.status).toBe(200);
    expect(srv.legacy.session(id)).toBeUndefined();
    expect((await post(srv.url, rq("tools/list"), headers)).status).toBe(404);
    expect((await fetch(srv.url, { method: "DELETE", headers })).status).toBe(404);
  });

  it("checks MCP-Protocol-Version on a session: an unsupported one is 400, none means 2025-03-26", async () => {
    const { headers } = await open(srv.url);
    const bad = await post(srv.url, rq("ping"), { ...headers, "mcp-protocol-version": "1999-01-01" });
    expect(bad.status).toBe(400);
    const none = await post(srv.url, rq("ping"), { "mcp-session-id": headers["mcp-session-id"] });
    expect(none.status).toBe(200);
  });

  it("serves a 2026-07-28 request on a session as 2026-07-28 (its headers checked as such), refuses initialize twice; serves 2026-07-28 beside", async () => {
    const { headers } = await open(srv.url);
    // The dual-era rule: the envelope makes it a 2026-07-28 request, whose MCP-Protocol-Version must then match the body.
    const later = await post(srv.url, { ...rq("tools/list"), params: { _meta: meta() } }, headers);
    expect(later.status).toBe(400);
    expect(later.headers.get("mcp-session-id")).toBeNull();
    expect((await later.json()).error.code).toBe(-32020);
    const twice = await post(srv.url, initializeBody(), headers);
    expect(twice.status).toBe(400);
    expect((await twice.json()).error.message).toMatch(/already initialized/);
    // A 2026-07-28 request (no session header) on the same endpoint is served as before.
    const body = { ...rq("tools/list"), params: { _meta: meta() } };
    const modern = await post(srv.url, body, headersFor(body));
    expect(modern.status).toBe(200);
    expect((await modern.json()).result.resultType).toBe("complete");
  });

  it("drops a notification sent before initialized, and needs a session for notifications too", async () => {
    const res = await post(srv.url, initializeBody());
    const headers = { "mcp-session-id": res.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    const early = await post(srv.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, headers);
    expect(early.status).toBe(202);
    expect(srv.legacy.session(headers["mcp-session-id"])?.initialized).toBe(false);
    const orphan = await post(srv.url, { jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-protocol-version": "2025-11-25" });
    expect(orphan.status).toBe(400);
  });

  it("ctx.elicit, ctx.createMessage and ctx.listRoots are server-to-client requests on the request's stream", async () => {
    await asksOnTheStream(srv.url);
  });

  async function asksOnTheStream(url: string): Promise<void> {
    const srv = { url };
    const { headers } = await open(srv.url, { elicitation: {}, sampling: {}, roots: {} });
    const cases: [string, string, Message, string][] = [
      ["ask", "elicitation/create", { action: "accept", content: { name: "Ada" } }, "Hello Ada"],
      ["sample", "sampling/createMessage", { role: "assistant", content: { type: "text", text: "yo" }, model: "m" }, '"model":"m"'],
      ["roots", "roots/list", { roots: [{ uri: "file:///r" }] }, "file:///r"],
    ];
    for (const [tool, method, answer, expected] of cases) {
      const res = await post(srv.url, rq("tools/call", { name: tool, arguments: {} }), headers);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const events = sse(res);
      const priming = await events.next();
      expect(priming?.id).toBeDefined();
      expect(priming?.retry).toBe("1000");
      const asked = (await events.message())!;
      expect(asked.method).toBe(method);
      expect((await post(srv.url, { jsonrpc: "2.0", id: asked.id, result: answer }, headers)).status).toBe(202);
      const done = (await events.message())!;
      expect(done.result.content[0].text).toContain(expected);
    }
  }

  it("holds a server-to-client request until notifications/initialized, then sends it", async () => {
    const own = await start(eraServer());
    try {
      const res0 = await post(own.url, initializeBody("2025-11-25", { elicitation: {} }));
      const headers = { "mcp-session-id": res0.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
      await res0.json();
      const res = await post(own.url, rq("tools/call", { name: "ask", arguments: {} }), headers);
      const events = sse(res);
      await events.next(); // priming
      // Nothing is sent while the client has not said it is initialized.
      const first = events.message();
      const early = await Promise.race([first, new Promise((resolve) => setTimeout(() => resolve("nothing yet"), 150))]);
      expect(early).toBe("nothing yet");
      expect((await post(own.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
      const asked = (await first)!;
      expect(asked.method).toBe("elicitation/create");
      const answer = { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Bo" } } };
      expect((await post(own.url, answer, headers)).status).toBe(202);
      expect((await events.message())!.result.content[0].text).toBe("Hello Bo");
    } finally {
      await own.stop();
    }
  });

  it("without the client's capability an ask answers not_supported and sends nothing", async () => {
    const { headers } = await open(srv.url);
    const done = await answerOf(await post(srv.url, rq("tools/call", { name: "roots", arguments: {} }), headers));
    expect(JSON.parse(done.result.content[0].text)).toMatchObject({ action: "not_supported", capability: "roots" });
  });

  it("a server-to-client request the client never answers times out: the handler sees the error, the slot is freed", async () => {
    const own = await start(eraServer({ clientRequestTimeoutMs: 200 }));
    try {
      const { headers, id } = await open(own.url, { elicitation: {} });
      const events = sse(await post(own.url, rq("tools/call", { name: "ask", arguments: {} }), headers));
      const asked = (await events.message())!;
      expect(asked.method).toBe("elicitation/create");
      expect(own.legacy.session(id)?.pending).toBe(1);
      const cancelled = (await events.message())!;
      expect(cancelled).toMatchObject({ method: "notifications/cancelled", params: { requestId: asked.id } });
      const done = (await events.message())!;
      expect(done.result.isError).toBe(true);
      expect(done.result.content[0].text).toMatch(/did not answer within 200 ms/);
      expect(own.legacy.session(id)?.pending).toBe(0);
      // A late answer is dropped.
      expect((await post(own.url, { jsonrpc: "2.0", id: asked.id, result: { action: "cancel" } }, headers)).status).toBe(202);
    } finally {
      await own.stop();
    }
  });

  it("an answer that is not of the era's result type fails the ask", async () => {
    const { headers } = await open(srv.url, { elicitation: {} });
    const events = sse(await post(srv.url, rq("tools/call", { name: "ask", arguments: {} }), headers));
    const asked = (await events.message())!;
    await post(srv.url, { jsonrpc: "2.0", id: asked.id, result: { action: "maybe" } }, headers);
    const done = (await events.message())!;
    expect(done.result.content[0].text).toMatch(/not a valid result/);
  });

  it("notifications/cancelled from the client aborts the handler's signal", async () => {
    const { headers } = await open(srv.url);
    const before = sawAbort;
    const body = rq("tools/call", { name: "wait", arguments: {} });
    const pending = post(srv.url, body, { ...headers, accept: "application/json" });
    for (let i = 0; i < 100 && srv.legacy.session(headers["mcp-session-id"]) && sawAbort === before; i++) {
      await post(srv.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: body.id } }, headers);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(sawAbort).toBe(before + 1);
    expect((await pending).status).toBe(200);
  });

  it("announces list changes and resource updates on the GET stream", async () => {
    const { headers } = await open(srv.url);
    await answerOf(await post(srv.url, rq("resources/subscribe", { uri: "test://doc" }), headers));
    const get = await fetch(srv.url, { headers: { ...headers, accept: "text/event-stream" } });
    expect(get.status).toBe(200);
    const events = sse(get);
    expect((await events.next())?.data.trim()).toBe("");
    mcp.notifyResourceUpdated("test://doc");
    mcp.notifyResourceUpdated("test://other");
    mcp.registerPrompt("extra", {}, () => "x");
    expect(await events.message()).toMatchObject({ method: "notifications/resources/updated", params: { uri: "test://doc" } });
    expect(await events.message()).toMatchObject({ method: "notifications/prompts/list_changed" });
    // One GET stream per session at a time.
    expect((await fetch(srv.url, { headers: { ...headers, accept: "text/event-stream" } })).status).toBe(409);
    await events.cancel();
    mcp.removePrompt("extra");
  });

  it("a client that drops the GET stream mid-request resumes it with Last-Event-ID and answers the ask", async () => {
    const { headers } = await open(srv.url, { elicitation: {} });
    let get = await fetch(srv.url, { headers: { ...headers, accept: "text/event-stream" } });
    let events = sse(get);
    const priming = (await events.next())!;
    // A JSON-only POST: the ask goes out on the GET stream.
    const call = post(srv.url, rq("tools/call", { name: "ask", arguments: {} }), { ...headers, accept: "application/json" });
    const asked = (await events.message())!;
    expect(asked.method).toBe("elicitation/create");
    await events.cancel();
    get = await fetch(srv.url, { headers: { ...headers, accept: "text/event-stream", "last-event-id": priming.id! } });
    events = sse(get);
    const again = (await events.message())!;
    expect(again.id).toBe(asked.id);
    await post(srv.url, { jsonrpc: "2.0", id: again.id, result: { action: "accept", content: { name: "Bo" } } }, headers);
    const res = await call;
    expect((await res.json()).result.content[0].text).toBe("Hello Bo");
    await events.cancel();
  });

  it("replays a cut POST stream after Last-Event-ID on GET, then carries it to its end", async () => {
    const { headers } = await open(srv.url);
    const controller = new AbortController();
    const res = await post(
      srv.url,
      { ...rq("tools/call", { name: "steps", arguments: {} }), params: { name: "steps", arguments: {}, _meta: { progressToken: "t" } } },
      headers,
      controller.signal,
    );
    const events = sse(res);
    await events.next();
    const first = (await events.message())!;
    expect(first).toMatchObject({ method: "notifications/progress", params: { progress: 1 } });
    controller.abort();
    await events.cancel().catch(() => {});
    released?.();
    const resumed = sse(await fetch(srv.url, { headers: { ...headers, accept: "text/event-stream", "last-event-id": first.__eventId } }));
    const got: Message[] = [];
    for (let i = 0; i < 10; i++) {
      const m = await resumed.message();
      if (!m) break;
      got.push(m);
    }
    expect(got.map((m) => m.method ?? "response")).toEqual(["notifications/progress", "response"]);
    expect(got[1]!.result.content[0].text).toBe("stepped");
  });
});

describe("faults of the initialize era", () => {
  it("an ask that fails and is not caught is the tool's fault, never the client's code passed off as the call's", async () => {
    const srv = await start(eraServer());
    try {
      const { headers } = await open(srv.url, { elicitation: {} });
      const answers: Message[] = [{ error: { code: -32601, message: "no handler" } }, { result: { action: "maybe" } }];
      for (const answer of answers) {
        const events = sse(await post(srv.url, rq("tools/call", { name: "ask_uncaught", arguments: {} }), headers));
        const asked = (await events.message())!;
        expect(asked.method).toBe("elicitation/create");
        expect((await post(srv.url, { jsonrpc: "2.0", id: asked.id, ...answer }, headers)).status).toBe(202);
        const done = (await events.message())!;
        expect(done.error).toBeUndefined();
        expect(done.result.isError).toBe(true);
      }
    } finally {
      await srv.stop();
    }
  });

  it("resources/read of an unknown URI is -32002 in this era (-32602 in 2026-07-28)", async () => {
    const srv = await start(eraServer());
    try {
      const { headers } = await open(srv.url);
      const res = await post(srv.url, rq("resources/read", { uri: "test://nope" }), headers);
      expect((await answerOf(res)).error).toMatchObject({ code: -32002, message: "Resource not found", data: { uri: "test://nope" } });
      const body = rq("resources/read", { uri: "test://nope", _meta: meta() });
      const later = await post(srv.url, body, headersFor(body));
      expect((await later.json()).error).toMatchObject({ code: -32602 });
    } finally {
      await srv.stop();
    }
  });

  it("refuses initialize params longer than a session keeps (64 KiB of JSON) with -32602, and opens no session", async () => {
    const srv = await start(eraServer());
    try {
      const big = initializeBody();
      (big.params.capabilities as Message).experimental = { blob: { a: "x".repeat(70_000) } };
      const res = await post(srv.url, big);
      expect(res.headers.get("mcp-session-id")).toBeNull();
      expect((await res.json()).error).toMatchObject({ code: -32602 });
      expect(srv.legacy.size).toBe(0);
    } finally {
      await srv.stop();
    }
  });
});

describe("bounded sessions", () => {
  it("refuses initialize past maxSessions with 503 when every session has a call on a live connection, ends idle sessions, and keeps nothing of an ended session", async () => {
    const events = new MemoryEventStore(10);
    const srv = await start(eraServer(), { maxSessions: 2, sessionIdleTimeoutMs: 60_000, eventStore: events });
    try {
      const a = await open(srv.url);
      const b = await open(srv.url);
      // Both busy (a call whose client waits on its stream, and a GET stream): none can be ended to make room.
      const streams = [];
      const calls = [];
      for (const s of [a, b]) {
        const call = rq("tools/call", { name: "wait" });
        const waiting = sse(await post(srv.url, call, s.headers));
        await waiting.next();
        calls.push({ headers: s.headers, id: call.id, waiting });
        const stream = sse(await fetch(srv.url, { headers: { ...s.headers, accept: "text/event-stream" } }));
        await stream.next();
        streams.push(stream);
      }
      const third = await post(srv.url, initializeBody());
      expect(third.status).toBe(503);
      expect(third.headers.get("retry-after")).toBe("1");
      expect(events.sessions).toBe(2);
      // Not idle while a call runs or a stream is open; idle once they end.
      srv.legacy.sweep(Date.now() + 120_000);
      expect(srv.legacy.size).toBe(2);
      // A cancelled call ends its stream without an answer.
      for (const c of calls) {
        const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: c.id } };
        expect((await post(srv.url, cancel, c.headers)).status).toBe(202);
        expect(await c.waiting.next()).toBeUndefined();
      }
      for (const stream of streams) await stream.cancel();
      for (let i = 0; i < 100 && srv.legacy.size > 0; i++) {
        srv.legacy.sweep(Date.now() + 120_000);
        if (srv.legacy.size > 0) await new Promise((r) => setTimeout(r, 5));
      }
      expect(srv.legacy.size).toBe(0);
      expect(events.sessions).toBe(0);
      expect((await post(srv.url, rq("ping"), a.headers)).status).toBe(404);
      expect((await post(srv.url, initializeBody())).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it("ends a session that never sent notifications/initialized after 60 s, an initialized one only after the idle timeout", async () => {
    const srv = await start(eraServer(), { sessionIdleTimeoutMs: 30 * 60_000 });
    try {
      const bare = await post(srv.url, initializeBody());
      const bareId = bare.headers.get("mcp-session-id")!;
      await bare.json();
      const ready = await open(srv.url);
      srv.legacy.sweep(Date.now() + 30_000);
      expect(srv.legacy.size).toBe(2);
      srv.legacy.sweep(Date.now() + 61_000);
      expect(srv.legacy.session(bareId)).toBeUndefined();
      expect(srv.legacy.session(ready.id)).toBeDefined();
    } finally {
      await srv.stop();
    }
  });

  it("closing the server ends every session", async () => {
    const mcp = eraServer();
    const srv = await start(mcp);
    const a = await open(srv.url);
    expect(srv.legacy.size).toBe(1);
    expect(eraOf(mcp).parts.watchers.size).toBe(1);
    mcp.close();
    expect(srv.legacy.size).toBe(0);
    // Nothing of the transport stays registered on the server once it has no session.
    expect(eraOf(mcp).parts.watchers.size).toBe(0);
    expect(eraOf(mcp).parts.closers.size).toBe(0);
    expect((await post(srv.url, rq("ping"), a.headers)).status).toBe(404);
    await srv.stop();
  });
});

/** The initialize era as installed on `mcp`. */
function eraOf(mcp: McpServer): InitializeEra {
  return partsOf(mcp).plugged[0] as InitializeEra;
}

describe("a deployment serving only 2026-07-28", () => {
  it("answers initialize with -32022 naming its versions, GET and DELETE with 405", async () => {
    const srv = await start(eraServer({ protocolVersions: ["2026-07-28"] }));
    try {
      const res = await post(srv.url, initializeBody());
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"], requested: "2025-11-25" } });
      expect(res.headers.get("mcp-session-id")).toBeNull();
      const get = await fetch(srv.url, { headers: { accept: "text/event-stream", "mcp-session-id": "abc" } });
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("POST");
      expect((await fetch(srv.url, { method: "DELETE", headers: { "mcp-session-id": "abc" } })).status).toBe(405);
    } finally {
      await srv.stop();
    }
  });

  it("refuses a protocolVersions list it cannot serve", () => {
    expect(() => new McpServer({ name: "x", version: "1" }, { protocolVersions: ["2025-11-25"] })).toThrow(RangeError);
    expect(() => new McpServer({ name: "x", version: "1" }, { protocolVersions: ["2026-07-28", "1999-01-01"] })).toThrow(RangeError);
  });
});

describe("the fetch adapter", () => {
  it("serves the initialize era too: initialize, a call on the session, DELETE", async () => {
    const mcp = eraServer();
    const handle = createFetchHandler(mcp);
    const url = "http://localhost/mcp";
    const send = (body: unknown, headers: Record<string, string> = {}) =>
      handle(
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: JSON_AND_SSE, ...headers },
          body: JSON.stringify(body),
        }),
      );
    const init = await send(initializeBody());
    const id = init.headers.get("mcp-session-id")!;
    expect((await init.json()).result.protocolVersion).toBe("2025-11-25");
    const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
    expect((await send({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
    const called = await answerOf(await send(rq("tools/call", { name: "echo", arguments: { text: "f" } }), headers));
    expect(called.result).toEqual({ content: [{ type: "text", text: "f" }] });
    expect((await handle(new Request(url, { method: "DELETE", headers }))).status).toBe(200);
    expect((await send(rq("ping"), headers)).status).toBe(404);
    mcp.close();
  });
});
