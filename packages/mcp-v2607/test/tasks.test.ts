// The tasks extension's shared rules (src/tasks.ts): what server and client both read a task by.
import { describe, expect, it } from "vitest";
import {
  declaresTasks,
  detailedTaskProblem,
  isCreateTaskResult,
  isTerminalTaskStatus,
  MAX_TASK_ID_LENGTH,
  readTaskId,
  TASKS_EXTENSION,
  taskProblem,
  tasksRequiredData,
} from "../src/tasks.js";

const task = {
  taskId: "786512e2-9e0d-44bd-8f29-789f320fe840",
  status: "working",
  createdAt: "2025-11-25T10:30:00Z",
  lastUpdatedAt: "2025-11-25T10:40:00Z",
  ttlMs: 60000,
  pollIntervalMs: 5000,
};

describe("the extension's identity", () => {
  it("is declared by an object under capabilities.extensions, nothing else", () => {
    expect(declaresTasks({ extensions: { [TASKS_EXTENSION]: {} } })).toBe(true);
    for (const caps of [undefined, null, {}, { extensions: {} }, { extensions: { [TASKS_EXTENSION]: true } }, { extensions: [] }, "x"]) {
      expect(declaresTasks(caps), JSON.stringify(caps)).toBe(false);
    }
    expect(tasksRequiredData()).toEqual({ requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } });
  });

  it("tells terminal statuses and task handles", () => {
    expect(["completed", "failed", "cancelled"].map(isTerminalTaskStatus)).toEqual([true, true, true]);
    expect(["working", "input_required", "done", undefined].map(isTerminalTaskStatus)).toEqual([false, false, false, false]);
    expect(isCreateTaskResult({ ...task, resultType: "task" })).toBe(true);
    expect(isCreateTaskResult({ ...task, resultType: "complete" })).toBe(false);
    expect(isCreateTaskResult(null)).toBe(false);
  });
});

describe("readTaskId", () => {
  it("reads a non-empty string up to the limit and says what is wrong otherwise", () => {
    expect(readTaskId({ taskId: "t-1" })).toEqual({ ok: true, taskId: "t-1" });
    expect(readTaskId({ taskId: "x".repeat(MAX_TASK_ID_LENGTH) }).ok).toBe(true);
    for (const params of [{}, { taskId: "" }, { taskId: 7 }, { taskId: "x".repeat(MAX_TASK_ID_LENGTH + 1) }, null, []]) {
      const read = readTaskId(params);
      expect(read.ok, JSON.stringify(params)).toBe(false);
      if (!read.ok) expect(read.message).toMatch(/^Invalid params: taskId/);
    }
  });
});

describe("taskProblem and detailedTaskProblem", () => {
  it("accept the extension's example task and its detailed variants", () => {
    expect(taskProblem(task)).toBeUndefined();
    expect(taskProblem({ ...task, ttlMs: null })).toBeUndefined();
    expect(detailedTaskProblem({ ...task, status: "completed", result: { content: [] } })).toBeUndefined();
    expect(detailedTaskProblem({ ...task, status: "failed", error: { code: -32603, message: "x" } })).toBeUndefined();
    expect(detailedTaskProblem({ ...task, status: "input_required", inputRequests: {} })).toBeUndefined();
    expect(detailedTaskProblem({ ...task, status: "cancelled" })).toBeUndefined();
  });

  it("name the first member that is wrong", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...task, taskId: "" }, /taskId/],
      [{ ...task, status: "done" }, /status/],
      [{ ...task, createdAt: 5 }, /createdAt/],
      [{ ...task, lastUpdatedAt: undefined }, /lastUpdatedAt/],
      [{ ...task, ttlMs: 1.5 }, /ttlMs/],
      [{ ...task, ttlMs: undefined }, /ttlMs/],
      [{ ...task, pollIntervalMs: "5" }, /pollIntervalMs/],
      [{ ...task, statusMessage: 1 }, /statusMessage/],
    ];
    for (const [value, message] of cases) expect(taskProblem(value), JSON.stringify(value)).toMatch(message);
    expect(taskProblem("task")).toMatch(/object/);
    expect(detailedTaskProblem({ ...task, status: "completed" })).toMatch(/result/);
    expect(detailedTaskProblem({ ...task, status: "input_required" })).toMatch(/inputRequests/);
    expect(detailedTaskProblem({ ...task, status: "failed", error: { code: "x", message: "m" } })).toMatch(/JSON-RPC error/);
  });
});
