// x-mcp:traffic: what a subscriber sees of real transports, and that nothing is built without one.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { McpServer, serveStdio } from "../src/index.js";
import { KeyRing } from "../src/keys.js";
import { sealState } from "../src/revisions/2026-07-28/state.js";
import { readRequestState, TRAFFIC_CHANNEL, type TrafficEvent } from "../src/telemetry-entry.js";
import { nextSeq } from "../src/traffic.js";
import { meta } from "./helpers.js";
import { stdioConnect as connect } from "./legacy/helpers.js";

function eraServer() {
  const server = new McpServer({ name: "era", version: "1.0.0" }, { logging: true });
  server.registerTool("logs", {}, (_args, ctx) => {
    ctx.log("info", "hello");
    return "logged";
  });
  return server;
}

function record(): { events: TrafficEvent[]; stop(): void } {
  const events: TrafficEvent[] = [];
  // Copied at publish time: a request's event is published twice, the same object.
  const listener = (message: unknown) => events.push(structuredClone(message) as TrafficEvent);
  subscribe(TRAFFIC_CHANNEL, listener);
  return { events, stop: () => unsubscribe(TRAFFIC_CHANNEL, listener) };
}

describe("x-mcp:traffic over stdio, initialize era", () => {
  it("publishes initialize (start, end), initialized with the session's version and client, and a handler's log message out", async () => {
    const seen = record();
    try {
      const c = connect(eraServer());
      const init = await c.initialize();
      const version = init.result.protocolVersion;
      await c.answer(c.request("logging/setLevel", { level: "debug" }));
      const rid = c.request("tools/call", { name: "logs", arguments: {} });
      await c.answer(rid);
      const opening = seen.events.filter((e) => e.kind === "request" && e.method === "initialize");
      expect(opening.map((e) => (e as { phase: string }).phase)).toEqual(["start", "end"]);
      // Published as a request only, not also as a message read.
      expect(seen.events.filter((e) => e.kind === "message" && e.message.method === "initialize")).toEqual([]);
      expect(opening[1]).toMatchObject({ transport: "stdio", era: "initialize", protocolVersion: version, status: undefined });
      expect((opening[1] as unknown as { response: { result: { protocolVersion: string } } }).response.result.protocolVersion).toBe(
        version,
      );
      const initialized = seen.events.find((e) => e.kind === "message" && e.message.method === "notifications/initialized");
      expect(initialized).toMatchObject({ direction: "in", era: "initialize", protocolVersion: version, transport: "stdio" });
      expect(initialized?.clientInfo?.name).toBeTypeOf("string");
      const log = seen.events.find((e) => e.kind === "message" && e.message.method === "notifications/message");
      expect(log).toMatchObject({ direction: "out", relatedRequestId: rid, era: "initialize", protocolVersion: version });
      const call = seen.events.filter((e) => e.kind === "request" && e.method === "tools/call");
      expect(call.map((e) => (e as { phase: string }).phase)).toEqual(["start", "end"]);
      expect(call[0]).toMatchObject({ protocolVersion: version, era: "initialize" });
    } finally {
      seen.stop();
    }
  });

  it("builds no event without a subscriber (the event counter does not move)", async () => {
    const before = nextSeq();
    const c = connect(eraServer());
    await c.initialize();
    await c.answer(c.request("tools/call", { name: "logs", arguments: {} }));
    expect(nextSeq()).toBe(before + 1);
  });
});

describe("x-mcp:traffic over stdio, 2026-07-28", () => {
  it("publishes the request (start, end) and its progress out, on stdio, with the envelope's version and client", async () => {
    const server = new McpServer({ name: "now", version: "1" });
    server.registerTool("steps", {}, (_args, ctx) => {
      ctx.progress(1);
      return "done";
    });
    const seen = record();
    try {
      const input = new PassThrough();
      const output = new PassThrough();
      output.resume();
      const done = serveStdio(server, { input, output, errors: new PassThrough() });
      const body = {
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "steps", arguments: {}, _meta: meta({ progressToken: "t" }) },
      };
      input.end(`${JSON.stringify(body)}\n`);
      await done;
      const request = seen.events.filter((e) => e.kind === "request");
      expect(request.map((e) => (e as { phase: string }).phase)).toEqual(["start", "end"]);
      expect(request[1]).toMatchObject({
        transport: "stdio",
        era: "2026-07-28",
        protocolVersion: "2026-07-28",
        status: undefined,
        requestId: 5,
      });
      expect(request[1]?.clientInfo).toEqual({ name: "test-client", version: "0.0.1" });
      const progress = seen.events.find((e) => e.kind === "message" && e.message.method === "notifications/progress");
      expect(progress).toMatchObject({ direction: "out", relatedRequestId: 5, transport: "stdio", era: "2026-07-28" });
    } finally {
      seen.stop();
    }
  });
});

describe("readRequestState", () => {
  it("reads a state the keys sealed (answers, method, expiry) and never throws on others", () => {
    const keys = new KeyRing();
    const state = sealState(keys, { a: { action: "accept" } }, { principal: "p", method: "tools/call", params: {} }, 1000, 0);
    const reading = readRequestState(keys, state, 10);
    expect(reading).toEqual({
      verified: true,
      expired: false,
      method: "tools/call",
      answers: { a: { action: "accept" } },
      expiresAt: 1000,
    });
    expect(JSON.stringify(reading)).not.toContain('"p"');
    expect(readRequestState(keys, state, 2000).expired).toBe(true);
    expect(readRequestState(keys, "x.y")).toEqual({ verified: false, expired: false });
    expect(readRequestState(keys, 42)).toEqual({ verified: false, expired: false });
    expect(readRequestState(new KeyRing(), state)).toEqual({ verified: false, expired: false });
  });
});
