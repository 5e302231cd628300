// Who may reach a task (src/tasks/runner.ts #owned, owns; src/features/subscriptions.ts): the principal that
// made it (ServerOptions.principal, here read from the transport's assigns). Another principal is told the task
// does not exist, exactly as for an unknown id, on tasks/get, tasks/update and tasks/cancel, and a listen of
// another's taskIds is not granted them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer, type TransportInfo } from "../../src/index.js";
import { listenTo, rpc } from "../helpers.js";
import { gate, nameSchema, start, TASKS, tasks, until, waitFor } from "./fixture.js";
import { tasks as tasksPlugin } from "../../src/tasks/index.js";

const as = (user: string | undefined): { transport: TransportInfo } => ({ transport: user === undefined ? {} : { assigns: { user } } });

const hold = gate();
let server: McpServer;
beforeAll(() => {
  server = new McpServer(
    { name: "principals", version: "1" },
    { principal: (ctx) => (typeof ctx.assigns.user === "string" ? ctx.assigns.user : undefined), tasks: tasksPlugin() },
  );
  server.registerTool("asks", { taskSupport: "required" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Name?", nameSchema);
    await hold.promise;
    return JSON.stringify(answer);
  });
});
afterAll(() => {
  hold.open();
  server.close();
});

describe("another principal's task", () => {
  it("is not found (-32602, the unknown task's message) on tasks/get, tasks/update and tasks/cancel, and they change nothing", async () => {
    const taskId = await start(server, "asks", {}, as("alice"));
    const waiting = await waitFor(server, taskId, "input_required", as("alice"));
    const unknown = await tasks(server, "get", { taskId: globalThis.crypto.randomUUID() }, as("bob"));
    for (const who of ["bob", undefined, "Alice", "alice "]) {
      const get = await tasks(server, "get", { taskId }, as(who));
      expect(get.error, String(who)).toEqual(unknown.error);
      const update = await tasks(
        server,
        "update",
        { taskId, inputResponses: { "elicit-1": { action: "accept", content: { name: "Mallory" } } } },
        as(who),
      );
      expect(update.error?.code, String(who)).toBe(-32602);
      const cancel = await tasks(server, "cancel", { taskId }, as(who));
      expect(cancel.error?.code, String(who)).toBe(-32602);
    }
    expect((await tasks(server, "get", { taskId }, as("alice"))).result).toEqual(waiting);
    // The owner's answer still goes through.
    await tasks(server, "update", { taskId, inputResponses: { "elicit-1": { action: "accept", content: { name: "Ada" } } } }, as("alice"));
    await waitFor(server, taskId, "working", as("alice"));
  });

  it("a task of nobody in particular (no principal) is not reachable by a principal, nor the other way round", async () => {
    const anonymous = await start(server, "asks", {}, as(undefined));
    const alices = await start(server, "asks", {}, as("alice"));
    expect((await tasks(server, "get", { taskId: anonymous }, as("alice"))).error.code).toBe(-32602);
    expect((await tasks(server, "get", { taskId: alices }, as(undefined))).error.code).toBe(-32602);
    expect((await tasks(server, "get", { taskId: anonymous }, as(undefined))).result.taskId).toBe(anonymous);
  });

  it("subscriptions/listen grants only the caller's own taskIds, and another's task is never heard of", async () => {
    const mine = await start(server, "asks", {}, as("bob"));
    const hers = await start(server, "asks", {}, as("alice"));
    const unknown = globalThis.crypto.randomUUID();
    const bob = listenTo(server, { taskIds: [hers, mine, unknown] }, { meta: TASKS, ...as("bob") });
    const alice = listenTo(server, { taskIds: [hers, mine] }, { meta: TASKS, ...as("alice") });
    await until(() => bob.received.length > 0 && alice.received.length > 0);
    expect(bob.granted()).toEqual({ taskIds: [mine] });
    expect(alice.granted()).toEqual({ taskIds: [hers] });
    await waitFor(server, hers, "input_required", as("alice"));
    await waitFor(server, mine, "input_required", as("bob"));
    await tasks(server, "cancel", { taskId: hers }, as("alice"));
    await tasks(server, "cancel", { taskId: mine }, as("bob"));
    await until(() => alice.methods().includes("notifications/tasks") && bob.methods().includes("notifications/tasks"));
    const heard = (l: typeof bob) => l.received.filter((n) => n.method === "notifications/tasks").map((n) => (n.params as any).taskId);
    expect(new Set(heard(bob))).toEqual(new Set([mine]));
    expect(new Set(heard(alice))).toEqual(new Set([hers]));
    await bob.close();
    await alice.close();
  });
});

describe("over Streamable HTTP, with the principal from a request header", () => {
  let http: McpServer;
  let running: RunningHttpServer;
  beforeAll(async () => {
    http = new McpServer({ name: "p", version: "1" }, { principal: (ctx) => ctx.assigns.user as string | undefined, tasks: tasksPlugin() });
    http.registerTool("job", { taskSupport: "required" }, async (_args, ctx) => JSON.stringify(await ctx.elicit("Name?", nameSchema)));
    running = await listen(http, { port: 0, assigns: (header) => ({ user: header("x-user") ?? "nobody" }) });
  });
  afterAll(() => running.close(200));

  it("another user's tasks/get, tasks/update and tasks/cancel are -32602; the owner's work", async () => {
    const user = (name: string) => ({ meta: TASKS, headers: { "x-user": name } });
    const created = await rpc(running.url, "tools/call", { name: "job", arguments: {} }, user("carol"));
    const taskId = created.json.result.taskId;
    for (const method of ["tasks/get", "tasks/cancel"]) {
      const other = await rpc(running.url, method, { taskId }, user("dave"));
      expect([other.status, other.json.error.code], method).toEqual([200, -32602]);
    }
    const update = await rpc(running.url, "tasks/update", { taskId, inputResponses: {} }, user("dave"));
    expect(update.json.error.code).toBe(-32602);
    const own = await rpc(running.url, "tasks/get", { taskId }, user("carol"));
    expect(["working", "input_required"]).toContain(own.json.result.status);
  });
});
