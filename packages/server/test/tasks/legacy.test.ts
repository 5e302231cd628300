// The tasks extension is of the 2026-07-28 wire (src/features/tools/index.ts, src/legacy/era.ts): in an
// initialize-era session (2025-11-25 over Streamable HTTP) the tasks/* methods do not exist, an optional task
// tool runs as a plain call, a required one is refused, and the extension is not announced, whatever the
// session's client declared at initialize.
import * as V2511 from "@x/mcp-v2511/validators";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type MemoryTaskStore, type RunningHttpServer } from "../../src/index.js";

type Message = Record<string, any>;

let nextId = 1;
let server: McpServer;
let running: RunningHttpServer;
let session: Record<string, string>;
let initialized: Message;

async function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(running.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC response of a POST, whether JSON or the last message of an SSE stream. */
async function answerOf(res: Response): Promise<Message> {
  const text = await res.text();
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) return JSON.parse(text);
  const messages = text
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l.length > 6)
    .map((l) => JSON.parse(l.slice(6)));
  return messages.find((m) => "result" in m || "error" in m);
}

async function rq(method: string, params: Message = {}) {
  const res = await post({ jsonrpc: "2.0", id: nextId++, method, params }, session);
  return { status: res.status, message: await answerOf(res) };
}

beforeAll(async () => {
  server = new McpServer({ name: "era", version: "1" });
  server.registerTool("optional", { taskSupport: "optional" }, (_args, ctx) => `ran ${ctx.task ? "as a task" : "as a plain call"}`);
  server.registerTool("required", { taskSupport: "required" }, () => "never");
  server.registerTool("deferred", { taskSupport: "optional", taskStart: "deferred" }, async (_args, ctx) => {
    try {
      return `startTask: ${String(await ctx.startTask())}`;
    } catch (error) {
      return `startTask refused: ${(error as Error).message}`;
    }
  });
  running = await listen(server, { port: 0 });
  // A client that declares the extension (and the earlier era's own tasks) at initialize: neither counts.
  const capabilities = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} }, tasks: { requests: { tools: { call: {} } } } };
  const res = await post({
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "old", version: "1" } },
  });
  expect(res.status).toBe(200);
  initialized = await res.json();
  session = { "mcp-session-id": res.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
  expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
});
afterAll(() => running.close(200));

describe("a 2025-11-25 session", () => {
  it("is not told of the extension at initialize", () => {
    expect(initialized.result.protocolVersion).toBe("2025-11-25");
    expect(initialized.result.capabilities).not.toHaveProperty("extensions");
    expect(initialized.result.capabilities).not.toHaveProperty("tasks");
    expect(V2511.InitializeResult(initialized.result)).toBe(true);
  });

  it("has no tasks/get, tasks/update or tasks/cancel (-32601)", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list"]) {
      const { status, message } = await rq(method, { taskId: "x", inputResponses: {} });
      expect(message.error?.code, method).toBe(-32601);
      expect(status, method).toBe(200);
    }
  });

  it("runs an optional task tool as a plain call: a CallToolResult of the era, no task", async () => {
    const { message } = await rq("tools/call", { name: "optional", arguments: {} });
    expect(message.result).toEqual({ content: [{ type: "text", text: "ran as a plain call" }] });
    expect(V2511.CallToolResult(message.result)).toBe(true);
    expect((server.taskStore as MemoryTaskStore).size).toBe(0);
  });

  it("ignores the earlier era's task augmentation (params.task) on an optional tool", async () => {
    const { message } = await rq("tools/call", { name: "optional", arguments: {}, task: { ttl: 60_000 } });
    expect(message.result.content[0].text).toBe("ran as a plain call");
    expect(message.result).not.toHaveProperty("task");
  });

  it("refuses a required task tool with a JSON-RPC error (HTTP 200: a 404 would read as an expired session)", async () => {
    const { status, message } = await rq("tools/call", { name: "required", arguments: {} });
    expect(status).toBe(200);
    expect(message.error.code).toBe(-32601);
    expect(message.error.message).toMatch(/only as a task/);
    expect(message.error.data).toEqual({ name: "required" });
  });

  it("a deferred tool's ctx.startTask in the era does not make a task", async () => {
    const { message } = await rq("tools/call", { name: "deferred", arguments: {} });
    expect(message.result.content[0].text).not.toMatch(/^startTask: true/);
    expect(message.result).not.toHaveProperty("taskId");
  });
});
