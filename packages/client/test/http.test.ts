import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, isMcpClientError, StreamableHttpTransport } from "../src/index.js";
import { httpServer, sendJson } from "./helpers.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, any>) => void | Promise<void>;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function setup(handle: Handler, transportOptions: ConstructorParameters<typeof StreamableHttpTransport>[1] = {}, clientOptions = {}) {
  const seen: Array<{ headers: IncomingMessage["headers"]; body: Record<string, any>; method: string }> = [];
  const server = await httpServer((req, res, text) => {
    const body = text ? JSON.parse(text) : {};
    seen.push({ headers: req.headers, body, method: req.method ?? "" });
    return handle(req, res, body);
  });
  const client = new Client(
    { name: "http-test", version: "1.0.0" },
    { protocol: "2026-07-28", onWarning: () => {}, lookupTools: false, ...clientOptions },
  );
  await client.connect(new StreamableHttpTransport(server.url, transportOptions));
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, seen, server };
}

const ok = (id: unknown, result: Record<string, unknown>) => ({ jsonrpc: "2.0", id, result: { resultType: "complete", ...result } });
const sse = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
const event = (message: unknown, eol = "\n") => `data: ${JSON.stringify(message)}${eol}${eol}`;

describe("Streamable HTTP: requests", () => {
  it("POSTs JSON with Accept, the metadata headers (Base64 for a non-ASCII name) and the caller's headers", async () => {
    const { client, seen } = await setup((_req, res, body) => sendJson(res, ok(body.id, { content: [] })), {
      headers: { authorization: "Bearer t0k", "mcp-method": "forged" },
    });
    await client.callTool("météo", { city: "Paris" });
    const { headers, body, method } = seen[0]!;
    expect(method).toBe("POST");
    expect(headers["content-type"]).toBe("application/json");
    expect(headers.accept).toBe("application/json, text/event-stream");
    expect(headers["mcp-protocol-version"]).toBe("2026-07-28");
    expect(headers["mcp-method"]).toBe("tools/call");
    expect(headers["mcp-name"]).toBe(`=?base64?${Buffer.from("météo").toString("base64")}?=`);
    expect(headers.authorization).toBe("Bearer t0k");
    expect(body).toMatchObject({ jsonrpc: "2.0", method: "tools/call", params: { name: "météo", arguments: { city: "Paris" } } });
  });

  it("sends an Mcp-Param header with an empty value for an empty string argument", async () => {
    const { client, seen } = await setup((_req, res, body) =>
      sendJson(
        res,
        body.method === "tools/list"
          ? ok(body.id, {
              tools: [{ name: "t", inputSchema: { type: "object", properties: { v: { type: "string", "x-mcp-header": "EmptyVal" } } } }],
              ttlMs: 0,
              cacheScope: "public",
            })
          : ok(body.id, { content: [] }),
      ),
    );
    await client.listTools();
    await client.callTool("t", { v: "" });
    expect(seen[1]!.headers["mcp-param-emptyval"]).toBe("");
  });

  it("takes a JSON-RPC error from a 4xx body as the server's error", async () => {
    const { client } = await setup((_req, res, body) =>
      sendJson(res, { jsonrpc: "2.0", id: body.id, error: { code: -32020, message: "Header mismatch" } }, 400),
    );
    await expect(client.request("tools/list")).rejects.toMatchObject({ code: -32020, source: "server" });
  });

  it("takes an id-less error body as the answer to the request", async () => {
    const { client } = await setup((_req, res) =>
      sendJson(res, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Bad request" } }, 400),
    );
    await expect(client.request("tools/list")).rejects.toMatchObject({ code: -32600 });
  });

  it("reports an HTTP error without a JSON-RPC body as http_error with the status", async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end("Bad gateway");
    });
    await expect(client.request("tools/list")).rejects.toMatchObject({
      code: ClientErrorCode.TransportFailed,
      data: { reason: "http_error", status: 502 },
      message: expect.stringMatching(/HTTP 502.*Bad gateway/),
    });
  });

  it("reports a 202 without a response, and a 200 that is not JSON-RPC", async () => {
    let mode = "202";
    const { client } = await setup((_req, res) => {
      if (mode === "202") {
        res.writeHead(202);
        res.end();
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("<html>");
      }
    });
    await expect(client.request("tools/list")).rejects.toMatchObject({ data: { reason: "http_error", status: 202 } });
    mode = "html";
    await expect(client.request("tools/list")).rejects.toMatchObject({ data: { reason: "invalid_message" } });
  });

  it("reports a refused connection as connection_failed", async () => {
    const dead = await httpServer(() => {});
    const url = dead.url;
    await dead.close();
    const client = new Client({ name: "t", version: "1" }, { protocol: "2026-07-28" });
    await client.connect(new StreamableHttpTransport(url));
    await expect(client.request("tools/list")).rejects.toMatchObject({
      code: ClientErrorCode.TransportFailed,
      data: { reason: "connection_failed" },
    });
  });

  it("reports a DOMException its fetch throws (a TimeoutError, code 23) as connection_failed, not as an MCP error", async () => {
    const timeout = new DOMException("x", "TimeoutError");
    let failing = false;
    const { client } = await setup((_req, res, body) => sendJson(res, ok(body.id, { tools: [] })), {
      fetch: (input, init) => (failing ? Promise.reject(timeout) : fetch(input, init)),
    });
    failing = true;
    const error = await client.request("tools/list").catch((e: unknown) => e);
    expect(error).not.toBe(timeout);
    expect(isMcpClientError(error, ClientErrorCode.TransportFailed)).toBe(true);
    expect(error).toMatchObject({ source: "client", data: { reason: "connection_failed" }, cause: timeout });
  });

  it("refuses a request over the size limit without sending it", async () => {
    const { client, seen } = await setup((_req, res, body) => sendJson(res, ok(body.id, {})), { maxMessageBytes: 1000 });
    await expect(client.request("tools/call", { name: "t", arguments: { blob: "x".repeat(2000) } })).rejects.toMatchObject({
      data: { reason: "message_too_large", limit: 1000 },
    });
    expect(seen).toHaveLength(0);
  });

  it("refuses a JSON response over the size limit, with or without Content-Length", async () => {
    let declare = true;
    const { client } = await setup(
      (_req, res, body) => {
        const text = JSON.stringify(ok(body.id, { tools: [], blob: "y".repeat(5000) }));
        res.writeHead(
          200,
          declare
            ? { "content-type": "application/json", "content-length": Buffer.byteLength(text) }
            : { "content-type": "application/json" },
        );
        res.end(text);
      },
      { maxMessageBytes: 1000 },
    );
    await expect(client.request("tools/list")).rejects.toMatchObject({
      data: { reason: "message_too_large" },
      message: expect.stringMatching(/response.*over the limit/),
    });
    declare = false;
    await expect(client.request("tools/list")).rejects.toMatchObject({ data: { reason: "message_too_large" } });
  });

  it("rejects with -32001 on timeout and closes the connection", async () => {
    let closed = false;
    const { client } = await setup((req) => {
      req.socket.on("close", () => {
        closed = true;
      });
    });
    await expect(client.request("tools/list", {}, { timeout: 500 })).rejects.toMatchObject({
      code: ClientErrorCode.RequestTimeout,
      data: { timeout: 500 },
    });
    await expect.poll(() => closed).toBe(true);
  });

  it("rejects http URLs only, and a bad size limit", () => {
    expect(() => new StreamableHttpTransport("ftp://example.com/mcp")).toThrow(TypeError);
    expect(() => new StreamableHttpTransport("http://example.com/mcp", { maxMessageBytes: 0 })).toThrow(TypeError);
  });
});

describe("Streamable HTTP: SSE responses", () => {
  it("delivers the notifications before the response, with comments and CRLF line ends", async () => {
    const { client } = await setup((_req, res, body) => {
      sse(res);
      res.write(":keep-alive\r\n\r\n");
      res.write(event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }, "\r\n"));
      res.write(
        event(
          { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: body.params._meta.progressToken, progress: 50 } },
          "\r\n",
        ),
      );
      res.end(event(ok(body.id, { content: [{ type: "text", text: "done" }] }), "\r\n"));
    });
    const methods: string[] = [];
    const progress: number[] = [];
    const result = await client.callTool(
      "t",
      {},
      { onNotification: (n) => methods.push(n.method), onProgress: (p) => progress.push(p.progress) },
    );
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(methods).toEqual(["notifications/message", "notifications/progress"]);
    expect(progress).toEqual([50]);
  });

  it("parses CR line ends, events split across writes, and a character split across chunks", async () => {
    const { client } = await setup(async (_req, res, body) => {
      sse(res);
      const bytes = Buffer.from(`data: ${JSON.stringify(ok(body.id, { content: [{ type: "text", text: "héllo ✓" }] }))}\r\r`);
      const cut = bytes.indexOf(Buffer.from("✓")) + 1;
      res.write(bytes.subarray(0, 10));
      await new Promise((r) => setTimeout(r, 5));
      res.write(bytes.subarray(10, cut));
      await new Promise((r) => setTimeout(r, 5));
      res.end(bytes.subarray(cut));
    });
    expect((await client.callTool("t")).content).toEqual([{ type: "text", text: "héllo ✓" }]);
  });

  it("reports a stream that ends before its response as stream_broken", async () => {
    const { client } = await setup((_req, res) => {
      sse(res);
      res.end(event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "bye" } }));
    });
    await expect(client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.TransportFailed,
      data: { reason: "stream_broken" },
      message: expect.stringMatching(/ended before its response/),
    });
  });

  it("reports a connection cut mid-stream as stream_broken", async () => {
    const { client } = await setup(async (req, res) => {
      sse(res);
      res.write(event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }));
      await new Promise((r) => setTimeout(r, 10));
      req.socket.destroy();
    });
    await expect(client.callTool("t")).rejects.toMatchObject({ data: { reason: "stream_broken" } });
  });

  it("refuses an event over the size limit, and an event that is not JSON", async () => {
    let mode = "big";
    const { client } = await setup(
      (_req, res) => {
        sse(res);
        res.end(mode === "big" ? `data: ${"z".repeat(5000)}\n\n` : "data: {not json\n\n");
      },
      { maxMessageBytes: 1000 },
    );
    await expect(client.callTool("t")).rejects.toMatchObject({ data: { reason: "message_too_large" } });
    mode = "junk";
    await expect(client.callTool("t")).rejects.toMatchObject({ data: { reason: "invalid_message" } });
  });

  it("closes the stream when the caller aborts, which the server sees as the cancel", async () => {
    let closed = false;
    let open = false;
    const { client } = await setup((_req, res) => {
      sse(res);
      res.write(":open\n\n");
      open = true;
      res.on("close", () => {
        closed = true;
      });
    });
    const controller = new AbortController();
    const call = client.callTool("t", {}, { signal: controller.signal });
    await expect.poll(() => open).toBe(true);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    await expect.poll(() => closed).toBe(true);
  });

  it("streams a subscription: acknowledged, then notifications, until closed", async () => {
    let closed = false;
    const { client, seen } = await setup((_req, res, body) => {
      sse(res);
      const meta = { "io.modelcontextprotocol/subscriptionId": body.id };
      res.write(
        event({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: meta, notifications: { resourceSubscriptions: ["file:///a"] } },
        }),
      );
      res.write(event({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { _meta: meta, uri: "file:///a" } }));
      res.write(event({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { _meta: meta, uri: "file:///a" } }));
      res.on("close", () => {
        closed = true;
      });
    });
    const subscription = client.listen({ resourceSubscriptions: ["file:///a"] });
    expect(await subscription.acknowledged).toEqual({ resourceSubscriptions: ["file:///a"] });
    const got: unknown[] = [];
    for await (const n of subscription) {
      got.push(n.params?.uri);
      if (got.length === 2) break;
    }
    expect(got).toEqual(["file:///a", "file:///a"]);
    expect(await subscription.ended).toEqual({ graceful: false });
    await expect.poll(() => closed).toBe(true);
    expect(seen[0]!.body).toMatchObject({
      method: "subscriptions/listen",
      params: { notifications: { resourceSubscriptions: ["file:///a"] } },
    });
    expect(seen[0]!.headers["mcp-method"]).toBe("subscriptions/listen");
  });

  it("ends a subscription's for-await loop when the client closes, as its signal does, without an error", async () => {
    const { client } = await setup((_req, res, body) => {
      sse(res);
      res.write(
        event({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: { "io.modelcontextprotocol/subscriptionId": body.id }, notifications: {} },
        }),
      );
    });
    const subscription = client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const loop = (async () => {
      for await (const _ of subscription) {
        // nothing arrives
      }
      return "ended";
    })().catch((e) => e);
    await client.close();
    expect(await loop).toBe("ended");
    expect(await subscription.ended).toEqual({ graceful: false });
  });

  it("ends a subscription with its failure when the stream breaks", async () => {
    const { client } = await setup((req, res, body) => {
      sse(res);
      res.write(
        event({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { _meta: { "io.modelcontextprotocol/subscriptionId": body.id }, notifications: {} },
        }),
      );
      setTimeout(() => req.socket.destroy(), 20);
    });
    const subscription = client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    const error = await (async () => {
      for await (const _ of subscription) {
        // nothing arrives
      }
    })().catch((e) => e);
    expect(error).toMatchObject({ data: { reason: "stream_broken" } });
  });
});

describe("Streamable HTTP: authorization context", () => {
  it("keys private cache entries by the Authorization header sent", async () => {
    let token = "alice";
    const { client, seen } = await setup(
      (_req, res, body) => sendJson(res, ok(body.id, { contents: [], ttlMs: 60_000, cacheScope: "private" })),
      {
        headers: () => ({ authorization: `Bearer ${token}` }),
      },
    );
    await client.readResource("file:///me");
    await client.readResource("file:///me");
    expect(seen).toHaveLength(1);
    token = "bob";
    await client.readResource("file:///me", { cache: "refresh" });
    token = "alice";
    await client.readResource("file:///me", { cache: "bypass" });
    await client.readResource("file:///me");
    expect(seen.map((s) => s.headers.authorization)).toEqual(["Bearer alice", "Bearer bob", "Bearer alice"]);
  });

  it("is the SHA-256 of the Authorization header (base64url), never the credential, and none without one", async () => {
    const sha = (text: string) => createHash("sha256").update(text).digest("base64url");
    const fixed = new StreamableHttpTransport("http://127.0.0.1:9/mcp", { headers: { authorization: "Bearer s3cret" } });
    const context = await fixed.authContext();
    expect(context).toBe(sha("Bearer s3cret"));
    expect(context).not.toContain("s3cret");
    let token = "one";
    const dynamic = new StreamableHttpTransport("http://127.0.0.1:9/mcp", { headers: async () => ({ authorization: `Bearer ${token}` }) });
    const first = await dynamic.authContext();
    token = "two";
    expect(await dynamic.authContext()).toBe(sha("Bearer two"));
    expect(first).toBe(sha("Bearer one"));
    expect(await new StreamableHttpTransport("http://127.0.0.1:9/mcp").authContext()).toBeUndefined();
  });
});
