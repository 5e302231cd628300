/**
 * Three server processes sharing one Redis (tasks in a RedisTaskStore,
 * notifications on a RedisEventBus) and one requestState key, behind nginx
 * balancing round-robin: a task is polled, answered, cancelled and fetched
 * through instances other than the one running it; a listener on one
 * instance hears what another did; an instance killed mid-task leaves its
 * task failed once the lease ran out; Redis restarted mid-run is reported,
 * and the instances serve again by themselves. The figures are printed, not
 * asserted (beyond generous bounds).
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Balancer, startBalancer } from "../../../test-support/nginx.js";
import { type Listening, startListening, stopProcess } from "../../../test-support/processes.js";
import { type RedisServer, startRedis } from "../../../test-support/redis.js";
import { eventually } from "./helpers.js";
import { callTool, type Json, listen, rpc } from "./wire.js";

const FIXTURE = resolve(import.meta.dirname, "fixtures/scale-server.mjs");
const LEASE_MS = 1500;
const URI = "memo://board";

let redis: RedisServer;
let balancer: Balancer;
const instances: Record<"A" | "B" | "C", Listening> = {} as never;
const figures: Record<string, string> = {};
const url = (name: "A" | "B" | "C") => instances[name].url;

beforeAll(async () => {
  redis = await startRedis();
  const env = {
    REDIS_URL: redis.url,
    PREFIX: "scale:",
    LEASE_MS: String(LEASE_MS),
    MCP_REQUEST_STATE_KEYS: Buffer.alloc(32, 42).toString("base64"),
  };
  const started = await Promise.all((["A", "B", "C"] as const).map((name) => startListening(FIXTURE, { ...env, INSTANCE: name })));
  [instances.A, instances.B, instances.C] = started as [Listening, Listening, Listening];
  balancer = await startBalancer(started.map((s) => s.url));
}, 300_000);

afterAll(async () => {
  for (const instance of Object.values(instances)) await stopProcess(instance.child);
  await balancer?.stop();
  await redis?.stop();
  console.log(
    `scale test figures (3 instances, one Redis, nginx round-robin, lease ${LEASE_MS} ms):\n${Object.entries(figures)
      .map(([k, v]) => `  ${k}: ${v}`)
      .join("\n")}`,
  );
});

/** `tasks/get` through `at`, polled every 50 ms until `done` holds (at most `ms`); answers the last result. */
async function pollTask(at: string, taskId: string, done: (task: Json) => boolean, ms = 15_000): Promise<Json> {
  let last: Json;
  await eventually(async () => {
    last = await rpc(at, "tasks/get", { taskId });
    return last.result !== undefined && done(last.result);
  }, ms);
  return last;
}

/** Starts a task of `tool` through `at`; answers its id. */
async function startTask(at: string, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  const answer = await callTool(at, tool, args);
  expect(answer.result, JSON.stringify(answer)).toMatchObject({ resultType: "task", status: "working" });
  return answer.result.taskId as string;
}

describe("three instances sharing Redis behind nginx", () => {
  it("requests through the balancer reach every instance", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add((await callTool(`${balancer.origin}/mcp`, "whoami")).result.content[0].text);
    expect([...seen].sort()).toEqual(["instance A", "instance B", "instance C"]);
  });

  it("a task made on A is polled on B and C, answered on C, and its result fetched on B", async () => {
    const taskId = await startTask(url("A"), "confirm");
    const asking = await pollTask(url("B"), taskId, (t) => t.status === "input_required");
    expect(asking.result.inputRequests["elicit-1"].params.message).toBe("Go ahead? (asked on A)");
    expect((await rpc(url("C"), "tasks/get", { taskId })).result.status).toBe("input_required");
    const ack = await rpc(url("C"), "tasks/update", {
      taskId,
      inputResponses: { "elicit-1": { action: "accept", content: { ok: true } } },
    });
    expect(ack.result).toMatchObject({ resultType: "complete" });
    const done = await pollTask(url("B"), taskId, (t) => t.status === "completed");
    expect(done.result.result.content[0].text).toBe("went ahead, run on A");
    // Every instance, and the balancer, tells the same.
    for (const at of [url("A"), url("C"), `${balancer.origin}/mcp`])
      expect((await rpc(at, "tasks/get", { taskId })).result).toEqual(done.result);
  });

  it("a task made on A is cancelled through C: its run on A is aborted and every instance says cancelled", async () => {
    const taskId = await startTask(url("A"), "slow", { ms: 60_000 });
    expect((await rpc(url("B"), "tasks/get", { taskId })).result.status).toBe("working");
    expect((await rpc(url("C"), "tasks/cancel", { taskId })).result).toMatchObject({ resultType: "complete" });
    expect((await rpc(url("B"), "tasks/get", { taskId })).result.status).toBe("cancelled");
    expect(await eventually(() => instances.A.stderr().includes(`task ${taskId} aborted on A`))).toBe(true);
    // Cancelling again is idempotent, anywhere.
    expect((await rpc(url("B"), "tasks/cancel", { taskId })).result).toMatchObject({ resultType: "complete" });
    const final = await rpc(url("A"), "tasks/get", { taskId });
    expect(final.result.status).toBe("cancelled");
  });

  it("a listener on B hears a resource update made by a tool call on A, and the statuses of a task run on A", async () => {
    const taskId = await startTask(url("A"), "slow", { ms: 300 });
    const stream = await listen(url("B"), { resourceSubscriptions: [URI], taskIds: [taskId] });
    try {
      const ack = stream.received[0]!.message;
      expect(ack.params.notifications.taskIds).toEqual([taskId]);
      expect(ack.params.notifications.resourceSubscriptions).toEqual([URI]);
      const t0 = performance.now();
      const touched = await callTool(url("A"), "touch", { uri: URI });
      expect(touched.result.content[0].text).toBe(`touched ${URI} on A`);
      const updated = await stream.next((m) => m.method === "notifications/resources/updated");
      expect(updated.message.params.uri).toBe(URI);
      figures["A's notifyResourceUpdated heard by a listener on B (from the tool call's start)"] = `${(updated.at - t0).toFixed(1)} ms`;
      const status = await stream.next((m) => m.method === "notifications/tasks" && m.params.status === "completed");
      expect(status.message.params).toMatchObject({ taskId, status: "completed", result: { content: [{ text: "slept 300 ms on A" }] } });
      expect(status.message.params._meta).toBeDefined();
      // An update of another resource is not heard.
      await callTool(url("C"), "touch", { uri: "memo://other" });
      await callTool(url("C"), "touch", { uri: URI });
      await stream.next(
        (m) =>
          m.method === "notifications/resources/updated" &&
          stream.received.filter((r) => r.message.method === "notifications/resources/updated").length === 2,
      );
      expect(stream.received.filter((r) => r.message.params?.uri === "memo://other")).toEqual([]);
    } finally {
      stream.close();
    }
  });

  it("an instance killed mid-task leaves its task failed once the lease ran out, never working for ever", async () => {
    const taskId = await startTask(url("C"), "slow", { ms: 60_000 });
    expect((await rpc(url("A"), "tasks/get", { taskId })).result.status).toBe("working");
    const killedAt = performance.now();
    await stopProcess(instances.C.child, "SIGKILL");
    // C has exited: its last renewal set the lease to end at most LEASE_MS after now (the instances and
    // the test read one clock). However slow the machine, the first reader after that finds it out.
    const leaseOut = Date.now() + LEASE_MS;
    for (let i = 0; i < 100 && Date.now() <= leaseOut; i++) await new Promise((r) => setTimeout(r, leaseOut - Date.now() + 1));
    expect(Date.now()).toBeGreaterThan(leaseOut);
    const failed = await rpc(url("A"), "tasks/get", { taskId });
    expect(failed.result.status).toBe("failed");
    expect(failed.result.error.code).toBe(-32603);
    figures["killed instance's task seen failed (SIGKILL to the first tasks/get after the lease)"] =
      `${(performance.now() - killedAt).toFixed(0)} ms (lease ${LEASE_MS} ms)`;
    expect((await rpc(url("B"), "tasks/get", { taskId })).result).toEqual(failed.result);
    // The balancer still answers, through the instances left.
    expect((await callTool(`${balancer.origin}/mcp`, "whoami")).result.content[0].text).toMatch(/^instance [AB]$/);
  });

  it("Redis restarted mid-run: the outage is reported, task requests fail with -32603 meanwhile, and the instances serve again", async () => {
    const listener = await listen(url("B"), { resourceSubscriptions: [URI] });
    try {
      const before = await startTask(url("A"), "slow", { ms: 60_000 });
      await redis.kill();
      const downAt = performance.now();
      expect(await eventually(() => /@x\/redis: (task store|event bus): lost Redis at 127\.0\.0\.1:\d+/.test(instances.A.stderr()))).toBe(
        true,
      );
      expect(await eventually(() => /@x\/redis: event bus: lost Redis/.test(instances.B.stderr()))).toBe(true);
      const refused = await rpc(url("B"), "tasks/get", { taskId: before });
      expect(refused.error.code).toBe(-32603);
      const noTask = await callTool(url("A"), "slow", { ms: 10 });
      expect(noTask.error.code).toBe(-32603);
      // What needs no Redis still works.
      expect((await callTool(url("A"), "whoami")).result.content[0].text).toBe("instance A");
      const touch = await callTool(url("A"), "touch", { uri: URI });
      expect(touch.result.content[0].text).toBe(`touched ${URI} on A`);
      // One line per outage and part, however many reconnection attempts, failed requests and failed publishes:
      // the requests answered -32603 above and the touch's publish print nothing more.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(instances.A.stderr().match(/@x\/redis: event bus: lost Redis/g)).toHaveLength(1);
      for (const name of ["A", "B"] as const) expect(instances[name].stderr()).not.toMatch(/x-mcp: .* failed/);

      await redis.start();
      const upAt = performance.now();
      figures["Redis down (kill to restart)"] = `${(upAt - downAt).toFixed(0)} ms`;
      let firstTask = 0;
      let taskId = "";
      expect(
        await eventually(
          async () => {
            const answer = await callTool(`${balancer.origin}/mcp`, "slow", { ms: 50 });
            if (answer.result?.resultType !== "task") return false;
            taskId = answer.result.taskId;
            firstTask = performance.now() - upAt;
            return true;
          },
          20_000,
          100,
        ),
      ).toBe(true);
      figures["first task made after Redis came back"] = `${firstTask.toFixed(0)} ms after the restart`;
      const done = await pollTask(url("B"), taskId, (t) => t.status === "completed");
      expect(done.result.result.content[0].text).toMatch(/^slept 50 ms on [AB]$/);
      // The listener opened before the outage hears again: B's bus resubscribed by itself.
      let heardAfter = 0;
      expect(
        await eventually(
          async () => {
            await callTool(url("A"), "touch", { uri: URI });
            await listener.next((m) => m.method === "notifications/resources/updated", 300);
            heardAfter = performance.now() - upAt;
            return true;
          },
          20_000,
          100,
        ),
      ).toBe(true);
      figures["first resource update heard across instances after Redis came back"] = `${heardAfter.toFixed(0)} ms after the restart`;
      // The task made before the outage died with Redis' memory (no persistence): unknown now.
      expect((await rpc(url("A"), "tasks/get", { taskId: before })).error.code).toBe(-32602);
    } finally {
      listener.close();
    }
  });
});
