// JSON-RPC batches, which protocol version 2025-03-26 alone has (spec
// 2025-03-26: basic/index "Batching", basic/transports): a session of that
// version answers a batch of requests and notifications with one array of
// responses (JSON-RPC 2.0 section 6), over Streamable HTTP and stdio; every
// other version, and a message on no session, keeps refusing a batch.
import { validateStrict } from "@x/mcp-v2503/strict";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/index.js";
import { MAX_BATCH_MESSAGES } from "../../src/revisions/initialize/batch.js";
import { type Message, open, post, rq, start, stdioConnect } from "../legacy/helpers.js";

function server(): McpServer {
  const mcp = new McpServer({ name: "batches", version: "1.0.0" });
  mcp.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => String(args.text));
  mcp.registerTool("slow", { description: "answers on a later turn" }, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return "slow";
  });
  return mcp;
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function session(version: string) {
  const running = await start(server());
  stops.push(running.stop);
  const { headers } = await open(running.url, {}, version);
  return { url: running.url, headers };
}

/** The ids of a batch's responses, sorted (JSON-RPC 2.0: their order is the server's). */
const ids = (responses: Message[]) => responses.map((r) => r.id).sort();

describe("a batch over Streamable HTTP", () => {
  it("on a 2025-03-26 session: one JSON array with a response per request, each as 2025-03-26 defines it", async () => {
    const { url, headers } = await session("2025-03-26");
    const echo = rq("tools/call", { name: "echo", arguments: { text: "hi" } });
    const slow = rq("tools/call", { name: "slow", arguments: {} });
    const list = rq("tools/list");
    const res = await post(
      url,
      [echo, { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }, slow, list],
      headers,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("mcp-session-id")).toBe(headers["mcp-session-id"]);
    const body = (await res.json()) as Message[];
    expect(Array.isArray(body)).toBe(true);
    expect(ids(body)).toEqual(ids([echo, slow, list]));
    const byId = new Map(body.map((r) => [r.id, r]));
    expect(byId.get(echo.id)!.result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(byId.get(slow.id)!.result.content).toEqual([{ type: "text", text: "slow" }]);
    for (const [request, definition] of [
      [echo, "CallToolResult"],
      [slow, "CallToolResult"],
      [list, "ListToolsResult"],
    ] as const) {
      expect(validateStrict(definition, byId.get(request.id)!.result)).toMatchObject({ ok: true });
    }
  });

  it("on a 2025-03-26 session: notifications alone get 202 and no body; a bad member its own error", async () => {
    const { url, headers } = await session("2025-03-26");
    const quiet = await post(url, [{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } }], headers);
    expect(quiet.status).toBe(202);
    expect(await quiet.text()).toBe("");
    const ping = rq("ping");
    const mixed = await post(url, [1, ping, { jsonrpc: "2.0", id: 5, method: "no/such/method" }], headers);
    expect(mixed.status).toBe(200);
    const body = (await mixed.json()) as Message[];
    expect(body).toHaveLength(3);
    expect(body.find((r) => r.id === ping.id)).toMatchObject({ result: {} });
    expect(body.find((r) => r.id === 5)).toMatchObject({ error: { code: -32601 } });
    expect(body.find((r) => r.id === null || r.id === undefined)).toMatchObject({ error: { code: -32600 } });
  });

  it("on a 2025-03-26 session: an empty batch, or one past the bound, is one -32600 error (400)", async () => {
    const { url, headers } = await session("2025-03-26");
    const empty = await post(url, [], headers);
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { code: -32600 } });
    const long = await post(
      url,
      Array.from({ length: MAX_BATCH_MESSAGES + 1 }, () => rq("ping")),
      headers,
    );
    expect(long.status).toBe(400);
    expect((await long.json()).error.message).toContain(`at most ${MAX_BATCH_MESSAGES}`);
  });

  it.each(["2025-11-25", "2025-06-18", "2024-11-05"])("on a %s session: refused with 400, -32600", async (version) => {
    const { url, headers } = await session(version);
    const res = await post(url, [rq("ping"), rq("tools/list")], headers);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32600, message: "Invalid request: batches are not supported" } });
  });

  it("on no session: refused with 400, -32600", async () => {
    const running = await start(server());
    stops.push(running.stop);
    const res = await post(running.url, [rq("ping")], { "mcp-protocol-version": "2025-03-26" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32600 } });
  });
});

describe("a batch over stdio", () => {
  async function connected(version: string) {
    const mcp = server();
    const c = stdioConnect(mcp);
    const rid = c.request("initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } });
    const { response } = await c.answer(rid);
    expect(response.result.protocolVersion).toBe(version);
    c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return { c, mcp };
  }

  it("on a 2025-03-26 connection: one array line with a response per request", async () => {
    const { c, mcp } = await connected("2025-03-26");
    const echo = rq("tools/call", { name: "echo", arguments: { text: "hi" } });
    const slow = rq("tools/call", { name: "slow", arguments: {} });
    c.send([echo, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } }, slow] as unknown as Message);
    const line = await c.next();
    expect(Array.isArray(line)).toBe(true);
    expect(ids(line as unknown as Message[])).toEqual(ids([echo, slow]));
    for (const response of line as unknown as Message[])
      expect(validateStrict("CallToolResult", response.result)).toMatchObject({ ok: true });
    // Notifications alone: no line at all; the next answer is the ping's.
    c.send([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 98 } }] as unknown as Message);
    const ping = c.request("ping");
    expect(await c.next()).toMatchObject({ id: ping, result: {} });
    await c.end();
    mcp.close();
  });

  it("on a 2025-06-18 connection: refused with -32600", async () => {
    const { c, mcp } = await connected("2025-06-18");
    c.send([rq("ping")] as unknown as Message);
    expect(await c.next()).toMatchObject({ error: { code: -32600, message: "Invalid request: batches are not supported" } });
    await c.end();
    mcp.close();
  });
});
