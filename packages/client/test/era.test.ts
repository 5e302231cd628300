// The initialize era's bad cases over Streamable HTTP, against a small
// hand-written server of that era on 127.0.0.1 (each test scripts what the
// server does wrong): an unsupported version, a session the server forgets,
// a server-to-client request without a handler, a dropped SSE stream.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, type ClientOptions, InMemoryTransport, StreamableHttpTransport } from "../src/index.js";
import { httpServer } from "./helpers.js";

type Message = {
  jsonrpc: "2.0";
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};

interface Seen {
  method: string;
  httpMethod: string;
  session: string | undefined;
  version: string | undefined;
  lastEventId: string | undefined;
  body: Message | undefined;
}

/**
 * A server of the initialize era: answers `initialize` with `initializeResult`
 * and a session id (`session-N`), accepts notifications and responses with
 * 202, gives `onRequest` every other request, and records everything.
 */
async function legacyServer(
  onRequest: (message: Message, res: ServerResponse, req: IncomingMessage) => void | Promise<void>,
  initializeResult: (message: Message) => Record<string, unknown> = (m) => ({
    protocolVersion: m.params?.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: "hand-written", version: "1" },
  }),
) {
  const seen: Seen[] = [];
  let sessions = 0;
  const live = new Set<string>();
  const server = await httpServer(async (req, res, text) => {
    const body = text ? (JSON.parse(text) as Message) : undefined;
    const session = req.headers["mcp-session-id"] as string | undefined;
    seen.push({
      method: body?.method ?? (body && ("result" in body || "error" in body) ? "(response)" : "-"),
      httpMethod: req.method ?? "",
      session,
      version: req.headers["mcp-protocol-version"] as string | undefined,
      lastEventId: req.headers["last-event-id"] as string | undefined,
      body,
    });
    if (req.method === "DELETE") {
      if (session) live.delete(session);
      res.writeHead(200).end();
      return;
    }
    if (body?.method === "initialize") {
      const id = `session-${++sessions}`;
      live.add(id);
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": id });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: initializeResult(body) }));
      return;
    }
    if (session === undefined) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: no session" } }));
      return;
    }
    if (!live.has(session)) {
      res.writeHead(404).end();
      return;
    }
    if (req.method === "GET" && session && req.headers["last-event-id"] === undefined) {
      res.writeHead(405).end();
      return;
    }
    if (body && body.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (body && body.method === undefined) {
      res.writeHead(202).end();
      return;
    }
    await onRequest(body ?? { jsonrpc: "2.0" }, res, req);
  });
  return { ...server, seen, live };
}

const servers: Array<{ close(): Promise<void> }> = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.close();
});

async function connect(url: string, options: ClientOptions = {}, transport = new StreamableHttpTransport(url)) {
  const client = new Client({ name: "era-test", version: "1.0.0" }, { onWarning: () => {}, lookupTools: false, ...options });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}

function json(res: ServerResponse, message: Message): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(message));
}

const text = (t: string) => ({ content: [{ type: "text", text: t }] });

describe("the initialize handshake", () => {
  it("falls back from the probe's 400, proposes 2025-11-25, sends initialized with the session headers", async () => {
    const server = await legacyServer((m, res) => json(res, { jsonrpc: "2.0", id: m.id, result: text("ok") }));
    servers.push(server);
    const { client } = await connect(server.url);
    expect(client.era).toBe("legacy");
    expect(server.seen.map((s) => `${s.httpMethod} ${s.method}`).slice(0, 4)).toEqual([
      "POST server/discover",
      "POST initialize",
      "POST notifications/initialized",
      "GET -",
    ]);
    expect(server.seen[1]!.body?.params).toMatchObject({ protocolVersion: "2025-11-25", clientInfo: { name: "era-test" } });
    expect(server.seen[1]!.body?.params?._meta).toBeUndefined();
    expect(server.seen[2]).toMatchObject({ session: "session-1", version: "2025-11-25" });
    expect(await client.callTool("x", {})).toMatchObject(text("ok"));
    expect(server.seen.at(-1)).toMatchObject({ method: "tools/call", session: "session-1", version: "2025-11-25" });
  });

  it("unpinned, accepts an older version of the era and names it on later requests", async () => {
    const server = await legacyServer(
      (m, res) => json(res, { jsonrpc: "2.0", id: m.id, result: { tools: [] } }),
      () => ({ protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "old", version: "1" } }),
    );
    servers.push(server);
    // Pinned to 2025-11-25, the same answer is refused (test/revisions/pinned-versions.test.ts).
    const { client } = await connect(server.url, { protocol: "auto" });
    expect(client.protocolVersion).toBe("2025-03-26");
    await client.listTools();
    expect(server.seen.at(-1)).toMatchObject({ method: "tools/list", version: "2025-03-26" });
    // What initialize said of the server, and no server/discover sent to a server of the era.
    expect(client.serverInfo).toEqual({ name: "old", version: "1" });
    expect(client.serverCapabilities).toEqual({});
    const sent = server.seen.length;
    await expect(client.discover()).rejects.toMatchObject({ code: -32096 });
    expect(server.seen.length).toBe(sent);
  });

  it("refuses a version outside the era with -32096 and disconnects", async () => {
    const server = await legacyServer(
      () => {},
      () => ({ protocolVersion: "2099-01-01", capabilities: {}, serverInfo: { name: "future", version: "1" } }),
    );
    servers.push(server);
    const client = new Client({ name: "era-test", version: "1.0.0" }, { protocol: "2025-11-25" });
    const failure = await client.connect(new StreamableHttpTransport(server.url)).catch((e) => e);
    expect(failure).toMatchObject({
      code: ClientErrorCode.VersionUnsupported,
      data: { protocolVersion: "2099-01-01", supported: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] },
    });
    expect(client.era).toBeUndefined();
    // No notifications/initialized followed the refused answer.
    expect(server.seen.map((s) => s.method)).toEqual(["initialize"]);
    await expect(client.listTools()).rejects.toMatchObject({ code: ClientErrorCode.TransportFailed, data: { reason: "closed" } });
  });
});

describe("the probe of protocol: auto", () => {
  /** A server that answers every POST with `status` and `body`, recording the methods. */
  async function answering(status: number, body: unknown) {
    const methods: string[] = [];
    const server = await httpServer((_req, res, text) => {
      methods.push(text ? ((JSON.parse(text) as Message).method ?? "-") : "-");
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
    servers.push(server);
    return { url: server.url, methods };
  }

  it("takes a 2026 error (-32021) as a modern server: no initialize", async () => {
    const server = await answering(400, { jsonrpc: "2.0", id: 1, error: { code: -32021, message: "missing capability" } });
    const { client } = await connect(server.url);
    expect(client.era).toBe("modern");
    expect(server.methods).toEqual(["server/discover"]);
  });

  it("fails on -32022 without a version in common, and never falls back to initialize", async () => {
    const server = await answering(400, {
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32022, message: "unsupported", data: { supported: ["2099-01-01"] } },
    });
    const client = new Client({ name: "era-test", version: "1.0.0" });
    await expect(client.connect(new StreamableHttpTransport(server.url))).rejects.toMatchObject({ code: -32022 });
    expect(server.methods).toEqual(["server/discover"]);
    expect(client.era).toBeUndefined();
  });

  it("fails on a 5xx instead of guessing the era", async () => {
    const server = await answering(503, {});
    const client = new Client({ name: "era-test", version: "1.0.0" });
    await expect(client.connect(new StreamableHttpTransport(server.url))).rejects.toMatchObject({
      code: ClientErrorCode.TransportFailed,
      data: { reason: "http_error", status: 503 },
    });
    expect(server.methods).toEqual(["server/discover"]);
  });

  it("takes an empty result as the earlier era (a server that answers any method with {})", async () => {
    const methods: string[] = [];
    const server = await httpServer((req, res, text) => {
      if (req.method !== "POST") return void res.writeHead(405).end();
      const m = JSON.parse(text) as Message;
      methods.push(m.method ?? "-");
      if (m.id === undefined) return void res.writeHead(202).end();
      const result =
        m.method === "initialize" ? { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } } : {};
      json(res, { jsonrpc: "2.0", id: m.id, result });
    });
    servers.push(server);
    const { client } = await connect(server.url);
    expect(client.era).toBe("legacy");
    expect(methods.slice(0, 3)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
  });

  it("does not probe an in-memory transport, and refuses to pin it to the earlier era", async () => {
    const seen: string[] = [];
    const transport = new InMemoryTransport(async (m) => {
      seen.push(m.method);
      return { jsonrpc: "2.0", id: m.id, result: {} } as never;
    });
    const modern = new Client({ name: "era-test", version: "1.0.0" });
    await modern.connect(transport);
    expect(modern.era).toBe("modern");
    expect(seen).toEqual([]);
    const pinned = new Client({ name: "era-test", version: "1.0.0" }, { protocol: "2025-11-25" });
    await expect(pinned.connect(new InMemoryTransport(async () => ({}) as never))).rejects.toMatchObject({
      code: ClientErrorCode.VersionUnsupported,
    });
  });

  it("refuses an unknown protocol choice", () => {
    expect(() => new Client({ name: "era-test", version: "1.0.0" }, { protocol: "2024-11-06" as never })).toThrow(TypeError);
  });
});

describe("sessions", () => {
  it("on a 404, starts a new session and retries the request once", async () => {
    const server = await legacyServer((m, res) => json(res, { jsonrpc: "2.0", id: m.id, result: text(`on ${m.method}`) }));
    servers.push(server);
    const { client, transport } = await connect(server.url, { protocol: "2025-11-25" });
    expect(transport.sessionId).toBe("session-1");
    server.live.delete("session-1");
    expect(await client.callTool("x", {})).toMatchObject(text("on tools/call"));
    expect(transport.sessionId).toBe("session-2");
    const calls = server.seen.filter((s) => s.method === "tools/call").map((s) => s.session);
    expect(calls).toEqual(["session-1", "session-2"]);
  });

  it("fails when the new session is forgotten too, after one retry", async () => {
    const server = await legacyServer((_m, res) => {
      server.live.clear();
      res.writeHead(404).end();
    });
    servers.push(server);
    const { client } = await connect(server.url, { protocol: "2025-11-25" });
    await expect(client.callTool("x", {})).rejects.toMatchObject({ code: ClientErrorCode.TransportFailed });
    expect(server.seen.filter((s) => s.method === "tools/call")).toHaveLength(2);
    expect(server.seen.filter((s) => s.method === "initialize")).toHaveLength(2);
  });

  it("sends DELETE with the session id on close", async () => {
    const server = await legacyServer(() => {});
    servers.push(server);
    const { client } = await connect(server.url, { protocol: "2025-11-25" });
    await client.close();
    expect(server.seen.at(-1)).toMatchObject({ httpMethod: "DELETE", session: "session-1", version: "2025-11-25" });
    expect(server.live.size).toBe(0);
  });
});

describe("server-to-client requests on a request's SSE stream", () => {
  /** Sends `ask` on the tools/call stream, waits for the client's POSTed answer, then ends the call with it. */
  function asking(ask: Message) {
    let answered: (m: Message) => void = () => {};
    const answer = new Promise<Message>((resolve) => (answered = resolve));
    return {
      answer,
      answered: (m: Message) => answered(m),
      handle: async (m: Message, res: ServerResponse) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`data: ${JSON.stringify(ask)}\n\n`);
        const reply = await answer;
        res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: text(JSON.stringify(reply)) })}\n\n`);
      },
    };
  }

  async function withAsk(ask: Message, options: ClientOptions) {
    const flow = asking(ask);
    const server = await legacyServer(flow.handle);
    servers.push(server);
    // Responses POSTed by the client reach the server's 202 branch; catch them on the way.
    const original = server.seen.push.bind(server.seen);
    server.seen.push = (...items: Seen[]) => {
      for (const item of items) if (item.method === "(response)" && item.body) flow.answered(item.body);
      return original(...items);
    };
    const { client } = await connect(server.url, { protocol: "2025-11-25", ...options });
    await client.callTool("x", {});
    return { reply: await flow.answer, server };
  }

  it("answers -32601 to an elicitation/create when no handler is registered", async () => {
    const { reply, server } = await withAsk(
      {
        jsonrpc: "2.0",
        id: "s1",
        method: "elicitation/create",
        params: { message: "Name?", requestedSchema: { type: "object", properties: {} } },
      },
      {},
    );
    expect(reply).toMatchObject({ jsonrpc: "2.0", id: "s1", error: { code: -32601 } });
    expect(server.seen.find((s) => s.method === "(response)")).toMatchObject({ session: "session-1", version: "2025-11-25" });
  });

  it("answers -32603 at once past maxServerRequests, without calling the handler", async () => {
    let called = 0;
    const { reply } = await withAsk(
      {
        jsonrpc: "2.0",
        id: "s2",
        method: "elicitation/create",
        params: { message: "Name?", requestedSchema: { type: "object", properties: {} } },
      },
      {
        maxServerRequests: 0,
        handlers: {
          elicitation: async () => {
            called++;
            return { action: "decline" };
          },
        },
      },
    );
    expect(reply).toMatchObject({ jsonrpc: "2.0", id: "s2", error: { code: -32603 } });
    expect(called).toBe(0);
  });

  it("answers -32601 to a method the client does not serve", async () => {
    const { reply } = await withAsk({ jsonrpc: "2.0", id: 7, method: "tasks/list", params: {} }, {});
    expect(reply).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it("answers ping with an empty result", async () => {
    const { reply } = await withAsk({ jsonrpc: "2.0", id: 8, method: "ping" }, {});
    expect(reply).toEqual({ jsonrpc: "2.0", id: 8, result: {} });
  });

  it("answers -32602 to elicitation params the 2025-11-25 schema refuses, without calling the handler", async () => {
    let called = false;
    const { reply } = await withAsk(
      { jsonrpc: "2.0", id: 9, method: "elicitation/create", params: { requestedSchema: "not a schema" } },
      {
        handlers: {
          elicitation: () => {
            called = true;
            return { action: "decline" };
          },
        },
      },
    );
    expect(reply).toMatchObject({ id: 9, error: { code: -32602 } });
    expect(called).toBe(false);
  });

  it("answers sampling and roots through the same handlers as Multi Round-Trip", async () => {
    const sampled = await withAsk(
      { jsonrpc: "2.0", id: 10, method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } },
      {
        handlers: {
          sampling: () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "m" }),
        },
      },
    );
    expect(sampled.reply).toEqual({
      jsonrpc: "2.0",
      id: 10,
      result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" },
    });
    const rooted = await withAsk(
      { jsonrpc: "2.0", id: 11, method: "roots/list" },
      { handlers: { roots: () => ({ roots: [{ uri: "file:///work" }] }) } },
    );
    expect(rooted.reply).toEqual({ jsonrpc: "2.0", id: 11, result: { roots: [{ uri: "file:///work" }] } });
  });

  it("answers -32603 when the handler returns what the schema refuses", async () => {
    const { reply } = await withAsk(
      { jsonrpc: "2.0", id: 12, method: "roots/list" },
      { handlers: { roots: () => ({ roots: "none" }) as never } },
    );
    expect(reply).toMatchObject({ id: 12, error: { code: -32603 } });
  });
});

describe("the session's GET stream", () => {
  it("answers a server request sent on it, delivers its notifications, and reopens it with Last-Event-ID", async () => {
    const gets: (string | undefined)[] = [];
    let answered: (m: Message) => void = () => {};
    const answer = new Promise<Message>((resolve) => (answered = resolve));
    const server = await httpServer((req, res, text) => {
      const m = text ? (JSON.parse(text) as Message) : undefined;
      if (req.method === "GET") {
        gets.push(req.headers["last-event-id"] as string | undefined);
        res.writeHead(200, { "content-type": "text/event-stream" });
        if (gets.length === 1) {
          res.end(`id: g1\nretry: 10\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: "r1", method: "roots/list" })}\n\n`);
        } else {
          res.write(`id: g2\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })}\n\n`);
        }
        return;
      }
      if (m?.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: m.id,
            result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "g", version: "1" } },
          }),
        );
        return;
      }
      if (m && m.method === undefined) answered(m);
      res.writeHead(202).end();
    });
    servers.push(server);
    let changed: () => void = () => {};
    const listChanged = new Promise<void>((resolve) => (changed = resolve));
    await connect(server.url, {
      protocol: "2025-11-25",
      handlers: { roots: () => ({ roots: [{ uri: "file:///r" }] }) },
      onNotification: (n) => {
        if (n.method === "notifications/tools/list_changed") changed();
      },
    });
    expect(await answer).toEqual({ jsonrpc: "2.0", id: "r1", result: { roots: [{ uri: "file:///r" }] } });
    await listChanged;
    expect(gets).toEqual([undefined, "g1"]);
  });
});

describe("resuming a broken SSE stream", () => {
  it("resumes with Last-Event-ID after the server's retry, and gets the response on the GET stream", async () => {
    let callId: Message["id"];
    const server = await legacyServer((m, res, req) => {
      if (req.method === "POST") {
        callId = m.id;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `id: e1\nretry: 20\ndata: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "x", progress: 1 } })}\n\n`,
        );
        // The connection drops mid-stream.
        setTimeout(() => req.socket.destroy(), 10);
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`id: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: callId, result: text("resumed") })}\n\n`);
    });
    servers.push(server);
    const { client } = await connect(server.url, { protocol: "2025-11-25" });
    expect(await client.callTool("x", {})).toMatchObject(text("resumed"));
    const resumed = server.seen.filter((s) => s.httpMethod === "GET" && s.lastEventId !== undefined);
    expect(resumed).toEqual([expect.objectContaining({ lastEventId: "e1", session: "session-1", version: "2025-11-25" })]);
  });

  it("gives up with stream_broken after maxResumeAttempts", async () => {
    const server = await legacyServer((_m, res, req) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`id: e${server.seen.length}\nretry: 1\ndata: \n\n`);
      setTimeout(() => req.socket.destroy(), 5);
    });
    servers.push(server);
    const { client } = await connect(
      server.url,
      { protocol: "2025-11-25" },
      new StreamableHttpTransport(server.url, { maxResumeAttempts: 2 }),
    );
    await expect(client.callTool("x", {})).rejects.toMatchObject({
      code: ClientErrorCode.TransportFailed,
      data: { reason: "stream_broken" },
    });
    expect(server.seen.filter((s) => s.httpMethod === "GET" && s.lastEventId !== undefined)).toHaveLength(2);
  });

  it("does not resume a stream without event ids", async () => {
    const server = await legacyServer((_m, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end();
    });
    servers.push(server);
    const { client } = await connect(server.url, { protocol: "2025-11-25" });
    await expect(client.callTool("x", {})).rejects.toMatchObject({ data: { reason: "stream_broken" } });
    expect(server.seen.filter((s) => s.lastEventId !== undefined)).toHaveLength(0);
  });
});

describe("cancellation", () => {
  it("sends notifications/cancelled with the request id when the caller aborts", async () => {
    const server = await legacyServer((_m, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": waiting\n\n");
    });
    servers.push(server);
    const { client } = await connect(server.url, { protocol: "2025-11-25" });
    const controller = new AbortController();
    const call = client.callTool("x", {}, { signal: controller.signal });
    while (!server.seen.some((s) => s.method === "tools/call")) await new Promise((r) => setImmediate(r));
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    const id = server.seen.find((s) => s.method === "tools/call")!.body!.id;
    while (!server.seen.some((s) => s.method === "notifications/cancelled")) await new Promise((r) => setImmediate(r));
    expect(server.seen.find((s) => s.method === "notifications/cancelled")!.body!.params).toMatchObject({ requestId: id });
  });
});

describe("the cache in the initialize era", () => {
  it("never caches without ttlMs, unless legacyCacheTtlMs asks", async () => {
    const server = await legacyServer((m, res) => json(res, { jsonrpc: "2.0", id: m.id, result: { tools: [] } }));
    servers.push(server);
    const plain = await connect(server.url, { protocol: "2025-11-25" });
    await plain.client.listTools();
    await plain.client.listTools();
    expect(server.seen.filter((s) => s.method === "tools/list")).toHaveLength(2);
    const cached = await connect(server.url, { protocol: "2025-11-25", legacyCacheTtlMs: 60_000 });
    await cached.client.listTools();
    await cached.client.listTools();
    expect(server.seen.filter((s) => s.method === "tools/list")).toHaveLength(3);
  });
});
