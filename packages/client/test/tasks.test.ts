// The tasks extension (io.modelcontextprotocol/tasks) between @x/client and a real @x/server over
// Streamable HTTP on 127.0.0.1: callTool driving a task to its result, input answered through the
// elicitation handler with tasks/update, cancellation, failed tasks, the polling interval, the explicit
// TaskHandle and resuming by id, and the initialize era. Every request the client sends is recorded
// (a wrapper around fetch) to check what went over the wire. Answers no real server gives (malformed
// tasks) come from a scripted in-memory server at the end.
import { McpError, listen, McpServer, type RunningHttpServer, type TaskRecord, type TaskStore } from "@x/server";
import { MemoryTaskStore, tasks } from "@x/server/tasks";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  ClientErrorCode,
  type ClientOptions,
  type DetailedTask,
  type ElicitResult,
  isTransientTaskFailure,
  McpClientError,
  StreamableHttpTransport,
  type TaskHandle,
} from "../src/index.js";
import { TASK_POLL_ATTEMPTS } from "../src/task-options.js";
import { fakeClock, memoryClient, tool, turn } from "./helpers.js";

interface Sent {
  method: string | null;
  name: string | null;
  body: { id?: unknown; method: string; params: Record<string, any> };
}

/**
 * A client over HTTP to `url` whose every request is recorded in `sent`;
 * `sentCount(method, n)` resolves once `n` requests of `method` were sent.
 */
async function connect(url: string, options: ClientOptions = {}) {
  const sent: Sent[] = [];
  const count = (method: string) => sent.filter((s) => s.body.method === method).length;
  const waiting: { method: string; n: number; resolve: () => void }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (init?.method === "POST" && typeof init.body === "string") {
      sent.push({ method: headers.get("mcp-method"), name: headers.get("mcp-name"), body: JSON.parse(init.body) });
      for (const w of waiting.filter((w) => count(w.method) >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
    return fetch(input, init);
  };
  const client = new Client({ name: "tasks-client", version: "1.0.0" }, { onWarning: () => {}, ...options });
  await client.connect(new StreamableHttpTransport(url, { fetch: recording }));
  const sentCount = (method: string, n: number) =>
    count(method) >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ method, n, resolve }));
  return { client, sent, count, sentCount };
}

const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
const confirmSchema = { type: "object" as const, properties: { confirm: { type: "boolean" as const } }, required: ["confirm"] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the server's handlers saw, for the tests to check. */
const seen = { taskIds: [] as string[], aborted: [] as string[] };

/** A gate a tool waits on until a test opens it. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}
let release = gate();

/**
 * Moves a faked clock (see `fakeClock`) one poll interval each time a timer
 * of `interval` ms is set (the client sleeping before its next poll), until
 * `until` settles: at most `max` times.
 * @throws when `until` has not settled after `max` intervals.
 */
async function pollUntil(clock: ReturnType<typeof fakeClock>, until: Promise<unknown>, interval: number, max = 20): Promise<void> {
  let settled = false;
  const done = until.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let n = 1; n <= max + 1 && !settled; n++) {
    await Promise.race([clock.scheduled(interval, n), done]);
    if (!settled && n <= max) clock.advance(interval);
  }
  if (!settled) throw new Error(`not settled after ${max} polls`);
}

function tasksServer(pollIntervalMs: number): McpServer {
  const server = new McpServer({ name: "tasks-server", version: "1.0.0" }, { tasks: tasks({ pollIntervalMs }) });
  server.registerTool(
    "work",
    {
      taskSupport: "optional",
      inputSchema: { type: "object", properties: { ms: { type: "integer" }, text: { type: "string" } } },
    },
    async (args, ctx) => {
      const taskId = (ctx as { task?: { taskId: string } }).task?.taskId;
      if (taskId !== undefined) seen.taskIds.push(taskId);
      await sleep(Number(args.ms ?? 0));
      return `done ${String(args.text ?? "")} in ${taskId === undefined ? "a plain call" : "a task"}`;
    },
  );
  server.registerTool("gated", { taskSupport: "optional" }, async () => {
    await release.opened;
    return "released";
  });
  server.registerTool("ask", { taskSupport: "optional" }, async (_args, ctx) => {
    const first = await ctx.elicit("Your name?", nameSchema);
    const second = await ctx.elicit("Your friend's name?", nameSchema);
    const name = (answer: unknown) => String((answer as { content?: { name?: unknown } }).content?.name);
    return `hello ${name(first)} and ${name(second)}`;
  });
  server.registerTool("hang", { taskSupport: "optional" }, async (_args, ctx) => {
    const taskId = (ctx as { task?: { taskId: string } }).task?.taskId ?? "";
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      ctx.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    seen.aborted.push(taskId);
    return "stopped";
  });
  server.registerTool("fail", { taskSupport: "optional" }, () => {
    throw new McpError(-32050, "The quota is exhausted", { limit: 3 });
  });
  server.registerTool("tool_error", { taskSupport: "optional" }, () => ({
    resultType: "complete",
    content: [{ type: "text", text: "it went wrong" }],
    isError: true,
  }));
  server.registerTool(
    "typed",
    {
      taskSupport: "optional",
      outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    },
    () => ({ resultType: "complete", content: [], structuredContent: { n: 7 } }),
  );
  server.registerTool("deferred", { taskSupport: "optional", taskStart: "deferred" }, async (_args, ctx) => {
    const go = await ctx.elicit("Proceed?", confirmSchema);
    if ((go as { content?: { confirm?: unknown } }).content?.confirm !== true) return "not started";
    await ctx.startTask();
    const who = await ctx.elicit("Your name?", nameSchema);
    return `started for ${String((who as { content?: { name?: unknown } }).content?.name)}`;
  });
  server.registerTool("only_task", { taskSupport: "required" }, () => "from the task");
  server.registerTool("plain", {}, () => "plain result");
  return server;
}

let fast: RunningHttpServer; // suggests 100 ms
let eager: RunningHttpServer; // suggests 1 ms
let lazy: RunningHttpServer; // suggests a minute
beforeAll(async () => {
  fast = await listen(tasksServer(100), { port: 0, host: "127.0.0.1" });
  eager = await listen(tasksServer(1), { port: 0, host: "127.0.0.1" });
  lazy = await listen(tasksServer(60_000), { port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await fast?.close();
  await eager?.close();
  await lazy?.close();
});

describe("callTool and a task handle", () => {
  it("with tasks: true, declares the extension and returns the task's result as the call's own", async () => {
    const { client, sent, count } = await connect(fast.url, { tasks: true });
    let handle: TaskHandle | undefined;
    const statuses: string[] = [];
    const result = await client.callTool(
      "work",
      { ms: 250, text: "x" },
      { onTask: (task) => (handle = task), onTaskStatus: (task) => statuses.push(task.status) },
    );
    expect(result.content).toEqual([{ type: "text", text: "done x in a task" }]);
    expect(result).not.toHaveProperty("taskId");
    const call = sent.find((s) => s.body.method === "tools/call")!;
    expect(call.body.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(handle?.taskId).toBe(seen.taskIds.at(-1));
    expect(statuses.at(-1)).toBe("completed");
    const gets = sent.filter((s) => s.body.method === "tasks/get");
    expect(gets.length).toBeGreaterThanOrEqual(1);
    // Routed by task: Mcp-Name carries the taskId, and every tasks/* request declares the extension.
    for (const get of gets) {
      expect(get.name).toBe(handle!.taskId);
      expect(get.body.params.taskId).toBe(handle!.taskId);
      expect(get.body.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions).toHaveProperty([TASKS_EXTENSION]);
    }
    expect(count("tasks/cancel")).toBe(0);
    await client.close();
  });

  it("without tasks, the same optional tool runs as a plain call, and a tool that requires a task is refused with -32021", async () => {
    const { client, sent, count } = await connect(fast.url);
    expect((await client.callTool("work", { text: "y" })).content).toEqual([{ type: "text", text: "done y in a plain call" }]);
    expect(count("tasks/get")).toBe(0);
    const call = sent.find((s) => s.body.method === "tools/call")!;
    expect(call.body.params._meta["io.modelcontextprotocol/clientCapabilities"]).not.toHaveProperty("extensions");
    await expect(client.callTool("only_task")).rejects.toMatchObject({
      code: -32021,
      source: "server",
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    await client.close();
  });

  it("a tool that requires a task works through callTool once tasks are on; a tool without task support stays a plain call", async () => {
    const { client, count } = await connect(fast.url, { tasks: true });
    expect((await client.callTool("only_task")).content).toEqual([{ type: "text", text: "from the task" }]);
    const before = count("tasks/get");
    expect(before).toBeGreaterThanOrEqual(1);
    expect((await client.callTool("plain")).content).toEqual([{ type: "text", text: "plain result" }]);
    expect(count("tasks/get")).toBe(before);
    await client.close();
  });

  it("answers an input_required task's requests through the elicitation handler, once per key, with tasks/update", async () => {
    const asked: Array<{ message: string; taskId?: string; key: string }> = [];
    const { client, sent } = await connect(fast.url, {
      tasks: true,
      handlers: {
        elicitation: (params, context) => {
          asked.push({ message: String(params.message), taskId: context.taskId, key: context.key });
          return { action: "accept", content: { name: asked.length === 1 ? "Ada" : "Grace" } };
        },
      },
    });
    let taskId = "";
    const result = await client.callTool("ask", {}, { onTask: (task) => (taskId = task.taskId) });
    expect(result.content).toEqual([{ type: "text", text: "hello Ada and Grace" }]);
    expect(asked.map((a) => a.message)).toEqual(["Your name?", "Your friend's name?"]);
    expect(asked.every((a) => a.taskId === taskId)).toBe(true);
    expect(new Set(asked.map((a) => a.key)).size).toBe(2);
    const updates = sent.filter((s) => s.body.method === "tasks/update");
    expect(updates).toHaveLength(2);
    expect(updates.map((u) => Object.keys(u.body.params.inputResponses))).toEqual(asked.map((a) => [a.key]));
    expect(updates[0]!.body.params.inputResponses[asked[0]!.key]).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(updates.every((u) => u.name === taskId)).toBe(true);
    await client.close();
  });

  it("a deferred task: the ask before the task is a Multi Round-Trip round of the call, the one in the task goes through tasks/update", async () => {
    const { client, sent } = await connect(fast.url, {
      tasks: true,
      handlers: {
        elicitation: (params): ElicitResult =>
          params.message === "Proceed?"
            ? { action: "accept", content: { confirm: true } }
            : { action: "accept", content: { name: "Barbara" } },
      },
    });
    expect((await client.callTool("deferred")).content).toEqual([{ type: "text", text: "started for Barbara" }]);
    const calls = sent.filter((s) => s.body.method === "tools/call");
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body.params.inputResponses).toBeDefined();
    const updates = sent.filter((s) => s.body.method === "tasks/update");
    expect(updates).toHaveLength(1);
    expect(Object.values(updates[0]!.body.params.inputResponses)).toEqual([{ action: "accept", content: { name: "Barbara" } }]);
    await client.close();
  });

  it("an input handler that fails rejects callTool with -32091 and cancels the task, which would wait for input forever", async () => {
    const { client, sent } = await connect(fast.url, {
      tasks: true,
      handlers: {
        elicitation: () => {
          throw new Error("no user at the keyboard");
        },
      },
    });
    let taskId = "";
    await expect(client.callTool("ask", {}, { onTask: (task) => (taskId = task.taskId) })).rejects.toMatchObject({
      code: ClientErrorCode.InputRequestUnhandled,
      message: expect.stringMatching(/no user at the keyboard/),
    });
    expect(sent.filter((s) => s.body.method === "tasks/update")).toHaveLength(0);
    expect(sent.filter((s) => s.body.method === "tasks/cancel").map((s) => s.name)).toEqual([taskId]);
    await client.close();
  });

  it("an aborted callTool rejects with -32800 and cancels its task with tasks/cancel; the handler's signal aborts", async () => {
    const { client, sent } = await connect(fast.url, { tasks: true });
    const controller = new AbortController();
    let taskId = "";
    const call = client.callTool(
      "hang",
      {},
      {
        signal: controller.signal,
        onTask: (task) => (taskId = task.taskId),
        onTaskStatus: (task) => {
          if (task.status === "working") controller.abort(new Error("the user gave up"));
        },
      },
    );
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    const cancels = sent.filter((s) => s.body.method === "tasks/cancel");
    expect(cancels).toHaveLength(1);
    expect(cancels[0]!.name).toBe(taskId);
    // Cancellation is eventually consistent: read the task until it ends (bounded).
    let task: DetailedTask = await client.getTask(taskId);
    for (let i = 0; i < 50 && task.status !== "cancelled"; i++) {
      await sleep(50);
      task = await client.getTask(taskId);
    }
    expect(task.status).toBe("cancelled");
    expect(seen.aborted).toContain(taskId);
    await client.close();
  });

  it("a failed task rejects with its inlined JSON-RPC error as a server error; a tool error is a completed result", async () => {
    const { client } = await connect(fast.url, { tasks: true });
    await expect(client.callTool("fail")).rejects.toMatchObject({
      name: "McpClientError",
      code: -32050,
      message: "The quota is exhausted",
      data: { limit: 3 },
      source: "server",
    });
    const result = await client.callTool("tool_error");
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "it went wrong" }]);
    await client.close();
  });

  it("a completed task's structuredContent is checked against the tool's outputSchema", async () => {
    const { client } = await connect(fast.url, { tasks: true });
    expect((await client.callTool("typed")).structuredContent).toEqual({ n: 7 });
    await client.close();
  });
});

describe("the polling interval", () => {
  /**
   * Calls the gated tool as a task through `url` with only setTimeout and
   * clearTimeout faked: the clock moves when the test moves it, so a round
   * trip on a busy machine costs none of it. For each of `polls` polls, the
   * client sets a timer of `interval` ms; one ms before it is due nothing is
   * polled, when it is due one tasks/get is. Then the gate opens and the next
   * poll finds the task completed: `polls + 1` polls in all.
   */
  async function pollsEvery(url: string, options: ClientOptions, interval: number, polls: number) {
    release = gate();
    const clock = fakeClock();
    try {
      const { client, count, sentCount } = await connect(url, options);
      let handle: TaskHandle | undefined;
      const call = client.callTool("gated", {}, { onTask: (task) => (handle = task) });
      for (let n = 1; n <= polls; n++) {
        await clock.scheduled(interval, n);
        clock.advance(interval - 1);
        await turn();
        expect(count("tasks/get")).toBe(n - 1);
        clock.advance(1);
        await sentCount("tasks/get", n);
      }
      // The last poll answered (working): the client sleeps again. The tool ends on the gate, and the
      // store has its result once the microtasks that queued have run.
      await clock.scheduled(interval, polls + 1);
      release.open();
      await turn();
      clock.advance(interval);
      expect((await call).content).toEqual([{ type: "text", text: "released" }]);
      expect(count("tasks/get")).toBe(polls + 1);
      expect(handle?.pollIntervalMs).toBe(interval);
      await client.close();
    } finally {
      clock.restore();
    }
  }

  it("follows the server's pollIntervalMs: at 100 ms, one poll per 100 ms elapsed and none before", async () => {
    // A lower bound of 1 ms, so that 100 ms is the server's suggestion and not the client's bound.
    await pollsEvery(fast.url, { tasks: { minPollIntervalMs: 1 } }, 100, 3);
  });

  it("raises a suggestion below the lower bound: 1 ms is polled at 100 ms, not in a busy loop", async () => {
    await pollsEvery(eager.url, { tasks: true }, 100, 3);
  });

  it("cuts a suggestion above the upper bound: a minute is polled at the client's maxPollIntervalMs", async () => {
    await pollsEvery(lazy.url, { tasks: { maxPollIntervalMs: 150 } }, 150, 3);
  });
});

describe("the explicit task API", () => {
  it("callToolAsTask returns the handle at once; wait reports each status; result fetches the result", async () => {
    release = gate();
    const { client } = await connect(fast.url);
    const started = await client.callToolAsTask("gated");
    const handle = started.task!;
    expect(started.result).toBeUndefined();
    expect(typeof handle.taskId).toBe("string");
    expect(handle.status).toBe("working");
    expect(handle.pollIntervalMs).toBe(100);
    const statuses: string[] = [];
    const done = handle.wait({
      onStatus: (task) => {
        statuses.push(task.status);
        if (task.status === "working") release.open();
      },
    });
    const end = await done;
    expect(end.status).toBe("completed");
    expect(statuses[0]).toBe("working");
    expect(statuses.at(-1)).toBe("completed");
    expect((await handle.result()).content).toEqual([{ type: "text", text: "released" }]);
    await client.close();
  });

  it("a task id kept across a restart: a new client resumes it, reads it and fetches its result; cancelTask acknowledges", async () => {
    release = gate();
    const first = await connect(fast.url);
    const { task } = await first.client.callToolAsTask("gated");
    const taskId = task!.taskId;
    await first.client.close();

    const second = await connect(fast.url);
    const resumed = await second.client.resumeTask(taskId);
    expect(resumed.taskId).toBe(taskId);
    expect(resumed.status).toBe("working");
    expect((await second.client.getTask(taskId)).status).toBe("working");
    release.open();
    expect((await resumed.result()).content).toEqual([{ type: "text", text: "released" }]);
    // Cancelling a task that already ended is acknowledged and changes nothing.
    await second.client.cancelTask(taskId);
    expect((await second.client.getTask(taskId)).status).toBe("completed");
    await expect(second.client.getTask("no-such-task")).rejects.toMatchObject({ code: -32602, source: "server" });
    await second.client.close();
  });

  it("inputRequired: 'return' hands back the input_required task; update answers it and the task goes on", async () => {
    // The capability without a handler: the application answers itself.
    const { client } = await connect(fast.url, { capabilities: { elicitation: { form: {} } } });
    const { task } = await client.callToolAsTask("ask");
    const asking = await task!.wait({ inputRequired: "return" });
    expect(asking.status).toBe("input_required");
    const [key] = Object.keys((asking as DetailedTask & { inputRequests: object }).inputRequests);
    await task!.update({ [key!]: { action: "accept", content: { name: "Linus" } } });
    const next = await task!.wait({ inputRequired: "return" });
    expect(next.status).toBe("input_required");
    const keys = Object.keys((next as DetailedTask & { inputRequests: object }).inputRequests);
    expect(keys).not.toContain(key);
    await task!.update({ [keys[0]!]: { action: "accept", content: { name: "Ken" } } });
    expect((await task!.result()).content).toEqual([{ type: "text", text: "hello Linus and Ken" }]);
    await client.close();
  });

  it("a wait stopped by its signal rejects with -32800 and leaves the task running; the handle cancels it", async () => {
    const { client, count } = await connect(fast.url);
    const { task } = await client.callToolAsTask("hang");
    const controller = new AbortController();
    const waiting = task!.wait({ signal: controller.signal, onStatus: () => controller.abort() });
    await expect(waiting).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled, data: { taskId: task!.taskId } });
    expect(count("tasks/cancel")).toBe(0);
    expect((await task!.get()).status).toBe("working");
    await task!.cancel();
    let status = (await task!.get()).status;
    for (let i = 0; i < 50 && status !== "cancelled"; i++) {
      await sleep(50);
      status = (await task!.get()).status;
    }
    expect(status).toBe("cancelled");
    await expect(task!.result()).rejects.toMatchObject({ code: ClientErrorCode.TaskCancelled, data: { taskId: task!.taskId } });
    await client.close();
  });

  it("listen({ taskIds }) declares the extension and yields notifications/tasks carrying the detailed task", async () => {
    release = gate();
    const { client } = await connect(fast.url);
    const { task } = await client.callToolAsTask("gated");
    const subscription = client.listen({ taskIds: [task!.taskId] });
    expect((await subscription.acknowledged).taskIds).toEqual([task!.taskId]);
    release.open();
    const seenStatuses: unknown[] = [];
    for await (const notification of subscription) {
      expect(notification.method).toBe("notifications/tasks");
      seenStatuses.push(notification.params?.status);
      if (notification.params?.status === "completed") {
        expect(notification.params.result).toMatchObject({ content: [{ type: "text", text: "released" }] });
        break;
      }
    }
    expect(seenStatuses.at(-1)).toBe("completed");
    await client.close();
  });

  it("stream: true hears the end on subscriptions/listen instead of polling at the server's slow rate", async () => {
    release = gate();
    const { client, count, sent, sentCount } = await connect(lazy.url);
    const { task } = await client.callToolAsTask("gated");
    const listening = task!.wait({ stream: true, maxWaitMs: 0 });
    // Let the stream come up (its acknowledgement triggers one poll), then let the tool end.
    await sentCount("tasks/get", 1);
    release.open();
    const end = await listening;
    expect(end.status).toBe("completed");
    const listen = sent.find((s) => s.body.method === "subscriptions/listen")!;
    expect(listen.body.params.notifications).toEqual({ taskIds: [task!.taskId] });
    expect(listen.body.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions).toHaveProperty([TASKS_EXTENSION]);
    // The server suggests a minute: the end came by notification, not by a poll after it.
    expect(count("tasks/get")).toBe(1);
    await client.close();
  });
});

describe("the initialize era", () => {
  it("does not declare the extension in initialize, and callToolAsTask throws -32096", async () => {
    const { client, sent } = await connect(fast.url, { protocol: "2025-11-25", tasks: true });
    expect(client.era).toBe("legacy");
    const init = sent.find((s) => s.body.method === "initialize")!;
    expect(init.body.params.capabilities).not.toHaveProperty("extensions");
    await expect(client.callToolAsTask("work")).rejects.toMatchObject({
      code: ClientErrorCode.VersionUnsupported,
      message: expect.stringMatching(/2026-07-28 extension/),
    });
    await expect(client.resumeTask("t")).rejects.toMatchObject({ code: ClientErrorCode.VersionUnsupported });
    expect((await client.callTool("work", { text: "z" })).content).toEqual([{ type: "text", text: "done z in a plain call" }]);
    await client.close();
  });
});

// A real server never answers these: a scripted one stands in for a broken or hostile server.
describe("an input handler that never answers, in a task", () => {
  /** An elicitation handler that never settles (a user who never answers), recording the signal it was given. */
  function silent() {
    const signals: AbortSignal[] = [];
    let ask: () => void = () => {};
    /** Resolves when the handler is first asked. */
    const asked = new Promise<void>((resolve) => (ask = resolve));
    const elicitation = (_params: unknown, context: { signal: AbortSignal }) => {
      signals.push(context.signal);
      ask();
      return new Promise<ElicitResult>(() => {});
    };
    return { signals, elicitation, asked };
  }

  it("the caller's signal rejects callTool with -32800, aborts the handler's signal, and cancels the task", async () => {
    const { signals, elicitation } = silent();
    const { client, sent } = await connect(fast.url, { tasks: true, handlers: { elicitation } });
    const controller = new AbortController();
    let taskId = "";
    const call = client.callTool(
      "ask",
      {},
      {
        signal: controller.signal,
        onTask: (task) => (taskId = task.taskId),
        onTaskStatus: (task) => {
          if (task.status === "input_required") setTimeout(() => controller.abort(new Error("the user closed the window")), 20);
        },
      },
    );
    const error = await call.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ClientErrorCode.RequestCancelled, data: { taskId } });
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(sent.filter((s) => s.body.method === "tasks/update")).toHaveLength(0);
    expect(sent.filter((s) => s.body.method === "tasks/cancel").map((s) => s.name)).toEqual([taskId]);
    await client.close();
  });

  it("maxTaskWaitMs rejects callTool with -32001, aborts the handler's signal, and cancels the task", async () => {
    const { signals, elicitation, asked } = silent();
    const { client, sent } = await connect(fast.url, { tasks: true, handlers: { elicitation } });
    // Only setTimeout/clearTimeout are faked: the bound passes once the handler is asking, however long the
    // round trips before took on a busy machine.
    const clock = fakeClock();
    let error: unknown;
    let taskId = "";
    try {
      const call = client.callTool("ask", {}, { maxTaskWaitMs: 10_000, onTask: (task) => (taskId = task.taskId) }).catch((e: unknown) => e);
      await pollUntil(clock, asked, 100);
      clock.advance(10_000);
      error = await call;
    } finally {
      clock.restore();
    }
    expect(error).toMatchObject({ code: ClientErrorCode.RequestTimeout, data: { taskId, maxWaitMs: 10_000 } });
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(sent.filter((s) => s.body.method === "tasks/cancel").map((s) => s.name)).toEqual([taskId]);
    let task = await client.getTask(taskId);
    for (let i = 0; i < 50 && task.status !== "cancelled"; i++) {
      await sleep(50);
      task = await client.getTask(taskId);
    }
    expect(task.status).toBe("cancelled");
    await client.close();
  });

  it("wait({ maxWaitMs }) rejects with -32001 and aborts the handler's signal; the task is left asking", async () => {
    const { signals, elicitation, asked } = silent();
    const { client, count } = await connect(fast.url, { tasks: true, handlers: { elicitation } });
    const { task } = await client.callToolAsTask("ask");
    // Faked setTimeout/clearTimeout: the bound cuts off a handler already asking, however slow the machine.
    const clock = fakeClock();
    try {
      const waiting = task!.wait({ maxWaitMs: 2000 }).catch((e: unknown) => e);
      await pollUntil(clock, asked, 100, 19);
      clock.advance(2000);
      expect(await waiting).toMatchObject({
        code: ClientErrorCode.RequestTimeout,
        data: { taskId: task!.taskId, maxWaitMs: 2000 },
      });
    } finally {
      clock.restore();
    }
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    expect(count("tasks/cancel")).toBe(0);
    expect((await task!.get()).status).toBe("input_required");
    await task!.cancel();
    await client.close();
  });

  it("wait's signal rejects with -32800 and aborts the handler's signal; the task is left asking", async () => {
    const { signals, elicitation } = silent();
    const { client, count } = await connect(fast.url, { tasks: true, handlers: { elicitation } });
    const { task } = await client.callToolAsTask("ask");
    const controller = new AbortController();
    const waiting = task!.wait({
      signal: controller.signal,
      onStatus: (t) => {
        if (t.status === "input_required") setTimeout(() => controller.abort(), 20);
      },
    });
    await expect(waiting).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled, data: { taskId: task!.taskId } });
    expect(signals[0]!.aborted).toBe(true);
    expect(count("tasks/cancel")).toBe(0);
    await task!.cancel();
    await client.close();
  });

  it("timeout bounds each tasks/* request, not the handler: a person slower than it still answers the task", async () => {
    // Only setTimeout/clearTimeout are faked: each person takes five times the requests' timeout on the
    // test's clock, and a round trip, however slow the machine, takes none of it.
    const clock = fakeClock();
    try {
      const signals: AbortSignal[] = [];
      const elicitation = async (_params: unknown, context: { signal: AbortSignal }) => {
        signals.push(context.signal);
        clock.advance(5_000);
        return { action: "accept" as const, content: { name: `person ${signals.length}` } };
      };
      const { client } = await connect(fast.url, { tasks: true, handlers: { elicitation } });
      const call = client.callTool("ask", {}, { timeout: 1000 });
      await pollUntil(clock, call, 100);
      expect((await call).content).toEqual([{ type: "text", text: "hello person 1 and person 2" }]);
      expect(signals.map((s) => s.aborted)).toEqual([false, false]);
      await client.close();
    } finally {
      clock.restore();
    }
  });
});

/** A task store whose `get` fails while `failures` is above zero (a shared store briefly unreachable); `recovered` resolves after the last failure. */
class FlakyStore implements TaskStore {
  readonly inner = new MemoryTaskStore();
  failures = 0;
  failed = 0;
  /** While above zero, `get` finds nothing (an expired task), a definite answer. */
  forgotten = 0;
  private onRecovered: () => void = () => {};
  recovered = Promise.resolve();
  failFor(times: number): void {
    this.failures = times;
    this.recovered = new Promise<void>((resolve) => (this.onRecovered = resolve));
  }
  create(record: TaskRecord): Promise<void> {
    return this.inner.create(record);
  }
  get(taskId: string): Promise<TaskRecord | undefined> {
    if (this.forgotten > 0) {
      this.forgotten--;
      return Promise.resolve(undefined);
    }
    if (this.failures > 0) {
      this.failures--;
      this.failed++;
      if (this.failures === 0) this.onRecovered();
      return Promise.reject(new Error("connection to the task store lost"));
    }
    return this.inner.get(taskId);
  }
  update(...args: Parameters<TaskStore["update"]>): ReturnType<TaskStore["update"]> {
    return this.inner.update(...args);
  }
  countOwned(owner: string): Promise<number> {
    return this.inner.countOwned(owner);
  }
}

describe("transient failures while polling a task", () => {
  const store = new FlakyStore();
  let flaky: RunningHttpServer;
  let unblock = gate();
  beforeAll(async () => {
    const server = new McpServer(
      { name: "flaky-tasks", version: "1.0.0" },
      { tasks: tasks({ store, pollIntervalMs: 100 }), onError: () => {} },
    );
    server.registerTool("waits", { taskSupport: "optional" }, async (_args, ctx) => {
      await Promise.race([unblock.opened, new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }))]);
      return "finished after the outage";
    });
    flaky = await listen(server, { port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    unblock.open();
    await flaky?.close();
  });

  it("rides out -32603 answers to tasks/get with retries and completes, sending no tasks/cancel; warnings go to onWarning", async () => {
    unblock = gate();
    const warnings: string[] = [];
    const { client, count } = await connect(flaky.url, { tasks: { pollRetryDelayMs: 20 }, onWarning: (m) => warnings.push(m) });
    store.failed = 0;
    const call = client.callTool("waits", {}, { onTask: () => store.failFor(3) });
    await store.recovered;
    unblock.open();
    expect((await call).content).toEqual([{ type: "text", text: "finished after the outage" }]);
    expect(store.failed).toBe(3);
    expect(count("tasks/get")).toBeGreaterThanOrEqual(4);
    expect(count("tasks/cancel")).toBe(0);
    expect(warnings.filter((w) => /^tasks\/get of task .* failed \(.*\); attempt \d of 5 in \d+ ms$/.test(w))).toHaveLength(3);
    await client.close();
  });

  it(`gives up after ${TASK_POLL_ATTEMPTS} attempts with the server's -32603, and leaves the task running (no tasks/cancel)`, async () => {
    unblock = gate();
    const warnings: string[] = [];
    const { client, count } = await connect(flaky.url, { tasks: { pollRetryDelayMs: 20 }, onWarning: (m) => warnings.push(m) });
    let taskId = "";
    const call = client.callTool(
      "waits",
      {},
      {
        onTask: (task) => {
          taskId = task.taskId;
          store.failFor(Number.MAX_SAFE_INTEGER);
        },
      },
    );
    await expect(call).rejects.toMatchObject({ code: -32603, source: "server" });
    expect(count("tasks/get")).toBe(TASK_POLL_ATTEMPTS);
    expect(count("tasks/cancel")).toBe(0);
    expect(warnings.some((w) => w.includes(`failed ${TASK_POLL_ATTEMPTS} times in a row; giving up`))).toBe(true);
    expect(warnings.some((w) => w.includes(`Task ${JSON.stringify(taskId)} was left running`))).toBe(true);
    store.failures = 0;
    const task = await client.resumeTask(taskId);
    expect(task.status).toBe("working");
    unblock.open();
    expect((await task.result()).content).toEqual([{ type: "text", text: "finished after the outage" }]);
    await client.close();
  });

  it("pollAttempts: 1 fails on the first transient failure, still without tasks/cancel", async () => {
    unblock = gate();
    const { client, count } = await connect(flaky.url, { tasks: { pollAttempts: 1 } });
    const call = client.callTool("waits", {}, { onTask: () => store.failFor(1) });
    await expect(call).rejects.toMatchObject({ code: -32603 });
    expect(count("tasks/get")).toBe(1);
    expect(count("tasks/cancel")).toBe(0);
    unblock.open();
    await client.close();
  });

  it("a definite failure (-32602: the store forgot the task) is not retried, and callTool cancels the task", async () => {
    unblock = gate();
    const warnings: string[] = [];
    const { client, count } = await connect(flaky.url, { tasks: { pollRetryDelayMs: 20 }, onWarning: (m) => warnings.push(m) });
    const call = client.callTool("waits", {}, { onTask: () => (store.forgotten = Number.MAX_SAFE_INTEGER) });
    await expect(call).rejects.toMatchObject({ code: -32602, source: "server" });
    expect(count("tasks/get")).toBe(1);
    expect(count("tasks/cancel")).toBe(1);
    expect(warnings.filter((w) => w.includes("attempt"))).toEqual([]);
    store.forgotten = 0;
    unblock.open();
    await client.close();
  });
});

describe("isTransientTaskFailure", () => {
  it("tells failures worth another attempt from definite ones", () => {
    const server = (code: number) => new McpClientError(code, "x", undefined, "server");
    expect(isTransientTaskFailure(server(-32603))).toBe(true);
    expect(isTransientTaskFailure(server(-32000))).toBe(true);
    expect(isTransientTaskFailure(server(-32602))).toBe(false);
    expect(isTransientTaskFailure(new McpClientError(ClientErrorCode.RequestTimeout, "x"))).toBe(true);
    expect(isTransientTaskFailure(new McpClientError(ClientErrorCode.RequestCancelled, "x"))).toBe(false);
    const transport = (data: Record<string, unknown>) => new McpClientError(ClientErrorCode.TransportFailed, "x", data);
    expect(isTransientTaskFailure(transport({ reason: "connection_failed" }))).toBe(true);
    expect(isTransientTaskFailure(transport({ reason: "stream_broken" }))).toBe(true);
    expect(isTransientTaskFailure(transport({ reason: "http_error", status: 502 }))).toBe(true);
    expect(isTransientTaskFailure(transport({ reason: "http_error", status: 429 }))).toBe(true);
    expect(isTransientTaskFailure(transport({ reason: "http_error", status: 403 }))).toBe(false);
    expect(isTransientTaskFailure(transport({ reason: "closed" }))).toBe(false);
    expect(isTransientTaskFailure(transport({ reason: "invalid_message" }))).toBe(false);
    expect(isTransientTaskFailure(new Error("plain"))).toBe(false);
  });
});

describe("malformed task answers", () => {
  const now = new Date().toISOString();
  const handle = (extra: Record<string, unknown> = {}) => ({
    resultType: "task",
    taskId: "t-1",
    status: "working",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 100,
    ...extra,
  });
  const detailed = (extra: Record<string, unknown> = {}) => ({ ...handle(), resultType: "complete", ...extra });
  const tools = { "tools/list": () => ({ resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [tool("t")] }) };

  it("a task handle missing members is refused with -32094 naming the member", async () => {
    const { client } = await memoryClient({ ...tools, "tools/call": () => handle({ createdAt: undefined }) }, { tasks: true });
    await expect(client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResult,
      message: expect.stringMatching(/createdAt/),
    });
  });

  it("a task handle to a request that did not declare the extension, or to a method that cannot have one, is an invalid response", async () => {
    const { client } = await memoryClient({
      ...tools,
      "tools/call": () => handle(),
      "prompts/get": () => handle(),
    });
    await expect(client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResult,
      message: expect.stringMatching(/did not declare/),
    });
    const withTasks = await memoryClient({ ...tools, "prompts/get": () => handle() }, { tasks: true });
    await expect(withTasks.client.getPrompt("p")).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResult,
      message: expect.stringMatching(/only tools\/call/),
    });
  });

  for (const [what, answer, pattern] of [
    ["a completed task without its result", detailed({ status: "completed" }), /must carry its result/],
    ["a failed task without a JSON-RPC error", detailed({ status: "failed", error: { message: "no code" } }), /JSON-RPC error/],
    ["an input_required task without inputRequests", detailed({ status: "input_required" }), /inputRequests/],
    ["another task's state", detailed({ taskId: "t-2" }), /another task/],
    ["a tasks/get result whose resultType is task", detailed({ resultType: "task" }), /must be "complete"/],
    ["an unknown status", detailed({ status: "paused" }), /status must be one of/],
    ["a pollIntervalMs that is not an integer", detailed({ pollIntervalMs: "soon" }), /pollIntervalMs/],
  ] as const) {
    it(`${what} is refused with -32094, and callTool cancels the task`, async () => {
      const { client, requests } = await memoryClient(
        { ...tools, "tools/call": () => handle(), "tasks/get": () => answer, "tasks/cancel": () => ({ resultType: "complete" }) },
        { tasks: true },
      );
      await expect(client.callTool("t")).rejects.toMatchObject({
        code: ClientErrorCode.InvalidResult,
        message: expect.stringMatching(pattern),
      });
      expect(requests.filter((r) => r.message.method === "tasks/get")).toHaveLength(1);
      expect(requests.filter((r) => r.message.method === "tasks/cancel").map((r) => r.message.params?.taskId)).toEqual(["t-1"]);
    });
  }

  it("tasks.pollIntervalMs is the interval when the server suggests none, and is checked like the other bounds", async () => {
    const { client } = await memoryClient(
      { "tasks/get": () => detailed({ pollIntervalMs: undefined }) },
      { tasks: { pollIntervalMs: 250 } },
    );
    const resumed = await client.resumeTask("t-1");
    expect(resumed.pollIntervalMs).toBe(250);
    expect(() => new Client({ name: "c", version: "1" }, { tasks: { pollIntervalMs: 0 } })).toThrow(/tasks.pollIntervalMs/);
    expect(() => new Client({ name: "c", version: "1" }, { tasks: { cancelTimeoutMs: 1.5 } })).toThrow(/tasks.cancelTimeoutMs/);
  });

  it("a task that leaves a terminal status is refused", async () => {
    let polls = 0;
    const { client } = await memoryClient({
      "tasks/get": () => (polls++ === 0 ? detailed({ status: "cancelled" }) : detailed({ status: "working" })),
    });
    const resumed = await client.resumeTask("t-1");
    expect(resumed.status).toBe("cancelled");
    await expect(resumed.get()).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResult,
      message: expect.stringMatching(/terminal status/),
    });
  });

  it("a task that never ends is bounded by maxTaskWaitMs (-32001), then cancelled", async () => {
    const { client, requests } = await memoryClient(
      { ...tools, "tools/call": () => handle(), "tasks/get": () => detailed(), "tasks/cancel": () => ({ resultType: "complete" }) },
      { tasks: true },
    );
    await expect(client.callTool("t", {}, { maxTaskWaitMs: 350 })).rejects.toMatchObject({
      code: ClientErrorCode.RequestTimeout,
      data: { taskId: "t-1", maxWaitMs: 350 },
    });
    expect(requests.filter((r) => r.message.method === "tasks/cancel")).toHaveLength(1);
  });

  it("an acknowledgement that is not complete is refused", async () => {
    const { client } = await memoryClient({ ...tools, "tasks/cancel": () => ({ resultType: "task" }) });
    await expect(client.cancelTask("t-1")).rejects.toMatchObject({ code: ClientErrorCode.InvalidResult });
  });

  it("a task keeps asking: past maxInputRounds the wait fails with -32090; keys already answered are not asked again", async () => {
    let round = 0;
    const asked: string[] = [];
    const { client, requests } = await memoryClient(
      {
        ...tools,
        "tools/call": () => handle(),
        // Each poll lists the keys answered so far again, plus a new one.
        "tasks/get": () => {
          round++;
          const inputRequests: Record<string, unknown> = {};
          for (let i = 1; i <= round; i++) {
            inputRequests[`q${i}`] = {
              method: "elicitation/create",
              params: { mode: "form", message: `question ${i}`, requestedSchema: nameSchema },
            };
          }
          return detailed({ status: "input_required", inputRequests });
        },
        "tasks/update": () => ({ resultType: "complete" }),
        "tasks/cancel": () => ({ resultType: "complete" }),
      },
      {
        tasks: true,
        maxInputRounds: 3,
        handlers: {
          elicitation: (params) => {
            asked.push(String(params.message));
            return { action: "accept", content: { name: "n" } };
          },
        },
      },
    );
    await expect(client.callTool("t")).rejects.toMatchObject({ code: ClientErrorCode.InputRoundsExceeded, data: { rounds: 3 } });
    expect(asked).toEqual(["question 1", "question 2", "question 3"]);
    const updates = requests.filter((r) => r.message.method === "tasks/update");
    expect(updates.map((u) => Object.keys((u.message.params as { inputResponses: object }).inputResponses))).toEqual([
      ["q1"],
      ["q2"],
      ["q3"],
    ]);
  });

  it("a completed task's result without a content array is refused", async () => {
    const { client } = await memoryClient(
      {
        ...tools,
        "tools/call": () => handle({ status: "completed" }),
        "tasks/get": () => detailed({ status: "completed", result: { nope: 1 } }),
      },
      { tasks: true },
    );
    await expect(client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResult,
      message: expect.stringMatching(/content/),
    });
  });
});

describe("task settings", () => {
  it("refuses bad bounds when the client is made", () => {
    expect(() => new Client({ name: "c", version: "1" }, { tasks: { minPollIntervalMs: 0 } })).toThrow(/minPollIntervalMs/);
    expect(() => new Client({ name: "c", version: "1" }, { tasks: { minPollIntervalMs: 500, maxPollIntervalMs: 100 } })).toThrow(
      /maxPollIntervalMs/,
    );
    expect(() => new Client({ name: "c", version: "1" }, { tasks: "yes" as never })).toThrow(/tasks must be/);
    expect(() => new Client({ name: "c", version: "1" }, { tasks: { pollAttempts: 0 } })).toThrow(/pollAttempts/);
    expect(() => new Client({ name: "c", version: "1" }, { tasks: { pollRetryDelayMs: 1.5 } })).toThrow(/pollRetryDelayMs/);
    const client = new Client({ name: "c", version: "1" }, { tasks: true, capabilities: { extensions: { "x/other": {} } } });
    expect(client.capabilities.extensions).toEqual({ "x/other": {}, [TASKS_EXTENSION]: {} });
  });
});
