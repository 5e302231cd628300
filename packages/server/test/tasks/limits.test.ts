// The limits of tasks (src/tasks/runner.ts, src/tasks/store.ts): most unexpired tasks per principal
// (tasks.maxTasksPerOwner) and per store (MemoryTaskStore maxTasks), both answered -32000; a task's time to
// live, past which its run is aborted and the task forgotten; and the options' ranges (RangeError).
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listen, McpServer, MemoryEventBus, type ServerOptions } from "../../src/index.js";
import { MemoryTaskStore, tasks as tasksPlugin } from "../../src/tasks/index.js";
import { listenTo, rpc } from "../helpers.js";
import { aborted, call, gate, SharedStore, sleep, start, TASKS, tasks, until, waitFor } from "./fixture.js";

const servers: McpServer[] = [];
const releases: (() => void)[] = [];
afterEach(() => {
  for (const release of releases.splice(0)) release();
  for (const s of servers.splice(0)) s.close();
});

/** A server with `held` (runs until the test's release, or its signal aborts) and `quick`. */
function limited(options: ServerOptions = {}) {
  const s = new McpServer(
    { name: "limits", version: "1" },
    { principal: (ctx) => ctx.assigns.user as string | undefined, tasks: tasksPlugin(), ...options },
  );
  const release = gate();
  releases.push(release.open);
  const reasons: unknown[] = [];
  s.registerTool("held", { taskSupport: "required" }, async (_args, ctx) => {
    const reason = await Promise.race([release.promise.then(() => undefined), aborted(ctx.signal)]);
    if (reason !== undefined) reasons.push(reason);
    return "released";
  });
  s.registerTool("quick", { taskSupport: "required" }, () => "quick");
  servers.push(s);
  return { server: s, release: release.open, reasons };
}

const as = (user: string) => ({ transport: { assigns: { user } } });

describe("tasks.maxTasksPerOwner", () => {
  it("refuses the call past the limit with -32000 (data.limit), per principal, counting running tasks only", async () => {
    const { server } = limited({ tasks: tasksPlugin({ maxTasksPerOwner: 2 }) });
    await start(server, "held", {}, as("ann"));
    // A finished task holds no allowance.
    await waitFor(server, await start(server, "quick", {}, as("ann")), "completed", as("ann"));
    await start(server, "held", {}, as("ann"));
    const refused = await call(server, "held", {}, as("ann"));
    expect(refused.error).toMatchObject({ code: -32000, data: { limit: 2 } });
    expect(refused.error.message).toMatch(/Too many tasks/);
    // Another principal has its own count.
    expect((await call(server, "held", {}, as("ben"))).result.resultType).toBe("task");
  });

  it("is answered 503 over HTTP", async () => {
    const { server } = limited({ tasks: tasksPlugin({ maxTasksPerOwner: 1 }) });
    const running = await listen(server, { port: 0 });
    try {
      const first = await rpc(running.url, "tools/call", { name: "held", arguments: {} }, { meta: TASKS });
      expect(first.json.result.resultType).toBe("task");
      const second = await rpc(running.url, "tools/call", { name: "held", arguments: {} }, { meta: TASKS });
      expect([second.status, second.json.error.code]).toEqual([503, -32000]);
    } finally {
      await running.close(200);
    }
  });

  // Regression: the count (store.countOwned) and the create are not one step, so calls that arrive
  // together all pass the check before any of them is stored, and one principal gets past its limit.
  it("holds under concurrent calls: at most maxTasksPerOwner of 40 simultaneous calls make a task", async () => {
    const { server } = limited({ tasks: tasksPlugin({ maxTasksPerOwner: 5 }) });
    const answers = await Promise.all(Array.from({ length: 40 }, () => call(server, "held", {}, as("eve"))));
    const made = answers.filter((a) => a.result?.resultType === "task").length;
    const refused = answers.filter((a) => a.error?.code === -32000).length;
    expect(made + refused).toBe(40);
    expect(made).toBe(5);
  });

  it("is a RangeError unless a positive integer", () => {
    for (const bad of [0, -1, 1.5, Number.NaN, "3"]) {
      expect(
        () => new McpServer({ name: "x", version: "1" }, { tasks: tasksPlugin({ maxTasksPerOwner: bad as number }) }),
        String(bad),
      ).toThrow(RangeError);
    }
  });
});

describe("MemoryTaskStore maxTasks", () => {
  it("refuses a task past the store's size with -32000, whoever asks", async () => {
    const store = new MemoryTaskStore({ maxTasks: 2 });
    const { server } = limited({ tasks: tasksPlugin({ store }) });
    await start(server, "held", {}, as("a"));
    await start(server, "held", {}, as("b"));
    expect(store.size).toBe(2);
    const refused = await call(server, "held", {}, as("c"));
    expect(refused.error.code).toBe(-32000);
    expect(refused.error.message).toMatch(/store is full/);
    expect(store.size).toBe(2);
    await store.close();
  });

  it("one principal's finished tasks do not lock another out: the oldest finished task makes room", async () => {
    const store = new MemoryTaskStore({ maxTasks: 3 });
    const { server } = limited({ tasks: tasksPlugin({ store }) });
    const finished: string[] = [];
    for (let i = 0; i < 3; i++) {
      const taskId = await start(server, "quick", {}, as("mallory"));
      await waitFor(server, taskId, "completed", as("mallory"));
      finished.push(taskId);
    }
    const victim = await call(server, "held", {}, as("victim"));
    expect(victim.result.resultType).toBe("task");
    expect(store.size).toBe(3);
    // The oldest finished task was pushed out; the others are still there.
    expect((await tasks(server, "get", { taskId: finished[0] }, as("mallory"))).error.code).toBe(-32602);
    expect((await tasks(server, "get", { taskId: finished[2] }, as("mallory"))).result.status).toBe("completed");
    await store.close();
  });

  it("is a RangeError unless a positive integer", () => {
    for (const bad of [0, -3, 2.5, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(() => new MemoryTaskStore({ maxTasks: bad }), String(bad)).toThrow(RangeError);
    }
  });

  it("forgets a task once it has expired, and an update of it is undefined", async () => {
    const store = new MemoryTaskStore();
    const now = Date.now();
    const base = { owner: "", method: "tools/call", status: "completed" as const, createdAt: "", lastUpdatedAt: "", ttlMs: 1 };
    await store.create({ ...base, taskId: "gone", expiresAt: now - 1 });
    await store.create({ ...base, taskId: "kept", expiresAt: now + 60_000 });
    await store.create({ ...base, taskId: "forever", expiresAt: null, ttlMs: null });
    await store.create({ ...base, taskId: "running", status: "working", expiresAt: now + 60_000 });
    await store.create({ ...base, taskId: "ran", status: "working", expiresAt: now - 1 });
    expect(await store.get("gone")).toBeUndefined();
    expect(await store.update("gone", { statusMessage: "x" })).toBeUndefined();
    expect((await store.get("kept"))?.taskId).toBe("kept");
    // Only unexpired tasks that still run count against their owner.
    expect(await store.countOwned("")).toBe(1);
    // A terminal task never changes.
    expect((await store.update("kept", { status: "working" }))?.applied).toBe(false);
    await store.close();
  });
});

describe("tasks.ttlMs", () => {
  it("is the handle's ttlMs; null is unlimited", async () => {
    const { server } = limited({ tasks: tasksPlugin({ ttlMs: null }) });
    const handle = (await call(server, "quick")).result;
    expect(handle.ttlMs).toBeNull();
    expect((await server.taskStore!.get(handle.taskId))?.expiresAt).toBeNull();
  });

  it("past it, the run's signal is aborted and the task is forgotten (-32602)", async () => {
    const { server, reasons } = limited({ tasks: tasksPlugin({ ttlMs: 40 }) });
    const taskId = await start(server, "held");
    let gone: any;
    for (let i = 0; i < 500 && gone === undefined; i++) {
      const got = await tasks(server, "get", { taskId });
      if (got.error) gone = got.error;
      else await sleep(2);
    }
    expect(gone.code).toBe(-32602);
    await until(() => reasons.length === 1);
    expect((reasons[0] as Error).name).toBe("AbortError");
    expect((reasons[0] as Error).message).toMatch(/expired/);
  });

  // Regression: the run is ended `failed` by a timer that fires when the record itself expires
  // (expiresAt = createdAt + ttlMs), so the store has (almost always) forgotten the task by then, the failed
  // state is not written, and a listener never hears the task end. With real timers the timer sometimes wins
  // by a millisecond; fake timers make the race come out the usual way every time.
  it("past it, a listener of the task hears it end (failed)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    try {
      const { server } = limited({ tasks: tasksPlugin({ ttlMs: 60 }) });
      const taskId = await start(server, "held");
      const listener = listenTo(server, { taskIds: [taskId] }, { meta: TASKS });
      await vi.advanceTimersByTimeAsync(0);
      expect(listener.granted()).toEqual({ taskIds: [taskId] });
      await vi.advanceTimersByTimeAsync(61);
      await listener.close();
      expect(listener.received.filter((n) => n.method === "notifications/tasks").map((n) => (n.params as any).status)).toEqual(["failed"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("is a RangeError unless a positive integer or null; so are pollIntervalMs and leaseMs", () => {
    for (const [option, bad] of [
      ["ttlMs", 0],
      ["ttlMs", -5],
      ["ttlMs", 1.5],
      ["ttlMs", Number.NaN],
      ["ttlMs", "60000"],
      ["pollIntervalMs", 0],
      ["pollIntervalMs", 2.5],
      ["leaseMs", 0],
      ["leaseMs", -1],
      // Longer than the longest timer (which would fire at once), or too short to renew in time.
      ["ttlMs", 30 * 24 * 3_600_000],
      ["leaseMs", 20],
      ["leaseMs", 999],
      ["leaseMs", 90 * 24 * 3_600_000],
    ] as const) {
      expect(
        () => new McpServer({ name: "x", version: "1" }, { tasks: tasksPlugin({ [option]: bad }) }),
        `${option} ${String(bad)}`,
      ).toThrow(RangeError);
    }
  });
});

describe("tasks.leaseMs", () => {
  // Renewed every third of the lease: the shortest lease allowed leaves room for a slow renewal.
  it("a live worker's lease (the shortest, 1000 ms) does not run out: another instance keeps seeing the task working", async () => {
    // Date and setInterval are faked: the renewals and the reader's clock move as the test moves them, 1.5 s
    // in steps of 100 ms, so a busy machine cannot hold a renewal back past the lease.
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    try {
      const store = new SharedStore();
      const bus = new MemoryEventBus();
      const { server: a } = limited({ tasks: tasksPlugin({ store, leaseMs: 1000 }), eventBus: bus });
      const { server: b } = limited({ tasks: tasksPlugin({ store, leaseMs: 1000 }), eventBus: bus });
      const taskId = await start(a, "held");
      for (let i = 0; i < 15; i++) {
        await vi.advanceTimersByTimeAsync(100);
        expect((await tasks(b, "get", { taskId })).result.status).toBe("working");
      }
      expect(store.renewals).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the extension's own limits on listen", () => {
  it("refuses more than 100 taskIds (-32602), non-string ids (-32602), and taskIds without the extension (-32021)", async () => {
    const { server } = limited();
    const many = listenTo(server, { taskIds: Array.from({ length: 101 }, (_, i) => `t${i}`) }, { meta: TASKS });
    expect((await many.response).error.code).toBe(-32602);
    const hundred = listenTo(server, { taskIds: Array.from({ length: 100 }, (_, i) => `t${i}`) }, { meta: TASKS });
    await until(() => hundred.received.length > 0);
    expect(hundred.granted()).toEqual({ taskIds: [] });
    await hundred.close();
    for (const taskIds of [[1], "t1", [null], {}]) {
      const bad = listenTo(server, { taskIds }, { meta: TASKS });
      expect((await bad.response).error.code, JSON.stringify(taskIds)).toBe(-32602);
    }
    const plain = listenTo(server, { taskIds: ["t1"] }, { meta: { "io.modelcontextprotocol/clientCapabilities": {} } });
    const refused = (await plain.response).error;
    expect(refused.code).toBe(-32021);
    expect(refused.data.requiredCapabilities.extensions[TASKS_EXTENSION]).toEqual({});
    expect(plain.received).toEqual([]);
  });
});
