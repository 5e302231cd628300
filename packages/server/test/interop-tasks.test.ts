// Interoperability of the tasks extension: the official TypeScript SDK client
// (@modelcontextprotocol/client 2.4.0, protocol 2026-07-28 pinned) with the
// extension's own requester package (@modelcontextprotocol/ext-tasks 0.2.2)
// calls task tools of @x/server, served by `listen` on 127.0.0.1, and settles
// them, an input_required round included. The official client's codecs do not
// carry the extension's wire shapes, so ext-tasks sends `tools/call` and
// `tasks/*` through a host-owned raw dispatcher (its `rawDispatch` option): a
// plain fetch of the JSON-RPC request with the standard request headers of
// the 2026-07-28 wire. Every raw exchange is recorded for the assertions.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  type JsonRpcResponse,
  type RawClientDispatch,
  resultFromTaskOutcome,
  type TaskEnabledSession,
  TaskFailedError,
} from "@modelcontextprotocol/ext-tasks/client";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { standardHeaders } from "@x/mcp-v2607/wire";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpError, McpServer, type RunningHttpServer } from "../src/index.js";
import { tasks as tasksPlugin } from "../src/tasks/index.js";

const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };

interface RawExchange {
  method: string;
  mcpName: string | null;
  params: Record<string, any>;
  answer: JsonRpcResponse;
}

/** The JSON-RPC response with `id` in a JSON body or an SSE stream. */
function responseIn(contentType: string, text: string, id: string): { result?: unknown; error?: any } | undefined {
  const messages = contentType.startsWith("text/event-stream")
    ? text
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(text)];
  return messages.find((m) => m.id === id && ("result" in m || "error" in m));
}

/**
 * The host-owned request coordinator ext-tasks asks for: one POST per
 * request, with the headers a 2026-07-28 client sends (`MCP-Protocol-Version`,
 * `Mcp-Method`, and `Mcp-Name`, which for `tasks/*` is the task id).
 */
function rawDispatcher(url: string, log: RawExchange[]): RawClientDispatch {
  let next = 1;
  return async (request, options) => {
    const id = `raw-${next++}`;
    const message = { jsonrpc: "2.0", id, ...(request as { method: string; params?: Record<string, unknown> }) };
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...standardHeaders(message),
      ...options?.context?.headers,
    };
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(message), signal: options?.signal });
    const found = responseIn(response.headers.get("content-type") ?? "", await response.text(), id);
    if (found === undefined) throw new Error(`No JSON-RPC response to ${message.method} (HTTP ${response.status})`);
    const answer: JsonRpcResponse =
      "error" in found ? { kind: "error", error: found.error } : { kind: "result", result: found.result as never };
    log.push({ method: message.method, mcpName: headers["Mcp-Name"] ?? null, params: message.params ?? {}, answer });
    return answer;
  };
}

let running: RunningHttpServer;
/** The tasks whose handler saw its signal abort. */
const stopped: string[] = [];
const sessions: TaskEnabledSession[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  const server = new McpServer({ name: "x-tasks", version: "0.1.0" }, { tasks: tasksPlugin({ pollIntervalMs: 50 }) });
  server.registerTool(
    "slow_add",
    {
      taskSupport: "optional",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    },
    async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return String(Number(args.a) + Number(args.b));
    },
  );
  server.registerTool("greet", { taskSupport: "required" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", nameSchema);
    const name = (answer as { content?: { name?: unknown } }).content?.name;
    return `Hello, ${String(name)}!`;
  });
  server.registerTool("hang", { taskSupport: "optional" }, async (_args, ctx) => {
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      ctx.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    stopped.push(ctx.task?.taskId ?? "");
    return "stopped";
  });
  server.registerTool("quota", { taskSupport: "optional" }, () => {
    throw new McpError(-32050, "The quota is exhausted", { limit: 3 });
  });
  running = await listen(server, { port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  for (const session of sessions) await session.close();
  for (const client of clients) await client.close();
  await running.close();
});

/** An official client connected with 2026-07-28 pinned, and an ext-tasks session over it. */
async function session(names: string[] = []) {
  const client = new Client(
    { name: "official-sdk-client", version: "2.4.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
  const log: RawExchange[] = [];
  const asked: string[] = [];
  const tasks = createTaskSessionFromClient(client, {
    endpointId: `x-tasks-${sessions.length}`,
    rawDispatch: rawDispatcher(running.url, log),
    v2RequestFraming: {
      protocolVersion: "2026-07-28",
      clientInfo: { name: "official-sdk-client", version: "2.4.0" },
      clientCapabilities: { elicitation: { form: {} } },
    },
    onInputRequest: createApplicationInputHandler({
      elicitation: (request) => {
        asked.push(String(request.params.message));
        return { action: "accept", content: { name: names[asked.length - 1] ?? "nobody" } };
      },
      sampling: () => {
        throw new Error("no sampling here");
      },
      roots: () => ({ roots: [] }),
    }),
  });
  sessions.push(tasks);
  return { client, tasks, log, asked };
}

describe("@modelcontextprotocol/ext-tasks (official client 2.4.0) against @x/server's tasks extension", () => {
  it("sees the extension in server/discover and negotiates the 2026 generation", async () => {
    const { client, tasks } = await session();
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(tasks.capabilities).toMatchObject({ execution: true, cancellation: true, inputResponses: true });
  });

  it("a task tool call becomes a task, is polled with tasks/get (Mcp-Name = taskId) and settles completed", async () => {
    const { tasks, log } = await session();
    const execution = await tasks.callTool("slow_add", { a: 2, b: 40 });
    expect(execution.kind).toBe("task");
    const taskId = execution.handle!.taskId;
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [{ type: "text", text: "42" }] });
    const call = log.find((e) => e.method === "tools/call")!;
    expect(call.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(call.answer).toMatchObject({ kind: "result", result: { resultType: "task", taskId, status: "working" } });
    const gets = log.filter((e) => e.method === "tasks/get");
    expect(gets.length).toBeGreaterThanOrEqual(1);
    expect(gets.every((g) => g.mcpName === taskId && g.params.taskId === taskId)).toBe(true);
    expect(gets.at(-1)!.answer).toMatchObject({ kind: "result", result: { resultType: "complete", status: "completed" } });
  });

  it("an input_required round: the elicitation in the task is answered with tasks/update and the task completes", async () => {
    const { tasks, log, asked } = await session(["Ada"]);
    const execution = await tasks.callTool("greet", {});
    expect(execution.kind).toBe("task");
    const { outcome } = await execution.settle();
    expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
    expect(asked).toEqual(["Your name?"]);
    const updates = log.filter((e) => e.method === "tasks/update");
    expect(updates).toHaveLength(1);
    expect(Object.values(updates[0]!.params.inputResponses)).toEqual([{ action: "accept", content: { name: "Ada" } }]);
    expect(updates[0]!.answer).toMatchObject({ kind: "result", result: { resultType: "complete" } });
    const asking = log.find((e) => e.method === "tasks/get" && (e.answer as any).result?.status === "input_required")!;
    expect(Object.keys((asking.answer as any).result.inputRequests)).toEqual(Object.keys(updates[0]!.params.inputResponses));
  });

  it("a failed task settles failed with the tool's JSON-RPC error", async () => {
    const { tasks } = await session();
    const execution = await tasks.callTool("quota", {});
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("failed");
    const error = (outcome as { error: TaskFailedError }).error;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error.code).toBe(-32050);
    expect(error.data).toEqual({ limit: 3 });
  });

  it("cancel: tasks/cancel is acknowledged, the handler's signal aborts and the task ends cancelled", async () => {
    const { tasks, log } = await session();
    const execution = await tasks.callTool("hang", {});
    const taskId = execution.handle!.taskId;
    await execution.cancel();
    const cancels = log.filter((e) => e.method === "tasks/cancel");
    expect(cancels).toHaveLength(1);
    expect(cancels[0]!.mcpName).toBe(taskId);
    expect(cancels[0]!.answer).toMatchObject({ kind: "result", result: { resultType: "complete" } });
    // Cancellation is eventually consistent: read the task until it ends (bounded).
    let view = await tasks.task(taskId).snapshot();
    for (let i = 0; i < 50 && view.status !== "cancelled"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      view = await tasks.task(taskId).snapshot();
    }
    expect(view.status).toBe("cancelled");
    expect(stopped).toContain(taskId);
  });
});
