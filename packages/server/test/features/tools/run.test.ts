// One tools/call run (src/features/tools/run.ts): arguments checked, the handler run in a fault boundary, the result checked.
import { validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { listen, McpError, McpServer } from "../../../src/index.js";
import { rpc, send, testServer } from "../../helpers.js";

const server = testServer();

async function call(name: string, args?: Record<string, unknown>, s: McpServer = server) {
  const answer = await send(s, "tools/call", args === undefined ? { name } : { name, arguments: args });
  expect(answer.error).toBeUndefined();
  return answer.result;
}

describe("tools/call", () => {
  it("runs a tool and stamps resultType and server info", async () => {
    const r = await call("echo", { text: "hi" });
    expect(r.content).toEqual([{ type: "text", text: "hi" }]);
    expect(r.resultType).toBe("complete");
    expect("isError" in r).toBe(false);
    expect(validate("CallToolResult", r).ok).toBe(true);
  });

  it("returns structuredContent that matches the outputSchema", async () => {
    const r = await call("sum", { a: 2, b: 3 });
    expect(r.structuredContent).toEqual({ sum: 5 });
  });

  it("answers invalid arguments with an isError result saying what is wrong", async () => {
    const r = await call("echo", { text: 5, extra: true });
    expect(r.isError).toBe(true);
    const text = (r.content as { text: string }[])[0]!.text;
    expect(text).toContain("/text: must be string");
    expect(text).toContain('unknown property "extra"');
  });

  it("answers missing arguments with an isError result naming the property", async () => {
    const r = await call("echo");
    expect(r.isError).toBe(true);
    expect((r.content as { text: string }[])[0]!.text).toContain('missing required property "text"');
  });

  it("never sends structuredContent that fails the outputSchema", async () => {
    const r = await call("bad_output");
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect((r.content as { text: string }[])[0]!.text).toContain("does not match its outputSchema");
  });

  it("contains a throw, a rejected non-Error and a junk return as isError results", async () => {
    const thrown = await call("throws");
    expect(thrown.isError).toBe(true);
    expect(thrown.structuredContent).toEqual({ errorType: "tool_fault", tool: "throws", exception: "Error", message: "kaboom" });
    const rejected = await call("rejects_non_error");
    expect(rejected.isError).toBe(true);
    // The text block is the same diagnostic body as JSON; a thrown non-Error value is reported as "throw".
    expect(JSON.parse((rejected.content as { text: string }[])[0]!.text)).toEqual({
      errorType: "tool_fault",
      tool: "rejects_non_error",
      exception: "throw",
      message: '{"weird":true}',
    });
    const junk = await call("returns_junk");
    expect(junk.isError).toBe(true);
    // The server keeps serving.
    expect((await call("echo", { text: "still here" })).content).toEqual([{ type: "text", text: "still here" }]);
  });

  it("answers with the JSON-RPC error a tool throws on purpose (McpError), with its HTTP status", async () => {
    const s = new McpServer({ name: "e", version: "1" });
    s.registerTool("needs_sampling", {}, () => {
      throw new McpError(-32021, "needs sampling", { requiredCapabilities: { sampling: {} } });
    });
    s.registerTool("app_code", {}, () => {
      throw Object.assign(new Error("app failure"), { code: 42 });
    });
    const running = await listen(s, { port: 0 });
    try {
      const refused = await rpc(running.url, "tools/call", { name: "needs_sampling" });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
      // An application error code outside the JSON-RPC range is still a tool fault.
      const app = await rpc(running.url, "tools/call", { name: "app_code" });
      expect(app.status).toBe(200);
      expect(app.json.result.isError).toBe(true);
    } finally {
      await running.close();
    }
  });
});

describe("what a handler returns", () => {
  const s = new McpServer({ name: "returns", version: "1" });
  s.registerTool("text", {}, () => "plain");
  s.registerTool("later", {}, async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return {
      resultType: "complete",
      content: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
    };
  });
  // @ts-expect-error: a plain string from a tool with an outputSchema, refused at run time too
  s.registerTool("declares_output", { outputSchema: { type: "object", properties: { n: { type: "integer" } } } }, () => "no structured");
  s.registerTool("declares_output_fails", { outputSchema: { type: "object", properties: { n: { type: "integer" } } } }, () => ({
    resultType: "complete",
    content: [{ type: "text", text: "it went wrong" }],
    isError: true,
  }));
  s.registerTool("args", { inputSchema: { type: "object", properties: { n: { type: "integer" } } } }, (args, ctx) =>
    JSON.stringify({ args, id: ctx.requestId }),
  );

  it("a string is one text block; a result, sync or async, keeps its content in order", async () => {
    expect((await call("text", undefined, s)).content).toEqual([{ type: "text", text: "plain" }]);
    expect((await call("later", undefined, s)).content).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
    ]);
  });

  it("a tool with an outputSchema must send structuredContent, unless its result is an error", async () => {
    const missing = await call("declares_output", undefined, s);
    expect(missing.isError).toBe(true);
    expect(missing.content[0].text).toBe("Tool declares_output declares an outputSchema but returned no structuredContent");
    const error = await call("declares_output_fails", undefined, s);
    expect(error).toMatchObject({ isError: true, content: [{ type: "text", text: "it went wrong" }] });
  });

  it("the handler gets the checked arguments and the request's context", async () => {
    const answer = await send(s, "tools/call", { name: "args", arguments: { n: 4 } });
    expect(JSON.parse(answer.result.content[0].text)).toEqual({ args: { n: 4 }, id: answer.id });
    // No arguments at all are an empty object.
    expect(JSON.parse((await call("args", undefined, s)).content[0].text).args).toEqual({});
  });
});

describe("the run limit", () => {
  it("the server's toolTimeoutMs applies unless the tool has its own timeoutMs; 0 turns the limit off", async () => {
    const s = new McpServer({ name: "t", version: "1" }, { toolTimeoutMs: 20 });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    s.registerTool("server_limit", {}, async () => {
      await sleep(80);
      return "finished";
    });
    s.registerTool("no_limit", { timeoutMs: 0 }, async () => {
      await sleep(80);
      return "finished";
    });
    s.registerTool("own_limit", { timeoutMs: 500 }, async () => {
      await sleep(80);
      return "finished";
    });
    expect((await call("server_limit", undefined, s)).structuredContent).toMatchObject({
      exception: "TimeoutError",
      message: "tool server_limit did not finish within 20 ms",
    });
    expect((await call("no_limit", undefined, s)).content).toEqual([{ type: "text", text: "finished" }]);
    expect((await call("own_limit", undefined, s)).content).toEqual([{ type: "text", text: "finished" }]);
  });
});
