// The example server mounted in real web frameworks, each on 127.0.0.1 with
// a free port: the few lines packages/server/README.md ("Frameworks") gives
// for each. The framework tests drive these mounts with @x/client and with the
// official client.
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createFetchHandler, createNodeHandler, type McpServer } from "@x/server";
import { bodyParserErrors } from "@x/server/express";
import express5 from "express";
import express4 from "express4";
import Fastify from "fastify";
import { Hono } from "hono";
import { createExampleServer } from "../src/tools.js";

/** A running framework app: the MCP endpoint's URL and how to stop it. */
export interface Mounted {
  url: string;
  stop(): Promise<void>;
}

/** Closes a `node:http` server and every connection still open on it (an SSE stream of the initialize era may be). */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  server.close();
  if (server.listening) await once(server, "close");
}

/** The base URL (`http://127.0.0.1:<port>`) of `server` once it listens. */
export async function listening(server: Server): Promise<string> {
  if (!server.listening) await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Express = typeof express5;

/**
 * Express (`express5` or `express4`) with `app.use("/mcp", handler)`; when
 * `json`, behind `express.json()`, whose refusals `bodyParserErrors()` answers.
 */
export async function withExpress(express: Express, json: boolean, server: McpServer = createExampleServer()): Promise<Mounted> {
  const app = express();
  if (json) {
    app.use(express.json({ limit: "4mb" }));
    app.use("/mcp", createNodeHandler(server, { path: "/mcp" }), bodyParserErrors());
  } else app.use("/mcp", createNodeHandler(server, { path: "/mcp" }));
  const http = app.listen(0, "127.0.0.1");
  return { url: `${await listening(http)}/mcp`, stop: () => closeServer(http) };
}

/** Hono on `@hono/node-server`, `app.all("/mcp", ...)` with the fetch handler. */
export async function withHono(server: McpServer = createExampleServer()): Promise<Mounted> {
  const handler = createFetchHandler(server);
  const app = new Hono();
  app.all("/mcp", (c) => handler(c.req.raw));
  const http = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
  return { url: `${await listening(http)}/mcp`, stop: () => closeServer(http) };
}

/** Fastify, in a plug-in whose pass-through body parser leaves the stream to the node handler. */
export async function withFastify(server: McpServer = createExampleServer()): Promise<Mounted> {
  const handler = createNodeHandler(server, { path: "/mcp" });
  const app = Fastify();
  await app.register(async (mcp) => {
    // The handler reads the body itself (with its own limits), so Fastify must leave the stream alone.
    mcp.removeAllContentTypeParsers();
    mcp.addContentTypeParser("*", (_request, _payload, done) => done(null));
    mcp.all("/mcp", (request, reply) => {
      reply.hijack();
      handler(request.raw, reply.raw);
    });
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    url: `${address}/mcp`,
    stop: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

/** Every in-process mount, by the name the tests show. */
export const frameworks: [string, () => Promise<Mounted>][] = [
  ["Express 5 (express.json() in front, app.use('/mcp'))", () => withExpress(express5, true)],
  ["Express 5 (no body parser, app.use('/mcp'))", () => withExpress(express5, false)],
  ["Express 4 (express.json() in front, app.use('/mcp'))", () => withExpress(express4, true)],
  ["Express 4 (no body parser, app.use('/mcp'))", () => withExpress(express4, false)],
  ["Hono (@hono/node-server)", () => withHono()],
  ["Fastify", () => withFastify()],
];
