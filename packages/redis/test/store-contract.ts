/**
 * What every TaskStore must do, as one suite run against each store
 * (store.test.ts: the in-memory default and the Redis store).
 */
import type { TaskRecord, TaskStore } from "@x/server/tasks";
import { TaskLimitError } from "@x/server/tasks";
import { describe, expect, it } from "vitest";

let seq = 0;

/** A fresh working task of `owner`, expiring an hour from now unless `expiresAt` says otherwise. */
export function taskOf(owner: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    taskId: `t-${process.pid}-${++seq}-${Math.random().toString(36).slice(2)}`,
    owner,
    method: "tools/call",
    status: "working",
    createdAt: new Date(now).toISOString(),
    lastUpdatedAt: new Date(now).toISOString(),
    ttlMs: 3_600_000,
    expiresAt: now + 3_600_000,
    pollIntervalMs: 500,
    worker: "w1",
    leaseUntil: now + 15_000,
    ...overrides,
  };
}

/** Checks `check` every 50 ms until it holds, at most `ms / 50` times more (a count: a busy machine waits longer, not less). */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  for (let attempt = 0; attempt < Math.ceil(ms / 50); attempt++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/**
 * Declares the contract tests of a TaskStore. `make` gives a fresh store
 * holding at most `maxTasks` tasks (when given) and nothing of the other
 * stores it gave; the suite closes every store it made.
 */
export function describeTaskStoreContract(name: string, make: (options?: { maxTasks?: number }) => TaskStore | Promise<TaskStore>): void {
  describe(`TaskStore contract: ${name}`, () => {
    const withStore = async (fn: (store: TaskStore) => Promise<void>, options?: { maxTasks?: number }) => {
      const store = await make(options);
      try {
        await fn(store);
      } finally {
        await store.close?.();
      }
    };

    it("create then get gives the record back, member for member, big integers and empty arrays included", () =>
      withStore(async (store) => {
        const record = taskOf("alice", {
          status: "completed",
          result: { resultType: "complete", content: [], structuredContent: { big: 2n ** 64n, n: 1.5, list: [] } },
          statusMessage: undefined,
        });
        await store.create(record);
        const got = await store.get(record.taskId);
        const { statusMessage: _dropped, ...expected } = record;
        expect(got).toEqual(expected);
        expect(got?.statusMessage).toBeUndefined();
        expect((got!.result!.structuredContent as { big: unknown }).big).toBe(2n ** 64n);
        expect(await store.get("no-such-task")).toBeUndefined();
      }));

    it("a record read back is a copy: changing it changes nothing stored", () =>
      withStore(async (store) => {
        const record = taskOf("alice");
        await store.create(record);
        record.status = "failed";
        const got = (await store.get(record.taskId))!;
        expect(got.status).toBe("working");
        got.status = "cancelled";
        expect((await store.get(record.taskId))!.status).toBe("working");
      }));

    it("update applies a patch and answers the new record; a member set to undefined is removed", () =>
      withStore(async (store) => {
        const record = taskOf("alice", { statusMessage: "starting" });
        await store.create(record);
        const asked = await store.update(record.taskId, {
          status: "input_required",
          inputRequests: {
            "elicit-1": {
              method: "elicitation/create",
              params: { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } },
            },
          },
          statusMessage: undefined,
          lastUpdatedAt: new Date().toISOString(),
        });
        expect(asked?.applied).toBe(true);
        expect(asked?.record.status).toBe("input_required");
        expect(asked?.record).not.toHaveProperty("statusMessage");
        expect(asked?.record.inputRequests).toHaveProperty("elicit-1");
        expect(asked?.record.owner).toBe("alice");
        expect(await store.get(record.taskId)).toEqual(asked?.record);
        const resumed = await store.update(record.taskId, { status: "working", inputRequests: undefined });
        expect(resumed?.record).not.toHaveProperty("inputRequests");
        expect(resumed?.record.status).toBe("working");
        expect(await store.update("no-such-task", { status: "failed" })).toBeUndefined();
      }));

    it("onlyIf: the patch is applied only when the status is one of those listed", () =>
      withStore(async (store) => {
        const record = taskOf("alice");
        await store.create(record);
        const refused = await store.update(record.taskId, { status: "completed" }, ["input_required"]);
        expect(refused).toEqual({ applied: false, record: await store.get(record.taskId) });
        expect(refused?.record.status).toBe("working");
        const done = await store.update(record.taskId, { status: "completed", result: { content: [] } }, ["working", "input_required"]);
        expect(done?.applied).toBe(true);
        expect(done?.record.status).toBe("completed");
      }));

    it("a terminal task never changes, whatever onlyIf says", () =>
      withStore(async (store) => {
        for (const status of ["completed", "failed", "cancelled"] as const) {
          const record = taskOf("alice", { status });
          await store.create(record);
          const before = await store.get(record.taskId);
          for (const onlyIf of [undefined, [status], ["working" as const]]) {
            const outcome = await store.update(record.taskId, { status: "working", statusMessage: "again" }, onlyIf);
            expect(outcome).toEqual({ applied: false, record: before });
          }
          expect(await store.get(record.taskId)).toEqual(before);
        }
      }));

    it("concurrent updates guarded by onlyIf: exactly one wins", () =>
      withStore(async (store) => {
        const record = taskOf("alice");
        await store.create(record);
        const outcomes = await Promise.all([
          store.update(record.taskId, { status: "completed", result: { content: [] } }, ["working"]),
          store.update(record.taskId, { status: "cancelled" }, ["working"]),
          store.update(record.taskId, { status: "failed", error: { code: -32603, message: "lost" } }, ["working"]),
        ]);
        const winners = outcomes.filter((o) => o?.applied);
        expect(winners).toHaveLength(1);
        expect((await store.get(record.taskId))!.status).toBe(winners[0]!.record.status);
      }));

    it("expiry: a task past expiresAt is gone from get, update and countOwned; null never expires", () =>
      withStore(async (store) => {
        const gone = taskOf("bob", { expiresAt: Date.now() - 1 });
        // An hour away: still there, whatever the machine's speed (what a task is before its expiry).
        const later = taskOf("bob", { expiresAt: Date.now() + 3_600_000, ttlMs: 3_600_000 });
        // Gone by itself once 400 ms passed; not looked at before, as a busy machine may take that long.
        const soon = taskOf("bob", { expiresAt: Date.now() + 400, ttlMs: 400 });
        const forever = taskOf("bob", { expiresAt: null, ttlMs: null });
        for (const r of [gone, later, soon, forever]) await store.create(r);
        expect(await store.get(gone.taskId)).toBeUndefined();
        expect(await store.update(gone.taskId, { status: "failed" })).toBeUndefined();
        expect((await store.get(later.taskId))?.taskId).toBe(later.taskId);
        expect(await eventually(async () => (await store.get(soon.taskId)) === undefined)).toBe(true);
        expect(await store.countOwned("bob")).toBe(2);
        expect((await store.get(forever.taskId))?.expiresAt).toBeNull();
      }));

    it("an update of expiresAt moves the expiry", () =>
      withStore(async (store) => {
        const later = taskOf("carol", { expiresAt: null, ttlMs: null });
        const now = taskOf("carol");
        await store.create(later);
        await store.create(now);
        expect(await store.countOwned("carol")).toBe(2);
        expect((await store.update(later.taskId, { expiresAt: Date.now() + 3_600_000, ttlMs: 3_600_000 }))?.record.ttlMs).toBe(3_600_000);
        expect(await store.countOwned("carol")).toBe(2);
        await store.update(now.taskId, { expiresAt: Date.now() - 1 });
        expect(await store.get(now.taskId)).toBeUndefined();
        expect(await store.countOwned("carol")).toBe(1);
      }));

    it("countOwned counts one owner's unexpired running tasks; a task that ends stops counting", () =>
      withStore(async (store) => {
        expect(await store.countOwned("dave")).toBe(0);
        for (const status of ["working", "input_required", "completed", "failed", "cancelled"] as const)
          await store.create(taskOf("dave", { status }));
        await store.create(taskOf("erin"));
        await store.create(taskOf(""));
        expect(await store.countOwned("dave")).toBe(2);
        expect(await store.countOwned("erin")).toBe(1);
        expect(await store.countOwned("")).toBe(1);
        expect(await store.countOwned("nobody")).toBe(0);
        const ending = taskOf("erin");
        await store.create(ending);
        expect(await store.countOwned("erin")).toBe(2);
        await store.update(ending.taskId, { status: "completed", result: {} });
        expect(await store.countOwned("erin")).toBe(1);
      }));

    it("a full store pushes out a finished task (one that ended, or was made finished) to take a new one", () =>
      withStore(
        async (store) => {
          const ended = taskOf("mallory");
          await store.create(ended);
          await store.update(ended.taskId, { status: "completed", result: {} });
          const running = taskOf("mallory");
          await store.create(running);
          const newcomer = taskOf("victim");
          await store.create(newcomer);
          expect(await store.get(ended.taskId)).toBeUndefined();
          expect((await store.get(running.taskId))?.status).toBe("working");
          expect((await store.get(newcomer.taskId))?.owner).toBe("victim");
          // Now full of running tasks: refused.
          await expect(store.create(taskOf("victim"))).rejects.toBeInstanceOf(TaskLimitError);
        },
        { maxTasks: 2 },
      ));

    it("a full store refuses a new task with TaskLimitError, and takes one again once a task expired", () =>
      withStore(
        async (store) => {
          await store.create(taskOf("frank"));
          // Full with a task an hour from its expiry (so the refusal below cannot race it), then made to
          // expire 300 ms from now.
          const short = taskOf("frank", { expiresAt: Date.now() + 3_600_000 });
          await store.create(short);
          await expect(store.create(taskOf("frank"))).rejects.toBeInstanceOf(TaskLimitError);
          await store.update(short.taskId, { expiresAt: Date.now() + 300 });
          expect(await eventually(async () => (await store.get(short.taskId)) === undefined)).toBe(true);
          await store.create(taskOf("frank"));
          expect(await store.countOwned("frank")).toBe(2);
        },
        { maxTasks: 2 },
      ));
  });
}
