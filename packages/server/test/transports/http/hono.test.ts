// The fetch handler under real Hono (on @hono/node-server), over real HTTP on
// 127.0.0.1: it has no path option, so whatever path the router gives it is
// the endpoint (`app.all("/mcp")`, or a sub-app mounted with `app.route`);
// and a body that never all arrives gets 408 within bodyTimeoutMs.
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { createFetchHandler, type HttpTransportOptions } from "../../../src/index.js";
import { parseRawAnswer, rpc, stalledPost, testServer } from "../../helpers.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    if (server.listening) await once(server, "close");
  }
});

/** Serves `app` on 127.0.0.1 with a free port; the base URL. */
async function start(app: Hono): Promise<string> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
  servers.push(server);
  if (!server.listening) await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function handler(options: HttpTransportOptions = {}) {
  const handle = createFetchHandler(testServer(), options);
  return (c: { req: { raw: Request } }) => handle(c.req.raw);
}

describe("Hono", () => {
  it("app.all('/mcp') and a sub-app under app.route('/api'): the router alone chooses the path", async () => {
    const app = new Hono();
    app.all("/mcp", handler());
    const api = new Hono();
    api.all("/mcp", handler());
    app.route("/api", api);
    const base = await start(app);
    for (const path of ["/mcp", "/api/mcp"]) {
      const answer = await rpc(`${base}${path}`, "tools/call", { name: "sum", arguments: { a: 2, b: 40 } });
      expect(answer.status).toBe(200);
      expect(answer.json.result.structuredContent).toEqual({ sum: 42 });
    }
  });

  it("a body that never all arrives gets 408, -32600 within bodyTimeoutMs", async () => {
    const app = new Hono();
    app.all("/mcp", handler({ bodyTimeoutMs: 300 }));
    const base = await start(app);
    const raw = await stalledPost(`${base}/mcp`, 2048, 100, 120_000);
    expect(raw).toBeDefined();
    const answer = parseRawAnswer(raw!);
    expect(answer.status).toMatch(/^HTTP\/1\.1 408/);
    expect(answer.json.error).toEqual({ code: -32600, message: "Request timeout: the body did not arrive within 300 ms (bodyTimeoutMs)" });
  });
});
