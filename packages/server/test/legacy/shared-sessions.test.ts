// Initialize-era sessions in a shared SessionStore (spec 2025-11-25:
// basic/transports, "Session Management"): two servers on 127.0.0.1, as two
// instances, share one store (an in-process double of a shared store such as
// RedisSessionStore) and one event store. A session minted by one is served
// by the other, rebuilt from its record; an ask sent by one is answered by a
// POST to the other; a change of the session made on one is seen by the
// other; a DELETE on one ends it on both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer, MemoryEventStore, type SessionRecord, type SessionSignal, type SessionStore } from "../../src/index.js";
import { answerOf, type Message, open, post, rq, sse, start } from "./helpers.js";

/** The records and the signal channel several instances share. */
class Hub {
  readonly records = new Map<string, string>();
  readonly listeners = new Map<(signal: SessionSignal) => void, string>();
  loads = 0;
}

/** One instance's view of a {@link Hub}: records copied as JSON, signals to the others only, answers as promises. */
class SharedStore implements SessionStore {
  readonly shared = true;
  readonly size = 0;
  constructor(
    readonly hub: Hub,
    readonly instance: string,
  ) {}
  async load(id: string): Promise<SessionRecord | undefined> {
    this.hub.loads++;
    const text = this.hub.records.get(id);
    return text === undefined ? undefined : JSON.parse(text);
  }
  async save(record: SessionRecord): Promise<void> {
    this.hub.records.set(record.id, JSON.stringify(record));
  }
  async delete(id: string): Promise<void> {
    this.hub.records.delete(id);
  }
  signal(signal: SessionSignal): void {
    const copy = JSON.parse(JSON.stringify(signal));
    for (const [listener, instance] of this.hub.listeners) if (instance !== this.instance) queueMicrotask(() => listener(copy));
  }
  listen(listener: (signal: SessionSignal) => void): () => void {
    this.hub.listeners.set(listener, this.instance);
    return () => this.hub.listeners.delete(listener);
  }
}

function instance(name: string): McpServer {
  const server = new McpServer({ name: "shared", version: "1.0.0" }, { logging: true });
  server.registerTool("whoami", {}, () => name);
  server.registerTool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
    return answer.action === "accept" ? `Hello ${String(answer.content?.name)}, asked on ${name}` : `no (${answer.action})`;
  });
  server.registerTool("log", {}, (_args, ctx) => {
    ctx.log("info", `logged on ${name}`);
    return "logged";
  });
  return server;
}

const hub = new Hub();
const events = new MemoryEventStore();
let a: Awaited<ReturnType<typeof start>>;
let b: Awaited<ReturnType<typeof start>>;

beforeAll(async () => {
  a = await start(instance("A"), { sessionStore: new SharedStore(hub, "a"), eventStore: events });
  b = await start(instance("B"), { sessionStore: new SharedStore(hub, "b"), eventStore: events });
});
afterAll(async () => {
  await a.stop();
  await b.stop();
});

describe("initialize-era sessions in a shared store", () => {
  it("a session minted on A is served on B, rebuilt from its record", async () => {
    const { id, headers } = await open(a.url, { elicitation: {} });
    expect(JSON.parse(hub.records.get(id)!)).toMatchObject({ id, protocolVersion: "2025-11-25", initialized: true });
    const res = await post(b.url, rq("tools/call", { name: "whoami", arguments: {} }), headers);
    expect(res.status).toBe(200);
    expect((await res.json()).result.content[0].text).toBe("B");
    expect(b.legacy.session(id)?.initialized).toBe(true);
    // Each request reads the record; a session this instance holds is not rebuilt.
    const before = hub.loads;
    const again = await post(b.url, rq("tools/call", { name: "whoami", arguments: {} }), headers);
    expect((await again.json()).result.content[0].text).toBe("B");
    expect(hub.loads).toBe(before + 1);
    expect(b.legacy.size).toBe(1);
  });

  it("an elicitation sent by A is answered by a POST to B, and reaches the handler waiting on A", async () => {
    const { headers } = await open(b.url, { elicitation: {} });
    const res = await post(a.url, rq("tools/call", { name: "ask", arguments: {} }), headers);
    const stream = sse(res);
    let asked: Message | undefined;
    for (let i = 0; i < 5 && !asked?.method; i++) asked = (await stream.message()) as Message;
    expect(asked?.method).toBe("elicitation/create");
    expect(String(asked?.id)).toMatch(/^x-mcp-a-/);
    const answer = await post(b.url, { jsonrpc: "2.0", id: asked!.id, result: { action: "accept", content: { name: "Ada" } } }, headers);
    expect(answer.status).toBe(202);
    const done = (await stream.message()) as Message;
    expect(done.result.content[0].text).toBe("Hello Ada, asked on A");
  });

  it("logging/setLevel on one instance holds on the other", async () => {
    const { id, headers } = await open(a.url);
    await (await post(b.url, rq("tools/call", { name: "whoami", arguments: {} }), headers)).json();
    const set = await post(a.url, rq("logging/setLevel", { level: "info" }), headers);
    expect(set.status).toBe(200);
    await set.json();
    expect(JSON.parse(hub.records.get(id)!).logLevel).toBe("info");
    const res = await post(b.url, rq("tools/call", { name: "log", arguments: {} }), headers);
    const stream = sse(res);
    const first = (await stream.message()) as Message;
    expect(first).toMatchObject({ method: "notifications/message", params: { level: "info", data: "logged on B" } });
    expect(((await stream.message()) as Message).result.content[0].text).toBe("logged");
  });

  it("DELETE on B ends the session on A too: its id then gets 404 on both", async () => {
    const { id, headers } = await open(a.url);
    await (await post(b.url, rq("tools/call", { name: "whoami", arguments: {} }), headers)).json();
    expect(a.legacy.session(id)).toBeDefined();
    const deleted = await fetch(b.url, { method: "DELETE", headers });
    expect(deleted.status).toBe(200);
    expect(hub.records.has(id)).toBe(false);
    for (const at of [a.url, b.url]) {
      expect((await post(at, rq("tools/call", { name: "whoami", arguments: {} }), headers)).status).toBe(404);
    }
    expect(a.legacy.session(id)).toBeUndefined();
  });
});

describe("records read back from a shared store are checked", () => {
  const reports: unknown[] = [];
  let c: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    const server = new McpServer({ name: "checked", version: "1.0.0" }, { onError: (error) => reports.push(error) });
    server.registerResource("memo", "memo://a", {}, () => "a");
    c = await start(server, { sessionStore: new SharedStore(hub, "c"), eventStore: events });
  });
  afterAll(async () => {
    await c.stop();
  });

  it("a damaged record is an unknown session (404), reported once per session, whatever the store", async () => {
    const damage: Record<string, (sound: Message) => Message> = {
      "another id": (sound) => ({ ...sound, id: "f0000000-0000-4000-8000-000000000000" }),
      "a version not served": (sound) => ({ ...sound, protocolVersion: "2026-07-28" }),
      "too many subscriptions": (sound) => ({ ...sound, subscriptions: Array.from({ length: 1001 }, (_, i) => `memo://${i}`) }),
    };
    for (const [name, damaged] of Object.entries(damage)) {
      const { id, headers } = await open(c.url);
      hub.records.set(id, JSON.stringify(damaged(JSON.parse(hub.records.get(id)!))));
      for (let i = 0; i < 2; i++) expect([name, (await post(c.url, rq("ping"), headers)).status]).toEqual([name, 404]);
      // The copy this instance held ends with it.
      expect(c.legacy.session(id)).toBeUndefined();
    }
    expect(reports.map((e) => (e as Error).name)).toEqual(["SessionRecordError", "SessionRecordError", "SessionRecordError"]);
  });

  it("subscriptions stop at MAX_SUBSCRIPTION_CHARS, so the records this server writes pass its own check", async () => {
    const { headers } = await open(c.url);
    const long = (i: number) => `memo://${i}/${"x".repeat(10_000)}`;
    for (let i = 0; i < 26; i++)
      expect((await answerOf(await post(c.url, rq("resources/subscribe", { uri: long(i) }), headers))).result).toEqual({});
    const refused = await answerOf(await post(c.url, rq("resources/subscribe", { uri: long(26) }), headers));
    expect(refused.error).toMatchObject({ code: -32000, message: expect.stringMatching(/262144 characters/) });
    expect((await post(c.url, rq("ping"), headers)).status).toBe(200);
  });
});
