// What each member of a 2025-03-26 batch may be (JSON-RPC 2.0 section 6:
// each member one Request object), the same over Streamable HTTP and stdio
// (`revisions/initialize/batch.ts`): a member that is itself an array is an
// Invalid Request (-32600, id null), never a batch of its own; a member
// shaped as a response, well formed or not, is never answered.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/index.js";
import { MAX_BATCH_MESSAGES } from "../../src/revisions/initialize/batch.js";
import { CHANNELS, type MessageIgnoredEvent } from "../../src/telemetry.js";
import { type Message, open, post, rq, start, stdioConnect } from "../legacy/helpers.js";

/** A server whose `count` tool counts its calls. */
function server() {
  const mcp = new McpServer({ name: "batch-members", version: "1.0.0" });
  const calls = { count: 0 };
  mcp.registerTool("count", { description: "counts its calls" }, () => String(++calls.count));
  return { mcp, calls };
}

const stops: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** The `x-mcp:message:ignored` events published until the test ends. */
function ignoredEvents(): MessageIgnoredEvent[] {
  const events: MessageIgnoredEvent[] = [];
  const listener = (event: unknown) => events.push(event as MessageIgnoredEvent);
  subscribe(CHANNELS.messageIgnored, listener);
  stops.push(() => {
    unsubscribe(CHANNELS.messageIgnored, listener);
  });
  return events;
}

async function httpSession() {
  const { mcp, calls } = server();
  const running = await start(mcp);
  stops.push(running.stop);
  const { headers } = await open(running.url, {}, "2025-03-26");
  return { url: running.url, headers, calls };
}

const count = () => rq("tools/call", { name: "count", arguments: {} });
const NESTED = { id: null, error: expect.objectContaining({ code: -32600 }) };
const BAD_RESPONSE = { jsonrpc: "2.0", id: 424242, result: {}, error: { code: 1, message: "both" } };

describe("a batch member that is itself an array", () => {
  it("over HTTP: answered -32600 with id null, its contents never run", async () => {
    const { url, headers, calls } = await httpSession();
    const ping = rq("ping");
    const res = await post(url, [[count()], ping, [], [{ jsonrpc: "2.0", id: 7, result: {} }]], headers);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Message[];
    expect(body).toHaveLength(4);
    expect(body.filter((r) => r.id === null)).toEqual(Array.from({ length: 3 }, () => expect.objectContaining(NESTED)));
    expect(body.find((r) => r.id === ping.id)).toMatchObject({ result: {} });
    expect(calls.count).toBe(0);
  });

  it(`over HTTP: ${MAX_BATCH_MESSAGES} arrays of ${MAX_BATCH_MESSAGES} requests run none of them`, async () => {
    const { url, headers, calls } = await httpSession();
    const batch = Array.from({ length: MAX_BATCH_MESSAGES }, () => Array.from({ length: MAX_BATCH_MESSAGES }, count));
    const res = await post(url, batch, headers);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Message[];
    expect(body).toHaveLength(MAX_BATCH_MESSAGES);
    for (const response of body) expect(response).toMatchObject(NESTED);
    expect(calls.count).toBe(0);
  });

  it("over stdio: the same answer", async () => {
    const { mcp, calls } = server();
    const c = stdioConnect(mcp);
    stops.push(() => mcp.close());
    const rid = c.request("initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } });
    await c.answer(rid);
    c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const ping = rq("ping");
    c.send([[count()], ping, [], [{ jsonrpc: "2.0", id: 7, result: {} }]] as unknown as Message);
    const line = (await c.next()) as unknown as Message[];
    expect(line).toHaveLength(4);
    expect(line.filter((r) => r.id === null)).toEqual(Array.from({ length: 3 }, () => expect.objectContaining(NESTED)));
    expect(line.find((r) => r.id === ping.id)).toMatchObject({ result: {} });
    expect(calls.count).toBe(0);
    await c.end();
  });
});

describe("a batch member shaped as a response", () => {
  it("over HTTP: a malformed one is not answered, only reported", async () => {
    const events = ignoredEvents();
    const { url, headers } = await httpSession();
    const ping = rq("ping");
    const res = await post(url, [BAD_RESPONSE, ping], headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ jsonrpc: "2.0", id: ping.id, result: {} }]);
    expect(events).toContainEqual(expect.objectContaining({ reason: "invalid-response", requestId: 424242 }));
    // With nothing else to answer: 202 and no body, as a batch of notifications.
    const quiet = await post(url, [BAD_RESPONSE, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }], headers);
    expect(quiet.status).toBe(202);
    expect(await quiet.text()).toBe("");
  });

  it("over stdio: the same", async () => {
    const events = ignoredEvents();
    const { mcp } = server();
    const c = stdioConnect(mcp);
    stops.push(() => mcp.close());
    const rid = c.request("initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } });
    await c.answer(rid);
    c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const ping = rq("ping");
    c.send([BAD_RESPONSE, ping] as unknown as Message);
    expect(await c.next()).toEqual([{ jsonrpc: "2.0", id: ping.id, result: {} }]);
    expect(events).toContainEqual(expect.objectContaining({ reason: "invalid-response", requestId: 424242 }));
    await c.end();
  });
});
