// Task status notifications over Streamable HTTP (src/features/subscriptions.ts, src/tasks/runner.ts #publish):
// a subscriptions/listen with notifications.taskIds streams notifications/tasks, each the detailed task as
// tasks/get would answer it then, tagged with the subscription id, on every status change; the
// acknowledgement grants only the caller's own, existing tasks.
import { validate } from "@x/mcp-v2607";
import { detailedTaskProblem, TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../../src/index.js";
import { headersFor, meta, rpc } from "../helpers.js";
import { gate, nameSchema, PLAIN, TASKS, until } from "./fixture.js";
import { tasks as tasksPlugin } from "../../src/tasks/index.js";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

let server: McpServer;
let running: RunningHttpServer;
const proceed = gate();
/** `job` asks only once this is open (after the test's listen is acknowledged). */
const ask = gate();
beforeAll(async () => {
  server = new McpServer({ name: "listen", version: "1" }, { tasks: tasksPlugin() });
  server.registerTool("job", { taskSupport: "required" }, async (_args, ctx) => {
    await ask.promise;
    const answer = await ctx.elicit("Name?", nameSchema);
    await proceed.promise;
    return `done for ${String((answer as any).content?.name)}`;
  });
  server.registerTool("quick", { taskSupport: "required" }, () => "quick");
  running = await listen(server, { port: 0 });
});
afterAll(async () => {
  ask.open();
  proceed.open();
  await running.close(200);
});

/** Opens a listen stream over HTTP; `events` fills as SSE data lines arrive; `stop()` ends it. */
async function openListen(notifications: Record<string, unknown>, id: string, extra: Record<string, unknown> = TASKS) {
  const body = { jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: meta(extra) } };
  const controller = new AbortController();
  const response = await fetch(running.url, {
    method: "POST",
    headers: headersFor(body),
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const events: any[] = [];
  let ended = false;
  const reading = (async () => {
    if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
      events.push(await response.json());
      ended = true;
      return;
    }
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (let i = 0; i < 100_000; i++) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const lines = buffer.split("\n");
        buffer = lines.pop()!;
        for (const line of lines) if (line.startsWith("data: ")) events.push(JSON.parse(line.slice(6)));
      }
    } catch {
      // Aborted by stop().
    }
    ended = true;
  })();
  return {
    status: response.status,
    events,
    ended: () => ended,
    notifications: () => events.filter((e) => e.method === "notifications/tasks"),
    stop: async () => {
      controller.abort();
      await reading;
    },
  };
}

const createTask = async (name: string) =>
  (await rpc(running.url, "tools/call", { name, arguments: {} }, { meta: TASKS })).json.result.taskId as string;
const getTask = async (taskId: string) => (await rpc(running.url, "tasks/get", { taskId }, { meta: TASKS })).json.result;

describe("subscriptions/listen with notifications.taskIds", () => {
  it("acknowledges only existing, owned ids, then streams each status change as the detailed task with the subscription id", async () => {
    const taskId = await createTask("job");
    const unknown = globalThis.crypto.randomUUID();
    const stream = await openListen({ taskIds: [taskId, unknown], toolsListChanged: true }, "L-tasks");
    expect(stream.status).toBe(200);
    await until(() => stream.events.length > 0);
    expect(stream.events[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true, taskIds: [taskId] }, _meta: { [SUBSCRIPTION_ID]: "L-tasks" } },
    });

    // working → input_required
    ask.open();
    await until(() => stream.notifications().length >= 1);
    const waiting = stream.notifications()[0];
    expect(waiting.params.status).toBe("input_required");
    expect(waiting.params.inputRequests["elicit-1"].method).toBe("elicitation/create");
    const polled = await getTask(taskId);
    const { resultType: _r, _meta: _m, ...asPolled } = polled;
    const { _meta, ...notified } = waiting.params;
    expect(_meta).toEqual({ [SUBSCRIPTION_ID]: "L-tasks" });
    expect(notified).toEqual(asPolled);

    // input_required → working → completed
    await rpc(
      running.url,
      "tasks/update",
      { taskId, inputResponses: { "elicit-1": { action: "accept", content: { name: "Ada" } } } },
      { meta: TASKS },
    );
    await until(() => stream.notifications().length >= 2);
    expect(stream.notifications()[1].params.status).toBe("working");
    expect(stream.notifications()[1].params).not.toHaveProperty("inputRequests");
    proceed.open();
    await until(() => stream.notifications().length >= 3);
    const completed = stream.notifications()[2].params;
    expect(completed.status).toBe("completed");
    expect(completed.result.content).toEqual([{ type: "text", text: "done for Ada" }]);

    expect(stream.notifications().map((n) => n.params.status)).toEqual(["input_required", "working", "completed"]);
    for (const n of stream.notifications()) {
      expect(n.jsonrpc).toBe("2.0");
      expect(detailedTaskProblem(n.params)).toBeUndefined();
      expect(n.params.taskId).toBe(taskId);
      expect(n.params._meta[SUBSCRIPTION_ID]).toBe("L-tasks");
    }
    // The other members of the filter still work on the same stream.
    server.registerTool("late", {}, () => "late");
    await until(() => stream.events.some((e) => e.method === "notifications/tools/list_changed"));
    await stream.stop();
  });

  it("hears a cancel, and only for the ids it was granted", async () => {
    const heard = await createTask("job");
    const other = await createTask("job");
    const stream = await openListen({ taskIds: [heard] }, "L-cancel");
    await until(() => stream.events.length > 0);
    await rpc(running.url, "tasks/cancel", { taskId: other }, { meta: TASKS });
    await rpc(running.url, "tasks/cancel", { taskId: heard }, { meta: TASKS });
    await until(() => stream.notifications().some((n) => n.params.status === "cancelled"));
    expect(new Set(stream.notifications().map((n) => n.params.taskId))).toEqual(new Set([heard]));
    await stream.stop();
  });

  it("a listen for a task that is already terminal is granted it and hears nothing more", async () => {
    const taskId = await createTask("quick");
    for (let i = 0; i < 200 && (await getTask(taskId)).status !== "completed"; i++);
    const stream = await openListen({ taskIds: [taskId] }, "L-done");
    await until(() => stream.events.length > 0);
    expect(stream.events[0].params.notifications).toEqual({ taskIds: [taskId] });
    expect(stream.notifications()).toEqual([]);
    await stream.stop();
  });

  it("without the extension declared: -32021 with requiredCapabilities, HTTP 400, no stream", async () => {
    const stream = await openListen({ taskIds: ["a"] }, "L-plain", PLAIN);
    expect(stream.status).toBe(400);
    await until(() => stream.ended());
    expect(stream.events[0].error.code).toBe(-32021);
    expect(stream.events[0].error.data.requiredCapabilities.extensions[TASKS_EXTENSION]).toEqual({});
    // An empty taskIds still asks for task notifications.
    const plain = await rpc(running.url, "subscriptions/listen", { notifications: { taskIds: [] } }, { meta: PLAIN });
    expect(plain.json.error.code).toBe(-32021);
  });

  it("more than 100 ids, or ids that are not strings: -32602", async () => {
    const many = await rpc(
      running.url,
      "subscriptions/listen",
      { notifications: { taskIds: Array.from({ length: 101 }, (_, i) => `${i}`) } },
      { meta: TASKS },
    );
    expect(many.json.error.code).toBe(-32602);
    expect(many.json.error.message).toContain("100");
    const numbers = await rpc(running.url, "subscriptions/listen", { notifications: { taskIds: [1, 2] } }, { meta: TASKS });
    expect(numbers.json.error.code).toBe(-32602);
  });

  it("the acknowledgement is a valid SubscriptionsAcknowledgedNotification", async () => {
    const stream = await openListen({ taskIds: [] }, "L-empty");
    await until(() => stream.events.length > 0);
    expect(stream.events[0].params.notifications).toEqual({ taskIds: [] });
    expect(validate("SubscriptionsAcknowledgedNotification", stream.events[0]).ok).toBe(true);
    await stream.stop();
  });
});
