// Tasks under load and misuse (src/tasks/runner.ts, src/server.ts close): hundreds of tasks made at once, many
// answers to one ask at once, hostile ids and keys, a failing store or bus (answered -32603 and reported to
// onError, never an unhandled rejection), and server.close() ending the tasks it runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BusTopicName, type EventBus, McpServer, MemoryEventBus, type TaskPatch, type TaskRecord } from "../../src/index.js";
import { MemoryTaskStore, tasks as tasksPlugin } from "../../src/tasks/index.js";
import type { JsonObject } from "../../src/objects.js";
import { listenTo, send } from "../helpers.js";
import { aborted, call, gate, nameSchema, SharedStore, start, TASKS, type TaskStatus, tasks, until, waitFor } from "./fixture.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason);
};
beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
});

function loadServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const s = new McpServer({ name: "load", version: "1" }, { tasks: tasksPlugin({ maxTasksPerOwner: 10_000 }), ...options });
  s.registerTool(
    "echo",
    { taskSupport: "required", inputSchema: { type: "object", properties: { n: { type: "integer" } } } },
    async (args) => `n=${String(args.n)}`,
  );
  s.registerTool("asks", { taskSupport: "required" }, async (_args, ctx) => JSON.stringify(await ctx.elicit("Name?", nameSchema)));
  s.registerTool("held", { taskSupport: "required" }, async (_args, ctx) => {
    await aborted(ctx.signal);
    return "aborted";
  });
  return s;
}

describe("under load", () => {
  it("makes 400 tasks at once, each with its own id and its own result", async () => {
    const s = loadServer();
    const answers = await Promise.all(Array.from({ length: 400 }, (_, n) => call(s, "echo", { n })));
    const ids = answers.map((a) => a.result.taskId as string);
    expect(new Set(ids).size).toBe(400);
    for (const [n, taskId] of ids.entries()) {
      const done = await waitFor(s, taskId, ["completed", "failed"]);
      expect(done.result.content[0].text).toBe(`n=${n}`);
    }
    expect((s.taskStore as MemoryTaskStore).size).toBe(400);
    s.close();
  });

  it("takes 50 simultaneous answers to one ask once: every one acknowledged, the run resumed once", async () => {
    const s = loadServer();
    const taskId = await start(s, "asks");
    await waitFor(s, taskId, "input_required");
    const acks = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        tasks(s, "update", { taskId, inputResponses: { "elicit-1": { action: "accept", content: { name: `n${i}` } } } }),
      ),
    );
    for (const ack of acks) expect(ack.result.resultType).toBe("complete");
    const done = await waitFor(s, taskId, "completed");
    expect(JSON.parse(done.result.content[0].text)).toEqual({ action: "accept", content: { name: "n0" } });
    s.close();
  });

  it("polls, updates and cancels of 100 tasks interleaved at once leave each task in one terminal state", async () => {
    const s = loadServer();
    const ids = await Promise.all(Array.from({ length: 100 }, () => start(s, "asks")));
    for (const id of ids) await waitFor(s, id, "input_required");
    await Promise.all(
      ids.flatMap((taskId, i) => [
        tasks(s, "get", { taskId }),
        i % 2 === 0
          ? tasks(s, "cancel", { taskId })
          : tasks(s, "update", { taskId, inputResponses: { "elicit-1": { action: "accept", content: { name: "x" } } } }),
        tasks(s, "get", { taskId }),
      ]),
    );
    for (const [i, taskId] of ids.entries()) {
      const end = await waitFor(s, taskId, ["completed", "cancelled", "failed"]);
      expect(end.status).toBe(i % 2 === 0 ? "cancelled" : "completed");
    }
    s.close();
  });
});

describe("hostile input", () => {
  it("ids of every shape that is a string are only not found (-32602)", async () => {
    const s = loadServer();
    for (const taskId of ["../../etc/passwd", "__proto__", "constructor", "\u0000", "é".repeat(256), "🙂", " ", "null"]) {
      const answer = await tasks(s, "get", { taskId });
      expect(answer.error?.code, JSON.stringify(taskId)).toBe(-32602);
    }
    s.close();
  });

  it("inputResponses keyed __proto__ or constructor (from JSON) are ignored keys: no pollution, the task still waits", async () => {
    const s = loadServer();
    const taskId = await start(s, "asks");
    await waitFor(s, taskId, "input_required");
    const inputResponses = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"action": "accept"}, "toString": {}}');
    const ack = await tasks(s, "update", { taskId, inputResponses });
    expect(ack.result.resultType).toBe("complete");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const still = (await tasks(s, "get", { taskId })).result;
    expect(still.status).toBe("input_required");
    expect(Object.keys(still.inputRequests)).toEqual(["elicit-1"]);
    s.close();
  });

  it("a tasks/update with 10 000 unknown keys is acknowledged and changes nothing", async () => {
    const s = loadServer();
    const taskId = await start(s, "asks");
    await waitFor(s, taskId, "input_required");
    const inputResponses = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, { action: "decline" }]));
    expect((await tasks(s, "update", { taskId, inputResponses })).result.resultType).toBe("complete");
    expect((await tasks(s, "get", { taskId })).result.status).toBe("input_required");
    s.close();
  });
});

/** A store whose every method fails once `broken` is set. */
class FailingStore extends SharedStore {
  broken: "get" | "update" | "create" | "countOwned" | undefined;
  override get(taskId: string) {
    return this.broken === "get" ? Promise.reject(new Error("store down: get")) : super.get(taskId);
  }
  override update(taskId: string, patch: TaskPatch, onlyIf?: readonly TaskStatus[]) {
    return this.broken === "update" ? Promise.reject(new Error("store down: update")) : super.update(taskId, patch, onlyIf);
  }
  override create(record: TaskRecord) {
    return this.broken === "create" ? Promise.reject(new Error("store down: create")) : super.create(record);
  }
  override countOwned(owner: string) {
    return this.broken === "countOwned" ? Promise.reject(new Error("store down: count")) : super.countOwned(owner);
  }
}

/** A bus whose publish rejects. */
class FailingBus implements EventBus {
  readonly inner = new MemoryEventBus();
  publish(_topic: BusTopicName, _message: JsonObject): Promise<void> {
    return Promise.reject(new Error("bus down"));
  }
  subscribe(topic: BusTopicName, listener: (message: JsonObject) => void) {
    return this.inner.subscribe(topic, listener);
  }
}

/** A bus whose first subscriptions are refused (a shared bus not reachable when the server starts). */
class LateBus implements EventBus {
  readonly inner = new MemoryEventBus();
  refusals = 0;
  #refuse: number;
  constructor(refuse: number) {
    this.#refuse = refuse;
  }
  publish(topic: BusTopicName, message: JsonObject): Promise<void> {
    return this.inner.publish(topic, message);
  }
  subscribe(topic: BusTopicName, listener: (message: JsonObject) => void) {
    if (this.#refuse > 0) {
      this.#refuse--;
      this.refusals++;
      return Promise.reject(new Error("bus not reachable yet"));
    }
    return this.inner.subscribe(topic, listener);
  }
}

describe("a failing store or bus", () => {
  it("a bus that cannot subscribe when the server starts is tried again: the server then hears it", async () => {
    const bus = new LateBus(4);
    const errors: string[] = [];
    const s = loadServer({ eventBus: bus, onError: (_error, info) => errors.push(info.method) });
    const listener = listenTo(s, { toolsListChanged: true });
    await until(() => listener.received.length > 0);
    // Each of the four topics was refused once, and reported once.
    expect(bus.refusals).toBe(4);
    expect(errors.filter((m) => m.startsWith("subscribing to")).length).toBe(4);
    // Tried again after a second: a change published on the bus then reaches the listener.
    for (let i = 0; i < 60 && !listener.methods().includes("notifications/tools/list_changed"); i++) {
      s.registerTool(`late_${i}`, {}, () => "late");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(listener.methods()).toContain("notifications/tools/list_changed");
    await listener.close();
    s.close();
  });

  it("a store that rejects: the request is answered -32603 (its message not sent) and the error reported to onError", async () => {
    const store = new FailingStore();
    const errors: { error: unknown; method: string }[] = [];
    const s = loadServer({ tasks: tasksPlugin({ store }), onError: (error, info) => errors.push({ error, method: info.method }) });
    const taskId = await start(s, "asks");
    await waitFor(s, taskId, "input_required");
    for (const [broken, answer] of [
      ["get", () => tasks(s, "get", { taskId })],
      ["countOwned", () => call(s, "echo", {})],
      ["create", () => call(s, "echo", {})],
      ["update", () => tasks(s, "cancel", { taskId })],
    ] as const) {
      store.broken = broken;
      const refused = await answer();
      expect(refused.error?.code, broken).toBe(-32603);
      expect(refused.error.message, broken).not.toContain("store down");
    }
    expect(errors.map((e) => (e.error as Error).message)).toEqual(
      expect.arrayContaining(["store down: get", "store down: count", "store down: create", "store down: update"]),
    );
    store.broken = undefined;
    s.close();
  });

  it("a store write that fails after the handle was sent is reported to onError, not left unhandled", async () => {
    const store = new FailingStore();
    const errors: { error: unknown; method: string }[] = [];
    const s = loadServer({ tasks: tasksPlugin({ store }), onError: (error, info) => errors.push({ error, method: info.method }) });
    const taskId = await start(s, "asks");
    await waitFor(s, taskId, "input_required");
    store.broken = "update";
    await tasks(s, "update", { taskId, inputResponses: { "elicit-1": { action: "decline" } } });
    await until(() => errors.length > 0);
    expect(errors[0]?.method).toContain(`task ${taskId}`);
    store.broken = undefined;
    s.close();
  });

  it("a bus that cannot publish: the change is reported to onError, requests are still answered", async () => {
    const errors: string[] = [];
    const s = loadServer({ eventBus: new FailingBus(), onError: (_error, info) => errors.push(info.method) });
    const taskId = await start(s, "echo");
    expect((await waitFor(s, taskId, "completed")).result.content[0].text).toBe("n=undefined");
    // Registered once the server serves (changes made while it is built stay local).
    s.registerTool("late", {}, () => "late");
    await until(() => errors.some((m) => m.includes("list-changed")) && errors.some((m) => m.includes("publishing its status")));
    s.close();
  });
});

describe("server.close()", () => {
  it("ends the tasks it runs failed (working and input_required alike) and aborts their runs", async () => {
    const s = loadServer();
    const working = await start(s, "held");
    const asking = await start(s, "asks");
    await waitFor(s, asking, "input_required");
    const done = await start(s, "echo", { n: 1 });
    await waitFor(s, done, "completed");
    s.close();
    for (const taskId of [working, asking]) {
      let stored: TaskRecord | undefined;
      for (let i = 0; i < 100 && stored?.status !== "failed"; i++) {
        await new Promise((r) => setImmediate(r));
        stored = await s.taskStore!.get(taskId);
      }
      expect(stored?.status, taskId).toBe("failed");
      expect(stored?.error).toMatchObject({ code: -32603 });
      expect(stored?.statusMessage).toMatch(/shut down/);
      expect(stored?.inputRequests).toBeUndefined();
    }
    expect((await s.taskStore!.get(done))?.status).toBe("completed");
    // Idempotent.
    s.close();
  });

  // Regression: close() ends the tasks running at that moment, but the server goes on making tasks
  // afterwards (a request still in flight while an HTTP server drains, or any later call), which then run with
  // no one to end them at shutdown. subscriptions/listen refuses after close (-32000); a task call does not.
  it("refuses a task call after close (-32000) instead of starting a task nobody will end", async () => {
    const s = loadServer();
    s.close();
    const answer = await call(s, "held");
    expect(answer.error?.code).toBe(-32000);
  });

  it("leaves a store it was given open, and a store of its own can still be read", async () => {
    const store = new MemoryTaskStore();
    const s = loadServer({ tasks: tasksPlugin({ store }) });
    const taskId = await start(s, "echo", { n: 2 });
    await waitFor(s, taskId, "completed");
    s.close();
    expect((await store.get(taskId))?.status).toBe("completed");
    await store.close();
  });
});

describe("no unhandled rejections", () => {
  it("none from any test of this file", async () => {
    // Give a stray rejection of the tests above its turn to surface.
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
  });

  it("none from a handler that rejects after its task was cancelled, nor from asks rejected at the end", async () => {
    const s = new McpServer({ name: "r", version: "1" }, { tasks: tasksPlugin() });
    const go = gate();
    s.registerTool("late_reject", { taskSupport: "required" }, async () => {
      await go.promise;
      throw new Error("late");
    });
    s.registerTool("two_asks", { taskSupport: "required" }, async (_args, ctx) => {
      await ctx.all([ctx.ask.elicit("a", nameSchema), ctx.ask.elicit("b", nameSchema)]);
      return "x";
    });
    const one = await start(s, "late_reject");
    await tasks(s, "cancel", { taskId: one });
    go.open();
    const two = await start(s, "two_asks");
    await waitFor(s, two, "input_required", { where: (t) => Object.keys(t.inputRequests).length === 2 });
    await tasks(s, "cancel", { taskId: two });
    const three = await start(s, "two_asks");
    await waitFor(s, three, "input_required", { where: (t) => Object.keys(t.inputRequests).length === 2 });
    s.close();
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
    expect((await send(s, "tasks/get", { taskId: one }, { meta: TASKS })).result.status).toBe("cancelled");
  });
});
