import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configureNodeServer, createFetchHandler, createNodeHandler, listen, McpServer, type RunningHttpServer } from "../src/index.js";
import { head, parseRawAnswer, rawClient, request, rpc, stalledPost, testServer } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for the server to receive `count` more requests (the hang guard bounds the wait). */
async function requestsSeen(server: Server, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await once(server, "request");
}

/** POSTs a 50 KiB body until it is read in full (400: not a request), at most 200 tries; the last status. */
async function untilBigBodyFits(url: string): Promise<number> {
  let status = 0;
  for (let i = 0; i < 200 && status !== 400; i++) {
    status = (await postBytes(url, 50 * 1024)).status;
    if (status !== 400) await new Promise((r) => setImmediate(r));
  }
  return status;
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

  it("a stalled body holds its bytes: a second request past maxBodyBytesInFlight gets 503 while it is stalled, and fits once it is gone", async () => {
    const running = await listen(testServer(), {
      port: 0,
      maxBodyBytes: 64 * 1024,
      maxBodyBytesInFlight: 96 * 1024,
      // No time-out cuts the stalled body while the checks below run, however slow the machine.
      requestTimeoutMs: 0,
      bodyTimeoutMs: 0,
    });
    open.push(running);
    const stalled = rawClient(running.url);
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

    // Its bytes are released when its client goes: the big body then fits (read in full, refused as not a request).
    stalled.socket.destroy();
    await stalled.closed;
    expect(await untilBigBodyFits(running.url)).toBe(400);
  });

  it("a stalled body is answered 408 (JSON) and closed at the request time-out, and its bytes are released", async () => {
    const running = await listen(testServer(), {
      port: 0,
      maxBodyBytes: 64 * 1024,
      maxBodyBytesInFlight: 96 * 1024,
      requestTimeoutMs: 300,
    });
    open.push(running);
    const stalled = rawClient(running.url);
    const started = Date.now();
    stalled.socket.write(head(running.url, { "content-length": String(60 * 1024) }));
    stalled.socket.write("x".repeat(30 * 1024)); // then nothing more
    const closedAt = await stalled.closed;
    // Never before the time-out (a timer does not fire early); how long after it depends on the machine, so it is not checked.
    expect(closedAt - started).toBeGreaterThanOrEqual(290);
    const answer = stalled.received();
    expect(answer.startsWith("HTTP/1.1 408")).toBe(true);
    expect(answer.toLowerCase()).toContain("content-type: application/json");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    expect(await untilBigBodyFits(running.url)).toBe(400);
  });

  it("a client that trickles its headers is closed after headersTimeoutMs", async () => {
    const running = await listen(testServer(), { port: 0, headersTimeoutMs: 300, requestTimeoutMs: 2000 });
    open.push(running);
    const trickle = rawClient(running.url);
    const started = Date.now();
    trickle.socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const closedAt = await trickle.closed;
    expect(closedAt - started).toBeGreaterThanOrEqual(250); // never before the time-out
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
    expect(await untilBigBodyFits(running.url)).toBe(400);
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
      await stalled.closed;
      expect(stalled.received().startsWith("HTTP/1.1 408")).toBe(true);
    } finally {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("createFetchHandler enforces maxBodyBytesInFlight, and releases a body's bytes when its request is aborted", async () => {
    const handle = createFetchHandler(testServer(), { maxBodyBytes: 64 * 1024, maxBodyBytesInFlight: 96 * 1024 });
    const controller = new AbortController();
    let taken!: () => void;
    const firstChunkTaken = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const stalledBody = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new Uint8Array(60 * 1024).fill(0x20));
      },
      // Asked for more once the handler took the first chunk; never closed.
      pull() {
        taken();
      },
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
    await firstChunkTaken;
    await new Promise((r) => setImmediate(r));
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
      const raw = await stalledPost(url, 60 * 1024, 30 * 1024, 170_000);
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
    // The sweep's interval faked: many sweeps pass while the tool runs, none while the body is read.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      let started!: () => void;
      const running_ = new Promise<void>((resolve) => {
        started = resolve;
      });
      let finish!: () => void;
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const s = new McpServer({ name: "slow-call", version: "1" });
      s.registerTool("slow", {}, async () => {
        started();
        await finished;
        return "slept";
      });
      const running = await listen(s, { port: 0, bodyTimeoutMs: 100 });
      open.push(running);
      const answer = rpc(running.url, "tools/call", { name: "slow" });
      await running_;
      vi.advanceTimersByTime(20 * 100); // twenty deadlines' worth of sweeps while the call runs
      finish();
      expect((await answer).status).toBe(200);
      expect((await answer).json.result.content[0].text).toBe("slept");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("body deadlines shared by the node handler's reads", () => {
  it("lets go of each stalled body at its own deadline, counted in sweeps of the shared timer, while others in flight are answered", async () => {
    // Only the sweep's interval is faked: the sockets and the answers' turn-end writes run as usual.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      // bodyTimeoutMs 200: a sweep every 50 ms, and a read is due 5 sweeps after it starts.
      const running = await listen(testServer(), { port: 0, bodyTimeoutMs: 200 });
      open.push(running);
      const stall = async () => {
        const client = rawClient(running.url);
        const reads = vi.getTimerCount();
        client.socket.write(head(running.url, { "content-length": "100" }));
        client.socket.write("x".repeat(10));
        // The read has started once the sweep's interval runs (or, for a later read, once the request arrived).
        if (reads === 0) for (let i = 0; i < 10_000 && vi.getTimerCount() === 0; i++) await new Promise((r) => setImmediate(r));
        return client;
      };
      const seenFirst = requestsSeen(running.server, 1);
      const first = await stall();
      await seenFirst;
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(4 * 50); // 4 sweeps: the first is not yet due
      const seenSecond = requestsSeen(running.server, 1);
      const second = await stall();
      await seenSecond;
      const fine = await rpc(running.url, "tools/call", { name: "echo", arguments: { text: "meanwhile" } });
      expect(fine.status).toBe(200);
      expect(fine.json.result.content[0].text).toBe("meanwhile");
      expect(first.received()).toBe("");
      vi.advanceTimersByTime(50); // sweep 5: the first is due, the second (due at sweep 9) is not
      await first.closed;
      expect(first.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(parseRawAnswer(first.received()).json.error.code).toBe(-32600);
      expect(second.received()).toBe("");
      vi.advanceTimersByTime(3 * 50); // sweep 8: still not
      const again = await rpc(running.url, "tools/list");
      expect(again.status).toBe(200);
      expect(second.received()).toBe("");
      vi.advanceTimersByTime(50); // sweep 9
      await second.closed;
      expect(second.received()).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps no deadline for a body that ended: a slow body finished in time is answered, not cut", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      // bodyTimeoutMs 300: a sweep every 75 ms, and a read is due 5 sweeps after it starts.
      const running = await listen(testServer(), { port: 0, bodyTimeoutMs: 300 });
      open.push(running);
      const text = JSON.stringify(request("tools/list"));
      const client = rawClient(running.url);
      const seen = requestsSeen(running.server, 1);
      client.socket.write(head(running.url, { "content-length": String(Buffer.byteLength(text)), connection: "close" }));
      client.socket.write(text.slice(0, 5));
      await seen;
      for (let i = 0; i < 10_000 && vi.getTimerCount() === 0; i++) await new Promise((r) => setImmediate(r));
      vi.advanceTimersByTime(4 * 75); // 4 sweeps: not yet due
      client.socket.write(text.slice(5));
      await client.closed; // answered in full (Connection: close)
      // Well past the deadline of the read's start: the read left the list when it ended.
      vi.advanceTimersByTime(20 * 75);
      const raw = client.received();
      client.socket.destroy();
      expect(raw).toMatch(/^HTTP\/1\.1 200 /);
      expect(parseRawAnswer(raw).json.result.tools.length).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
