// Deferred task start (src/features/tools/index.ts #deferred, ctx.startTask in src/context.ts): a tool with
// taskStart "deferred" runs in the call, where its asks are Multi Round-Trip asks, until it calls
// `await ctx.startTask()`; the call is then answered with the task handle and the rest of the handler runs in
// the task, past the call's run limit.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../src/index.js";
import { MemoryTaskStore, tasks as tasksPlugin } from "../../src/tasks/index.js";
import { send } from "../helpers.js";
import { aborted, call, gate, nameSchema, PLAIN, sleep, TASKS, tasks, waitFor } from "./fixture.js";

const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

let server: McpServer;
let limited: McpServer;
let store: MemoryTaskStore;
const observed: Record<string, unknown> = {};
/** The `run` arguments of the runs of `destructures` that saw their signal abort. */
const endedRuns = new Set<string>();
const slow = gate();
beforeAll(() => {
  store = new MemoryTaskStore();
  server = new McpServer({ name: "deferred", version: "1" }, { tasks: tasksPlugin({ store }) });
  // A short run limit for the calls (loading the ask validators on a first ask may take longer: no asks here).
  limited = new McpServer({ name: "limited", version: "1" }, { tasks: tasksPlugin({ store }), toolTimeoutMs: 20 });
  server.registerTool("ask_then_task", { taskSupport: "required", taskStart: "deferred" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", nameSchema);
    const before = ctx.task;
    const started = await ctx.startTask();
    observed.ask_then_task = { before, started, after: ctx.task };
    const later = await ctx.elicit("Anything else?", { type: "object", properties: { more: { type: "string" } } });
    return `Hello, ${String((answer as any).content?.name)}; ${JSON.stringify(later)}`;
  });
  server.registerTool("maybe_task", { taskSupport: "optional", taskStart: "deferred" }, async (args, ctx) => {
    if (args.direct === true) return "answered directly";
    const started = await ctx.startTask();
    return `started: ${started}, task: ${ctx.task ? "yes" : "no"}`;
  });
  server.registerTool("starts_twice", { taskSupport: "required", taskStart: "deferred" }, async (_args, ctx) => {
    await ctx.startTask();
    try {
      await ctx.startTask();
      return "started twice";
    } catch (error) {
      return `second start: ${(error as Error).message}`;
    }
  });
  limited.registerTool("outlives_call_limit", { taskSupport: "required", taskStart: "deferred" }, async (_args, ctx) => {
    await ctx.startTask();
    await slow.promise;
    return `still running; signal aborted: ${ctx.signal.aborted}`;
  });
  limited.registerTool("slow_before_start", { taskSupport: "required", taskStart: "deferred" }, async (_args, ctx) => {
    await aborted(ctx.signal);
    return "too slow";
  });
  server.registerTool("immediate", { taskSupport: "optional" }, async (_args, ctx) => {
    try {
      await ctx.startTask();
      return "started";
    } catch (error) {
      return `refused: ${(error as Error).message}`;
    }
  });
  server.registerTool("destructures", { taskSupport: "required", taskStart: "deferred" }, async (args, { signal, startTask }) => {
    await startTask();
    await aborted(signal);
    endedRuns.add(String(args.run));
    return "aborted";
  });
  server.registerTool("swallows_then_starts", { taskSupport: "required", taskStart: "deferred" }, async (_args, ctx) => {
    try {
      await ctx.elicit("Name?", nameSchema);
    } catch {
      // Swallows the end of the round, then starts the task anyway.
    }
    await ctx.startTask();
    return "in a task nobody knows of";
  });
  server.registerTool("forgets_await", { taskSupport: "required", taskStart: "deferred" }, (_args, ctx) => {
    void ctx.startTask();
    return "returned before the task was made";
  });
});
afterAll(() => {
  slow.open();
  server.close();
  limited.close();
});

describe("a deferred task start", () => {
  it("round 1 asks by Multi Round-Trip (input_required, no task); round 2 answers, becomes a task and completes with the answer", async () => {
    const sizeBefore = store.size;
    const round1 = await call(server, "ask_then_task");
    expect(round1.result.resultType).toBe("input_required");
    expect(round1.result.inputRequests["elicit-1"]).toEqual({
      method: "elicitation/create",
      params: { message: "Your name?", requestedSchema: nameSchema },
    });
    expect(typeof round1.result.requestState).toBe("string");
    expect(round1.result).not.toHaveProperty("taskId");
    expect(store.size).toBe(sizeBefore);

    const round2 = await send(
      server,
      "tools/call",
      {
        name: "ask_then_task",
        arguments: {},
        inputResponses: { "elicit-1": accept({ name: "Ada" }) },
        requestState: round1.result.requestState,
      },
      { meta: TASKS },
    );
    expect(round2.result.resultType).toBe("task");
    expect(round2.result.status).toBe("working");
    const taskId = round2.result.taskId;
    expect(store.size).toBe(sizeBefore + 1);
    expect(observed.ask_then_task).toEqual({ before: undefined, started: true, after: { taskId } });

    // After startTask the asks are the task's: inputRequests, answered by tasks/update.
    const waiting = await waitFor(server, taskId, "input_required");
    expect(Object.keys(waiting.inputRequests)).toEqual(["elicit-1"]);
    expect(waiting.inputRequests["elicit-1"].params.message).toBe("Anything else?");
    await tasks(server, "update", { taskId, inputResponses: { "elicit-1": accept({ more: "no" }) } });
    const done = await waitFor(server, taskId, "completed");
    expect(done.result.content[0].text).toBe('Hello, Ada; {"action":"accept","content":{"more":"no"}}');
  });

  it("a deferred tool that never calls startTask answers the call directly", async () => {
    const answer = await call(server, "maybe_task", { direct: true });
    expect(answer.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "answered directly" }] });
    expect(answer.result).not.toHaveProperty("taskId");
  });

  it("startTask twice: the second is an error, and the task goes on", async () => {
    const answer = await call(server, "starts_twice");
    expect(answer.result.resultType).toBe("task");
    const done = await waitFor(server, answer.result.taskId, "completed");
    expect(done.result.content[0].text).toMatch(/^second start: .*already started/);
  });

  it("the task outlives the call's run limit (toolTimeoutMs 20): it completes with its own result, its signal never aborted", async () => {
    const answer = await call(limited, "outlives_call_limit");
    const taskId = answer.result.taskId;
    await sleep(60);
    expect((await tasks(limited, "get", { taskId })).result.status).toBe("working");
    slow.open();
    const done = await waitFor(limited, taskId, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.result.isError).toBeUndefined();
    expect(done.result.content[0].text).toBe("still running; signal aborted: false");
  });

  it("before startTask the call's run limit applies: a slow start is a tool_fault answered to the call, no task", async () => {
    const sizeBefore = store.size;
    const answer = await call(limited, "slow_before_start");
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent).toMatchObject({ errorType: "tool_fault", exception: "TimeoutError" });
    expect(store.size).toBe(sizeBefore);
  });

  it("a required deferred tool without the extension is refused (-32021) before it runs", async () => {
    const answer = await call(server, "ask_then_task", {}, { meta: PLAIN });
    expect(answer.error.code).toBe(-32021);
  });

  it("ctx.startTask in a tool without taskStart deferred is an error", async () => {
    const taskId = (await call(server, "immediate")).result.taskId;
    const done = await waitFor(server, taskId, "completed");
    expect(done.result.content[0].text).toMatch(/^refused: .*taskStart: "deferred"/);
    const direct = await call(server, "immediate", {}, { meta: PLAIN });
    expect(direct.result.content[0].text).toMatch(/^refused: /);
  });

  it("the deferred start is refused with -32000 when the caller holds too many tasks", async () => {
    const s = new McpServer({ name: "d", version: "1" }, { tasks: tasksPlugin({ maxTasksPerOwner: 1 }) });
    cleanup.push(() => s.close());
    const hold = gate();
    cleanup.push(hold.open);
    s.registerTool("d", { taskSupport: "required", taskStart: "deferred" }, async (_args, ctx) => {
      await ctx.startTask();
      await hold.promise;
      return "d";
    });
    expect((await call(s, "d")).result.resultType).toBe("task");
    const refused = await call(s, "d");
    expect(refused.error.code).toBe(-32000);
  });

  // Regression: ctx.startTask's doc says it resolves false when the client did not declare the extension
  // (the call going on as a plain call), but an optional deferred tool called without the extension runs with
  // no startTask in its scope, so ctx.startTask() rejects ("only a tool registered with taskSupport and
  // taskStart: deferred can start a task") and the call ends in a tool_fault.
  it("an optional deferred tool without the extension: startTask resolves false and the call goes on as a plain call", async () => {
    const answer = await call(server, "maybe_task", {}, { meta: PLAIN });
    expect(answer.result.isError).toBeUndefined();
    expect(answer.result.content[0].text).toBe("started: false, task: no");
  });

  // Regression: a handler that takes `signal` off its context before startTask (the pattern the context's
  // doc shows) holds the call's signal, which tasks/cancel (and the task's time to live) never abort.
  it("tasks/cancel aborts a signal the handler took off its context before startTask", async () => {
    const taskId = (await call(server, "destructures", { run: "r1" })).result.taskId;
    await tasks(server, "cancel", { taskId });
    expect((await tasks(server, "get", { taskId })).result.status).toBe("cancelled");
    // The handler gets past its await only if the signal it holds fires.
    for (let i = 0; i < 100 && !endedRuns.has("r1"); i++) await sleep(2);
    expect(endedRuns.has("r1")).toBe(true);
  });

  // Regression: a handler that swallows the end of its round (an unanswered ask) and then calls startTask
  // gets a task made and running, while the call is answered input_required (the round's end wins): the task's
  // id is never told to anyone, and it runs and counts against the caller until its time to live. startTask
  // after the round ended should be refused.
  it("startTask after an unanswered ask of the round makes no task (the call answers input_required)", async () => {
    const sizeBefore = store.size;
    const answer = await call(server, "swallows_then_starts");
    expect(answer.result.resultType).toBe("input_required");
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(store.size).toBe(sizeBefore);
  });

  // A startTask that is not awaited still makes the call a task: the call is answered with the handle once
  // the task is stored, and the run's early result ends the task (no task is left working behind a direct answer).
  it("a startTask the handler did not await makes the call a task that ends with the run's result", async () => {
    const answer = await call(server, "forgets_await");
    expect(answer.result.resultType).toBe("task");
    const done = await waitFor(server, answer.result.taskId, "completed");
    expect(done.result.content[0].text).toBe("returned before the task was made");
  });
});
