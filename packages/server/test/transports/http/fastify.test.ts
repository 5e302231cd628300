// The node handler under real Fastify, over real HTTP on 127.0.0.1: with a
// pass-through body parser (the handler reads the stream), with Fastify's own
// JSON parser and the parsed body handed over, and with Fastify's parser and
// nothing handed over (a clear 400 at once, not a wait).
import type { IncomingMessage } from "node:http";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeHandler } from "../../../src/index.js";
import { headersFor, request, rpc, testServer } from "../../helpers.js";

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) {
    app.server.closeAllConnections();
    await app.close();
  }
});

async function start(app: FastifyInstance): Promise<string> {
  apps.push(app);
  return `${await app.listen({ port: 0, host: "127.0.0.1" })}/mcp`;
}

describe("Fastify", () => {
  it("with a pass-through body parser, the handler reads the body itself", async () => {
    const handler = createNodeHandler(testServer(), { path: "/mcp", maxBodyBytes: 1024 });
    const app = Fastify();
    await app.register(async (mcp) => {
      mcp.removeAllContentTypeParsers();
      mcp.addContentTypeParser("*", (_request, _payload, done) => done(null));
      mcp.all("/mcp", (req, reply) => {
        reply.hijack();
        handler(req.raw, reply.raw);
      });
    });
    const url = await start(app);
    const answer = await rpc(url, "tools/call", { name: "sum", arguments: { a: 1, b: 2 } });
    expect(answer.status).toBe(200);
    expect(answer.json.result.structuredContent).toEqual({ sum: 3 });
    // The handler's own limit applies, not Fastify's bodyLimit.
    const big = await rpc(url, "tools/call", { name: "echo", arguments: { text: "z".repeat(2000) } });
    expect(big.status).toBe(413);
  });

  it("with Fastify's JSON parser, the parsed body handed over as req.body is used", async () => {
    const handler = createNodeHandler(testServer(), { path: "/mcp" });
    const app = Fastify();
    app.post("/mcp", (req, reply) => {
      reply.hijack();
      handler(Object.assign(req.raw, { body: req.body }) as IncomingMessage, reply.raw);
    });
    const url = await start(app);
    const answer = await rpc(url, "tools/call", { name: "echo", arguments: { text: "from fastify" } });
    expect(answer.status).toBe(200);
    expect(answer.json.result.content).toEqual([{ type: "text", text: "from fastify" }]);
  });

  it("with Fastify's JSON parser and nothing handed over: 400, -32700 at once", async () => {
    const handler = createNodeHandler(testServer(), { path: "/mcp" });
    const app = Fastify();
    app.post("/mcp", (req, reply) => {
      reply.hijack();
      handler(req.raw, reply.raw);
    });
    const url = await start(app);
    const body = request("tools/list");
    const response = await fetch(url, {
      method: "POST",
      headers: headersFor(body),
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(400);
    const json = await response.json();
    expect(json.error.code).toBe(-32700);
    expect(json.error.message).toContain("already read before the MCP handler");
  });
});
