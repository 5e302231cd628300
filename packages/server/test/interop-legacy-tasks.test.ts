// Interoperability of the 2025-11-25 tasks: the official TypeScript SDK client
// (@modelcontextprotocol/client 2.4.0), which has no task helper of its own
// (no callToolStream), sends the revision's task requests through its generic
// `request()` with its own 2025-11-25 schemas (`specTypeSchemas`), against
// @x/server over Streamable HTTP on 127.0.0.1. The client validates every
// answer with those schemas, and answers the task's elicitation with its
// ordinary `elicitation/create` handler.
import { Client, StreamableHTTPClientTransport, specTypeSchemas } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpError, McpServer, type RunningHttpServer } from "../src/index.js";
import { tasks as tasksPlugin } from "../src/tasks/index.js";

const RELATED = "io.modelcontextprotocol/related-task";
const NAME_SCHEMA = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };

let running: RunningHttpServer;
const clients: Client[] = [];

beforeAll(async () => {
  const server = new McpServer({ name: "x-server", version: "0.1.0" }, { tasks: tasksPlugin({ ttlMs: 60_000 }) });
  server.registerTool("ask_name", { taskSupport: "optional" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", NAME_SCHEMA);
    return answer.action === "accept" ? `Hello, ${String(answer.content?.name)}!` : `no name (${answer.action})`;
  });
  server.registerTool("fails", { taskSupport: "required" }, () => {
    throw new McpError(-32050, "custom failure");
  });
  server.registerTool("waits", { taskSupport: "optional" }, (_args, ctx) => {
    return new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("stopped")));
  });
  running = await listen(server, { port: 0 });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await running.close();
});

async function connect(): Promise<Client> {
  const client = new Client({ name: "official-sdk-client", version: "2.4.0" }, { capabilities: { elicitation: {} } });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
  return client;
}

/** A tools/call as a task, read with the client's CreateTaskResult schema. */
async function callAsTask(client: Client, name: string, ttl?: number) {
  const task = ttl === undefined ? {} : { ttl };
  return client.request({ method: "tools/call", params: { name, arguments: {}, task } } as never, specTypeSchemas.CreateTaskResult);
}

describe("official @modelcontextprotocol/client 2.4.0 with 2025-11-25 tasks against @x/server", () => {
  it("sees the tasks capability and execution.taskSupport", async () => {
    const client = await connect();
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.execution?.taskSupport])).toEqual([
      ["ask_name", "optional"],
      ["fails", "required"],
      ["waits", "optional"],
    ]);
  });

  it("calls a tool as a task, polls it, answers its elicitation during tasks/result and gets the result", async () => {
    const client = await connect();
    const asked: unknown[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return { action: "accept", content: { name: "Ada" } };
    });
    const created = await callAsTask(client, "ask_name", 5000);
    expect(created.task).toMatchObject({ status: "working", ttl: 5000 });
    const taskId = created.task.taskId;
    const got = await client.request({ method: "tasks/get", params: { taskId } } as never, specTypeSchemas.GetTaskResult);
    expect(got.taskId).toBe(taskId);
    expect(["working", "input_required"]).toContain(got.status);
    const result = await client.request({ method: "tasks/result", params: { taskId } } as never, specTypeSchemas.CallToolResult);
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(result._meta?.[RELATED]).toEqual({ taskId });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: "Your name?", _meta: { [RELATED]: { taskId } } });
    const done = await client.request({ method: "tasks/get", params: { taskId } } as never, specTypeSchemas.GetTaskResult);
    expect(done.status).toBe("completed");
  });

  it("gets a failed task's JSON-RPC error from tasks/result, and cancels a running task", async () => {
    const client = await connect();
    const failed = await callAsTask(client, "fails");
    await expect(
      client.request({ method: "tasks/result", params: { taskId: failed.task.taskId } } as never, specTypeSchemas.CallToolResult),
    ).rejects.toMatchObject({ code: -32050, message: expect.stringContaining("custom failure") });
    const waiting = await callAsTask(client, "waits");
    const cancelled = await client.request(
      { method: "tasks/cancel", params: { taskId: waiting.task.taskId } } as never,
      specTypeSchemas.CancelTaskResult,
    );
    expect(cancelled).toMatchObject({ taskId: waiting.task.taskId, status: "cancelled" });
    await expect(
      client.request({ method: "tasks/cancel", params: { taskId: waiting.task.taskId } } as never, specTypeSchemas.CancelTaskResult),
    ).rejects.toMatchObject({ code: -32602 });
  });
});
