// subscriptions/listen (src/features/subscriptions.ts): a long-lived request whose stream carries the change
// notifications the client opted in to, each tagged with the subscription's id.
import { type IncomingMessage, request as httpRequest } from "node:http";
import { validate } from "@x/mcp-v2607";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../../src/index.js";
import { headersFor, listenTo, meta, rpc, send } from "../helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function listenServer() {
  const server = new McpServer({ name: "s", version: "1" }, { maxListenStreams: 2 });
  server.registerTool("t", {}, () => "t");
  server.registerPrompt("p", { description: "d" }, () => "p");
  server.registerResource("r", "file:///r", {}, () => "r");
  return server;
}

let server: McpServer;
let running: RunningHttpServer;
beforeAll(async () => {
  server = listenServer();
  running = await listen(server, { port: 0, keepAliveMs: 50 });
});
afterAll(() => running.close(100));

describe("subscriptions/listen over Streamable HTTP", () => {
  function openListen(notifications: Record<string, unknown>, id: number | string, at: RunningHttpServer = running) {
    const body = { jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: meta() } };
    const lines: any[] = [];
    const data: string[] = [];
    let raw = "";
    let done!: (v: { status: number }) => void;
    const finished = new Promise<{ status: number }>((r) => {
      done = r;
    });
    const url = new URL(at.url);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: headersFor(body) },
      (res) => {
        res.on("data", (chunk) => {
          raw += String(chunk);
          const parts = raw.split("\n");
          raw = parts.pop()!;
          for (const line of parts)
            if (line.startsWith("data: ")) {
              data.push(line.slice(6));
              lines.push(JSON.parse(line.slice(6)));
            } else if (line === ":") lines.push(":keepalive");
        });
        res.on("end", () => done({ status: res.statusCode ?? 0 }));
      },
    );
    req.end(JSON.stringify(body));
    return { lines, data, finished, req };
  }

  // At least 120 s of checks 10 ms apart (a count, and a hang guard): a busy machine's sockets may be slow.
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 12_000 && !check(); i++) await sleep(10);
    expect(check()).toBe(true);
  };

  it("writes one notification to many streams as the same bytes as each stream's own copy would be", async () => {
    // A fan-out is serialised once and each stream's id added to the text: the bytes must be
    // exactly those of the tagged message written on its own, whatever the id's type.
    const own = listenServer();
    const at = await listen(own, { port: 0, keepAliveMs: 50 });
    const a = openListen({ toolsListChanged: true, resourceSubscriptions: ["file:///r"] }, 'sub "a"', at);
    const b = openListen({ toolsListChanged: true, resourceSubscriptions: ["file:///r"] }, 7, at);
    await until(() => a.lines.length > 0 && b.lines.length > 0);
    own.notifyResourceUpdated("file:///r");
    own.registerTool("fan", {}, () => "fan");
    for (const [stream, id] of [
      [a, 'sub "a"'],
      [b, 7],
    ] as const) {
      await until(() => stream.data.length >= 3);
      const tag = { "io.modelcontextprotocol/subscriptionId": id };
      expect(stream.data.slice(1, 3)).toEqual([
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///r", _meta: tag } }),
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tag } }),
      ]);
      stream.req.destroy();
    }
    await at.close(100);
  });

  it("acknowledges, sends only what was asked for, tags each notification, keeps alive", async () => {
    const tools = openListen({ toolsListChanged: true, promptsListChanged: false, resourceSubscriptions: ["file:///r"] }, 501);
    const prompts = openListen({ promptsListChanged: true }, 502);
    await until(() => tools.lines.length > 0 && prompts.lines.length > 0);
    expect(tools.lines[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///r"] },
        _meta: { "io.modelcontextprotocol/subscriptionId": 501 },
      },
    });
    expect(validate("SubscriptionsAcknowledgedNotification", tools.lines[0]).ok).toBe(true);
    server.registerTool("late", {}, () => "late");
    server.notifyResourceUpdated("file:///r");
    server.notifyResourceUpdated("file:///other");
    server.removePrompt("p");
    await until(() => tools.lines.some((l) => l.method === "notifications/resources/updated"));
    await until(() => prompts.lines.some((l) => l.method === "notifications/prompts/list_changed"));
    await until(() => tools.lines.includes(":keepalive"));
    const toolEvents = tools.lines.filter((l) => typeof l === "object").map((l) => l.method);
    expect(toolEvents).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
      "notifications/resources/updated",
    ]);
    for (const l of tools.lines.filter((x) => typeof x === "object"))
      expect(l.params._meta["io.modelcontextprotocol/subscriptionId"]).toBe(501);
    expect(prompts.lines.filter((l) => typeof l === "object").map((l) => l.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/prompts/list_changed",
    ]);
    // The limit is 2 streams: a third is refused with a clear error.
    const third = await rpc(running.url, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    expect(third.json.error).toMatchObject({ code: -32000 });
    expect(third.json.error.message).toContain("Too many open subscriptions/listen streams");
    tools.req.destroy();
    prompts.req.destroy();
    await until(() => server.listenStreams === 0);
  });

  it("a client that goes away ends its listen stream, and an open stream keeps no body reader on its request", async () => {
    const before = server.listenStreams;
    const requests: IncomingMessage[] = [];
    const seen = (req: IncomingMessage) => requests.push(req);
    running.server.prependListener("request", seen);
    const l = openListen({ toolsListChanged: true }, 77);
    try {
      await until(() => l.lines.some((m) => m.method === "notifications/subscriptions/acknowledged"));
    } finally {
      running.server.off("request", seen);
    }
    expect(server.listenStreams).toBe(before + 1);
    expect(requests.map((r) => [r.listenerCount("data"), r.listenerCount("end")])).toEqual([[0, 0]]);
    l.req.destroy();
    await until(() => server.listenStreams === before);
  });

  it("closing the server ends every listen stream with its final result", async () => {
    const s = new McpServer({ name: "c", version: "1" });
    s.registerTool("t", {}, () => "t");
    const r = await listen(s, { port: 0 });
    const body = {
      jsonrpc: "2.0",
      id: "L1",
      method: "subscriptions/listen",
      params: { notifications: { toolsListChanged: true }, _meta: meta() },
    };
    const response = await fetch(r.url, { method: "POST", headers: headersFor(body), body: JSON.stringify(body) });
    const text = response.text();
    await sleep(20);
    await r.close(500);
    const events = (await text)
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    const last = events[events.length - 1];
    expect(last).toMatchObject({ id: "L1", result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "L1" } } });
    expect(validate("SubscriptionsListenResultResponse", last).ok).toBe(true);
  });

  it("refuses a listen without a filter", async () => {
    expect((await rpc(running.url, "subscriptions/listen", {})).json.error.code).toBe(-32602);
  });

  it("refuses subscriptions/listen at once when the response cannot stream, and answers the listen cap with 503", async () => {
    const jsonOnlyListen = async (s: McpServer) => {
      s.registerTool("t", {}, () => "t");
      const r = await listen(s, { port: 0 });
      try {
        return await rpc(
          r.url,
          "subscriptions/listen",
          { notifications: { toolsListChanged: true } },
          { headers: { accept: "application/json" } },
        );
      } finally {
        await r.close();
      }
    };
    // maxListenStreams: 0 refuses first; with room, a JSON-only Accept is refused as well.
    expect((await jsonOnlyListen(new McpServer({ name: "capped", version: "1" }, { maxListenStreams: 0 }))).status).toBe(503);
    const s = new McpServer({ name: "l", version: "1" });
    const json = await jsonOnlyListen(s);
    expect(json.json.error).toMatchObject({ code: -32600 });
    expect(json.json.error.message).toContain("text/event-stream");
    expect(s.listenStreams).toBe(0);
  });
});

describe("subscriptions/listen in process", () => {
  it("grants only what the server announces, and resource subscriptions only with resources", async () => {
    const toolsOnly = new McpServer({ name: "g", version: "1" });
    toolsOnly.registerTool("t", {}, () => "t");
    const asked = {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ["file:///a"],
    };
    const narrow = listenTo(toolsOnly, asked);
    expect(narrow.received[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": narrow.id } },
    });
    const everything = listenServer();
    const wide = listenTo(everything, { ...asked, toolsListChanged: false, resourceSubscriptions: ["file:///a", 7, "file:///b"] });
    expect(wide.granted()).toEqual({
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ["file:///a", "file:///b"],
    });
    await Promise.all([narrow.close(), wide.close()]);
  });

  it("sends notifications/resources/updated only to the streams subscribed to that URI", async () => {
    const s = listenServer();
    const a = listenTo(s, { resourceSubscriptions: ["file:///r"] });
    const b = listenTo(s, { resourceSubscriptions: ["file:///other"] });
    s.notifyResourceUpdated("file:///r");
    s.notifyResourceUpdated("file:///nobody");
    expect(a.received.slice(1)).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "file:///r", _meta: { "io.modelcontextprotocol/subscriptionId": a.id } },
      },
    ]);
    expect(b.methods()).toEqual(["notifications/subscriptions/acknowledged"]);
    for (const n of a.received)
      expect(validate(n === a.received[0] ? "SubscriptionsAcknowledgedNotification" : "ResourceUpdatedNotification", n).ok).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it("a cancelled stream ends with its final result and hears nothing more", async () => {
    const s = listenServer();
    const l = listenTo(s, { toolsListChanged: true });
    expect(s.listenStreams).toBe(1);
    const final = await l.close();
    expect(final).toEqual({
      jsonrpc: "2.0",
      id: l.id,
      result: expect.objectContaining({ resultType: "complete" }),
    });
    expect(final.result._meta["io.modelcontextprotocol/subscriptionId"]).toBe(l.id);
    expect(s.listenStreams).toBe(0);
    s.registerTool("after", {}, () => "after");
    expect(l.methods()).toEqual(["notifications/subscriptions/acknowledged"]);
  });

  it("after close() every stream has ended and a new listen is refused with -32000", async () => {
    const s = listenServer();
    const l = listenTo(s, { toolsListChanged: true });
    s.close();
    expect((await l.response).result.resultType).toBe("complete");
    expect(s.listenStreams).toBe(0);
    const refused = listenTo(s, { toolsListChanged: true });
    expect((await refused.response).error).toMatchObject({ code: -32000, message: "Server is closing: no new subscriptions" });
    expect(refused.received).toEqual([]);
    s.close();
  });

  it("refuses a filter that is not an object with -32602, and a transport that cannot notify with -32603", async () => {
    const s = listenServer();
    for (const notifications of [undefined, "all", [true]]) {
      expect((await send(s, "subscriptions/listen", { notifications })).error.code, JSON.stringify(notifications)).toBe(-32602);
    }
    // No notify at all: the transport cannot stream (an internal error of the transport, not of the client).
    expect((await send(s, "subscriptions/listen", { notifications: { toolsListChanged: true } })).error).toMatchObject({ code: -32603 });
    expect(s.listenStreams).toBe(0);
  });
});
