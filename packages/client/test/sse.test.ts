// The deprecated HTTP+SSE transport of 2024-11-05: @x/client against the v1
// SDK 1.32's SSEServerTransport (McpServer) over node:http on 127.0.0.1,
// pinned with SseTransport and reached by the fallback of
// StreamableHttpTransport, and against hand-written servers for what a real
// server should not do (an endpoint on another origin, a refused GET).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  type ClientOptions,
  type JSONRPCNotification,
  McpClientError,
  SseTransport,
  StreamableHttpTransport,
} from "../src/index.js";

interface Running {
  server: Server;
  url: string;
  /** The SSE responses open now, to end one from the server's side. */
  streams: Set<ServerResponse>;
  /** Resolves when the `wait` tool starts. */
  started: Promise<void>;
  /** Resolves when the server saw the `wait` tool cancelled. */
  cancelled: Promise<void>;
}

function v1Server(streams: Set<ServerResponse>, onStarted: () => void, onCancelled: () => void): McpServer {
  const mcp = new McpServer({ name: "v1-sse", version: "1.32.2" }, { capabilities: { logging: {} } });
  mcp.registerTool("greet", { description: "Says hello" }, async () => {
    await mcp.server.sendLoggingMessage({ level: "info", data: "greeting" });
    return { content: [{ type: "text", text: "hello" }] };
  });
  mcp.registerTool("ask", { description: "Asks the user on the session" }, async () => {
    const answer = await mcp.server.elicitInput({
      message: "Proceed?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return { content: [{ type: "text", text: `${answer.action}:${JSON.stringify(answer.content)}` }] };
  });
  mcp.registerTool("sample", { description: "Asks the client's model" }, async () => {
    const reply = await mcp.server.createMessage({
      messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
      maxTokens: 16,
    });
    return { content: [{ type: "text", text: `model said ${(reply.content as { text?: string }).text}` }] };
  });
  mcp.registerTool("drop", { description: "Ends the SSE stream before answering" }, async () => {
    for (const res of streams) res.destroy();
    return new Promise<never>(() => {});
  });
  mcp.registerTool("wait", { description: "Waits until cancelled" }, async (extra) => {
    onStarted();
    await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
    onCancelled();
    return { content: [] };
  });
  return mcp;
}

/** The v1 SDK's HTTP+SSE server: GET /sse opens a session, POST /messages?sessionId= carries the client's messages; anything else is 404. */
async function startV1(): Promise<Running> {
  const streams = new Set<ServerResponse>();
  const transports = new Map<string, SSEServerTransport>();
  let onStarted!: () => void;
  const started = new Promise<void>((resolve) => {
    onStarted = resolve;
  });
  let onCancelled!: () => void;
  const cancelled = new Promise<void>((resolve) => {
    onCancelled = resolve;
  });
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "GET" && path === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      streams.add(res);
      res.on("close", () => {
        streams.delete(res);
        transports.delete(transport.sessionId);
      });
      await v1Server(streams, onStarted, onCancelled).connect(transport);
      return;
    }
    if (req.method === "POST" && path === "/messages") {
      const id = new URL(req.url ?? "/", "http://localhost").searchParams.get("sessionId") ?? "";
      const transport = transports.get(id);
      if (!transport) {
        res.writeHead(404).end("Session not found");
        return;
      }
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end("Not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`, streams, started, cancelled };
}

/** A node:http server answering every request with `handle`; counts the requests it saw. */
async function startRaw(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const handlers: ClientOptions["handlers"] = {
  elicitation: async (params) => ({ action: "accept", content: { ok: params.message === "Proceed?" } }),
  sampling: async () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" }),
};

function reasonOf(error: unknown): unknown {
  return error instanceof McpClientError ? (error.data as { reason?: unknown } | undefined)?.reason : undefined;
}

describe("HTTP+SSE (2024-11-05) against the v1 SDK's SSEServerTransport", () => {
  let v1: Running;
  beforeAll(async () => {
    v1 = await startV1();
  });
  afterAll(async () => {
    await stop(v1.server);
  });

  for (const mode of ["pinned SseTransport", "auto fallback of StreamableHttpTransport"] as const) {
    it(`${mode}: connects, lists, calls, and answers elicitation and sampling`, async () => {
      const notes: JSONRPCNotification[] = [];
      const client = new Client(
        { name: "sse-test", version: "1.0.0" },
        { handlers, onWarning: () => {}, onNotification: (n) => notes.push(n), logLevel: "info" },
      );
      const transport = mode === "pinned SseTransport" ? new SseTransport(v1.url) : new StreamableHttpTransport(v1.url);
      await client.connect(transport);
      expect(client.era).toBe("legacy");
      expect(client.serverInfo).toMatchObject({ name: "v1-sse" });
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(["greet", "ask", "sample", "drop", "wait"]);
      expect(await client.callTool("greet")).toMatchObject({ content: [{ type: "text", text: "hello" }] });
      expect(notes).toContainEqual(
        expect.objectContaining({ method: "notifications/message", params: expect.objectContaining({ data: "greeting" }) }),
      );
      expect(await client.callTool("ask")).toMatchObject({ content: [{ text: 'accept:{"ok":true}' }] });
      expect(await client.callTool("sample")).toMatchObject({ content: [{ text: "model said hi" }] });
      await client.close();
    });
  }

  it("pinned SseTransport under protocol auto: initialize first, no server/discover probe (the binding carries only sessions)", async () => {
    const posted: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      if (init?.method === "POST" && typeof init.body === "string")
        posted.push((JSON.parse(init.body) as { method?: string }).method ?? "(response)");
      return fetch(input, init);
    };
    const client = new Client({ name: "sse-test", version: "1.0.0" }, { onWarning: () => {} });
    await client.connect(new SseTransport(v1.url, { fetch: recording }));
    expect(client.era).toBe("legacy");
    expect(posted[0]).toBe("initialize");
    expect(posted).not.toContain("server/discover");
    await client.close();
  });

  it("cancels a call on abort with notifications/cancelled", async () => {
    const client = new Client({ name: "sse-test", version: "1.0.0" }, { onWarning: () => {} });
    await client.connect(new SseTransport(v1.url));
    const controller = new AbortController();
    const call = client.callTool("wait", {}, { signal: controller.signal });
    await v1.started;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: -32800 });
    await v1.cancelled;
    await client.close();
  });

  it("fails a request waiting on a stream that ends with a clear transport error", async () => {
    const client = new Client({ name: "sse-test", version: "1.0.0" }, { onWarning: () => {} });
    await client.connect(new SseTransport(v1.url));
    const error = await client.callTool("drop").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect((error as McpClientError).code).toBe(-32000);
    expect(reasonOf(error)).toBe("stream_broken");
    expect((error as Error).message).toMatch(
      /^The SSE stream from http:\/\/127\.0\.0\.1:\d+\/sse (ended|broke off .*) before the response arrived$/,
    );
    // The session went with the stream: the next call starts a new one on a new stream.
    expect(await client.callTool("greet")).toMatchObject({ content: [{ text: "hello" }] });
    await client.close();
  });

  it("keeps the 404 when the fallback is turned off", async () => {
    const client = new Client({ name: "sse-test", version: "1.0.0" }, { onWarning: () => {} });
    const error = await client.connect(new StreamableHttpTransport(v1.url, { legacySseFallback: false })).catch((e: unknown) => e);
    expect(reasonOf(error)).toBe("http_error");
    expect((error as Error).message).toMatch(/^HTTP 404 from .*\/sse/);
  });
});

describe("HTTP+SSE: what a server must not do", () => {
  it("refuses an endpoint on another origin, and sends nothing there", async () => {
    const elsewhere = await startRaw((_req, res) => res.writeHead(202).end());
    const sse = await startRaw((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`event: endpoint\ndata: ${elsewhere.origin}/messages\n\n`);
    });
    try {
      const client = new Client({ name: "sse-test", version: "1.0.0" }, { onWarning: () => {}, protocol: "2025-11-25" });
      const error = await client
        .connect(new SseTransport(`${sse.origin}/sse`, { headers: { authorization: "Bearer secret" } }))
        .catch((e: unknown) => e);
      expect(reasonOf(error)).toBe("invalid_message");
      expect((error as Error).message).toMatch(/endpoint .* outside http:\/\/127\.0\.0\.1:\d+/);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await stop(sse.server);
      await stop(elsewhere.server);
    }
  });

  it("ends the stream on an event over maxMessageBytes, failing the waiting request", async () => {
    const open: ServerResponse[] = [];
    const sse = await startRaw((req, res) => {
      if (req.method === "GET") {
        open.push(res);
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("event: endpoint\ndata: /messages\n\n");
        return;
      }
      // The answer to the client's POST: one event far over the bound, never ended by a blank line.
      res.writeHead(202).end(() => {
        for (const stream of open) stream.write(`data: ${"x".repeat(4096)}`);
      });
    });
    try {
      const client = new Client({ name: "sse-test", version: "1.0.0" }, { onWarning: () => {}, protocol: "2025-11-25" });
      const error = await client.connect(new SseTransport(`${sse.origin}/sse`, { maxMessageBytes: 1024 })).catch((e: unknown) => e);
      expect(reasonOf(error)).toBe("message_too_large");
    } finally {
      await stop(sse.server);
    }
  });

  it("names both attempts when the GET of the fallback is refused too", async () => {
    const none = await startRaw((_req, res) => res.writeHead(404).end("Not found"));
    try {
      const client = new Client({ name: "sse-test", version: "1.0.0" }, { onWarning: () => {} });
      const error = await client.connect(new StreamableHttpTransport(`${none.origin}/mcp`)).catch((e: unknown) => e);
      expect(reasonOf(error)).toBe("http_error");
      expect((error as Error).message).toMatch(
        /^HTTP 404 from \S+\/mcp: Not found \(Streamable HTTP\); the fallback to HTTP\+SSE \(2024-11-05\) failed too: HTTP 404 from GET \S+\/mcp$/,
      );
      expect(none.seen).toEqual(["POST /mcp", "POST /mcp", "GET /mcp"]);
    } finally {
      await stop(none.server);
    }
  });
});
