// The tasks plug-in (src/tasks/plugin.ts, `@x/server/tasks`): a server built without it serves no task
// method in either era, announces no tasks, grants no task ids to a listen, ignores params.task, and
// refuses a tool with taskSupport at registerTool, naming the fix; ServerOptions.tasks refuses the options
// object it took before, naming the migration; the plug-in checks its options when it is made, and gives
// each server its own in-memory store unless it is given one; on an initialize-era session the
// version table decides whether the plug-in's capability and methods are offered (2025-11-25 alone).
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../src/index.js";
import { MemoryTaskStore, tasks } from "../../src/tasks/index.js";
import { listenTo, send } from "../helpers.js";
import { answerOf, type Message, open, post, rq, start } from "../legacy/helpers.js";
import { TASKS } from "./fixture.js";

const TASK_METHODS = ["tasks/get", "tasks/update", "tasks/cancel"];

function plainServer(): McpServer {
  const server = new McpServer({ name: "no-tasks", version: "1" });
  server.registerTool("plain", {}, () => "plain ran");
  return server;
}

describe("a server without the tasks plug-in", () => {
  it("refuses a tool with taskSupport at registerTool with a TypeError naming the plug-in, and lists nothing of it", async () => {
    const server = plainServer();
    for (const taskSupport of ["optional", "required"] as const) {
      expect(() => server.registerTool("job", { taskSupport }, () => "x")).toThrow(TypeError);
      expect(() => server.registerTool("job", { taskSupport }, () => "x")).toThrow(
        /^tool job: taskSupport needs the tasks plug-in: import \{ tasks \} from "@x\/server\/tasks" and build the server with new McpServer\(info, \{ tasks: tasks\(\) \}\)$/,
      );
    }
    // "forbidden" is the default: no task, nothing to plug in.
    server.registerTool("never", { taskSupport: "forbidden" }, () => "never a task");
    const listed = await send(server, "tools/list");
    expect(listed.result.tools.map((t: { name: string }) => t.name)).toEqual(["plain", "never"]);
    expect(server.taskStore).toBeUndefined();
    server.close();
  });

  it("serves no tasks/* method (-32601) and announces no extension, whatever the request declares", async () => {
    const server = plainServer();
    for (const method of TASK_METHODS) {
      expect((await send(server, method, { taskId: "t1", inputResponses: {} }, { meta: TASKS })).error.code, method).toBe(-32601);
    }
    const discovered = await send(server, "server/discover", {}, { meta: TASKS });
    expect(discovered.result.capabilities.extensions).toBeUndefined();
    const called = await send(server, "tools/call", { name: "plain", arguments: {} }, { meta: TASKS });
    expect(called.result.resultType).toBe("complete");
    server.close();
  });

  it("grants no task ids to subscriptions/listen, as any member its capabilities do not announce", async () => {
    const server = plainServer();
    for (const meta of [TASKS, { "io.modelcontextprotocol/clientCapabilities": {} }]) {
      const listener = listenTo(server, { toolsListChanged: true, taskIds: ["t1"] }, { meta });
      for (let i = 0; i < 1000 && listener.received.length === 0; i++) await new Promise((r) => setImmediate(r));
      expect(listener.granted()).toEqual({ toolsListChanged: true });
      expect((await listener.close()).result).toBeDefined();
    }
    server.close();
  });

  describe("on an initialize-era session", () => {
    let srv: Awaited<ReturnType<typeof start>>;
    beforeAll(async () => {
      srv = await start(plainServer());
    });
    afterAll(() => srv.stop());

    it("declares no tasks, lists no execution, serves no tasks/* method and ignores params.task", async () => {
      const session = await open(srv.url, { tasks: { requests: { tools: { call: {} } } } });
      expect(session.result.capabilities.tasks).toBeUndefined();
      const call = async (method: string, params: Message = {}) => answerOf(await post(srv.url, rq(method, params), session.headers));
      expect((await call("tools/list")).result.tools.every((t: Message) => t.execution === undefined)).toBe(true);
      for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) {
        expect((await call(method, { taskId: "t1" })).error.code, method).toBe(-32601);
      }
      const answer = await call("tools/call", { name: "plain", arguments: {}, task: { ttl: 1000 } });
      expect(answer.result).toEqual({ content: [{ type: "text", text: "plain ran" }] });
    });
  });
});

describe("ServerOptions.tasks", () => {
  it("refuses the options object it took before with a TypeError naming the plug-in", () => {
    for (const given of [{ ttlMs: 60_000 }, { store: new MemoryTaskStore() }, {}, true]) {
      expect(() => new McpServer({ name: "old", version: "1" }, { tasks: given as never }), JSON.stringify(given)).toThrow(
        /^ServerOptions\.tasks takes the tasks plug-in: import \{ tasks \} from "@x\/server\/tasks" and pass tasks: tasks\(\{ store, ttlMs, \.\.\. \}\)/,
      );
    }
  });

  it("takes the plug-in: tool calls become tasks, and the extension is announced", async () => {
    const server = new McpServer({ name: "with", version: "1" }, { tasks: tasks() });
    server.registerTool("job", { taskSupport: "required" }, () => "done");
    const handle = await send(server, "tools/call", { name: "job", arguments: {} }, { meta: TASKS });
    expect(handle.result.resultType).toBe("task");
    const discovered = await send(server, "server/discover", {}, { meta: TASKS });
    expect(discovered.result.capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    server.close();
  });
});

describe("the plug-in on initialize-era sessions of each version", () => {
  let srv: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    const server = new McpServer({ name: "with", version: "1" }, { tasks: tasks() });
    server.registerTool("job", { taskSupport: "optional" }, () => "done");
    srv = await start(server);
  });
  afterAll(() => srv.stop());

  // The version table decides what a version is offered, the plug-in's capability and methods included.
  it("offers tasks to 2025-11-25 alone: no tasks capability, no execution and -32601 for tasks/get before it", async () => {
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]) {
      const session = await open(srv.url, { tasks: { requests: { tools: { call: {} } } } }, version);
      expect(session.result.protocolVersion, version).toBe(version);
      const newest = version === "2025-11-25";
      expect("tasks" in session.result.capabilities, version).toBe(newest);
      const call = async (method: string, params: Message = {}) => answerOf(await post(srv.url, rq(method, params), session.headers));
      const listed = (await call("tools/list")).result.tools as Message[];
      expect(
        listed.map((t) => t.execution !== undefined),
        version,
      ).toEqual([newest]);
      const polled = await call("tasks/get", { taskId: "no-such-task" });
      expect(polled.error.code, version).toBe(newest ? -32602 : -32601);
    }
  });
});

describe("tasks()", () => {
  it("checks its options when it is called, before any server is built", () => {
    for (const bad of [{ ttlMs: 0 }, { ttlMs: 2 ** 31 }, { pollIntervalMs: 1.5 }, { maxTasksPerOwner: -1 }, { leaseMs: 999 }]) {
      expect(() => tasks(bad), JSON.stringify(bad)).toThrow(RangeError);
    }
  });

  it("keeps a server's tasks in the store given, else in one of that server's own", () => {
    const store = new MemoryTaskStore();
    expect(new McpServer({ name: "a", version: "1" }, { tasks: tasks({ store }) }).taskStore).toBe(store);
    const plugin = tasks();
    const one = new McpServer({ name: "one", version: "1" }, { tasks: plugin }).taskStore;
    const two = new McpServer({ name: "two", version: "1" }, { tasks: plugin }).taskStore;
    expect(one).toBeInstanceOf(MemoryTaskStore);
    expect(two).toBeInstanceOf(MemoryTaskStore);
    expect(one).not.toBe(two);
  });
});
