// MemoryTaskStore.list, the optional TaskStore method behind the initialize
// era's tasks/list: one owner's unexpired tasks, oldest first, a page at a time.
import { describe, expect, it } from "vitest";
import { MemoryTaskStore, type TaskRecord } from "../../src/tasks/index.js";

function record(taskId: string, owner: string, createdAt: string, expiresAt: number | null = null): TaskRecord {
  return { taskId, owner, method: "tools/call", status: "working", createdAt, lastUpdatedAt: createdAt, ttlMs: null, expiresAt };
}

describe("MemoryTaskStore.list", () => {
  it("[A82] pages one owner's unexpired tasks by createdAt then taskId, each once", async () => {
    const store = new MemoryTaskStore();
    const gone = Date.now() - 1;
    await store.create(record("b", "ann", "2026-01-01T00:00:02.000Z"));
    await store.create(record("a", "ann", "2026-01-01T00:00:02.000Z"));
    await store.create(record("c", "ann", "2026-01-01T00:00:01.000Z"));
    await store.create(record("x", "bea", "2026-01-01T00:00:00.000Z"));
    await store.create(record("old", "ann", "2026-01-01T00:00:00.000Z", gone));
    const first = await store.list("ann", { limit: 2 });
    expect(first.tasks.map((t) => t.taskId)).toEqual(["c", "a"]);
    expect(first.nextCursor).toBeDefined();
    const second = await store.list("ann", { cursor: first.nextCursor, limit: 2 });
    expect(second.tasks.map((t) => t.taskId)).toEqual(["b"]);
    expect(second.nextCursor).toBeUndefined();
    expect((await store.list("bea", { limit: 10 })).tasks.map((t) => t.taskId)).toEqual(["x"]);
    expect(await store.list("nobody", { limit: 10 })).toEqual({ tasks: [] });
    // A task made after a page began is listed on a later page when it sorts after the cursor.
    await store.create(record("d", "ann", "2026-01-01T00:00:03.000Z"));
    expect((await store.list("ann", { cursor: first.nextCursor, limit: 5 })).tasks.map((t) => t.taskId)).toEqual(["b", "d"]);
    // The records are copies: changing one changes nothing stored.
    second.tasks[0]!.status = "failed";
    expect((await store.get("b"))?.status).toBe("working");
    await store.close();
  });
});
