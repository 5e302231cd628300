import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { configureNodeServer, createFetchHandler, createNodeHandler, listen, McpServer, type RunningHttpServer } from "../src/index.js";
import { head, parseRawAnswer, rawClient, request, rpc, stalledPost, testServer } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (bounded) for the server to receive `count` more requests. */
async function requestsSeen(server: Server, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await Promise.race([once(server, "request"), sleep(3000)]);
}

/** POSTs `size` bytes of (invalid) JSON; the answer's status, Retry-After and body. */
async function postBytes(url: string, size: number, chunked = false) {
  const text = `"${"x".repeat(size - 2)}"`;
  const body = chunked
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(text));
          controller.close();
        },
      })
    : text;
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body,
    duplex: "half",
  } as RequestInit);
  const raw = await res.text();
  return { status: res.status, retryAfter: res.headers.get("retry-after"), type: res.headers.get("content-type"), raw };
}

const open: RunningHttpServer[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close(200);
});

describe("slow clients: timeouts and the cap on request bodies in flight", () => {
  it("listen() sets headersTimeout, requestTimeout and keepAliveTimeout to its defaults, and the options change them", async () => {
    const defaults = await listen(testServer(), { port: 0 });
    open.push(defaults);
    expect(defaults.server.headersTimeout).toBe(10_000);
    expect(defaults.server.requestTimeout).toBe(30_000);
    expect(defaults.server.keepAliveTimeout).toBe(5_000);
    const tuned = await listen(testServer(), { port: 0, headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveTimeoutMs: 300 });
    open.push(tuned);
    expect(tuned.server.headersTimeout).toBe(200);
    expect(tuned.server.requestTimeout).toBe(400);
    expect(tuned.server.keepAliveTimeout).toBe(300);
    // A headers timeout longer than the request timeout is capped by it (Node refuses the pair otherwise).
    const capped = await listen(testServer(), { port: 0, requestTimeoutMs: 400 });
    open.push(capped);
    expect(capped.server.headersTimeout).toBe(400);
  });

  it("a stalled body holds its bytes: a second request past maxBodyBytesInFlight gets 503 until the stalled connection times out", async () => {
    const running = await listen(testServer(), {
      port: 0,
      maxBodyBytes: 64 * 1024,
      maxBodyBytesInFlight: 96 * 1024,
      // Long enough that the checks below run while the body is stalled, even on a loaded machine.
      requestTimeoutMs: 3000,
      headersTimeoutMs: 300,
    });
    open.push(running);
    const stalled = rawClient(running.url);
    const started = Date.now();
    const seen = requestsSeen(running.server, 1);
    stalled.socket.write(head(running.url, { "content-length": String(60 * 1024) }));
    stalled.socket.write("x".repeat(30 * 1024)); // then nothing more
    await seen;

    // Declared: refused before any byte of it is read.
    const declared = await postBytes(running.url, 50 * 1024);
    expect(declared.status).toBe(503);
    expect(declared.retryAfter).toBe("1");
    expect(declared.type).toBe("application/json");
    expect(JSON.parse(declared.raw)).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    // Chunked (no Content-Length): refused while reading.
    const chunked = await postBytes(running.url, 50 * 1024, true);
    expect(chunked.status).toBe(503);
    expect(JSON.parse(chunked.raw).error.code).toBe(-32000);
    // A small body still fits.
    expect((await rpc(running.url, "tools/list")).status).toBe(200);

    // The stalled connection is answered 408 (JSON) and closed after the request timeout.
    const closedAt = await Promise.race([stalled.closed, sleep(10_000).then(() => undefined)]);
    expect(closedAt).toBeDefined();
    expect(closedAt! - started).toBeGreaterThanOrEqual(2900);
    const answer = stalled.received();
    expect(answer.startsWith("HTTP/1.1 408")).toBe(true);
    expect(answer.toLowerCase()).toContain("content-type: application/json");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });

    // Its bytes are released: the big body now fits (the release follows the close within a few ticks).
    let status = 0;
    for (let i = 0; i < 40 && status !== 400; i++) {
      status = (await postBytes(running.url, 50 * 1024)).status;
      if (status !== 400) await sleep(25);
    }
    expect(status).toBe(400); // read in full, then refused as not a request
  }, 20_000);

  it("a client that trickles its headers is closed after headersTimeoutMs", async () => {
    const running = await listen(testServer(), { port: 0, headersTimeoutMs: 300, requestTimeoutMs: 2000 });
    open.push(running);
    const trickle = rawClient(running.url);
    const started = Date.now();
    trickle.socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const closedAt = await Promise.race([trickle.closed, sleep(3000).then(() => undefined)]);
    expect(closedAt).toBeDefined();
    expect(closedAt! - started).toBeGreaterThanOrEqual(250);
    expect(trickle.received().startsWith("HTTP/1.1 408")).toBe(true);
  });

  it("bytes of a body are released when its client goes away mid-body", async () => {
    const running = await listen(testServer(), { port: 0, maxBodyBytes: 64 * 1024, maxBodyBytesInFlight: 96 * 1024 });
    open.push(running);
    const gone = rawClient(running.url);
    const seen = requestsSeen(running.server, 1);
    gone.socket.write(head(running.url, { "content-length": String(60 * 1024) }));
    gone.socket.write("x".repeat(10 * 1024));
    await seen;
    expect((await postBytes(running.url, 50 * 1024)).status).toBe(503);
    gone.socket.destroy();
    let status = 0;
    for (let i = 0; i < 40 && status !== 400; i++) {
      status = (await postBytes(running.url, 50 * 1024)).status;
      if (status !== 400) await sleep(25);
    }
    expect(status).toBe(400);
  });

  it("an SSE response outlives requestTimeoutMs: the timeout covers receiving the request, not the answer", async () => {
    const s = new McpServer({ name: "slow-sse", version: "1" });
    s.registerTool("ticks", {}, async (_args, ctx) => {
      for (let i = 0; i < 8; i++) {
        ctx.progress(i, 8);
        await sleep(100);
      }
      return "ticked";
    });
    const running = await listen(s, { port: 0, requestTimeoutMs: 200, headersTimeoutMs: 200 });
    open.push(running);
    const res = await rpc(running.url, "tools/call", { name: "ticks" }, { meta: { progressToken: 1 } });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.events).toHaveLength(9);
    expect(res.json.result.content[0].text).toBe("ticked");
  });

  it("createNodeHandler enforces maxBodyBytesInFlight itself, and configureNodeServer applies the timeouts to the user's server", async () => {
    const handler = createNodeHandler(testServer(), { path: "/mcp", maxBodyBytes: 64 * 1024, maxBodyBytesInFlight: 96 * 1024 });
    const http = configureNodeServer(createServer({ connectionsCheckingInterval: 50 }, handler), { requestTimeoutMs: 300 });
    expect(http.requestTimeout).toBe(300);
    expect(http.headersTimeout).toBe(300);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const address = http.address();
      const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
      const stalled = rawClient(url);
      const seen = requestsSeen(http, 1);
      stalled.socket.write(head(url, { "content-length": String(60 * 1024) }));
      stalled.socket.write("x".repeat(1024));
      await seen;
      const busy = await postBytes(url, 50 * 1024);
      expect(busy.status).toBe(503);
      expect(busy.retryAfter).toBe("1");
      expect(JSON.parse(busy.raw).error.code).toBe(-32000);
      const closedAt = await Promise.race([stalled.closed, sleep(3000).then(() => undefined)]);
      expect(closedAt).toBeDefined();
      expect(stalled.received().startsWith("HTTP/1.1 408")).toBe(true);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("createFetchHandler enforces maxBodyBytesInFlight, and releases a body's bytes when its request is aborted", async () => {
    const handle = createFetchHandler(testServer(), { maxBodyBytes: 64 * 1024, maxBodyBytesInFlight: 96 * 1024 });
    const controller = new AbortController();
    const stalledBody = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(60 * 1024).fill(0x20));
      }, // never closed
    });
    const post = (body: BodyInit, signal?: AbortSignal) =>
      handle(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          signal,
          duplex: "half",
        } as RequestInit),
      );
    const stalled = post(stalledBody, controller.signal);
    await sleep(20);
    const busy = await post(`"${"x".repeat(50 * 1024)}"`);
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("1");
    expect((await busy.json()).error.code).toBe(-32000);
    controller.abort();
    await stalled;
    expect((await post(`"${"x".repeat(50 * 1024)}"`)).status).toBe(400);
  });
});

describe("bodyTimeoutMs: a body that never all arrives is answered whatever the server in front allows", () => {
  it("node handler in a node:http server with no request timeout of its own: 408, -32600, Connection: close, bytes let go", async () => {
    const handler = createNodeHandler(testServer(), { maxBodyBytes: 64 * 1024, maxBodyBytesInFlight: 96 * 1024, bodyTimeoutMs: 300 });
    // requestTimeout 0: Node itself would wait for the body forever (as a framework's server may).
    const http = createServer({ requestTimeout: 0 }, handler);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const address = http.address();
      const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/mcp`;
      const raw = await stalledPost(url, 60 * 1024, 30 * 1024, 10_000);
      expect(raw).toBeDefined();
      const answer = parseRawAnswer(raw!);
      expect(answer.status).toBe("HTTP/1.1 408 Request Timeout");
      expect(answer.headers).toContain("connection: close");
      expect(answer.headers).toContain("content-type: application/json");
      expect(answer.json).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: "Request timeout: the body did not arrive within 300 ms (bodyTimeoutMs)" },
        id: null,
      });
      // Its 60 KiB were counted in maxBodyBytesInFlight; released, a 50 KiB body fits again (read in full, not a request: 400).
      const big = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: `"${"x".repeat(50 * 1024)}"`,
      });
      expect(big.status).toBe(400);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("fetch handler: a body stream that never ends is cancelled and answered 408, -32600", async () => {
    const handle = createFetchHandler(testServer(), { bodyTimeoutMs: 200 });
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"jsonrpc":'));
      }, // never closed
      cancel() {
        cancelled = true;
      },
    });
    const response = await handle(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(408);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Request timeout: the body did not arrive within 200 ms (bodyTimeoutMs)" },
      id: null,
    });
    expect(cancelled).toBe(true);
  });

  it("a body that arrives in time is not cut: bodyTimeoutMs bounds the read, not the call", async () => {
    const s = new McpServer({ name: "slow-call", version: "1" });
    s.registerTool("slow", {}, async () => {
      await sleep(400);
      return "slept";
    });
    const running = await listen(s, { port: 0, bodyTimeoutMs: 100 });
    open.push(running);
    const answer = await rpc(running.url, "tools/call", { name: "slow" });
    expect(answer.status).toBe(200);
    expect(answer.json.result.content[0].text).toBe("slept");
  });
});

describe("body deadlines shared by the node handler's reads", () => {
  it("lets go of every stalled body at its own deadline while others in flight are answered", async () => {
    const running = await listen(testServer(), { port: 0, bodyTimeoutMs: 200 });
    open.push(running);
    const started = Date.now();
    // Three bodies that never end, started 60 ms apart, and one request that ends in the middle of them.
    const stalled = [0, 60, 120].map(async (delay) => {
      await sleep(delay);
      const from = Date.now();
      const raw = await stalledPost(running.url, 100, 10, 3000);
      return { raw, after: Date.now() - from };
    });
    await sleep(90);
    const fine = await rpc(running.url, "tools/call", { name: "echo", arguments: { text: "meanwhile" } });
    expect(fine.status).toBe(200);
    expect(fine.json.result.content[0].text).toBe("meanwhile");
    for (const { raw, after } of await Promise.all(stalled)) {
      expect(raw).toMatch(/^HTTP\/1\.1 408 /);
      expect(parseRawAnswer(raw!).json.error.code).toBe(-32600);
      // Not before the deadline; within two sweeps (50 ms each here) and some scheduling after it.
      expect(after).toBeGreaterThanOrEqual(195);
      expect(after).toBeLessThan(200 + 2 * 50 + 400);
    }
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it("keeps no deadline for a body that ended: a slow body finished in time is answered, not cut", async () => {
    const running = await listen(testServer(), { port: 0, bodyTimeoutMs: 300 });
    open.push(running);
    const text = JSON.stringify(request("tools/list"));
    const client = rawClient(running.url);
    client.socket.write(head(running.url, { "content-length": String(Buffer.byteLength(text)) }));
    client.socket.write(text.slice(0, 5));
    await sleep(150);
    client.socket.write(text.slice(5));
    // Well past the deadline of the read's start: the read left the list when it ended.
    await sleep(400);
    const raw = client.received();
    client.socket.destroy();
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(parseRawAnswer(raw).json.result.tools.length).toBeGreaterThan(0);
  });
});
