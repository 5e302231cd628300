// Interoperability in the initialize era: @x/client against the official
// TypeScript SDK's server (@modelcontextprotocol/server 2.4.0) serving
// 2025-11-25 with sessions (its WebStandardStreamableHTTPServerTransport, an
// event store for resumability), alone and beside its 2026-07-28 handler on
// one endpoint, over a real node:http server on 127.0.0.1.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createMcpHandler,
  type EventStore,
  fromJsonSchema,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type ClientOptions, type JSONRPCNotification, StreamableHttpTransport } from "../src/index.js";

/** An in-memory event store: every message kept under its stream, replayed after an id. */
function memoryEventStore(): EventStore {
  const events: { id: string; stream: string; message: unknown }[] = [];
  return {
    async storeEvent(stream, message) {
      const id = `${stream}_${events.length}`;
      events.push({ id, stream, message });
      return id;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((e) => e.id === lastEventId);
      if (at === -1) return "";
      const stream = events[at]!.stream;
      for (const e of events.slice(at + 1)) if (e.stream === stream) await send(e.id, e.message as never);
      return stream;
    },
  };
}

function officialServer(): McpServer {
  const server = new McpServer(
    { name: "official-legacy-server", version: "2.4.0" },
    { capabilities: { logging: {}, resources: { subscribe: true, listChanged: true } } },
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: fromJsonSchema<{ a: number; b: number }>({
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      }),
    },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool(
    "count",
    {
      description: "Counts to n, reporting progress and logging",
      inputSchema: fromJsonSchema<{ n: number }>({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }),
    },
    async ({ n }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= n; i++) {
        if (progressToken !== undefined)
          await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: i, total: n } });
      }
      await ctx.mcpReq.log("info", `counted to ${n}`);
      return { content: [{ type: "text", text: `counted to ${n}` }] };
    },
  );
  server.registerTool(
    "deploy",
    {
      description: "Asks the user on the session, then deploys",
      inputSchema: fromJsonSchema<{ env: string }>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    },
    async ({ env }, ctx) => {
      const answer = await ctx.mcpReq.elicitInput({
        message: `Deploy to ${env}?`,
        requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
      });
      const confirmed = answer.action === "accept" && answer.content?.confirm === true;
      return { content: [{ type: "text", text: confirmed ? `Deployed to ${env}` : `not deployed (${answer.action})` }] };
    },
  );
  server.registerTool(
    "touch",
    {
      description: "Changes a resource, telling subscribers",
      inputSchema: fromJsonSchema<{ uri: string }>({ type: "object", properties: { uri: { type: "string" } }, required: ["uri"] }),
    },
    async ({ uri }) => {
      await server.server.sendResourceUpdated({ uri });
      return { content: [{ type: "text", text: `touched ${uri}` }] };
    },
  );
  server.registerTool(
    "slow",
    { description: "Closes its SSE stream, then answers", inputSchema: fromJsonSchema<Record<string, never>>({ type: "object" }) },
    async (_args, ctx) => {
      ctx.http?.closeSSE?.();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { content: [{ type: "text", text: "answered after the stream broke" }] };
    },
  );
  server.registerResource("config", "config://app", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, text: "log_level=info" }],
  }));
  const subscribed = new Set<string>();
  server.server.setRequestHandler("resources/subscribe", async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler("resources/unsubscribe", async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  return server;
}

/** The earlier era with sessions: one official transport and server per `Mcp-Session-Id`. */
function legacyHandler() {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const handle = async (request: Request, body: unknown): Promise<Response> => {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const transport = sessions.get(id);
      if (!transport) return new Response("Session not found", { status: 404 });
      return transport.handleRequest(request, { parsedBody: body });
    }
    if (request.method !== "POST" || (body as { method?: unknown } | undefined)?.method !== "initialize") {
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null },
        { status: 400 },
      );
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: memoryEventStore(),
      retryInterval: 100,
      onsessioninitialized: (sid) => {
        sessions.set(sid, transport);
      },
      onsessionclosed: (sid) => {
        sessions.delete(sid);
      },
    });
    await officialServer().connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  };
  return { sessions, handle };
}

interface Served {
  url: string;
  http: Server;
  sessions: Map<string, WebStandardStreamableHTTPServerTransport>;
  methods: string[];
}

/**
 * A node:http → fetch bridge. `"legacy"`: the sessions only; `"dual"`: 2026
 * requests to the SDK's createMcpHandler, the rest to the sessions;
 * `"stateless"`: createMcpHandler alone, with its default stateless legacy leg.
 */
async function serve(mode: "legacy" | "dual" | "stateless"): Promise<Served> {
  const legacy = legacyHandler();
  const modern = createMcpHandler(officialServer, { legacy: mode === "stateless" ? "stateless" : "reject" });
  const dual = mode !== "legacy";
  const methods: string[] = [];
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const raw = Buffer.concat(chunks);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "POST" ? raw : undefined,
    });
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw.toString("utf8")) : undefined;
    } catch {
      body = undefined;
    }
    const method = (body as { method?: unknown } | undefined)?.method;
    const resume = typeof req.headers["last-event-id"] === "string" ? " (Last-Event-ID)" : "";
    methods.push(`${req.method} ${typeof method === "string" ? method : "-"}${resume}`);
    const response =
      dual && !(await isLegacyRequest(request.clone(), body)) ? await modern.fetch(request) : await legacy.handle(request, body);
    response.headers.forEach((value, name) => {
      res.setHeader(name, value);
    });
    res.writeHead(response.status);
    res.flushHeaders();
    const reader = response.body?.getReader();
    res.on("close", () => {
      reader?.cancel().catch(() => {});
    });
    try {
      for (let step = await reader?.read(); step && !step.done; step = await reader?.read()) res.write(step.value);
    } catch {
      // The client went away.
    }
    res.end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, http, sessions: legacy.sessions, methods };
}

async function stop(served: Served): Promise<void> {
  served.http.closeAllConnections();
  await new Promise((resolve) => served.http.close(resolve));
}

let legacyOnly: Served;
let dual: Served;
let stateless: Served;

beforeAll(async () => {
  legacyOnly = await serve("legacy");
  dual = await serve("dual");
  stateless = await serve("stateless");
});

afterAll(async () => {
  await stop(legacyOnly);
  await stop(dual);
  await stop(stateless);
});

async function connect(served: Served, options: ClientOptions = {}) {
  const client = new Client({ name: "x-interop", version: "1.0.0" }, { onWarning: () => {}, ...options });
  const transport = new StreamableHttpTransport(served.url);
  await client.connect(transport);
  return { client, transport };
}

describe("@x/client (auto) against an official server of the initialize era only", () => {
  it("probes, falls back to initialize, and speaks 2025-11-25 on a session", async () => {
    const before = legacyOnly.methods.length;
    const { client, transport } = await connect(legacyOnly);
    expect(client.era).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({ name: "official-legacy-server" });
    expect(transport.sessionId).toBeDefined();
    expect(legacyOnly.sessions.has(transport.sessionId!)).toBe(true);
    expect(legacyOnly.methods.slice(before, before + 3)).toEqual([
      "POST server/discover",
      "POST initialize",
      "POST notifications/initialized",
    ]);
    const sid = transport.sessionId!;
    await client.close();
    // DELETE ended the session on the server.
    expect(legacyOnly.sessions.has(sid)).toBe(false);
  });

  it("lists and calls tools, reads a resource, with results of 2025-11-25's shapes", async () => {
    const { client } = await connect(legacyOnly);
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["add", "count", "deploy", "touch", "slow"]);
    expect(await client.callTool("add", { a: 2, b: 40 })).toMatchObject({ content: [{ type: "text", text: "42" }] });
    expect(await client.readResource("config://app")).toMatchObject({ contents: [{ uri: "config://app", text: "log_level=info" }] });
    await client.close();
  });

  it("answers the server's elicitation/create on the session with the client's handler", async () => {
    const asked: string[] = [];
    const { client } = await connect(legacyOnly, {
      handlers: {
        elicitation: async (params) => {
          asked.push(params.message);
          return { action: "accept", content: { confirm: true } };
        },
      },
    });
    expect(await client.callTool("deploy", { env: "prod" })).toMatchObject({ content: [{ text: "Deployed to prod" }] });
    expect(asked).toEqual(["Deploy to prod?"]);
    await client.close();
  });

  it("close() while the server's question waits fails the call with reason closed, though DELETE ends its stream first", async () => {
    let asked: () => void = () => {};
    const asking = new Promise<void>((resolve) => (asked = resolve));
    const { client } = await connect(legacyOnly, {
      handlers: {
        elicitation: () => {
          asked();
          return new Promise<never>(() => {});
        },
      },
    });
    const call = client.callTool("deploy", { env: "prod" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await asking;
    await client.close();
    expect(await call).toMatchObject({ code: -32000, data: { reason: "closed" } });
  });

  it("declares no elicitation capability without a handler, so the official server does not ask", async () => {
    const { client } = await connect(legacyOnly);
    const outcome = await client.callTool("deploy", { env: "prod" });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toEqual([{ type: "text", text: expect.stringMatching(/does not support form elicitation/) }]);
    await client.close();
  });

  it("delivers progress to onProgress and log messages to onNotification", async () => {
    const session: JSONRPCNotification[] = [];
    const { client } = await connect(legacyOnly, { onNotification: (n) => session.push(n), logLevel: "debug" });
    const progress: number[] = [];
    const result = await client.callTool("count", { n: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result).toMatchObject({ content: [{ text: "counted to 3" }] });
    expect(progress).toEqual([1, 2, 3]);
    expect(session.filter((n) => n.method === "notifications/message").map((n) => n.params?.data)).toEqual(["counted to 3"]);
    await client.close();
  });

  it("subscribes to a resource and receives its update notification, through listen() too", async () => {
    let updated: (n: JSONRPCNotification) => void = () => {};
    const arrived = new Promise<JSONRPCNotification>((resolve) => (updated = resolve));
    const { client } = await connect(legacyOnly, {
      onNotification: (n) => {
        if (n.method === "notifications/resources/updated") updated(n);
      },
    });
    await client.subscribeResource("config://app");
    await client.callTool("touch", { uri: "config://app" });
    // Sent on the session's GET stream, so it may come after the tool's response.
    expect((await arrived).params).toEqual({ uri: "config://app" });

    const subscription = client.listen({ resourceSubscriptions: ["config://app"] });
    expect(await subscription.acknowledged).toEqual({ resourceSubscriptions: ["config://app"] });
    await client.callTool("touch", { uri: "config://app" });
    const iterator = subscription[Symbol.asyncIterator]();
    const next = await iterator.next();
    expect(next.value).toMatchObject({ method: "notifications/resources/updated", params: { uri: "config://app" } });
    await subscription.close();
    expect(await subscription.ended).toEqual({ graceful: false });
    await client.close();
  });

  it("resumes a request's SSE stream the server closed, with Last-Event-ID, and gets the response", async () => {
    const before = legacyOnly.methods.length;
    const { client } = await connect(legacyOnly);
    const result = await client.callTool("slow", {});
    expect(result).toMatchObject({ content: [{ text: "answered after the stream broke" }] });
    // The resumption is a GET after the tools/call POST (beside the session's own GET stream).
    const after = legacyOnly.methods.slice(before);
    const call = after.indexOf("POST tools/call");
    expect(call).toBeGreaterThan(-1);
    expect(after.slice(call + 1)).toContain("GET - (Last-Event-ID)");
    await client.close();
  });

  it("starts a new session when the server forgets the old one (404) and retries the request once", async () => {
    const { client, transport } = await connect(legacyOnly);
    const first = transport.sessionId!;
    legacyOnly.sessions.delete(first);
    expect(await client.callTool("add", { a: 1, b: 2 })).toMatchObject({ content: [{ text: "3" }] });
    expect(transport.sessionId).toBeDefined();
    expect(transport.sessionId).not.toBe(first);
    await client.close();
  });

  it("pinned to 2025-11-25, connects without a probe", async () => {
    const before = legacyOnly.methods.length;
    const { client } = await connect(legacyOnly, { protocol: "2025-11-25" });
    expect(client.era).toBe("legacy");
    expect(legacyOnly.methods[before]).toBe("POST initialize");
    await client.close();
  });

  it("pinned to 2026-07-28, fails clearly on the first request", async () => {
    const { client } = await connect(legacyOnly, { protocol: "2026-07-28" });
    expect(client.era).toBe("modern");
    const failure = await client.listTools().catch((e) => e);
    expect(failure).toMatchObject({ code: -32000 });
    await client.close();
  });
});

describe("@x/client against an official server of both eras on one endpoint", () => {
  it("auto stays modern: the probe is answered with a DiscoverResult", async () => {
    const { client, transport } = await connect(dual);
    expect(client.era).toBe("modern");
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(transport.sessionId).toBeUndefined();
    expect(await client.callTool("add", { a: 2, b: 40 })).toMatchObject({ content: [{ text: "42" }] });
    await client.close();
  });

  it("pinned to 2025-11-25, gets a session and the same results", async () => {
    const asked: string[] = [];
    const { client, transport } = await connect(dual, {
      protocol: "2025-11-25",
      handlers: {
        elicitation: (params) => {
          asked.push(params.message);
          return { action: "decline" };
        },
      },
    });
    expect(client.era).toBe("legacy");
    expect(transport.sessionId).toBeDefined();
    expect(await client.callTool("add", { a: 2, b: 40 })).toMatchObject({ content: [{ text: "42" }] });
    expect(await client.callTool("deploy", { env: "dev" })).toMatchObject({ content: [{ text: "not deployed (decline)" }] });
    expect(asked).toEqual(["Deploy to dev?"]);
    await client.close();
  });
});

describe("@x/client pinned to 2025-11-25 against createMcpHandler's stateless legacy leg", () => {
  it("initializes and calls tools, one fresh server instance per request", async () => {
    const { client } = await connect(stateless, { protocol: "2025-11-25" });
    expect(client.era).toBe("legacy");
    expect((await client.listAllTools()).map((t) => t.name)).toContain("add");
    expect(await client.callTool("add", { a: 20, b: 22 })).toMatchObject({ content: [{ text: "42" }] });
    await client.close();
  });
});
