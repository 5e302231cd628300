// Task-supporting tools (src/features/tools/index.ts #immediate, src/tasks/runner.ts): a call of a tool with
// taskSupport becomes a task when the request declares the extension, its handle is the flat CreateTaskResult,
// and the run's end is the task's: completed with the stamped CallToolResult (tool errors and faults included),
// failed with a thrown protocol error inlined.
import { inputRequiredResult } from "@x/builders";
import { validate } from "@x/mcp-v2607";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpError, McpServer, type RunningHttpServer } from "../../src/index.js";
import { capabilities, rpc, send } from "../helpers.js";
import { call, gate, isIsoTime, PLAIN, start, TASKS, tasks, waitFor } from "./fixture.js";
import { tasks as tasksPlugin } from "../../src/tasks/index.js";

const release = gate();

function taskServer() {
  const server = new McpServer({ name: "tasks", version: "1.0.0" }, { tasks: tasksPlugin({ ttlMs: 120_000, pollIntervalMs: 250 }) });
  server.registerTool(
    "report",
    {
      taskSupport: "optional",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      outputSchema: { type: "object", properties: { length: { type: "integer" } }, required: ["length"] },
    },
    async (args, ctx) => {
      const text = String(args.text);
      return {
        resultType: "complete" as const,
        content: [{ type: "text" as const, text: `${text} (${ctx.task ? `task ${ctx.task.taskId}` : "direct"})` }],
        structuredContent: { length: text.length },
      };
    },
  );
  server.registerTool("held", { taskSupport: "optional" }, async () => {
    await release.promise;
    return "released";
  });
  server.registerTool("only_task", { taskSupport: "required" }, () => "as a task");
  server.registerTool("tool_error", { taskSupport: "required" }, async () => ({
    resultType: "complete" as const,
    content: [{ type: "text" as const, text: "the input could not be processed" }],
    isError: true,
  }));
  server.registerTool("tool_fault", { taskSupport: "required" }, async () => {
    throw new Error("kaboom");
  });
  server.registerTool("sync_fault", { taskSupport: "required" }, () => {
    throw new TypeError("thrown at once");
  });
  server.registerTool("protocol_error", { taskSupport: "required" }, async () => {
    throw new McpError(-32603, "the backend rejected the request", { retryAfterMs: 5 });
  });
  server.registerTool("sync_protocol_error", { taskSupport: "required" }, () => {
    throw new McpError(-32002, "not there");
  });
  server.registerTool("junk", { taskSupport: "required" }, async () => 42 as never);
  server.registerTool("never_task", {}, (_args, ctx) => `task: ${String(ctx.task)}`);
  server.registerTool("explicit_round", { taskSupport: "optional" }, () =>
    inputRequiredResult({
      inputRequests: {
        confirm: { method: "elicitation/create", params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } } },
      },
    }),
  );
  return server;
}

let server: McpServer;
beforeAll(() => {
  server = taskServer();
});
afterAll(() => {
  release.open();
  server.close();
});

describe("an optional task tool", () => {
  it("with the extension declared answers a flat CreateTaskResult at once; tasks/get says working until the run ends", async () => {
    const answer = await call(server, "held");
    const handle = answer.result;
    expect(handle.resultType).toBe("task");
    expect(handle.status).toBe("working");
    expect(typeof handle.taskId).toBe("string");
    expect(handle.taskId.length).toBeGreaterThanOrEqual(32);
    expect(isIsoTime(handle.createdAt)).toBe(true);
    expect(isIsoTime(handle.lastUpdatedAt)).toBe(true);
    expect(handle.ttlMs).toBe(120_000);
    expect(handle.pollIntervalMs).toBe(250);
    // Flat: the Task's members at the top, nothing of a result, an ask or a round.
    for (const absent of ["task", "result", "error", "inputRequests", "requestState", "content", "isError"]) {
      expect(handle).not.toHaveProperty(absent);
    }
    expect(validate("Result", handle).ok).toBe(true);

    const working = await tasks(server, "get", { taskId: handle.taskId });
    expect(working.result).toMatchObject({
      resultType: "complete",
      taskId: handle.taskId,
      status: "working",
      createdAt: handle.createdAt,
      ttlMs: 120_000,
      pollIntervalMs: 250,
    });
    expect(working.result).not.toHaveProperty("result");
    expect(working.result).not.toHaveProperty("inputRequests");

    release.open();
    const done = await waitFor(server, handle.taskId, "completed");
    expect(done.result.content).toEqual([{ type: "text", text: "released" }]);
    expect(Date.parse(done.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
  });

  it("completes with the stamped CallToolResult inlined, checked against the outputSchema, run with ctx.task set", async () => {
    const taskId = await start(server, "report", { text: "hello" });
    const done = await waitFor(server, taskId, "completed");
    expect(done.result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: `hello (task ${taskId})` }],
      structuredContent: { length: 5 },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "tasks", version: "1.0.0" } },
    });
    expect(validate("CallToolResult", done.result).ok).toBe(true);
    expect(done).not.toHaveProperty("error");
    expect(done).not.toHaveProperty("inputRequests");
  });

  it("without the extension runs as a plain call and answers its CallToolResult (no task)", async () => {
    const answer = await call(server, "report", { text: "hey" }, { meta: PLAIN });
    expect(answer.result.resultType).toBe("complete");
    expect(answer.result.content).toEqual([{ type: "text", text: "hey (direct)" }]);
    expect(answer.result).not.toHaveProperty("taskId");
  });

  it("an extension entry that is not an object is refused with the envelope (-32602), not taken as a declaration", async () => {
    const answer = await call(server, "report", { text: "x" }, { meta: capabilities({ extensions: { [TASKS_EXTENSION]: true } }) });
    expect(answer.error.code).toBe(-32602);
    expect(answer.result).toBeUndefined();
  });

  it("bad arguments still make a task, which completes with the isError result", async () => {
    const taskId = await start(server, "report", { text: 5 });
    const done = await waitFor(server, taskId, "completed");
    expect(done.result.isError).toBe(true);
    expect(done.result.content[0].text).toContain("Invalid arguments for tool report");
  });

  it("a tool without taskSupport never makes a task, even with the extension declared", async () => {
    const answer = await call(server, "never_task");
    expect(answer.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "task: undefined" }] });
  });
});

describe("a required task tool", () => {
  it("without the extension is refused with -32021 naming the extension in requiredCapabilities", async () => {
    const answer = await call(server, "only_task", {}, { meta: PLAIN });
    expect(answer.error.code).toBe(-32021);
    expect(answer.error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    expect(answer.error.message).toContain(TASKS_EXTENSION);
  });

  it("with the extension runs as a task", async () => {
    const taskId = await start(server, "only_task");
    const done = await waitFor(server, taskId, "completed");
    expect(done.result.content).toEqual([{ type: "text", text: "as a task" }]);
  });
});

describe("how a task's run ends", () => {
  it("a tool error result (isError) ends completed with that result, not failed", async () => {
    const done = await waitFor(server, await start(server, "tool_error"), ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({ isError: true, content: [{ type: "text", text: "the input could not be processed" }] });
    expect(done).not.toHaveProperty("error");
  });

  it("a tool fault (a thrown Error, async or at once, or a return that is no result) ends completed with the tool_fault result", async () => {
    for (const [tool, exception] of [
      ["tool_fault", "Error"],
      ["sync_fault", "TypeError"],
      ["junk", "TypeError"],
    ] as const) {
      const done = await waitFor(server, await start(server, tool), ["completed", "failed"]);
      expect(done.status, tool).toBe("completed");
      expect(done.result.isError, tool).toBe(true);
      expect(done.result.structuredContent, tool).toMatchObject({ errorType: "tool_fault", tool, exception });
    }
  });

  it("a thrown McpError ends failed with the JSON-RPC error inlined (code, message, data) and a statusMessage", async () => {
    const done = await waitFor(server, await start(server, "protocol_error"), ["completed", "failed"]);
    expect(done.status).toBe("failed");
    expect(done.error).toEqual({ code: -32603, message: "the backend rejected the request", data: { retryAfterMs: 5 } });
    expect(done.statusMessage).toBe("the backend rejected the request");
    expect(done).not.toHaveProperty("result");
    const sync = await waitFor(server, await start(server, "sync_protocol_error"), ["completed", "failed"]);
    expect(sync).toMatchObject({ status: "failed", error: { code: -32002, message: "not there" } });
  });

  it("a terminal task stays as it is on later polls", async () => {
    const taskId = await start(server, "only_task");
    const first = await waitFor(server, taskId, "completed");
    const again = await tasks(server, "get", { taskId });
    expect(again.result).toEqual(first);
  });
});

describe("what a task's run may not do", () => {
  it("sends no progress or log notifications (the extension has none for tasks): ctx.progress and ctx.log return false", async () => {
    const s = new McpServer({ name: "n", version: "1" }, { logging: true, tasks: tasksPlugin() });
    s.registerTool(
      "notifies",
      { taskSupport: "required" },
      async (_args, ctx) => `progress ${ctx.progress(1, 2)}, log ${ctx.log("error", "x")}`,
    );
    const sent: unknown[] = [];
    const notify = (n: unknown) => {
      sent.push(n);
      return true;
    };
    const answer = await call(
      s,
      "notifies",
      {},
      {
        meta: { ...TASKS, progressToken: "p1", "io.modelcontextprotocol/logLevel": "debug" },
        transport: { notify },
      },
    );
    const done = await waitFor(s, answer.result.taskId, "completed");
    expect(done.result.content[0].text).toBe("progress false, log false");
    expect(sent).toEqual([]);
    s.close();
  });

  // Regression: a handler that answers with its own InputRequiredResult (the explicit Multi Round-Trip
  // form, e.g. a tool written for plain calls given taskSupport "optional") ends its task `completed` with
  // that InputRequiredResult as the task's result, which is no CallToolResult (no content) and asks for a
  // retry of a call that is now a task.
  it("a run that answers an InputRequiredResult does not complete the task with it as its result", async () => {
    const taskId = await start(server, "explicit_round");
    const end = await waitFor(server, taskId, ["completed", "failed", "input_required"]);
    expect(end.result?.resultType).not.toBe("input_required");
    if (end.status === "completed") expect(validate("CallToolResult", end.result).ok).toBe(true);
  });
});

describe("server/discover", () => {
  it("announces the extension once a tool supports tasks, and not before (nor less after the tool is removed)", async () => {
    const plain = new McpServer({ name: "p", version: "1" }, { tasks: tasksPlugin() });
    plain.registerTool("t", {}, () => "t");
    const before = await send(plain, "server/discover");
    expect(before.result.capabilities.extensions?.[TASKS_EXTENSION]).toBeUndefined();
    plain.registerTool("later", { taskSupport: "optional" }, () => "x");
    const after = await send(plain, "server/discover");
    expect(after.result.capabilities.extensions[TASKS_EXTENSION]).toEqual({});
    // Tasks outlive their tool: once offered, the extension (and tasks/*) stays.
    plain.removeTool("later");
    const removed = await send(plain, "server/discover");
    expect(removed.result.capabilities.extensions[TASKS_EXTENSION]).toEqual({});
    plain.close();
  });

  it("refuses a taskSupport or taskStart outside its values", () => {
    const s = new McpServer({ name: "p", version: "1" }, { tasks: tasksPlugin() });
    expect(() => s.registerTool("a", { taskSupport: "always" as never }, () => "a")).toThrow(TypeError);
    expect(() => s.registerTool("b", { taskSupport: "optional", taskStart: "later" as never }, () => "b")).toThrow(TypeError);
    s.close();
  });
});

describe("over Streamable HTTP", () => {
  let running: RunningHttpServer;
  let http: McpServer;
  beforeAll(async () => {
    http = taskServer();
    running = await listen(http, { port: 0 });
  });
  afterAll(() => running.close(200));

  it("answers the task handle with 200, and tasks/get with Mcp-Name = taskId", async () => {
    const created = await rpc(running.url, "tools/call", { name: "report", arguments: { text: "over http" } }, { meta: TASKS });
    expect(created.status).toBe(200);
    expect(created.json.result.resultType).toBe("task");
    const taskId = created.json.result.taskId;
    let got: Awaited<ReturnType<typeof rpc>> | undefined;
    for (let i = 0; i < 200; i++) {
      got = await rpc(running.url, "tasks/get", { taskId }, { meta: TASKS });
      if (got.json.result?.status === "completed") break;
    }
    expect(got!.status).toBe(200);
    expect(got!.json.result.result.content[0].text).toBe(`over http (task ${taskId})`);
  });

  it("refuses a tasks/get whose Mcp-Name is not the taskId (-32020, 400)", async () => {
    const created = await rpc(running.url, "tools/call", { name: "only_task", arguments: {} }, { meta: TASKS });
    const taskId = created.json.result.taskId;
    const wrong = await rpc(running.url, "tasks/get", { taskId }, { meta: TASKS, headers: { "mcp-name": "another-task" } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.code).toBe(-32020);
  });

  it("refuses a required task tool without the extension with -32021 and HTTP 400", async () => {
    const refused = await rpc(running.url, "tools/call", { name: "only_task", arguments: {} }, { meta: PLAIN });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe(-32021);
    expect(refused.json.error.data.requiredCapabilities.extensions[TASKS_EXTENSION]).toEqual({});
  });
});
