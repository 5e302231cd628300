// The example server mounted in real web frameworks, each on 127.0.0.1 with a
// free port, driven by @x/client over HTTP in both eras: discover, list the
// tools, call them (with an argument check), and answer book_table's two
// questions (elicitation). The set-ups are the few lines the server README
// gives for each framework.
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Client, StreamableHttpTransport } from "@x/client";
import { createFetchHandler, createNodeHandler } from "@x/server";
import express5 from "express";
import express4 from "express4";
import Fastify from "fastify";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { runDemo, terminalWaitFor } from "../src/client-demo.js";
import { createExampleServer } from "../src/tools.js";
import { scripted } from "./scripted.js";

/** A running framework app: the MCP endpoint's URL and how to stop it. */
interface Mounted {
  url: string;
  stop(): Promise<void>;
}

/** Closes a `node:http` server and every connection still open on it (an SSE stream of the initialize era may be). */
async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  server.close();
  if (server.listening) await once(server, "close");
}

async function listening(server: Server): Promise<string> {
  if (!server.listening) await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function withExpress(express: typeof express5): Promise<Mounted> {
  const app = express();
  app.use(express.json());
  app.use("/mcp", createNodeHandler(createExampleServer(), { path: "/mcp" }));
  const server = app.listen(0, "127.0.0.1");
  return { url: `${await listening(server)}/mcp`, stop: () => closeServer(server) };
}

async function withHono(): Promise<Mounted> {
  const handler = createFetchHandler(createExampleServer());
  const app = new Hono();
  app.all("/mcp", (c) => handler(c.req.raw));
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
  return { url: `${await listening(server)}/mcp`, stop: () => closeServer(server) };
}

async function withFastify(): Promise<Mounted> {
  const handler = createNodeHandler(createExampleServer(), { path: "/mcp" });
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

const frameworks: [string, () => Promise<Mounted>][] = [
  ["Express 5 (express.json() in front, app.use('/mcp'))", () => withExpress(express5)],
  ["Express 4 (express.json() in front, app.use('/mcp'))", () => withExpress(express4)],
  ["Hono (@hono/node-server)", withHono],
  ["Fastify", withFastify],
];

describe.each(frameworks)("%s", (_name, mount) => {
  it("serves the 2026-07-28 era: discover, list, call with an argument check, an elicitation round", async () => {
    const mounted = await mount();
    const io = scripted(["6", "3"]);
    const client = new Client({ name: "framework-test", version: "1" }, { waitFor: terminalWaitFor(io), tasks: true });
    try {
      await client.connect(new StreamableHttpTransport(mounted.url));
      const outcome = await runDemo(client, io, { restaurant: "Noma" });
      expect(outcome).toEqual({ elicited: true });
      const text = io.output.join("\n");
      expect(text).toContain("Connected to x-example 0.1.0 (protocol 2026-07-28)");
      expect(text).toContain("echo ");
      expect(text).toContain('add(2, 40) → structuredContent {"sum":42}');
      expect(text).toContain("? The server asks: How many people for Noma?");
      expect(text).toContain("book_table → Booked Noma for 6 at 21:00.");
      expect(text).toMatch(/make_report → Report of 3 pages ready \(task [0-9a-f-]{36}\)\./);
      // Arguments that do not match the tool's inputSchema are refused before its handler runs.
      const wrong = await client.callTool("add", { a: "two", b: 40 });
      expect(wrong.isError).toBe(true);
      expect(JSON.stringify(wrong.content)).toContain("Invalid arguments for tool add");
    } finally {
      await client.close();
      await mounted.stop();
    }
  });

  it("serves the initialize era (sessions, elicitation/create on the session)", async () => {
    const mounted = await mount();
    const io = scripted(["4", "1"]);
    const client = new Client({ name: "framework-test", version: "1" }, { waitFor: terminalWaitFor(io), protocol: "2025-11-25" });
    try {
      await client.connect(new StreamableHttpTransport(mounted.url));
      const outcome = await runDemo(client, io, { restaurant: "Noma" });
      expect(outcome).toEqual({ elicited: true });
      const text = io.output.join("\n");
      expect(text).toContain("Connected to x-example 0.1.0 (protocol 2025-11-25)");
      expect(text).toContain('add(2, 40) → structuredContent {"sum":42}');
      expect(text).toContain("book_table → Booked Noma for 4 at 18:00.");
    } finally {
      await client.close();
      await mounted.stop();
    }
  });
});
