import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../src/index.js";
import { rpc, testServer } from "./helpers.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw TCP client: what it received, and when the server closed the connection. */
function rawClient(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on("data", (c: Buffer) => chunks.push(c));
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
  return { socket, closed, received: () => Buffer.concat(chunks).toString("utf8") };
}

const open: RunningHttpServer[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close(200);
});

describe("slow clients: timeouts", () => {
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
});
