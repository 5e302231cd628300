// The node handler under real Fastify, over real HTTP on 127.0.0.1: with a
// pass-through body parser (the handler reads the stream), with Fastify's own
// JSON parser and the parsed body handed over, and with Fastify's parser and
// nothing handed over (a clear 400 at once, not a wait); in a plug-in with a
// prefix (the path option and the route agree, or the 404 says why); and a
// body that never arrives, which Fastify's server (no request timeout by
// default) would wait for forever, bounded by bodyTimeoutMs.
import type { IncomingMessage } from "node:http";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeHandler } from "../../../src/index.js";
import { headersFor, parseRawAnswer, request, rpc, stalledPost, testServer } from "../../helpers.js";

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

  it("in a plug-in registered with a prefix: the path option names the whole path, and a relative one gets 404 saying so", async () => {
    const mount = (path: string) => async (mcp: FastifyInstance) => {
      const handler = createNodeHandler(testServer(), { path });
      mcp.removeAllContentTypeParsers();
      mcp.addContentTypeParser("*", (_request, _payload, done) => done(null));
      mcp.all("/mcp", (req, reply) => {
        reply.hijack();
        handler(req.raw, reply.raw);
      });
    };
    const app = Fastify();
    await app.register(mount("/api/mcp"), { prefix: "/api" });
    await app.register(mount("/mcp"), { prefix: "/v2" });
    const base = (await start(app)).replace(/\/mcp$/, "");
    const ok = await rpc(`${base}/api/mcp`, "tools/list");
    expect(ok.status).toBe(200);
    expect(ok.json.result.tools.map((t: { name: string }) => t.name)).toContain("echo");
    const refused = await rpc(`${base}/v2/mcp`, "tools/list");
    expect(refused.status).toBe(404);
    expect(refused.json.error.code).toBe(-32600);
    expect(refused.json.error.message).toContain('"/v2/mcp" is not the MCP endpoint "/mcp"');
    expect(refused.json.error.message).toContain('mounted under "/v2", it must be "/v2/mcp"');
  });

  it("a body that never all arrives gets 408 within bodyTimeoutMs, though Fastify's own server would wait forever", async () => {
    const handler = createNodeHandler(testServer(), { path: "/mcp", bodyTimeoutMs: 300 });
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
    // Fastify's default: its node:http server has no request timeout.
    expect(app.server.requestTimeout).toBe(0);
    const raw = await stalledPost(url, 2048, 100, 120_000);
    expect(raw).toBeDefined();
    const answer = parseRawAnswer(raw!);
    expect(answer.status).toBe("HTTP/1.1 408 Request Timeout");
    expect(answer.headers).toContain("connection: close");
    expect(answer.json.error).toEqual({ code: -32600, message: "Request timeout: the body did not arrive within 300 ms (bodyTimeoutMs)" });
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
