// The official @modelcontextprotocol/server under test, wired as its
// documentation shows: createMcpHandler(factory) mounted on node:http with
// toNodeHandler and the localhost Host/Origin guards from
// @modelcontextprotocol/node, tools declared with zod.
//
//   node official.mjs                 a new McpServer per request (the documented factory)
//   node official.mjs --once          one McpServer built at start, returned by the factory
//   node official.mjs --stdio         serveStdio(factory)
//   node official.mjs --sessions      the earlier era (2025-11-25) with sessions:
//                                     one McpServer and NodeStreamableHTTPServerTransport
//                                     per session, kept in a Map by Mcp-Session-Id
//
// The SDK itself ends a session only on DELETE (or when the transport is
// closed); `--idle-ms=N` adds what a deployment has to write itself: a
// sweep that closes sessions without a request for N ms. With an IPC
// channel every mode answers memory questions (memory.mjs).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, isInitializeRequest, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod/v4";
import { answerMemoryQuestions, numberFlag } from "./memory.mjs";
import { add, echo, SERVER_INFO } from "./tools.mjs";

function build() {
  const server = new McpServer(SERVER_INFO);
  server.registerTool("echo", { description: "Echoes the text", inputSchema: z.object({ text: z.string() }) }, echo);
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    add,
  );
  return server;
}

/** A JSON-RPC error answer written by this wiring (not by the SDK). */
function refuse(res, status, message) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
}

function readJson(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** The sessionful earlier-era wiring: the SDK's transport per session, routed by Mcp-Session-Id. */
function sessionsHandler() {
  /** Session id -> { server, transport, lastSeen (ms) }. */
  const sessions = new Map();
  const idleMs = numberFlag("idle-ms");
  if (idleMs > 0) {
    const sweep = setInterval(
      () => {
        const now = Date.now();
        for (const [id, s] of sessions) {
          if (now - s.lastSeen < idleMs) continue;
          sessions.delete(id);
          void s.server.close();
        }
      },
      Math.max(10, Math.min(idleMs / 2, 60_000)),
    );
    sweep.unref();
  }
  return async (req, res) => {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session) return refuse(res, 404, "Session not found");
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res);
      session.lastSeen = Date.now();
      return;
    }
    if (req.method !== "POST") return refuse(res, 400, "Bad Request: Mcp-Session-Id required");
    const body = await readJson(req);
    if (!isInitializeRequest(body)) return refuse(res, 400, "Bad Request: Mcp-Session-Id required");
    const server = build();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) => {
        sessions.set(sid, { server, transport, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };
}

answerMemoryQuestions();

if (process.argv.includes("--stdio")) {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  serveStdio(build);
} else {
  let factory = build;
  if (process.argv.includes("--once")) {
    const shared = build();
    factory = () => shared;
  }
  const nodeHandler = process.argv.includes("--sessions") ? sessionsHandler() : toNodeHandler(createMcpHandler(factory));
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void nodeHandler(req, res);
  });
  http.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` })}\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}
