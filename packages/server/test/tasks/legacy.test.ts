// The tasks of revision 2025-11-25 on initialize-era sessions (spec 2025-11-25,
// basic/utilities/tasks), over real Streamable HTTP sessions on 127.0.0.1 and
// over stdio: capabilities and tools/list `execution`, task creation with a
// requested ttl, tasks/get, tasks/result blocking until the task ends, failed
// and cancelled tasks, an elicitation inside a task answered on tasks/result,
// status notifications, owner isolation, tasks/list pages, and the line
// between this revision's tasks and the 2026-07-28 extension's.
import { META_RELATED_TASK } from "@x/mcp-v2511/constants";
import * as V2511 from "@x/mcp-v2511/validators";
import { META_CLIENT_CAPABILITIES } from "@x/mcp-v2607";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpError, McpServer, MemoryEventBus, type ServerOptions } from "../../src/index.js";
import { MemoryTaskStore, tasks as tasksPlugin } from "../../src/tasks/index.js";
import { headersFor, meta } from "../helpers.js";
import { answerOf, type Message, open, post, rq, sse, start, stdioConnect } from "../legacy/helpers.js";
import { nameSchema, gate as openGate } from "./fixture.js";

/** Gates the tests open by name: a task's run waits on one, so no test depends on timing. */
const gates = new Map<string, ReturnType<typeof openGate<void>>>();
function gate(name: string): { promise: Promise<void>; release: () => void } {
  let found = gates.get(name);
  if (!found) {
    found = openGate<void>();
    gates.set(name, found);
  }
  const opened = found;
  return { promise: opened.promise, release: () => opened.open(undefined) };
}

let aborted = 0;
const NAME_SCHEMA = nameSchema;

function tasksServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: "lt", version: "1.0.0" },
    { tasks: tasksPlugin({ ttlMs: 60_000, pollIntervalMs: 250 }), ...options },
  );
  server.registerTool("plain", {}, () => "plain ran");
  server.registerTool("slow", { taskSupport: "optional" }, async (args) => {
    await gate(String(args.gate)).promise;
    return `done ${String(args.gate)}`;
  });
  server.registerTool("must", { taskSupport: "required" }, () => "required ran");
  server.registerTool("fails", { taskSupport: "optional" }, () => {
    throw new McpError(-32050, "custom failure", { why: "test" });
  });
  server.registerTool("iserror", { taskSupport: "optional" }, () => ({
    resultType: "complete" as const,
    content: [{ type: "text" as const, text: "bad input" }],
    isError: true,
  }));
  server.registerTool("asks", { taskSupport: "optional" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Name?", NAME_SCHEMA);
    ctx.progress(1, 1, "asked");
    return answer.action === "accept" ? `Hello ${String(answer.content?.name)}` : `no (${answer.action})`;
  });
  server.registerTool("later", { taskSupport: "optional", taskStart: "deferred" }, async (_args, ctx) => {
    const name = await ctx.elicit("Name first?", NAME_SCHEMA);
    const inTask = await ctx.startTask();
    return `${inTask ? "in a task" : "plainly"} for ${String(name.action === "accept" ? name.content?.name : name.action)}`;
  });
  server.registerTool("waits", { taskSupport: "optional" }, (_args, ctx) => {
    return new Promise<string>((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        aborted++;
        resolve("aborted");
      });
    });
  });
  return server;
}

type Srv = Awaited<ReturnType<typeof start>>;
type Session = Awaited<ReturnType<typeof open>>;

/** A request on a session and its JSON-RPC answer. */
async function call(srv: Srv, session: Session, method: string, params: Message = {}): Promise<Message> {
  return answerOf(await post(srv.url, rq(method, params), session.headers));
}

/** A tools/call as a task: its CreateTaskResult's task. */
async function startTask(srv: Srv, session: Session, name: string, args: Message = {}, task: Message = {}): Promise<Message> {
  const answer = await call(srv, session, "tools/call", { name, arguments: args, task });
  expect(V2511.CreateTaskResult(answer.result)).toBe(true);
  return answer.result.task;
}

/** Polls tasks/get (bounded by a count, at least 120 s of polls: a hang guard) until the task has `status`. */
async function until(srv: Srv, session: Session, taskId: string, status: string): Promise<Message> {
  for (let i = 0; i < 24_000; i++) {
    const got = (await call(srv, session, "tasks/get", { taskId })).result;
    if (got.status === status) return got;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`task ${taskId} never became ${status}`);
}

/** Waits (bounded by a count, at least 120 s of checks: a hang guard) until the transport has `n` requests in flight. */
async function inFlight(srv: Srv, n: number): Promise<void> {
  for (let i = 0; i < 24_000 && srv.core.active !== n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(srv.core.active).toBe(n);
}

describe("2025-11-25 tasks on an initialize-era HTTP session", () => {
  let mcp: McpServer;
  let srv: Srv;
  beforeAll(async () => {
    mcp = tasksServer();
    srv = await start(mcp);
  });
  afterAll(async () => {
    for (const { open } of gates.values()) open(undefined);
    await srv.stop();
  });

  it("[A75] declares tasks (requests.tools.call, cancel) in InitializeResult and lists execution.taskSupport in tools/list", async () => {
    const session = await open(srv.url);
    expect(V2511.InitializeResult(session.result)).toBe(true);
    // No principal here: tasks/list is not offered ("SHOULD NOT declare tasks.list" without identifying requestors).
    expect(session.result.capabilities.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    // The extension is not of this era: not announced, even to a client that declares it.
    const declaring = await open(srv.url, { extensions: { [TASKS_EXTENSION]: {} }, tasks: { requests: {} } });
    expect(declaring.result.capabilities.extensions).toBeUndefined();
    expect(declaring.result.capabilities.tasks).toEqual(session.result.capabilities.tasks);
    const listed = (await call(srv, session, "tools/list")).result;
    expect(V2511.ListToolsResult(listed)).toBe(true);
    const byName = new Map<string, Message>(listed.tools.map((t: Message) => [t.name, t]));
    expect(byName.get("slow")?.execution).toEqual({ taskSupport: "optional" });
    expect(byName.get("must")?.execution).toEqual({ taskSupport: "required" });
    expect(byName.get("plain")?.execution).toBeUndefined();
    // 2026-07-28 lists no execution: the extension is announced in server/discover instead.
    const body = { ...rq("tools/list"), params: { _meta: meta() } };
    const later = await (await post(srv.url, body, headersFor(body))).json();
    expect(later.result.tools.every((t: Message) => t.execution === undefined)).toBe(true);
    // A server without a task-supporting tool declares no tasks.
    const bare = new McpServer({ name: "bare", version: "1" }, { tasks: tasksPlugin() });
    bare.registerTool("plain", {}, () => "x");
    const other = await start(bare);
    try {
      expect((await open(other.url)).result.capabilities.tasks).toBeUndefined();
    } finally {
      await other.stop();
    }
  });

  it("[A76] params.task makes a task: CreateTaskResult with the requested ttl (capped by tasks.ttlMs) and pollInterval", async () => {
    const session = await open(srv.url);
    const task = await startTask(srv, session, "slow", { gate: "ttl" }, { ttl: 5000 });
    expect(task).toMatchObject({ status: "working", ttl: 5000, pollInterval: 250 });
    expect(typeof task.taskId).toBe("string");
    expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
    expect(task.lastUpdatedAt).toBe(task.createdAt);
    expect(task.ttlMs).toBeUndefined();
    expect((await startTask(srv, session, "slow", { gate: "ttl" }, { ttl: 1_000_000_000 })).ttl).toBe(60_000);
    expect((await startTask(srv, session, "slow", { gate: "ttl" })).ttl).toBe(60_000);
    const got = (await call(srv, session, "tasks/get", { taskId: task.taskId })).result;
    expect(V2511.GetTaskResult(got)).toBe(true);
    expect(got).toEqual({ ...task, lastUpdatedAt: got.lastUpdatedAt });
    expect(got.resultType).toBeUndefined();
    gate("ttl").release();
  });

  it("[A76] tasks/result blocks until the task ends, then answers its result with the related-task _meta", async () => {
    const session = await open(srv.url);
    const task = await startTask(srv, session, "slow", { gate: "result" }, { ttl: 30_000 });
    let settled = false;
    const pending = post(srv.url, rq("tasks/result", { taskId: task.taskId }), session.headers).then(async (res) => {
      settled = true;
      return answerOf(res);
    });
    await inFlight(srv, 1);
    expect((await call(srv, session, "tasks/get", { taskId: task.taskId })).result.status).toBe("working");
    expect(settled).toBe(false);
    gate("result").release();
    const answer = await pending;
    expect(V2511.CallToolResult(answer.result)).toBe(true);
    expect(answer.result).toEqual({
      content: [{ type: "text", text: "done result" }],
      _meta: { [META_RELATED_TASK]: { taskId: task.taskId } },
    });
    const done = (await call(srv, session, "tasks/get", { taskId: task.taskId })).result;
    expect(done.status).toBe("completed");
    // A second tasks/result answers the same at once.
    expect((await call(srv, session, "tasks/result", { taskId: task.taskId })).result).toEqual(answer.result);
  });

  it("[A77] taskSupport decides: optional runs plainly without params.task, required needs it, forbidden refuses it (-32601)", async () => {
    const session = await open(srv.url);
    const plainly = await call(srv, session, "tools/call", { name: "iserror", arguments: {} });
    expect(plainly.result).toEqual({ content: [{ type: "text", text: "bad input" }], isError: true });
    const refusedRes = await post(srv.url, rq("tools/call", { name: "must", arguments: {} }), session.headers);
    // HTTP 200: a 404 would read as an ended session to a client of the era.
    expect(refusedRes.status).toBe(200);
    const required = await answerOf(refusedRes);
    expect(required.error).toEqual({ code: -32601, message: expect.stringMatching(/must be called as a task/), data: { name: "must" } });
    const asTask = await startTask(srv, session, "must");
    expect((await call(srv, session, "tasks/result", { taskId: asTask.taskId })).result.content[0].text).toBe("required ran");
    const forbidden = await call(srv, session, "tools/call", { name: "plain", arguments: {}, task: {} });
    expect(forbidden.error).toMatchObject({ code: -32601, data: { name: "plain" } });
    for (const task of [{ ttl: -5 }, { ttl: 1.5 }, "soon"]) {
      const bad = await call(srv, session, "tools/call", { name: "slow", arguments: { gate: "never" }, task });
      expect(bad.error.code).toBe(-32602);
    }
  });

  it("[A77] taskStart deferred: the handler asks in the call, then ctx.startTask() answers the call with the task (false without params.task)", async () => {
    const session = await open(srv.url, { elicitation: {} });
    for (const task of [{}, undefined]) {
      const res = await post(srv.url, rq("tools/call", { name: "later", arguments: {}, task }), session.headers);
      const events = sse(res);
      const asked = (await events.message())!;
      expect(asked).toMatchObject({ method: "elicitation/create", params: { message: "Name first?" } });
      // Asked in the call, before any task: no related-task _meta.
      expect(asked.params._meta).toBeUndefined();
      await post(srv.url, { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Ed" } } }, session.headers);
      const answer = (await events.message())!;
      if (task === undefined) {
        expect(answer.result).toEqual({ content: [{ type: "text", text: "plainly for Ed" }] });
      } else {
        expect(V2511.CreateTaskResult(answer.result)).toBe(true);
        const result = await call(srv, session, "tasks/result", { taskId: answer.result.task.taskId });
        expect(result.result.content).toEqual([{ type: "text", text: "in a task for Ed" }]);
      }
    }
  });

  it("[A77] a server that declares no tasks ignores params.task", async () => {
    const bare = new McpServer({ name: "bare", version: "1" }, { tasks: tasksPlugin() });
    bare.registerTool("plain", {}, () => "plain ran");
    const other = await start(bare);
    try {
      const session = await open(other.url);
      const answer = await call(other, session, "tools/call", { name: "plain", arguments: {}, task: { ttl: "junk" } });
      expect(answer.result).toEqual({ content: [{ type: "text", text: "plain ran" }] });
    } finally {
      await other.stop();
    }
  });

  it("[A78] a failed task: tasks/get is failed with a statusMessage, tasks/result answers the call's JSON-RPC error", async () => {
    const session = await open(srv.url);
    const task = await startTask(srv, session, "fails");
    const result = await call(srv, session, "tasks/result", { taskId: task.taskId });
    expect(result.error).toEqual({ code: -32050, message: "custom failure", data: { why: "test" } });
    const got = (await call(srv, session, "tasks/get", { taskId: task.taskId })).result;
    expect(got).toMatchObject({ status: "failed", statusMessage: "custom failure" });
    expect(V2511.GetTaskResult(got)).toBe(true);
  });

  it("[A78] a tool result with isError makes the task failed; tasks/result answers that result", async () => {
    const session = await open(srv.url);
    const task = await startTask(srv, session, "iserror");
    const result = await call(srv, session, "tasks/result", { taskId: task.taskId });
    expect(result.result).toEqual({
      content: [{ type: "text", text: "bad input" }],
      isError: true,
      _meta: { [META_RELATED_TASK]: { taskId: task.taskId } },
    });
    const got = (await call(srv, session, "tasks/get", { taskId: task.taskId })).result;
    expect(got.status).toBe("failed");
    expect(got.statusMessage).toMatch(/isError/);
  });

  it("[A79] tasks/cancel makes a running task cancelled before answering and aborts its run; a terminal task is refused", async () => {
    const session = await open(srv.url);
    const task = await startTask(srv, session, "waits");
    const before = aborted;
    const cancelled = (await call(srv, session, "tasks/cancel", { taskId: task.taskId })).result;
    expect(V2511.CancelTaskResult(cancelled)).toBe(true);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled", ttl: 60_000 });
    expect(aborted).toBe(before + 1);
    expect((await call(srv, session, "tasks/get", { taskId: task.taskId })).result.status).toBe("cancelled");
    const again = await call(srv, session, "tasks/cancel", { taskId: task.taskId });
    expect(again.error).toMatchObject({ code: -32602, message: "Cannot cancel task: already in terminal status 'cancelled'" });
    const noResult = await call(srv, session, "tasks/result", { taskId: task.taskId });
    expect(noResult.error.code).toBe(-32602);
    const finished = await startTask(srv, session, "iserror");
    await call(srv, session, "tasks/result", { taskId: finished.taskId });
    const late = await call(srv, session, "tasks/cancel", { taskId: finished.taskId });
    expect(late.error).toMatchObject({ code: -32602, message: "Cannot cancel task: already in terminal status 'failed'" });
  });

  it("[A79] an unknown, missing or malformed taskId is -32602 for tasks/get, tasks/result and tasks/cancel", async () => {
    const session = await open(srv.url);
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      for (const params of [{ taskId: "no-such-task" }, {}, { taskId: 7 }]) {
        expect((await call(srv, session, method, params)).error.code).toBe(-32602);
      }
    }
  });

  it("[A80] an ask in a task: input_required, the elicitation goes out on tasks/result with related-task _meta, the answer resumes the run", async () => {
    const session = await open(srv.url, { elicitation: {} });
    const get = await fetch(srv.url, { headers: { ...session.headers, accept: "text/event-stream" } });
    expect(get.status).toBe(200);
    const getStream = sse(get);
    const created = await call(srv, session, "tools/call", { name: "asks", arguments: {}, task: {}, _meta: { progressToken: "p1" } });
    const taskId = created.result.task.taskId;
    const waiting = await until(srv, session, taskId, "input_required");
    expect(V2511.GetTaskResult(waiting)).toBe(true);
    const res = await post(srv.url, rq("tasks/result", { taskId }), session.headers);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = sse(res);
    const asked = (await events.message())!;
    expect(asked).toMatchObject({
      method: "elicitation/create",
      params: { message: "Name?", requestedSchema: NAME_SCHEMA, _meta: { [META_RELATED_TASK]: { taskId } } },
    });
    expect(
      (await post(srv.url, { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Ada" } } }, session.headers))
        .status,
    ).toBe(202);
    const answered = (await events.message())!;
    expect(answered.result).toEqual({ content: [{ type: "text", text: "Hello Ada" }], _meta: { [META_RELATED_TASK]: { taskId } } });
    // The session's GET stream heard the status changes (and the task's progress, with its related-task _meta).
    const heard: Message[] = [];
    for (let i = 0; i < 20; i++) {
      const message = (await getStream.message())!;
      heard.push(message);
      if (message.method === "notifications/tasks/status" && message.params.status === "completed") break;
    }
    await getStream.cancel();
    const statuses = heard.filter((m) => m.method === "notifications/tasks/status");
    expect(statuses.map((m) => m.params.status)).toEqual(["input_required", "working", "completed"]);
    for (const status of statuses) {
      expect(V2511.TaskStatusNotificationParams(status.params)).toBe(true);
      expect(status.params.taskId).toBe(taskId);
      expect(status.params._meta).toBeUndefined();
    }
    const progress = heard.find((m) => m.method === "notifications/progress");
    expect(progress?.params).toEqual({
      progressToken: "p1",
      progress: 1,
      total: 1,
      message: "asked",
      _meta: { [META_RELATED_TASK]: { taskId } },
    });
  });

  it("[A80] a client that answers the task's elicitation with an error fails the ask: the tool's fault ends the task failed", async () => {
    const session = await open(srv.url, { elicitation: {} });
    const created = await call(srv, session, "tools/call", { name: "asks", arguments: {}, task: {} });
    const taskId = created.result.task.taskId;
    await until(srv, session, taskId, "input_required");
    const events = sse(await post(srv.url, rq("tasks/result", { taskId }), session.headers));
    const asked = (await events.message())!;
    expect(asked.method).toBe("elicitation/create");
    const refusal = { jsonrpc: "2.0", id: asked.id, error: { code: -32603, message: "no user here" } };
    expect((await post(srv.url, refusal, session.headers)).status).toBe(202);
    const answered = (await events.message())!;
    expect(answered.result.isError).toBe(true);
    expect(answered.result.content[0].text).toMatch(/no user here/);
    expect((await call(srv, session, "tasks/get", { taskId })).result.status).toBe("failed");
  });

  it("[A80] an ask is sent once: a tasks/result cancelled while it waits withdraws it, and the next tasks/result asks again", async () => {
    const session = await open(srv.url, { elicitation: {} });
    const created = await call(srv, session, "tools/call", { name: "asks", arguments: {}, task: {} });
    const taskId = created.result.task.taskId;
    await until(srv, session, taskId, "input_required");
    const first = rq("tasks/result", { taskId });
    const firstEvents = sse(await post(srv.url, first, session.headers));
    const asked = (await firstEvents.message())!;
    expect(asked.method).toBe("elicitation/create");
    // The client gives up on this tasks/result: the server withdraws its ask.
    expect(
      (await post(srv.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: first.id } }, session.headers)).status,
    ).toBe(202);
    expect(await firstEvents.message()).toMatchObject({ method: "notifications/cancelled", params: { requestId: asked.id } });
    expect((await call(srv, session, "tasks/get", { taskId })).result.status).toBe("input_required");
    const secondEvents = sse(await post(srv.url, rq("tasks/result", { taskId }), session.headers));
    const again = (await secondEvents.message())!;
    expect(again.method).toBe("elicitation/create");
    expect(again.id).not.toBe(asked.id);
    await post(srv.url, { jsonrpc: "2.0", id: again.id, result: { action: "accept", content: { name: "Bo" } } }, session.headers);
    expect((await secondEvents.message())!.result.content[0].text).toBe("Hello Bo");
  });

  it("[A83] the two designs stay apart: tasks/update and 2026-07-28 tasks/result or tasks/list do not exist on the other side", async () => {
    const session = await open(srv.url);
    const task = await startTask(srv, session, "iserror");
    expect((await call(srv, session, "tasks/update", { taskId: task.taskId, inputResponses: {} })).error.code).toBe(-32601);
    for (const method of ["tasks/result", "tasks/list"]) {
      const body = { ...rq(method, { taskId: task.taskId }), params: { taskId: task.taskId, _meta: meta() } };
      const answer = await (await post(srv.url, body, headersFor(body))).json();
      expect(answer.error.code).toBe(-32601);
    }
    // One store: the same principal reads the task through the extension too (in its own shape), declaring it.
    const declared = meta({ [META_CLIENT_CAPABILITIES]: { extensions: { [TASKS_EXTENSION]: {} } } });
    const body = { ...rq("tasks/get"), params: { taskId: task.taskId, _meta: declared } };
    const later = await (await post(srv.url, body, { ...headersFor(body), "mcp-name": task.taskId })).json();
    expect(later.result).toMatchObject({ taskId: task.taskId, status: "completed", ttlMs: 60_000, resultType: "complete" });
  });
});

describe("2025-11-25 tasks of several principals", () => {
  let mcp: McpServer;
  let srv: Srv;
  beforeAll(async () => {
    mcp = tasksServer({ principal: (ctx) => ctx.assigns.user as string | undefined, pageSize: 2 });
    srv = await start(mcp, { assigns: (header) => ({ user: header("x-user") }) });
  });
  afterAll(async () => {
    for (const { open } of gates.values()) open(undefined);
    await srv.stop();
  });

  it("[A81] another principal's task is not found, for tasks/get, tasks/result and tasks/cancel; tasks/list shows each only its own", async () => {
    const alice = await open(srv.url, {}, "2025-11-25", { "x-user": "alice" });
    const bob = await open(srv.url, {}, "2025-11-25", { "x-user": "bob" });
    expect(alice.result.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const task = await startTask(srv, alice, "slow", { gate: "owners" });
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      const refused = await call(srv, bob, method, { taskId: task.taskId });
      expect(refused.error.code).toBe(-32602);
    }
    expect((await call(srv, bob, "tasks/list")).result).toEqual({ tasks: [] });
    const listed = (await call(srv, alice, "tasks/list")).result;
    expect(V2511.ListTasksResult(listed)).toBe(true);
    expect(listed.tasks.map((t: Message) => t.taskId)).toEqual([task.taskId]);
    expect((await call(srv, alice, "tasks/get", { taskId: task.taskId })).result.status).toBe("working");
    gate("owners").release();
    expect((await call(srv, alice, "tasks/result", { taskId: task.taskId })).result.content[0].text).toBe("done owners");
    // A session without a principal is not offered tasks/list, and cannot call it.
    const nobody = await open(srv.url);
    expect(nobody.result.capabilities.tasks.list).toBeUndefined();
    expect((await call(srv, nobody, "tasks/list")).error.code).toBe(-32601);
  });

  it("[A82] tasks/list pages the caller's tasks oldest first; a forged cursor or another's is -32602", async () => {
    const carol = await open(srv.url, {}, "2025-11-25", { "x-user": "carol" });
    const dave = await open(srv.url, {}, "2025-11-25", { "x-user": "dave" });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await startTask(srv, carol, "iserror")).taskId);
    const first = (await call(srv, carol, "tasks/list")).result;
    expect(V2511.ListTasksResult(first)).toBe(true);
    expect(first.tasks).toHaveLength(2);
    expect(typeof first.nextCursor).toBe("string");
    const second = (await call(srv, carol, "tasks/list", { cursor: first.nextCursor })).result;
    expect(second.nextCursor).toBeUndefined();
    const seen = [...first.tasks, ...second.tasks].map((t: Message) => t.taskId);
    expect([...seen].sort()).toEqual([...made].sort());
    const created = [...first.tasks, ...second.tasks].map((t: Message) => t.createdAt);
    expect(created).toEqual([...created].sort());
    expect((await call(srv, carol, "tasks/list", { cursor: "abc.def" })).error.code).toBe(-32602);
    expect((await call(srv, carol, "tasks/list", { cursor: 5 })).error.code).toBe(-32602);
    expect((await call(srv, dave, "tasks/list", { cursor: first.nextCursor })).error.code).toBe(-32602);
  });
});

describe("2025-11-25 tasks on two instances sharing a store and a bus", () => {
  it("[A80] a tasks/result on the other instance carries the task's elicitation, and the answer reaches the running instance", async () => {
    const store = new MemoryTaskStore();
    const eventBus = new MemoryEventBus();
    const one = await start(tasksServer({ tasks: tasksPlugin({ store, ttlMs: 60_000 }), eventBus }));
    const two = await start(tasksServer({ tasks: tasksPlugin({ store, ttlMs: 60_000 }), eventBus }));
    try {
      const here = await open(one.url, { elicitation: {} });
      const there = await open(two.url, { elicitation: {} });
      const created = await call(one, here, "tools/call", { name: "asks", arguments: {}, task: {} });
      const taskId = created.result.task.taskId;
      await until(two, there, taskId, "input_required");
      const events = sse(await post(two.url, rq("tasks/result", { taskId }), there.headers));
      const asked = (await events.message())!;
      expect(asked).toMatchObject({ method: "elicitation/create", params: { _meta: { [META_RELATED_TASK]: { taskId } } } });
      await post(two.url, { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Di" } } }, there.headers);
      expect((await events.message())!.result.content[0].text).toBe("Hello Di");
      expect((await call(one, here, "tasks/get", { taskId })).result.status).toBe("completed");
    } finally {
      await one.stop();
      await two.stop();
      await store.close();
    }
  });
});

describe("2025-11-25 tasks over stdio", () => {
  it("[A80] a task's elicitation goes out on stdout while tasks/result waits, and its answer on stdin resumes it", async () => {
    const c = stdioConnect(tasksServer());
    // Tasks are of 2025-11-25: an older version's session is not offered them.
    const init = await c.initialize({ elicitation: {} }, "2025-11-25");
    expect(init.result.capabilities.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    const call = await c.answer(c.request("tools/call", { name: "asks", arguments: {}, task: { ttl: 10_000 } }));
    const created = call.response.result;
    expect(V2511.CreateTaskResult(created)).toBe(true);
    expect(created.task.ttl).toBe(10_000);
    const taskId = created.task.taskId;
    const rid = c.request("tasks/result", { taskId });
    let asked: Message | undefined;
    const before: Message[] = [];
    for (let i = 0; i < 20 && !asked; i++) {
      const line = await c.next();
      if (line.method === "elicitation/create") asked = line;
      else before.push(line);
    }
    expect(asked?.params._meta).toEqual({ [META_RELATED_TASK]: { taskId } });
    c.send({ jsonrpc: "2.0", id: asked!.id, result: { action: "accept", content: { name: "Cy" } } });
    const { response, before: after } = await c.answer(rid);
    expect(response.result).toEqual({ content: [{ type: "text", text: "Hello Cy" }], _meta: { [META_RELATED_TASK]: { taskId } } });
    // The first status may come before the call's own answer: the run starts as soon as the task exists.
    const statuses = [...call.before, ...before, ...after]
      .filter((m) => m.method === "notifications/tasks/status")
      .map((m) => m.params.status);
    expect(statuses).toEqual(["input_required", "working", "completed"]);
    await c.end();
  });
});
