// A full session table of the initialize era (spec 2025-11-25,
// basic/transports "Session Management": the server may end a session at any
// time, and its id then gets 404, which the client answers with a new
// initialize) must not lock well-behaved clients out: an initialize on a full
// table ends the least recently used session that no live connection waits
// on (busy-sessions.test.ts: those that are not idle), and with auth one
// principal's sessions are capped so that it only ever ends its own. Real
// node:http servers on 127.0.0.1; every bound below is a count of requests.
import { afterEach, describe, expect, it } from "vitest";
import type { AuthInfo } from "../../src/index.js";
import { createNodeHandler, McpServer, MemoryEventStore, type NodeHandlerOptions } from "../../src/index.js";
import { answerOf, counter, initializeBody, open, post, rq, sse, start } from "./helpers.js";

const release: (() => void)[] = [];
/** Calls of `hold` started so far. */
const holding = counter();
afterEach(() => {
  for (const r of release.splice(0)) r();
});

function floodServer() {
  const server = new McpServer({ name: "reclaim", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => String(args.text));
  // Answered later (a promise): its answer is an SSE stream whose events the event store keeps.
  server.registerTool("later", {}, async () => "later");
  server.registerTool("hold", {}, () => {
    holding.add();
    return new Promise<string>((resolve) => release.push(() => resolve("released")));
  });
  return server;
}

const call = async (url: string, headers: Record<string, string>, text: string) => {
  const res = await post(url, rq("tools/call", { name: "echo", arguments: { text } }), headers);
  return { status: res.status, body: res.status === 200 ? await answerOf(res) : await res.json() };
};

/** `n` initialize + notifications/initialized pairs; the statuses their initialize got. */
async function flood(url: string, n: number, headers: Record<string, string> = {}) {
  const statuses: number[] = [];
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await post(url, initializeBody(), headers);
    statuses.push(res.status);
    const id = res.headers.get("mcp-session-id");
    await res.text();
    if (res.status !== 200 || !id) continue;
    ids.push(id);
    const ready = { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
    expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, ready)).status).toBe(202);
  }
  return { statuses, ids };
}

describe("a full session table", () => {
  it("does not lock a well-behaved client out: a flood of 5 × maxSessions sessions, every step of the client served", async () => {
    const srv = await start(floodServer(), { maxSessions: 20 });
    try {
      const floodStatuses: number[] = [];
      for (let round = 0; round < 5; round++) {
        const client = await open(srv.url);
        floodStatuses.push(...(await flood(srv.url, 10)).statuses);
        expect(await call(srv.url, client.headers, `first ${round}`)).toMatchObject({
          status: 200,
          body: { result: { content: [{ type: "text", text: `first ${round}` }] } },
        });
        floodStatuses.push(...(await flood(srv.url, 10)).statuses);
        expect(await call(srv.url, client.headers, `again ${round}`)).toMatchObject({
          status: 200,
          body: { result: { content: [{ type: "text", text: `again ${round}` }] } },
        });
        expect(srv.legacy.size).toBeLessThanOrEqual(20);
      }
      expect(floodStatuses).toHaveLength(100);
      expect(floodStatuses.every((s) => s === 200)).toBe(true);
    } finally {
      await srv.stop();
    }
  });

  it("ends the least recently used idle session: its id gets 404, its events and subscriptions are let go, a new initialize is served", async () => {
    const events = new MemoryEventStore(10);
    const srv = await start(floodServer(), { maxSessions: 20, eventStore: events });
    try {
      const client = await open(srv.url);
      const later = await post(srv.url, rq("tools/call", { name: "later" }), client.headers);
      expect((await answerOf(later)).result).toEqual({ content: [{ type: "text", text: "later" }] });
      expect((await post(srv.url, rq("resources/subscribe", { uri: "file:///a" }), client.headers)).status).toBe(200);
      const session = srv.legacy.session(client.id)!;
      expect(events.sessions).toBe(1);
      // 19 more fill the table; the 20th ends the oldest idle one, the client's.
      await flood(srv.url, 19);
      expect(srv.legacy.session(client.id)).toBe(session);
      await flood(srv.url, 1);
      expect(srv.legacy.session(client.id)).toBeUndefined();
      expect(session.closed).toBe(true);
      expect(session.subscriptions.size).toBe(0);
      expect(events.sessions).toBe(0);
      expect(srv.legacy.size).toBe(20);
      const gone = await post(srv.url, rq("ping"), client.headers);
      expect(gone.status).toBe(404);
      expect((await gone.json()).error.code).toBe(-32001);
      const again = await open(srv.url);
      expect((await call(srv.url, again.headers, "back")).body.result.content[0].text).toBe("back");
    } finally {
      await srv.stop();
    }
  });

  it("ends a session stuck in its handshake first once half of maxSessions were opened after it, else the least recently active", async () => {
    const srv = await start(floodServer(), { maxSessions: 4 });
    const ping = async (s: { headers: Record<string, string> }) => (await post(srv.url, rq("ping"), s.headers)).status;
    try {
      const a = await open(srv.url);
      const b = await open(srv.url);
      const c = await open(srv.url);
      const bare = await post(srv.url, initializeBody());
      const waiting = { headers: { "mcp-session-id": bare.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" } };
      await bare.text();
      // a was opened first but used last: b is now the least recently active.
      expect(await ping(a)).toBe(200);
      // The table is full. The session in its handshake is younger than 2 openings: the least recently active ones go.
      await open(srv.url);
      expect(await ping(b)).toBe(404);
      await open(srv.url);
      expect(await ping(c)).toBe(404);
      expect(srv.legacy.session(waiting.headers["mcp-session-id"])).toBeDefined();
      // Two sessions were opened after it: now it goes first.
      await open(srv.url);
      expect(await ping(waiting)).toBe(404);
      expect(await ping(a)).toBe(200);
    } finally {
      await srv.stop();
    }
  });

  it("never ends a session with a call its client waits on (JSON or SSE): 503 with Retry-After, and the sweep ends none", async () => {
    const srv = await start(floodServer(), { maxSessions: 3 });
    try {
      const sessions = [await open(srv.url), await open(srv.url), await open(srv.url)];
      // One waits for a JSON answer, two on their SSE streams (one with a GET stream beside it).
      const before = holding.count;
      const json = post(srv.url, rq("tools/call", { name: "hold" }), { ...sessions[0]!.headers, accept: "application/json" });
      await holding.until(before + 1);
      const streams: ReturnType<typeof sse>[] = [];
      for (const s of sessions.slice(1)) {
        const held = sse(await post(srv.url, rq("tools/call", { name: "hold" }), s.headers));
        expect(await held.next()).toMatchObject({ data: "" }); // the call is running
        streams.push(held);
      }
      const get = sse(await fetch(srv.url, { headers: { ...sessions[2]!.headers, accept: "text/event-stream" } }));
      expect(await get.next()).toMatchObject({ data: "" });
      expect(srv.core.active).toBe(3);

      const refused = await post(srv.url, initializeBody());
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect((await refused.json()).error.code).toBe(-32000);
      // The idle sweep holds to the same rule: none of them is idle, however late it runs.
      srv.legacy.sweep(Date.now() + 24 * 3600_000);
      for (const s of sessions) expect((await post(srv.url, rq("ping"), s.headers)).status).toBe(200);

      // Once their calls are answered, they may end: the least recently active first.
      for (const r of release.splice(0)) r();
      expect((await answerOf(await json)).result).toEqual({ content: [{ type: "text", text: "released" }] });
      for (const held of streams) expect((await held.message())?.result).toEqual({ content: [{ type: "text", text: "released" }] });
      const served = await post(srv.url, initializeBody());
      expect(served.status).toBe(200);
      await served.text();
      expect((await post(srv.url, rq("ping"), sessions[0]!.headers)).status).toBe(404);
      await get.cancel();
    } finally {
      await srv.stop();
    }
  });
});

describe("sessions per principal (auth)", () => {
  const resource = "http://127.0.0.1/mcp";
  const auth: NodeHandlerOptions["auth"] = {
    // The token names its subject: enough to tell principals apart here.
    verifyAccessToken: (token): AuthInfo => ({ subject: token, scopes: [] }),
    resourceMetadata: { resource, authorizationServers: ["https://as.example"] },
  };
  const as = (who: string) => ({ authorization: `Bearer ${who}` });

  it("one principal's flood ends only its own sessions; all of them busy, its initialize gets 429", async () => {
    const srv = await start(floodServer(), { auth, maxSessions: 20, maxSessionsPerPrincipal: 5 });
    try {
      const bob = await open(srv.url, {}, "2025-11-25", as("bob"));
      const mallory: string[] = [];
      for (let i = 0; i < 10; i++) {
        const { statuses, ids } = await flood(srv.url, 10, as("mallory"));
        expect(statuses.every((s) => s === 200)).toBe(true);
        mallory.push(...ids);
        expect((await call(srv.url, bob.headers, `bob ${i}`)).body.result.content[0].text).toBe(`bob ${i}`);
        expect(srv.legacy.size).toBeLessThanOrEqual(6);
      }
      // Her first session was one she ended herself.
      const first = { ...as("mallory"), "mcp-session-id": mallory[0]!, "mcp-protocol-version": "2025-11-25" };
      expect((await post(srv.url, rq("ping"), first)).status).toBe(404);

      // Her five live sessions each hold a call: none can be ended, and her next initialize is refused.
      const live = mallory.slice(-5);
      const streams: ReturnType<typeof sse>[] = [];
      for (const id of live) {
        const headers = { ...as("mallory"), "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
        const held = sse(await post(srv.url, rq("tools/call", { name: "hold" }), headers));
        expect(await held.next()).toMatchObject({ data: "" });
        streams.push(held);
      }
      const refused = await post(srv.url, initializeBody(), as("mallory"));
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect((await refused.json()).error.code).toBe(-32000);
      // Others are not refused for it.
      const carol = await open(srv.url, {}, "2025-11-25", as("carol"));
      expect((await call(srv.url, carol.headers, "carol")).status).toBe(200);
      for (const r of release.splice(0)) r();
      for (const held of streams) expect((await held.message())?.result).toBeDefined();
    } finally {
      await srv.stop();
    }
  });

  it("refuses a maxSessionsPerPrincipal that is not a positive integer", () => {
    const mcp = new McpServer({ name: "x", version: "1" });
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => createNodeHandler(mcp, { auth, maxSessionsPerPrincipal: bad })).toThrow(RangeError);
    }
  });

  it("refuses a maxSessions that is not a positive integer, naming the option, with or without auth; 1 is accepted", () => {
    const mcp = new McpServer({ name: "x", version: "1" });
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createNodeHandler(mcp, { maxSessions: bad })).toThrow(new RangeError(`maxSessions must be an integer >= 1, got ${bad}`));
      expect(() => createNodeHandler(mcp, { auth, maxSessions: bad })).toThrow(/^maxSessions must be an integer >= 1/);
    }
    expect(() => createNodeHandler(mcp, { maxSessions: 1 })).not.toThrow();
  });
});
