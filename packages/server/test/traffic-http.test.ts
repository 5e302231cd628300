// x-mcp:traffic over real HTTP (127.0.0.1): both eras, a principal from the auth option, streams,
// server-to-client requests and their answers, Multi Round-Trip rounds, list changes and tasks.
import { afterEach, describe, expect, it } from "vitest";
import { type AuthInfo, listen, McpServer } from "../src/index.js";
import { readRequestState } from "../src/telemetry-entry.js";
import { tasks as tasksPlugin } from "../src/tasks/index.js";
import { headersFor, meta, rpc } from "./helpers.js";
import { open, post, sse, start } from "./legacy/helpers.js";
import { caps, ELICIT } from "./mrtr/fixture.js";
import { TASKS } from "./tasks/fixture.js";
import { recordTraffic } from "./traffic-recorder.js";

const TOKEN = "secret-token-0123456789";
const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
let traffic: ReturnType<typeof recordTraffic> | undefined;
afterEach(() => traffic?.stop());
/** Subscribes for this test (unsubscribed after it). */
function watch() {
  traffic = recordTraffic();
  return traffic;
}

describe("x-mcp:traffic over HTTP, initialize era", () => {
  it("publishes initialize, initialized, the GET stream, an elicitation out and its answer in, with the principal and never the token", async () => {
    const mcp = new McpServer({ name: "era", version: "1.0.0" });
    mcp.registerTool("ask", {}, async (_args, ctx) => {
      const answer = await ctx.elicit("Name?", nameSchema);
      return answer.action === "accept" ? `Hello ${String(answer.content?.name)}` : answer.action;
    });
    const verifyAccessToken = (token: string): AuthInfo | undefined =>
      token === TOKEN ? { subject: "ann", clientId: "app-1", scopes: [] } : undefined;
    const srv = await start(mcp, {
      auth: { verifyAccessToken, resourceMetadata: { resource: "http://127.0.0.1/", authorizationServers: ["https://as.example"] } },
    });
    const t = watch();
    try {
      const session = await open(srv.url, { elicitation: {} }, "2025-11-25", { authorization: `Bearer ${TOKEN}` });
      const principal = { subject: "ann", clientId: "app-1" };
      const opening = t.events.filter((e) => e.kind === "request" && e.method === "initialize");
      expect(opening.map((e) => e.phase)).toEqual(["start", "end"]);
      expect(t.events.filter((e) => e.kind === "message" && e.message.method === "initialize")).toEqual([]);
      expect(opening[1]).toMatchObject({ transport: "http", era: "initialize", status: 200, sessionId: session.id, principal });
      expect(opening[1]!.response.result.protocolVersion).toBe("2025-11-25");
      const initialized = t.find((e) => e.kind === "message" && e.message.method === "notifications/initialized");
      expect(initialized).toMatchObject({
        direction: "in",
        transport: "http",
        era: "initialize",
        protocolVersion: "2025-11-25",
        sessionId: session.id,
        principal,
        clientInfo: { name: "raw", version: "1" },
      });

      const get = new AbortController();
      const stream = await fetch(srv.url, { headers: { ...session.headers, accept: "text/event-stream" }, signal: get.signal });
      expect(stream.status).toBe(200);
      expect(t.find((e) => e.kind === "stream" && e.event === "open")).toMatchObject({ stream: "get", sessionId: session.id });

      // A list change reaches the session (its GET stream).
      mcp.registerTool("later", {}, () => "later");
      const changed = t.find((e) => e.kind === "message" && e.message.method === "notifications/tools/list_changed");
      expect(changed).toMatchObject({ direction: "out", sessionId: session.id, principal });
      expect(changed).not.toHaveProperty("relatedRequestId");

      const call = await post(
        srv.url,
        { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "ask", arguments: {} } },
        session.headers,
      );
      // The request to the client is read off the call's own stream: it was published before it was written.
      const events = sse(call);
      let data = "";
      for (let i = 0; i < 10 && data === ""; i++) data = (await events.next())?.data ?? "end";
      const sent = JSON.parse(data);
      expect(sent.method).toBe("elicitation/create");
      const asked = t.find((e) => e.kind === "message" && e.message.method === "elicitation/create");
      expect(asked).toMatchObject({ direction: "out", relatedRequestId: 7, sessionId: session.id, era: "initialize", principal });
      const answer = { jsonrpc: "2.0", id: sent.id, result: { action: "accept", content: { name: "Ann" } } };
      expect((await post(srv.url, answer, session.headers)).status).toBe(202);
      let last = "";
      for (let i = 0; i < 10 && !last.includes('"result"'); i++) last = (await events.next())?.data ?? "end";
      expect(last).toContain("Hello Ann");
      const answered = t.find((e) => e.kind === "message" && e.direction === "in" && e.message.id === sent.id);
      expect(answered).toMatchObject({ sessionId: session.id, protocolVersion: "2025-11-25", principal });
      const end = t.find((e) => e.kind === "request" && e.method === "tools/call" && e.phase === "end");
      expect(end).toMatchObject({ requestId: 7, status: 200, era: "initialize", protocolVersion: "2025-11-25", principal });
      expect(end.clientInfo).toEqual({ name: "raw", version: "1" });

      get.abort();
      expect(await t.until((e) => e.kind === "stream" && e.event === "close")).toMatchObject({ stream: "get", sessionId: session.id });
      for (const text of t.texts) expect(text).not.toContain(TOKEN);
    } finally {
      await srv.stop();
    }
  });
});

describe("x-mcp:traffic over HTTP, 2026-07-28", () => {
  it("publishes a call's progress notifications out, related to it", async () => {
    const mcp = new McpServer({ name: "now", version: "1" });
    mcp.registerTool("steps", {}, (_args, ctx) => {
      ctx.progress(1, 2);
      ctx.progress(2, 2);
      return "done";
    });
    const running = await listen(mcp, { port: 0 });
    const t = watch();
    try {
      const res = await rpc(running.url, "tools/call", { name: "steps", arguments: {} }, { id: "s-1", meta: { progressToken: "p" } });
      expect(res.json.result.content[0].text).toBe("done");
      const progress = t.events.filter((e) => e.kind === "message" && e.message.method === "notifications/progress");
      expect(progress.map((e) => e.message.params.progress)).toEqual([1, 2]);
      for (const e of progress) {
        expect(e).toMatchObject({ direction: "out", relatedRequestId: "s-1", transport: "http", era: "2026-07-28" });
        expect(e.clientInfo).toEqual({ name: "test-client", version: "0.0.1" });
      }
      const end = t.events.find((e) => e.kind === "request" && e.phase === "end")!;
      expect(end).toMatchObject({ requestId: "s-1", status: 200, protocolVersion: "2026-07-28", era: "2026-07-28" });
    } finally {
      await running.close();
    }
  });

  it("publishes each Multi Round-Trip round; readRequestState decodes the state a round carries", async () => {
    const mcp = new McpServer({ name: "mrtr", version: "1" }, { requestStateKeys: [Buffer.alloc(32, 3)] });
    mcp.registerTool("two", {}, async (_args, ctx) => {
      const a = await ctx.elicit("First?", nameSchema);
      const b = await ctx.elicit("Second?", nameSchema);
      const name = (answer: typeof a) => (answer.action === "accept" ? String(answer.content?.name) : answer.action);
      return `${name(a)} ${name(b)}`;
    });
    const running = await listen(mcp, { port: 0 });
    const t = watch();
    try {
      const call = async (extra: Record<string, unknown>) =>
        (await rpc(running.url, "tools/call", { name: "two", arguments: {}, ...extra }, caps(ELICIT))).json.result;
      const first = await call({});
      expect(first.resultType).toBe("input_required");
      const one = { "elicit-1": { action: "accept", content: { name: "A" } } };
      const second = await call({ inputResponses: one, requestState: first.requestState });
      expect(second.resultType).toBe("input_required");
      const third = await call({
        inputResponses: { "elicit-2": { action: "accept", content: { name: "B" } } },
        requestState: second.requestState,
      });
      expect(third.content[0].text).toBe("A B");
      const ends = t.events.filter((e) => e.kind === "request" && e.phase === "end");
      expect(ends.map((e) => e.response.result.resultType)).toEqual(["input_required", "input_required", "complete"]);
      expect(ends[1]!.params.requestState).toBe(first.requestState);
      expect(ends[2]!.params.requestState).toBe(second.requestState);
      const reading = readRequestState(mcp.keys, ends[2]!.params.requestState);
      expect(reading).toMatchObject({ verified: true, expired: false, method: "tools/call", answers: one });
    } finally {
      await running.close();
    }
  });

  it("publishes a listen stream's open, the list change it carries, and its close", async () => {
    const mcp = new McpServer({ name: "listen", version: "1" });
    mcp.registerTool("one", {}, () => "one");
    const running = await listen(mcp, { port: 0 });
    const t = watch();
    try {
      const body = {
        jsonrpc: "2.0",
        id: "l-1",
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: meta() },
      };
      const controller = new AbortController();
      const res = await fetch(running.url, {
        method: "POST",
        headers: headersFor(body),
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      expect(res.status).toBe(200);
      const opened = t.find((e) => e.kind === "stream" && e.event === "open");
      expect(opened).toMatchObject({ stream: "listen", streamId: "l-1", era: "2026-07-28", transport: "http" });
      expect(opened).not.toHaveProperty("sessionId");
      mcp.registerTool("two", {}, () => "two");
      const changed = t.find((e) => e.kind === "message" && e.message.method === "notifications/tools/list_changed");
      expect(changed).toMatchObject({ direction: "out", relatedRequestId: "l-1", transport: "http" });
      controller.abort();
      expect(await t.until((e) => e.kind === "stream" && e.event === "close")).toMatchObject({ stream: "listen", streamId: "l-1" });
    } finally {
      await running.close();
    }
  });

  it("publishes a task made by a call and each status change, related to the call", async () => {
    const mcp = new McpServer({ name: "tasks", version: "1" }, { tasks: tasksPlugin() });
    mcp.registerTool("job", { taskSupport: "required" }, async () => "finished");
    const running = await listen(mcp, { port: 0 });
    const t = watch();
    try {
      const res = await rpc(running.url, "tools/call", { name: "job", arguments: {} }, { id: "t-1", meta: TASKS });
      const taskId = res.json.result.taskId;
      expect(typeof taskId).toBe("string");
      let status = "working";
      for (let i = 0; i < 1000 && status === "working"; i++) {
        status = (await rpc(running.url, "tasks/get", { taskId }, { meta: TASKS })).json.result.status;
      }
      expect(status).toBe("completed");
      const done = t.find((e) => e.kind === "task" && e.status === "completed");
      const statuses = t.events.filter((e) => e.kind === "task").map((e) => e.status);
      expect(statuses).toEqual(["working", "completed"]);
      expect(done).toMatchObject({ taskId, relatedRequestId: "t-1", transport: "http", era: "2026-07-28", protocolVersion: "2026-07-28" });
    } finally {
      await running.close();
    }
  });
});
