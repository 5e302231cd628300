import { createServer } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFetchHandler, createNodeHandler, listen, type RunningHttpServer } from "../src/index.js";
import { headersFor, request, testServer } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let running: RunningHttpServer;
let port: number;
beforeAll(async () => {
  running = await listen(testServer(), { port: 0 });
  port = Number(new URL(running.url).port);
});
afterAll(() => running.close(200));

/** Sends raw bytes and reads the answer until the server closes the connection or `ms` pass. */
async function raw(text: string, ms = 2000, to = port) {
  const socket = connect(to, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (c: Buffer) => chunks.push(c));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.write(text);
  await Promise.race([closed, sleep(ms)]);
  socket.destroy();
  const answer = Buffer.concat(chunks).toString("utf8");
  const split = answer.indexOf("\r\n\r\n");
  const headers = answer.slice(0, split).toLowerCase();
  return { status: Number(answer.slice(9, 12)), headers, body: answer.slice(split + 4) };
}

/** A tools/list POST with these Host header lines (none: no Host at all). */
function post(hosts: string[], path = "/mcp") {
  const body = JSON.stringify(request("tools/list"));
  const lines = [
    ...hosts.map((h) => `Host: ${h}`),
    ...Object.entries(headersFor({ method: "tools/list" })).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  ];
  return raw(`POST ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${body}`);
}

function expectJsonError(res: { headers: string; body: string }, code: number) {
  expect(res.headers).toContain("content-type: application/json");
  const parsed = JSON.parse(res.body.slice(res.body.indexOf("{"), res.body.lastIndexOf("}") + 1));
  expect(parsed).toMatchObject({ jsonrpc: "2.0", error: { code } });
  return parsed;
}

describe("strict Host", () => {
  it("accepts one well-formed allowed Host, with or without a port", async () => {
    for (const host of ["localhost", "LOCALHOST:1", `127.0.0.1:${port}`, "[::1]", "[::1]:65535"]) {
      expect((await post([host])).status, host).toBe(200);
    }
  });

  it("refuses a Host with anything after the name or the port, or a bad port, with 400 and a JSON-RPC error", async () => {
    for (const host of [
      "[::1].attacker.com",
      "localhost:4103.attacker.com",
      "localhost:",
      "localhost:0",
      "localhost:65536",
      "localhost:80x",
      "localhost:+80",
      "local host",
      "localhost~",
      "localhost/x",
      "[::1",
      "[evil]",
      "user@localhost",
    ]) {
      const res = await post([host]);
      expect(res.status, host).toBe(400);
      expectJsonError(res, -32600);
    }
  });

  it("refuses two Host headers with 400, whichever comes first", async () => {
    for (const hosts of [
      ["localhost", "evil.example"],
      ["evil.example", "localhost"],
      ["localhost", "localhost"],
    ]) {
      const res = await post(hosts);
      expect(res.status, hosts.join(" + ")).toBe(400);
      expect(expectJsonError(res, -32600).error.message).toMatch(/more than one Host/);
    }
  });

  it("refuses a request without Host with 400", async () => {
    const res = await post([]);
    expect(res.status).toBe(400);
    expectJsonError(res, -32600);
  });

  it("a well-formed Host that is not allowed stays 403", async () => {
    const res = await post(["evil.example:3000"]);
    expect(res.status).toBe(403);
    expectJsonError(res, -32600);
  });

  it("createFetchHandler refuses a joined (comma) Host and a malformed one with 400", async () => {
    const handle = createFetchHandler(testServer());
    const body = request("tools/list");
    const send = (host: string) =>
      handle(new Request("http://localhost/mcp", { method: "POST", headers: { ...headersFor(body), host }, body: JSON.stringify(body) }));
    const joined = await send("localhost, evil.example");
    expect(joined.status).toBe(400);
    expect((await joined.json()).error.message).toMatch(/more than one Host/);
    expect((await send("[::1].attacker.com")).status).toBe(400);
    expect((await send("localhost:8080")).status).toBe(200);
  });

  it("an allowed name with an underscore (a proxy's upstream name) passes", async () => {
    const handle = createFetchHandler(testServer(), { allowedHosts: ["mcp_backend"] });
    const body = request("tools/list");
    const res = await handle(
      new Request("http://mcp_backend:8080/mcp", { method: "POST", headers: headersFor(body), body: JSON.stringify(body) }),
    );
    expect(res.status).toBe(200);
  });
});

describe("JSON answers on every path", () => {
  it("listen(): another path gets 404 with a JSON-RPC error (-32600)", async () => {
    for (const [method, path] of [
      ["POST", "/other"],
      ["GET", "/"],
      ["POST", "/mcp/extra"],
    ]) {
      const res = await raw(`${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      expect(res.status, path).toBe(404);
      expect(expectJsonError(res, -32600).id).toBeNull();
    }
  });

  it("createNodeHandler with a path answers other paths the same way", async () => {
    const http = createServer(createNodeHandler(testServer(), { path: "/mcp" }));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const address = http.address();
      const p = typeof address === "object" && address ? address.port : 0;
      const res = await raw("GET /nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", 2000, p);
      expect(res.status).toBe(404);
      expectJsonError(res, -32600);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("listen(): what Node itself would answer (bad HTTP, headers too large, an unknown Expect) is JSON too", async () => {
    const bad = await raw("POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: x\r\n\r\n");
    expect(bad.status).toBe(400);
    expectJsonError(bad, -32600);
    const large = await raw(`POST /mcp HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(large.status).toBe(431);
    expectJsonError(large, -32600);
    const expectation = await raw(
      "POST /mcp HTTP/1.1\r\nHost: localhost\r\nExpect: magic\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    expect(expectation.status).toBe(417);
    expectJsonError(expectation, -32600);
  });
});
