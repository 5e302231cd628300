// tasks/cancel (src/tasks/runner.ts cancel, #abort, #end): a task that is not terminal is cancelled at once and
// its run's ctx.signal aborted; the acknowledgement is the same for a terminal task, which does not change; and
// whatever the run does after the cancel (a result, a protocol error) does not overwrite `cancelled`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpError, McpServer } from "../../src/index.js";
import { aborted, gate, start, tasks, until, waitFor } from "./fixture.js";
import { tasks as tasksPlugin } from "../../src/tasks/index.js";

let server: McpServer;
const signals = new Map<string, AbortSignal>();
const finish = gate();
/** Task ids whose handler has returned or thrown. */
const ended = new Set<string>();

beforeAll(() => {
  server = new McpServer({ name: "cancel", version: "1" }, { tasks: tasksPlugin() });
  server.registerTool("until_aborted", { taskSupport: "required" }, async (_args, ctx) => {
    signals.set(ctx.task!.taskId, ctx.signal);
    const reason = await aborted(ctx.signal);
    ended.add(ctx.task!.taskId);
    return `stopped: ${(reason as Error).name}`;
  });
  server.registerTool("ignores_cancel", { taskSupport: "required" }, async (args, ctx) => {
    await finish.promise;
    ended.add(ctx.task!.taskId);
    if (args.how === "throw") throw new McpError(-32603, "too late");
    return "finished anyway";
  });
  server.registerTool("quick", { taskSupport: "required" }, () => "quick");
});
afterAll(() => {
  finish.open();
  server.close();
});

describe("tasks/cancel", () => {
  it("makes the task cancelled before it acknowledges, and aborts the handler's ctx.signal with an AbortError", async () => {
    const taskId = await start(server, "until_aborted");
    await waitFor(server, taskId, "working", { where: () => signals.has(taskId) });
    const signal = signals.get(taskId)!;
    expect(signal.aborted).toBe(false);
    const ack = await tasks(server, "cancel", { taskId });
    expect(ack.result.resultType).toBe("complete");
    // No polling: the status is cancelled on the very next tasks/get.
    const got = (await tasks(server, "get", { taskId })).result;
    expect(got.status).toBe("cancelled");
    expect(got).not.toHaveProperty("result");
    expect(got).not.toHaveProperty("error");
    expect(typeof got.statusMessage).toBe("string");
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe("AbortError");
  });

  it("the run's own end after the cancel (its result) does not overwrite cancelled", async () => {
    const taskId = await start(server, "until_aborted");
    await tasks(server, "cancel", { taskId });
    // The handler returns its "stopped" result right after the abort; the task stays cancelled.
    await until(() => ended.has(taskId));
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setImmediate(r));
      expect((await tasks(server, "get", { taskId })).result.status).toBe("cancelled");
    }
  });

  it("a handler that ignores the signal and finishes (or throws) later leaves the task cancelled", async () => {
    const one = await start(server, "ignores_cancel", { how: "result" });
    const two = await start(server, "ignores_cancel", { how: "throw" });
    await tasks(server, "cancel", { taskId: one });
    await tasks(server, "cancel", { taskId: two });
    finish.open();
    await until(() => ended.has(one) && ended.has(two));
    // Let both ends be written (the store refuses them: the tasks are terminal).
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect((await tasks(server, "get", { taskId: one })).result.status).toBe("cancelled");
    expect((await tasks(server, "get", { taskId: two })).result.status).toBe("cancelled");
    expect((await server.taskStore!.get(one))?.result).toBeUndefined();
  });

  it("is idempotent: a second cancel, or a cancel of a completed task, acknowledges and changes nothing", async () => {
    const taskId = await start(server, "until_aborted");
    await tasks(server, "cancel", { taskId });
    const first = (await tasks(server, "get", { taskId })).result;
    const again = await tasks(server, "cancel", { taskId });
    expect(again.result.resultType).toBe("complete");
    expect((await tasks(server, "get", { taskId })).result).toEqual(first);

    const done = await start(server, "quick");
    const completed = await waitFor(server, done, "completed");
    const late = await tasks(server, "cancel", { taskId: done });
    expect(late.result.resultType).toBe("complete");
    expect((await tasks(server, "get", { taskId: done })).result).toEqual(completed);
  });

  it("cancels many tasks at once, each with its own signal", async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => start(server, "until_aborted")));
    for (const id of ids) await waitFor(server, id, "working", { where: () => signals.has(id) });
    await Promise.all(ids.map((taskId) => tasks(server, "cancel", { taskId })));
    for (const id of ids) {
      expect((await tasks(server, "get", { taskId: id })).result.status).toBe("cancelled");
      expect(signals.get(id)!.aborted).toBe(true);
    }
  });
});
