// Sessions kept busy by clients that went away must not lock well-behaved
// clients out. In the initialize era a dropped POST does not cancel its
// request (spec 2025-11-25, basic/transports: only notifications/cancelled
// does, and the stream can be resumed with Last-Event-ID), so such a request
// runs on, holding no connection: it counts in its session's
// maxRequestsPerSession, not in maxConcurrentRequests, and a full table may
// end its session (as DELETE would) when no session is idle. Only a session
// with a request its client still waits on is never ended. Real node:http
// servers on 127.0.0.1; every wait is on an event, every bound a count.
import { afterEach, describe, expect, it } from "vitest";
import { type AuthInfo, createFetchHandler, createNodeHandler, McpServer } from "../../src/index.js";
import { headersFor, request as modernRequest } from "../helpers.js";
import { answerOf, counter, initializeBody, type Message, open, post, rq, sse, start } from "./helpers.js";

const release: (() => void)[] = [];
/** Calls of `hold` started so far. */
const holding = counter();
afterEach(() => {
  for (const r of release.splice(0)) r();
});

function busyServer() {
  const server = new McpServer({ name: "busy", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => String(args.text));
  // A slow tool that pays no heed to its signal: it ends when the test says.
  server.registerTool("hold", {}, () => {
    holding.add();
    return new Promise<string>((resolve) => release.push(() => resolve("released")));
  });
  server.registerTool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } } });
    return answer.action;
  });
  // Sends an elicitation and returns without waiting: the session keeps a request to the client pending.
  server.registerTool("fire", {}, (_args, ctx) => {
    ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } } }).catch(() => undefined);
    return "sent";
  });
  return server;
}

type Srv = Awaited<ReturnType<typeof start>>;
const ping = async (srv: Srv, headers: Record<string, string>) => (await post(srv.url, rq("ping"), headers)).status;

/** A well-behaved client of the initialize era: a new session, then a tool call; the call's answer. */
async function wellBehaved(srv: Srv, text: string): Promise<Message> {
  const session = await open(srv.url);
  const res = await post(srv.url, rq("tools/call", { name: "echo", arguments: { text } }), session.headers);
  expect(res.status).toBe(200);
  return answerOf(res);
}

/** An SSE tools/call of `name` on a session, read until `until` accepts an event (the priming one is `{}`), then dropped by the client. */
async function dropAfter(srv: Srv, headers: Record<string, string>, name: string, until: (event: Message) => boolean) {
  const controller = new AbortController();
  const res = await post(srv.url, rq("tools/call", { name }), headers, controller.signal);
  expect(res.status).toBe(200);
  const events = sse(res);
  let seen = false;
  for (let i = 0; i < 10 && !seen; i++) {
    const event = await events.next();
    if (!event) break;
    seen = until(event.data.trim() === "" ? {} : JSON.parse(event.data));
  }
  expect(seen).toBe(true);
  controller.abort();
}

describe("sessions whose clients went away", () => {
  it("(a) 20 sessions each with a dropped eliciting call do not lock a new client out: the least recently active one ends, 404", async () => {
    const srv = await start(busyServer(), { maxSessions: 20 });
    try {
      const flood = [];
      for (let i = 0; i < 20; i++) {
        const s = await open(srv.url, { elicitation: {} });
        await dropAfter(srv, s.headers, "ask", (m) => m.method === "elicitation/create");
        flood.push(s);
      }
      await srv.untilGone(20);
      const first = srv.legacy.session(flood[0]!.id)!;
      expect(first.pending).toBe(1);

      const answer = await wellBehaved(srv, "served");
      expect(answer.result.content[0].text).toBe("served");
      // No connection waits on the others; each still has its call and its question to the client.
      expect(srv.core.active).toBe(0);
      expect(srv.legacy.session(flood[1]!.id)!.pending).toBe(1);
      expect(first.closed).toBe(true);
      expect(first.pending).toBe(0);
      expect(srv.legacy.size).toBe(20);
      expect(await ping(srv, flood[0]!.headers)).toBe(404);
      for (const s of flood.slice(1)) expect(srv.legacy.session(s.id)).toBeDefined();
    } finally {
      await srv.stop();
    }
  });

  it("(b) 20 sessions each holding a GET stream do not lock a new client out: the oldest stream's session ends, its stream closes", async () => {
    const srv = await start(busyServer(), { maxSessions: 20 });
    try {
      const flood = [];
      for (let i = 0; i < 20; i++) {
        const s = await open(srv.url);
        const stream = sse(await fetch(srv.url, { headers: { ...s.headers, accept: "text/event-stream" } }));
        expect(await stream.next()).toMatchObject({ data: "" });
        flood.push({ ...s, stream });
      }
      const answer = await wellBehaved(srv, "served");
      expect(answer.result.content[0].text).toBe("served");
      expect(await flood[0]!.stream.next()).toBeUndefined();
      expect(await ping(srv, flood[0]!.headers)).toBe(404);
      expect(await ping(srv, flood[1]!.headers)).toBe(200);
      // A newcomer idle between its requests is not the one ended for the next: the older streams go first
      // (flood[1] was just pinged, so flood[2] and flood[3] are the oldest).
      const a = await open(srv.url);
      const b = await open(srv.url);
      for (const s of [a, b]) expect(await ping(srv, s.headers)).toBe(200);
      expect(await flood[2]!.stream.next()).toBeUndefined();
      expect(await flood[3]!.stream.next()).toBeUndefined();
      for (const s of flood.slice(4)) await s.stream.cancel();
    } finally {
      await srv.stop();
    }
  });

  it("(c) dropped slow calls far past maxConcurrentRequests do not make either era's well-behaved client get 503", async () => {
    const srv = await start(busyServer(), { maxConcurrentRequests: 32, maxRequestsPerSession: 4 });
    try {
      // 20 sessions × 4 calls: 80, each dropped by its client; half wait for JSON, half on SSE.
      const floodStatuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const s = await open(srv.url);
        for (let k = 0; k < 4; k++) {
          const before = holding.count;
          const controller = new AbortController();
          const headers = i % 2 === 0 ? { ...s.headers, accept: "application/json" } : s.headers;
          const res = post(srv.url, rq("tools/call", { name: "hold" }), headers, controller.signal).catch(() => undefined);
          // Running (its hold started), or refused at once.
          const refused = await Promise.race([holding.until(before + 1).then(() => undefined), res]);
          floodStatuses.push(refused?.status ?? 200);
          controller.abort();
        }
      }
      expect(floodStatuses.filter((status) => status !== 200)).toEqual([]);
      await srv.untilGone(80);
      expect(holding.count).toBeGreaterThanOrEqual(80);
      expect(srv.core.active).toBe(0);

      const body = modernRequest("tools/call", { name: "echo", arguments: { text: "2026" } });
      const modern = await fetch(srv.url, { method: "POST", headers: headersFor(body), body: JSON.stringify(body) });
      expect(modern.status).toBe(200);
      expect((await modern.json()).result.content[0].text).toBe("2026");
      expect((await wellBehaved(srv, "2025")).result.content[0].text).toBe("2025");
    } finally {
      await srv.stop();
    }
  });

  it("(d) refuses a session's request past maxRequestsPerSession with 429, -32000 and Retry-After, and a second request with an id in flight", async () => {
    const srv = await start(busyServer(), { maxRequestsPerSession: 3 });
    try {
      const s = await open(srv.url);
      const held = [];
      for (let k = 0; k < 3; k++) {
        const stream = sse(await post(srv.url, rq("tools/call", { name: "hold" }), s.headers));
        expect(await stream.next()).toMatchObject({ data: "" });
        held.push(stream);
      }
      const fourth = rq("tools/call", { name: "echo", arguments: { text: "4" } });
      const refused = await post(srv.url, fourth, s.headers);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({ id: fourth.id, error: { code: -32000 } });
      // Another session is not refused for it.
      expect((await wellBehaved(srv, "other")).result.content[0].text).toBe("other");
      // One ends: there is room again.
      release.shift()!();
      expect((await held[0]!.message())?.result).toEqual({ content: [{ type: "text", text: "released" }] });
      const again = await post(srv.url, rq("tools/call", { name: "echo", arguments: { text: "again" } }), s.headers);
      expect((await answerOf(again)).result.content[0].text).toBe("again");

      // Ids are unique among a session's requests in flight: a second one would slip past the count.
      const first = rq("tools/call", { name: "hold" });
      const running = sse(await post(srv.url, first, s.headers));
      expect(await running.next()).toMatchObject({ data: "" });
      const twin = await post(srv.url, { ...first, params: { name: "echo", arguments: { text: "twin" } } }, s.headers);
      expect(twin.status).toBe(400);
      expect(await twin.json()).toMatchObject({ id: first.id, error: { code: -32600 } });
      for (const r of release.splice(0)) r();
      for (const stream of [...held.slice(1), running]) expect((await stream.message())?.result).toBeDefined();
    } finally {
      await srv.stop();
    }
  });

  it("a dropped call of a session that ended counts in maxConcurrentRequests again until its handler returns", async () => {
    const srv = await start(busyServer(), { maxConcurrentRequests: 2 });
    try {
      const s = await open(srv.url);
      for (let k = 0; k < 2; k++) await dropAfter(srv, s.headers, "hold", () => true);
      await srv.untilGone(2);
      expect(srv.core.active).toBe(0);
      // Ended: its calls are aborted, but `hold` pays no heed; nothing but the shared bound is left to count them.
      expect((await fetch(srv.url, { method: "DELETE", headers: s.headers })).status).toBe(200);
      expect(srv.core.active).toBe(2);
      const refused = await post(srv.url, initializeBody());
      expect(refused.status).toBe(503);
      await refused.text();
      for (const r of release.splice(0)) r();
      await srv.core.drain(60_000);
      expect(srv.core.active).toBe(0);
      expect((await wellBehaved(srv, "after")).result.content[0].text).toBe("after");
    } finally {
      await srv.stop();
    }
  });

  it("the fetch handler lets go of a dropped call's place too, when its Request's signal aborts", async () => {
    const handle = createFetchHandler(busyServer(), { maxConcurrentRequests: 1 });
    const url = "http://localhost/mcp";
    const send = (body: unknown, headers: Record<string, string>, signal?: AbortSignal) =>
      handle(
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
          signal,
        }),
      );
    const init = await send(initializeBody(), { accept: "application/json" });
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    expect((await send({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
    const controller = new AbortController();
    const before = holding.count;
    const dropped = send(rq("tools/call", { name: "hold" }), { ...session, accept: "application/json" }, controller.signal);
    await holding.until(before + 1);
    controller.abort();
    const body = modernRequest("tools/call", { name: "echo", arguments: { text: "fetch" } });
    const served = await handle(new Request(url, { method: "POST", headers: headersFor(body), body: JSON.stringify(body) }));
    expect(served.status).toBe(200);
    // The dropped call ran on, and is answered (to nobody) when it ends.
    for (const r of release.splice(0)) r();
    expect((await (await dropped).json()).result).toEqual({ content: [{ type: "text", text: "released" }] });
  });

  it("refuses a maxRequestsPerSession that is not a positive integer, naming the option", () => {
    const mcp = new McpServer({ name: "x", version: "1" });
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createNodeHandler(mcp, { maxRequestsPerSession: bad })).toThrow(
        new RangeError(`maxRequestsPerSession must be an integer >= 1, got ${bad}`),
      );
    }
    expect(() => createNodeHandler(mcp, { maxRequestsPerSession: 1 })).not.toThrow();
  });
});

describe("the order in which a full table ends sessions", () => {
  it("the least recently active with no call a connection waits on, idle or not (GET stream, question pending, dropped call)", async () => {
    const srv = await start(busyServer(), { maxSessions: 5 });
    try {
      const streaming = await open(srv.url);
      const get = sse(await fetch(srv.url, { headers: { ...streaming.headers, accept: "text/event-stream" } }));
      expect(await get.next()).toMatchObject({ data: "" });
      const asked = await open(srv.url, { elicitation: {} });
      const fired = await post(srv.url, rq("tools/call", { name: "fire" }), asked.headers);
      expect((await answerOf(fired)).result.content[0].text).toBe("sent");
      expect(srv.legacy.session(asked.id)!.pending).toBe(1);
      const dropped = await open(srv.url);
      await dropAfter(srv, dropped.headers, "hold", () => true);
      await srv.untilGone(1);
      const holdingOn = await open(srv.url);
      const held = sse(await post(srv.url, rq("tools/call", { name: "hold" }), holdingOn.headers));
      expect(await held.next()).toMatchObject({ data: "" });
      const idle = await open(srv.url);

      // Each newcomer keeps a call its client waits on, so it is not the next to go.
      const streams = [held];
      const occupy = async () => {
        const s = await open(srv.url);
        const stream = sse(await post(srv.url, rq("tools/call", { name: "hold" }), s.headers));
        expect(await stream.next()).toMatchObject({ data: "" });
        streams.push(stream);
      };
      // Full: those no connection waits on go, least recently active first, the idle one last (it is the newest).
      await occupy();
      expect(srv.legacy.session(streaming.id)).toBeUndefined();
      expect(await get.next()).toBeUndefined();
      const askedSession = srv.legacy.session(asked.id)!;
      await occupy();
      expect(askedSession.closed).toBe(true);
      expect(askedSession.pending).toBe(0);
      await occupy();
      expect(srv.legacy.session(dropped.id)).toBeUndefined();
      expect(srv.legacy.session(idle.id)).toBeDefined();
      await occupy();
      for (const s of [streaming, asked, dropped, idle]) expect(await ping(srv, s.headers)).toBe(404);
      // Every session has a call its client waits on: none is ended.
      const refused = await post(srv.url, initializeBody());
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: { code: -32000 } });
      expect(srv.legacy.session(holdingOn.id)).toBeDefined();
      for (const r of release.splice(0)) r();
      for (const stream of streams) expect((await stream.message())?.result).toBeDefined();
    } finally {
      await srv.stop();
    }
  });

  it("a dropped call resumed with Last-Event-ID holds a connection again: it counts in maxConcurrentRequests and keeps its session", async () => {
    const srv = await start(busyServer(), { maxSessions: 1, maxConcurrentRequests: 1 });
    try {
      const s = await open(srv.url);
      const controller = new AbortController();
      const res = await post(srv.url, rq("tools/call", { name: "hold" }), s.headers, controller.signal);
      const priming = await sse(res).next();
      controller.abort();
      await srv.untilGone(1);
      expect(srv.core.active).toBe(0);
      const resume = { ...s.headers, accept: "text/event-stream", "last-event-id": priming!.id! };

      const resumed = sse(await fetch(srv.url, { headers: resume }));
      expect(await resumed.next()).toMatchObject({ retry: "1000" });
      expect(srv.core.active).toBe(1);
      const body = modernRequest("tools/call", { name: "echo", arguments: { text: "2026" } });
      const modern = await fetch(srv.url, { method: "POST", headers: headersFor(body), body: JSON.stringify(body) });
      expect(modern.status).toBe(503);
      await modern.text();
      // Its session has a call a connection waits on: not ended for a newcomer.
      expect((await post(srv.url, initializeBody())).status).toBe(503);

      // Dropped again; another call of the session takes the one slot; the resume is now refused.
      await resumed.cancel();
      await srv.untilGone(2);
      expect(srv.core.active).toBe(0);
      const other = sse(await post(srv.url, rq("tools/call", { name: "hold" }), s.headers));
      expect(await other.next()).toMatchObject({ data: "" });
      const refused = await fetch(srv.url, { headers: resume });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      await refused.text();
      for (const r of release.splice(0)) r();
      expect((await other.message())?.result).toEqual({ content: [{ type: "text", text: "released" }] });
      expect(srv.core.active).toBe(0);
    } finally {
      await srv.stop();
    }
  });

  it("with auth, a principal past maxSessionsPerPrincipal ends its own session whose call was dropped, never another's", async () => {
    const auth = {
      verifyAccessToken: (token: string): AuthInfo => ({ subject: token, scopes: [] }),
      resourceMetadata: { resource: "http://127.0.0.1/mcp", authorizationServers: ["https://as.example"] },
    };
    const as = (who: string) => ({ authorization: `Bearer ${who}` });
    const srv = await start(busyServer(), { auth, maxSessions: 10, maxSessionsPerPrincipal: 2 });
    try {
      const bob = await open(srv.url, {}, "2025-11-25", as("bob"));
      const mallory = [await open(srv.url, {}, "2025-11-25", as("mallory")), await open(srv.url, {}, "2025-11-25", as("mallory"))];
      for (const s of mallory) await dropAfter(srv, s.headers, "hold", () => true);
      await srv.untilGone(2);
      const third = await open(srv.url, {}, "2025-11-25", as("mallory"));
      expect(await ping(srv, mallory[0]!.headers)).toBe(404);
      expect(await ping(srv, mallory[1]!.headers)).toBe(200);
      expect(await ping(srv, bob.headers)).toBe(200);
      // Both of hers now have a call a connection waits on: her next initialize is refused, 429.
      const stream = sse(await post(srv.url, rq("tools/call", { name: "hold" }), third.headers));
      expect(await stream.next()).toMatchObject({ data: "" });
      const controller = new AbortController();
      const waiting = await post(srv.url, rq("tools/call", { name: "hold" }), mallory[1]!.headers, controller.signal);
      expect(await sse(waiting).next()).toMatchObject({ data: "" });
      const refused = await post(srv.url, initializeBody(), as("mallory"));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      controller.abort();
      for (const r of release.splice(0)) r();
      expect((await stream.message())?.result).toBeDefined();
    } finally {
      await srv.stop();
    }
  });
});
