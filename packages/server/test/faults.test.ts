import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { describe, expect, it } from "vitest";
import { CHANNELS, type ToolCallEvent } from "../src/telemetry-entry.js";
import { defineActionTool, ok, registerActionTool } from "../src/actions/index.js";
import { McpError, McpServer } from "../src/index.js";
import { callTool, serve } from "./actions-fixture.js";
import { rpc, send } from "./helpers.js";

class QuotaError extends Error {}

let timedOutSignal: AbortSignal | undefined;

function faultServer(): McpServer {
  const server = new McpServer({ name: "faults", version: "1" }, { toolTimeoutMs: 5_000 });
  server.registerTool("throws", {}, () => {
    throw new TypeError("bad input shape");
  });
  server.registerTool("rejects", {}, async () => {
    await Promise.resolve();
    throw new QuotaError("quota exceeded");
  });
  server.registerTool("throws_string", {}, () => {
    throw "a plain string";
  });
  server.registerTool("throws_object", {}, () => Promise.reject({ code: "E_WEIRD", detail: [1, 2, 3] }));
  server.registerTool("huge_message", {}, () => {
    throw new Error(`boom ${"x".repeat(50_000)}`);
  });
  server.registerTool("junk", {}, () => 42 as never);
  server.registerTool("slow", { timeoutMs: 50 }, (_args, ctx) => {
    timedOutSignal = ctx.signal;
    return new Promise(() => {});
  });
  server.registerTool("slow_then_throws", { timeoutMs: 30 }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 80));
    throw new Error("late failure nobody listens to");
  });
  server.registerTool("protocol", {}, () => {
    throw new McpError(-32021, "needs sampling", { requiredCapabilities: { sampling: {} } });
  });
  server.registerTool("fine", {}, () => "fine");
  registerActionTool(
    server,
    defineActionTool({
      name: "jobs",
      description: "Jobs that fail in every way",
      timeoutMs: 50,
      actions: {
        crash: { description: "Throw", properties: {} },
        reject: { description: "Reject", properties: {} },
        hang: { description: "Never finish", properties: {} },
        junk: { description: "Return junk", properties: {} },
        bad_hints: { description: "Hints that are not a list", properties: {} },
        fine: { description: "Work", properties: {} },
      },
      runAction(action) {
        switch (action) {
          case "crash":
            throw new RangeError("index out of range");
          case "reject":
            return Promise.reject(new Error("rejected"));
          case "hang":
            return new Promise(() => {});
          case "junk":
            return { done: true } as never;
          case "bad_hints":
            return ok({}, {});
          case "fine":
            return ok({ fine: true });
        }
      },
      hints: () => "not a list" as never,
    }),
  );
  return server;
}

const srv = serve(faultServer);

describe("fault containment for every tool, plain and action", () => {
  it("[A61] a throw becomes isError {errorType: tool_fault, tool, exception, message}, and tool:error carries error and crashReason", async () => {
    const errors: ToolCallEvent[] = [];
    const listener = (m: unknown) => errors.push({ ...(m as ToolCallEvent) });
    subscribe(CHANNELS.toolError, listener);
    try {
      const thrown = await callTool(srv.url, "throws");
      expect(thrown.result.isError).toBe(true);
      expect(thrown.body).toEqual({ errorType: "tool_fault", tool: "throws", exception: "TypeError", message: "bad input shape" });
      expect(thrown.result.structuredContent).toEqual(thrown.body);
      const action = await callTool(srv.url, "jobs", { action: "crash" });
      expect(action.body).toEqual({ errorType: "tool_fault", tool: "jobs", exception: "RangeError", message: "index out of range" });
    } finally {
      unsubscribe(CHANNELS.toolError, listener);
    }
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ tool: "throws", exception: "TypeError", error: "bad input shape" });
    expect(errors[0]!.crashReason).toBeInstanceOf(TypeError);
    expect(errors[1]).toMatchObject({ tool: "jobs", action: "crash", exception: "RangeError" });
  });

  it("[A61] a rejected promise, a thrown string and a thrown non-Error object are contained the same way", async () => {
    expect((await callTool(srv.url, "rejects")).body).toEqual({
      errorType: "tool_fault",
      tool: "rejects",
      exception: "QuotaError",
      message: "quota exceeded",
    });
    expect((await callTool(srv.url, "throws_string")).body).toEqual({
      errorType: "tool_fault",
      tool: "throws_string",
      exception: "throw",
      message: "a plain string",
    });
    expect((await callTool(srv.url, "throws_object")).body).toEqual({
      errorType: "tool_fault",
      tool: "throws_object",
      exception: "throw",
      message: '{"code":"E_WEIRD","detail":[1,2,3]}',
    });
    expect((await callTool(srv.url, "jobs", { action: "reject" })).body).toMatchObject({
      errorType: "tool_fault",
      exception: "Error",
      message: "rejected",
    });
  });

  it("[A61] the message is bounded however long the fault's text", async () => {
    const huge = await callTool(srv.url, "huge_message");
    expect(huge.body.message.length).toBeLessThan(600);
    expect(huge.body.message).toMatch(/^boom x+…\(\d+ more characters\)$/);
    expect(huge.text.length).toBeLessThan(800);
  });

  it("[A61] a return that is no result is a fault too: plain junk, and an action that returns neither ok nor error or hints that are no list", async () => {
    const junk = await callTool(srv.url, "junk");
    expect(junk.body).toMatchObject({ errorType: "tool_fault", tool: "junk", exception: "TypeError" });
    expect(junk.body.message).toMatch(/not a CallToolResult: 42/);
    const action = await callTool(srv.url, "jobs", { action: "junk" });
    expect(action.body).toMatchObject({ errorType: "tool_fault", exception: "TypeError" });
    expect(action.body.message).toMatch(/runAction must return ok\(...\) or error\(...\)/);
    const hints = await callTool(srv.url, "jobs", { action: "bad_hints" });
    expect(hints.body.message).toMatch(/hints must return an array/);
  });

  it("a run past its timeout is a tool_fault (TimeoutError), its signal fires, and the server keeps serving", async () => {
    const slow = await callTool(srv.url, "slow");
    expect(slow.body).toEqual({
      errorType: "tool_fault",
      tool: "slow",
      exception: "TimeoutError",
      message: "tool slow did not finish within 50 ms",
    });
    expect(timedOutSignal).toBeDefined();
    expect(timedOutSignal!.aborted).toBe(true);
    expect((timedOutSignal!.reason as Error).name).toBe("TimeoutError");
    const hang = await callTool(srv.url, "jobs", { action: "hang" });
    expect(hang.body).toMatchObject({ errorType: "tool_fault", tool: "jobs", exception: "TimeoutError" });
    // A handler that fails after its limit leaves nothing unhandled behind.
    const late = await callTool(srv.url, "slow_then_throws");
    expect(late.body.exception).toBe("TimeoutError");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await callTool(srv.url, "fine")).text).toBe("fine");
    expect((await callTool(srv.url, "jobs", { action: "fine" })).body).toEqual({ fine: true });
  });

  it("toolTimeoutMs is checked when the server is built, and a per-tool timeoutMs when the tool is registered", () => {
    expect(() => new McpServer({ name: "t", version: "1" }, { toolTimeoutMs: -1 })).toThrow(RangeError);
    expect(() => new McpServer({ name: "t", version: "1" }, { toolTimeoutMs: 1.5 })).toThrow(/toolTimeoutMs/);
    expect(() => new McpServer({ name: "t", version: "1" }, { toolTimeoutMs: 2 ** 31 })).toThrow(RangeError);
    expect(() => new McpServer({ name: "t", version: "1" }).registerTool("x", { timeoutMs: Number.NaN }, () => "x")).toThrow(
      /tool x: timeoutMs/,
    );
    expect(() =>
      defineActionTool({
        name: "y",
        description: "y",
        timeoutMs: -5,
        actions: { a: { description: "a", properties: {} } },
        runAction: () => ok(1),
      }),
    ).toThrow(/timeoutMs/);
  });

  it("a deliberate protocol error is still a JSON-RPC error, not a fault", async () => {
    const res = await rpc(srv.url, "tools/call", { name: "protocol" });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(-32021);
  });
});

describe("the default report of a failure (no onError)", () => {
  it("is one line on stderr with the stack, and nothing for an error its part marked reported (an outage told once)", async () => {
    const server = new McpServer({ name: "report", version: "1" });
    server.registerPrompt("fails", {}, () => {
      throw new Error("disk on fire");
    });
    server.registerPrompt("outage", {}, () => {
      throw Object.assign(new Error("store unreachable"), { reported: true });
    });
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      for (const name of ["outage", "fails", "outage"]) {
        const answer = await send(server, "prompts/get", { name });
        expect(answer.error).toMatchObject({ code: -32603, message: "Internal error" });
      }
    } finally {
      process.stderr.write = write;
    }
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^x-mcp: prompts\/get \(id \d+\) failed: Error: disk on fire\n\s+at /);
  });
});
