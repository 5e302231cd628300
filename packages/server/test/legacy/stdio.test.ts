// The initialize era over stdio (spec 2025-11-25, basic/transports "stdio"):
// one connection, one era, pinned by its opening exchange; server-to-client
// requests go out on stdout and their answers come in on stdin.
import * as V2511 from "@x/mcp-v2511/validators";
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/index.js";
import { meta } from "../helpers.js";
import { stdioConnect as connect } from "./helpers.js";

function eraServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: "era", version: "1.0.0" }, { logging: true, ...options });
  server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => String(args.text));
  server.registerTool("logs", {}, (_args, ctx) => {
    ctx.log("info", "hello");
    return "logged";
  });
  server.registerTool("ask", {}, async (_args, ctx) => {
    try {
      const answer = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } } });
      return answer.action === "accept" ? `Hello ${String(answer.content?.name)}` : answer.action;
    } catch (error) {
      return `ask failed: ${(error as Error).message}`;
    }
  });
  server.registerPrompt("greet", {}, () => "Hi");
  server.registerResource("doc", "test://doc", {}, () => "the doc");
  return server;
}

describe("initialize era over stdio", () => {
  it("initializes (negotiating the client's version) and serves every feature on the connection", async () => {
    const c = connect(eraServer());
    const init = await c.initialize();
    expect(init.result.protocolVersion).toBe("2025-06-18");
    expect(V2511.InitializeResult(init.result)).toBe(true);
    const tools = (await c.answer(c.request("tools/list"))).response.result;
    expect(V2511.ListToolsResult(tools)).toBe(true);
    expect(tools.resultType).toBeUndefined();
    expect((await c.answer(c.request("tools/call", { name: "echo", arguments: { text: "a" } }))).response.result).toEqual({
      content: [{ type: "text", text: "a" }],
    });
    expect((await c.answer(c.request("ping"))).response.result).toEqual({});
    expect((await c.answer(c.request("prompts/get", { name: "greet" }))).response.result.messages[0].content.text).toBe("Hi");
    expect((await c.answer(c.request("resources/read", { uri: "test://doc" }))).response.result.contents[0].text).toBe("the doc");
    expect((await c.answer(c.request("logging/setLevel", { level: "info" }))).response.result).toEqual({});
    const logged = await c.answer(c.request("tools/call", { name: "logs", arguments: {} }));
    expect(logged.before).toEqual([{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hello" } }]);
    await c.end();
  });

  it("asks the client over stdout and reads its answer from stdin", async () => {
    const c = connect(eraServer());
    await c.initialize({ elicitation: {} });
    const rid = c.request("tools/call", { name: "ask", arguments: {} });
    const asked = await c.next();
    expect(asked).toMatchObject({ method: "elicitation/create", params: { message: "Name?" } });
    c.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Cy" } } });
    expect((await c.answer(rid)).response.result.content[0].text).toBe("Hello Cy");
    await c.end();
  });

  it("a request the client never answers times out and the handler sees why", async () => {
    const c = connect(eraServer({ clientRequestTimeoutMs: 50 }));
    await c.initialize({ elicitation: {} });
    const rid = c.request("tools/call", { name: "ask", arguments: {} });
    const { response, before } = await c.answer(rid);
    expect(before.map((m) => m.method)).toEqual(["elicitation/create", "notifications/cancelled"]);
    expect(response.result.content[0].text).toMatch(/did not answer within 50 ms/);
    await c.end();
  });

  it("a question the client never answers fails naming it, not as the tool's time-out, even when both limits are equal", async () => {
    // Equal limits, as by default (60 s each): the tool's started first, so it used to fire first and blame the tool.
    for (const [toolTimeoutMs, clientRequestTimeoutMs] of [
      [80, 80],
      [40, 120],
    ]) {
      const server = eraServer({ toolTimeoutMs, clientRequestTimeoutMs });
      server.registerTool("ask_uncaught", {}, async (_args, ctx) => {
        const answer = await ctx.elicit("Which region?", { type: "object", properties: { region: { type: "string" } } });
        return answer.action;
      });
      const c = connect(server);
      await c.initialize({ elicitation: {} });
      const caught = await c.answer(c.request("tools/call", { name: "ask", arguments: {} }));
      expect(caught.before.map((m) => m.method)).toEqual(["elicitation/create", "notifications/cancelled"]);
      const askId = caught.before[0]!.id;
      expect(caught.response.result.content[0].text).toBe(
        `ask failed: elicitation/create "Name?" (request ${askId}): the client did not answer within ${clientRequestTimeoutMs} ms (clientRequestTimeoutMs)`,
      );
      // Uncaught, it is the tool's fault result, and that says which question went unanswered.
      const fault = await c.answer(c.request("tools/call", { name: "ask_uncaught", arguments: {} }));
      const body = fault.response.result.structuredContent;
      expect(body).toMatchObject({ errorType: "tool_fault", tool: "ask_uncaught", exception: "ClientRequestError" });
      expect(body.message).toBe(
        `elicitation/create "Which region?" (request ${fault.before[0]!.id}): the client did not answer within ${clientRequestTimeoutMs} ms (clientRequestTimeoutMs)`,
      );
      await c.end();
    }
  });

  it("the tool's own time still counts around its questions: a run slow after an answered ask passes its limit", async () => {
    const server = eraServer({ toolTimeoutMs: 50, clientRequestTimeoutMs: 10_000 });
    server.registerTool("ask_then_wait", {}, async (_args, ctx) => {
      await ctx.elicit("Go?", { type: "object", properties: {} });
      // Never settles: only the tool's limit ends the run.
      return new Promise<string>(() => {});
    });
    const c = connect(server);
    await c.initialize({ elicitation: {} });
    const rid = c.request("tools/call", { name: "ask_then_wait", arguments: {} });
    const asked = await c.next();
    c.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: {} } });
    const { response } = await c.answer(rid);
    expect(response.result.structuredContent).toMatchObject({
      errorType: "tool_fault",
      message: "tool ask_then_wait did not finish within 50 ms",
    });
    await c.end();
  });

  it("a server/discover probe does not pin the era; initialize afterwards does", async () => {
    const c = connect(eraServer());
    const probe = await c.answer(c.request("server/discover", { _meta: meta() }));
    expect(probe.response.result.supportedVersions).toEqual(["2026-07-28"]);
    const init = await c.initialize();
    expect(init.result.protocolVersion).toBe("2025-06-18");
    // Pinned: a 2026-07-28 request and a second initialize are refused.
    expect((await c.answer(c.request("tools/list", { _meta: meta() }))).response.error.code).toBe(-32600);
    const again = await c.answer(
      c.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }),
    );
    expect(again.response.error.code).toBe(-32600);
    await c.end();
  });

  it("a 2026-07-28 request pins that era: initialize is then refused", async () => {
    const c = connect(eraServer());
    expect((await c.answer(c.request("tools/list", { _meta: meta() }))).response.result.resultType).toBe("complete");
    const init = await c.answer(
      c.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }),
    );
    expect(init.response.error.code).toBe(-32600);
    await c.end();
  });

  it("serving only 2026-07-28, initialize is answered -32022 naming the versions", async () => {
    const c = connect(eraServer({ protocolVersions: ["2026-07-28"] }));
    const init = await c.answer(
      c.request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }),
    );
    expect(init.response.error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"] } });
    await c.end();
  });
});
