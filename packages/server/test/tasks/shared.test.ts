// Several instances of one server (src/tasks/runner.ts leases, control and status over the bus; src/server.ts
// #emit and #follow): with a shared task store a task whose worker's lease ran out is marked failed by the next
// tasks/get; with a shared store and bus, tasks/get, tasks/update and tasks/cancel reach a task through any
// instance, and list changes, resource updates and task statuses reach every instance's listeners.
import { afterEach, describe, expect, it } from "vitest";
import { BusTopic, type BusTopicName, type EventBus, McpServer, MemoryEventBus, type ServerOptions } from "../../src/index.js";
import type { JsonObject } from "../../src/objects.js";
import { listenTo, send } from "../helpers.js";
import { aborted, gate, nameSchema, record, SharedStore, start, TASKS, tasks, until, waitFor } from "./fixture.js";
import { tasks as tasksPlugin } from "../../src/tasks/index.js";

const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

/** A bus that delivers a tick later (as a networked one would), through a MemoryEventBus. */
class AsyncBus implements EventBus {
  readonly inner = new MemoryEventBus();
  published: string[] = [];
  publish(topic: BusTopicName, message: JsonObject): Promise<void> {
    this.published.push(topic);
    return new Promise((resolve) => {
      setImmediate(() => {
        this.inner.deliver(topic, structuredClone(message));
        resolve();
      });
    });
  }
  subscribe(topic: BusTopicName, listener: (message: JsonObject) => void): Promise<() => void> {
    return this.inner.subscribe(topic, listener);
  }
}

const servers: McpServer[] = [];
const releases: (() => void)[] = [];
afterEach(() => {
  for (const r of releases.splice(0)) r();
  for (const s of servers.splice(0)) s.close();
});

/** Signals seen by the handlers, by task id. */
const signals = new Map<string, AbortSignal>();

/** One instance of the deployment: every instance registers the same tools. */
function instance(name: string, options: ServerOptions) {
  const s = new McpServer({ name: "deployment", version: "1" }, { tasks: tasksPlugin(), ...options });
  const release = gate();
  releases.push(release.open);
  s.registerTool("asks", { taskSupport: "required" }, async (_args, ctx) => {
    signals.set(ctx.task!.taskId, ctx.signal);
    const answer = await ctx.elicit("Name?", nameSchema);
    return `Hello, ${String((answer as any).content?.name)} (from ${name})`;
  });
  s.registerTool("asks_two", { taskSupport: "required" }, async (_args, ctx) => {
    const [a, b] = await ctx.all([ctx.ask.elicit("One?", nameSchema), ctx.ask.elicit("Two?", nameSchema)]);
    return `${String((a as any).content?.name)}+${String((b as any).content?.name)}`;
  });
  s.registerTool("held", { taskSupport: "required" }, async (_args, ctx) => {
    signals.set(ctx.task!.taskId, ctx.signal);
    await Promise.race([release.promise, aborted(ctx.signal)]);
    return "released";
  });
  s.registerResource("doc", "test://doc", {}, () => "doc");
  servers.push(s);
  return s;
}

describe("a shared task store", () => {
  it("tasks/get marks a task whose worker's lease ran out failed (and tells its listeners); a live lease stays", async () => {
    const store = new SharedStore();
    const s = instance("S", { tasks: tasksPlugin({ store }) });
    const lost = record({ leaseUntil: Date.now() - 1 });
    const asking = record({
      status: "input_required",
      leaseUntil: Date.now() - 1,
      inputRequests: { "elicit-1": { method: "elicitation/create", params: { message: "?", requestedSchema: nameSchema } } },
    } as never);
    const alive = record({ leaseUntil: Date.now() + 60_000 });
    const finished = record({ status: "completed", result: { content: [] }, leaseUntil: Date.now() - 1 });
    for (const r of [lost, asking, alive, finished]) await store.create(r);

    const listener = listenTo(s, { taskIds: [lost.taskId] }, { meta: TASKS });
    await until(() => listener.received.length > 0);
    const failed = (await tasks(s, "get", { taskId: lost.taskId })).result;
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: -32603 });
    expect(failed.statusMessage).toMatch(/stopped before it finished/);
    expect((await store.get(lost.taskId))?.status).toBe("failed");
    await until(() => listener.methods().includes("notifications/tasks"));
    expect((listener.received[1]?.params as any)?.status).toBe("failed");
    await listener.close();

    const failedAsking = (await tasks(s, "get", { taskId: asking.taskId })).result;
    expect(failedAsking.status).toBe("failed");
    expect(failedAsking).not.toHaveProperty("inputRequests");
    expect((await tasks(s, "get", { taskId: alive.taskId })).result.status).toBe("working");
    expect((await tasks(s, "get", { taskId: finished.taskId })).result.status).toBe("completed");
  });

  it("the worker renews the leases of the tasks it runs", async () => {
    const store = new SharedStore();
    const a = instance("A", { tasks: tasksPlugin({ store, leaseMs: 1000 }) });
    const taskId = await start(a, "held");
    const first = (await store.get(taskId))!.leaseUntil!;
    expect(first).toBeGreaterThan(Date.now());
    await until(() => store.renewals > 0);
    expect((await store.get(taskId))!.leaseUntil!).toBeGreaterThan(first);
    const other = instance("OTHER", { tasks: tasksPlugin({ store, leaseMs: 1000 }) });
    expect((await tasks(other, "get", { taskId })).result.status).toBe("working");
  });

  it("a run whose task was ended elsewhere is stopped at its next lease renewal", async () => {
    const store = new SharedStore();
    const a = instance("A", { tasks: tasksPlugin({ store, leaseMs: 1000 }) });
    const taskId = await start(a, "held");
    await until(() => signals.has(taskId));
    // Another instance (without a bus to tell A) ended it: A learns it when renewing the lease.
    await store.update(taskId, { status: "failed", error: { code: -32603, message: "ended elsewhere" } });
    await until(() => signals.get(taskId)!.aborted, 1500);
    expect((await store.get(taskId))?.error?.message).toBe("ended elsewhere");
  });

  it("a task whose instance closes ends failed, as every instance reads it", async () => {
    const store = new SharedStore();
    const bus = new MemoryEventBus();
    const a = instance("A", { tasks: tasksPlugin({ store }), eventBus: bus });
    const b = instance("B", { tasks: tasksPlugin({ store }), eventBus: bus });
    const taskId = await start(a, "held");
    a.close();
    const failed = await waitFor(b, taskId, "failed");
    expect(failed.error.code).toBe(-32603);
    expect(failed.statusMessage).toMatch(/shut down/);
    expect(signals.get(taskId)!.aborted).toBe(true);
  });
});

describe("two instances sharing a store and a bus", () => {
  for (const [kind, makeBus] of [
    ["MemoryEventBus", () => new MemoryEventBus()],
    ["an asynchronous bus", () => new AsyncBus()],
  ] as const) {
    describe(`over ${kind}`, () => {
      it("tasks/get and tasks/update through the other instance: the answer reaches the instance running the task", async () => {
        const store = new SharedStore();
        const bus = makeBus();
        const a = instance("A", { tasks: tasksPlugin({ store }), eventBus: bus });
        const b = instance("B", { tasks: tasksPlugin({ store }), eventBus: bus });
        const taskId = await start(a, "asks");
        const waiting = await waitFor(b, taskId, "input_required");
        expect(Object.keys(waiting.inputRequests)).toEqual(["elicit-1"]);
        const ack = await tasks(b, "update", { taskId, inputResponses: { "elicit-1": accept({ name: "Ada" }) } });
        expect(ack.result.resultType).toBe("complete");
        // The ack waits until the running instance took the answer: the ask is gone on the next poll.
        const next = (await tasks(b, "get", { taskId })).result;
        expect(next).not.toHaveProperty("inputRequests");
        const done = await waitFor(b, taskId, "completed");
        expect(done.result.content[0].text).toBe("Hello, Ada (from A)");
      });

      it("a partial answer through the other instance leaves the other ask outstanding", async () => {
        const store = new SharedStore();
        const bus = makeBus();
        const a = instance("A", { tasks: tasksPlugin({ store }), eventBus: bus });
        const b = instance("B", { tasks: tasksPlugin({ store }), eventBus: bus });
        const taskId = await start(a, "asks_two");
        const both = await waitFor(b, taskId, "input_required", { where: (t) => Object.keys(t.inputRequests).length === 2 });
        const [first, second] = Object.keys(both.inputRequests).sort() as [string, string];
        await tasks(b, "update", { taskId, inputResponses: { [first]: accept({ name: "x" }), unknown: accept({}) } });
        const partial = (await tasks(b, "get", { taskId })).result;
        expect(partial.status).toBe("input_required");
        expect(Object.keys(partial.inputRequests)).toEqual([second]);
        await tasks(b, "update", { taskId, inputResponses: { [second]: accept({ name: "y" }) } });
        expect((await waitFor(a, taskId, "completed")).result.content[0].text).toBe("x+y");
      });

      it("tasks/cancel through the other instance cancels at once and aborts the run's signal where it runs", async () => {
        const store = new SharedStore();
        const bus = makeBus();
        const a = instance("A", { tasks: tasksPlugin({ store }), eventBus: bus });
        const b = instance("B", { tasks: tasksPlugin({ store }), eventBus: bus });
        const taskId = await start(a, "held");
        await until(() => signals.has(taskId));
        await tasks(b, "cancel", { taskId });
        expect((await tasks(b, "get", { taskId })).result.status).toBe("cancelled");
        await until(() => signals.get(taskId)!.aborted);
        expect((await tasks(a, "get", { taskId })).result.status).toBe("cancelled");
      });

      it("a listener on the other instance hears the task's statuses", async () => {
        const store = new SharedStore();
        const bus = makeBus();
        const a = instance("A", { tasks: tasksPlugin({ store }), eventBus: bus });
        const b = instance("B", { tasks: tasksPlugin({ store }), eventBus: bus });
        const taskId = await start(a, "asks");
        const listener = listenTo(b, { taskIds: [taskId] }, { meta: TASKS });
        await until(() => listener.received.length > 0);
        expect(listener.granted()).toEqual({ taskIds: [taskId] });
        await waitFor(a, taskId, "input_required");
        await tasks(a, "update", { taskId, inputResponses: { "elicit-1": accept({ name: "Bo" }) } });
        await waitFor(a, taskId, "completed");
        await until(() => listener.received.some((n) => (n.params as any).status === "completed"));
        const statuses = listener.received.filter((n) => n.method === "notifications/tasks").map((n) => (n.params as any).status);
        expect(statuses[statuses.length - 1]).toBe("completed");
        expect(statuses).toContain("working");
        await listener.close();
      });

      it("list changes and resource updates on one instance reach the other's listeners", async () => {
        const bus = makeBus();
        const a = instance("A", { eventBus: bus });
        const b = instance("B", { eventBus: bus });
        // The instances' own registrations are list changes too: let those still on the bus go by first.
        for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
        const listener = listenTo(b, { toolsListChanged: true, resourceSubscriptions: ["test://doc"] });
        await until(() => listener.received.length > 0);
        // A serving instance's changes are news to the others (those made while it is built stay local).
        await send(a, "server/discover");
        a.registerTool("new_on_a", {}, () => "x");
        a.notifyResourceUpdated("test://doc");
        a.notifyResourceUpdated("test://other");
        await until(() => listener.methods().length >= 3);
        expect(listener.methods()).toEqual([
          "notifications/subscriptions/acknowledged",
          "notifications/tools/list_changed",
          "notifications/resources/updated",
        ]);
        expect((listener.received[2]?.params as any)?.uri).toBe("test://doc");
        await listener.close();
      });
    });
  }

  it("an answer for a task whose worker is gone (lease not yet out) is acknowledged after a bounded wait", async () => {
    const store = new SharedStore();
    const bus = new MemoryEventBus();
    const b = instance("B", { tasks: tasksPlugin({ store }), eventBus: bus });
    const orphan = record({
      status: "input_required",
      leaseUntil: Date.now() + 60_000,
      inputRequests: { "elicit-1": { method: "elicitation/create", params: { message: "?", requestedSchema: nameSchema } } },
    } as never);
    await store.create(orphan);
    const ack = await tasks(b, "update", { taskId: orphan.taskId, inputResponses: { "elicit-1": accept({ name: "x" }) } });
    expect(ack.result.resultType).toBe("complete");
    expect((await tasks(b, "get", { taskId: orphan.taskId })).result.status).toBe("input_required");
  });

  it("publishes task statuses and controls on the bus's topics", async () => {
    const store = new SharedStore();
    const bus = new AsyncBus();
    const a = instance("A", { tasks: tasksPlugin({ store }), eventBus: bus });
    const b = instance("B", { tasks: tasksPlugin({ store }), eventBus: bus });
    const taskId = await start(a, "held");
    await tasks(b, "cancel", { taskId });
    await until(() => bus.published.includes(BusTopic.TaskControl) && bus.published.includes(BusTopic.TaskStatus));
  });
});
