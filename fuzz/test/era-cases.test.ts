// The generators and checks of issue 38's classes (items 6, 7 and 8), without
// a server: what they send is what they claim to send, and the checks count
// what they should.
import { validate } from "@x/mcp-v2511";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check } from "../src/check.js";
import { VIOLATION_KINDS } from "../src/config.js";
import { LIVE_SESSION, malformedResponseCase, SESSION_HEADER_VALUES, withSessionHeader } from "../src/era-cases.js";
import { FAMILIES } from "../src/generators.js";
import { parseLossless } from "../src/json.js";
import { checkBatch, checkPingFirst, type Lifecycle, lifecycleArbitrary, lifecycleIds, lifecycleLines } from "../src/lifecycle.js";

const decoder = new TextDecoder();

describe("2026-07-28 requests with Mcp-Session-Id", () => {
  const family = FAMILIES.find((f) => f.name === "session-header")!;

  it("carry the header and the 2026-07-28 envelope, over HTTP only, and expect what the request without the header gets", () => {
    const kinds = new Set<string>();
    for (const c of fc.sample(family.arbitrary, { seed: 3, numRuns: 300 })) {
      expect(c.transports).toEqual(["http"]);
      const header = c.http.headers.find(([h]) => h === "mcp-session-id");
      expect(header, c.category).toBeDefined();
      kinds.add(c.category.split("/")[1]!);
      const message = JSON.parse(decoder.decode(c.render(1).bytes)) as {
        id?: unknown;
        method?: unknown;
        params?: { _meta?: Record<string, unknown> };
      };
      expect(typeof message.method, c.category).toBe("string");
      expect(typeof message.params?._meta?.["io.modelcontextprotocol/protocolVersion"], c.category).toBe("string");
      expect(c.expect.sessionless).toBe(true);
    }
    expect([...kinds].sort()).toEqual(SESSION_HEADER_VALUES.map(([k]) => k).sort());
  });

  it("keep the base case's expectation, adding only that the answer names no session", () => {
    const base = fc.constant({
      category: "valid/x",
      transports: ["http", "stdio"] as const,
      render: () => ({ bytes: new Uint8Array() }),
      http: { method: "POST", path: "/mcp", headers: [["accept", "application/json"]] as [string, string][] },
      expect: { answer: "response", id: "same", outcome: "result", status: [200] } as const,
    });
    const [c] = fc.sample(withSessionHeader(base), { seed: 1, numRuns: 1 });
    expect(c!.expect).toEqual({ answer: "response", id: "same", outcome: "result", status: [200], sessionless: true });
    expect(LIVE_SESSION).toBe("{session}");
  });

  it("counts an answer that carries Mcp-Session-Id", () => {
    const observed = { transport: "http", method: "POST", timedOut: false, status: 200, contentType: "application/json" } as const;
    const body = '{"jsonrpc":"2.0","id":1,"result":{}}';
    const expectation = { answer: "response", id: "same", outcome: "result", status: [200], sessionless: true } as const;
    expect(check(expectation, { ...observed, body, sessionId: "abc" }, "1", "session-header/x").map((v) => v.kind)).toEqual([
      "session-id-echoed",
    ]);
    expect(check(expectation, { ...observed, body }, "1", "session-header/x")).toEqual([]);
  });
});

describe("malformed response-shaped messages", () => {
  it("have result or error and no method, and are no response the schema accepts (but those with both members)", () => {
    // 2025-11-25's JSONRPCResponse: its Result has no required member (2026-07-28's needs resultType).
    expect(validate("JSONRPCResponse", { jsonrpc: "2.0", id: 1, result: {} }).ok).toBe(true);
    expect(validate("JSONRPCResponse", { jsonrpc: "2.0", error: { code: 1, message: "m" } }).ok).toBe(true);
    const categories = new Set<string>();
    for (const c of fc.sample(malformedResponseCase, { seed: 9, numRuns: 400 })) {
      categories.add(c.category);
      const text = decoder.decode(c.render(7).bytes);
      const message = JSON.parse(text) as Record<string, unknown>;
      expect("method" in message, text).toBe(false);
      expect("result" in message || "error" in message, text).toBe(true);
      // JSON Schema's anyOf cannot refuse a result response that also has an error member.
      if (c.category === "invalid-response/both") continue;
      // 1e400 reads as Infinity, which no schema takes: it is malformed either way.
      if (text.includes("1e400")) continue;
      expect(validate("JSONRPCResponse", message).ok, text).toBe(false);
    }
    expect(categories.size).toBeGreaterThan(12);
  });

  it("expect nothing over stdio, and over HTTP 400 with an error without id (202 counted apart)", () => {
    const [c] = fc.sample(malformedResponseCase, { seed: 2, numRuns: 1 });
    const http = { transport: "http", method: "POST", timedOut: false, contentType: "application/json" } as const;
    const refused = '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid response: x"}}';
    expect(check(c!.expect, { ...http, status: 400, body: refused }, undefined, c!.category)).toEqual([]);
    expect(check(c!.expect, { ...http, status: 202, body: "" }, undefined, c!.category).map((v) => v.kind)).toEqual([
      "invalid-response-accepted",
    ]);
    const withId = '{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"x"}}';
    expect(check(c!.expect, { ...http, status: 400, body: withId }, "7", c!.category).map((v) => v.kind)).toEqual(["id-changed"]);
    const stdio = { transport: "stdio", timedOut: false, unanswered: false } as const;
    expect(check(c!.stdioExpect!, { ...stdio, lines: [] }, undefined, c!.category)).toEqual([]);
    expect(check(c!.stdioExpect!, { ...stdio, lines: [withId] }, "7", c!.category).map((v) => v.kind)).toEqual(["answered-response"]);
  });
});

describe("stdio openings", () => {
  const opening: Lifecycle = {
    category: "lifecycle/test",
    pingFirst: true,
    version: "2025-11-25",
    elicitation: false,
    early: [
      { label: "tools-list", method: "tools/list", immediate: true },
      { label: "prompts-list", method: "prompts/list", immediate: false },
      { label: "ping", method: "ping", immediate: true },
    ],
    initializedAt: 1,
  };
  const ids = lifecycleIds(opening, 4);
  const result = (id: string, r = "{}") => `{"jsonrpc":"2.0","id":"${id}","result":${r}}`;
  const init = result(ids.initialize, '{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}');

  it("write a ping alone, then initialize and the requests behind it in one piece, notifications/initialized among them", () => {
    const { ping, batch } = lifecycleLines(opening, 4);
    expect(JSON.parse(ping!)).toEqual({ jsonrpc: "2.0", id: ids.ping, method: "ping" });
    expect(batch.map((l) => (JSON.parse(l) as { method: string }).method)).toEqual([
      "initialize",
      "tools/list",
      "notifications/initialized",
      "prompts/list",
      "ping",
    ]);
    for (const l of fc.sample(lifecycleArbitrary, { seed: 1, numRuns: 100 })) {
      const lines = lifecycleLines(l, 0).batch;
      expect(lines.filter((x) => x.includes('"notifications/initialized"')).length).toBe(l.initializedAt === undefined ? 0 : 1);
      expect(lines.length).toBe(1 + l.early.length + (l.initializedAt === undefined ? 0 : 1));
    }
  });

  it("pass answers in order after initialize, an async one anywhere after it", () => {
    const lines = [init, result(ids.early[0]!), result(ids.early[2]!), result(ids.early[1]!, '{"prompts":[]}')];
    expect(checkBatch(opening, 4, lines, false)).toEqual([]);
    expect(checkPingFirst([result(ids.ping)], ids.ping)).toEqual([]);
  });

  it("count a refusal, an answer before initialize's, an order changed, a second answer, a ping refused", () => {
    const refusal = `{"jsonrpc":"2.0","id":"${ids.early[0]}","error":{"code":-32602,"message":"Missing or invalid params._meta"}}`;
    const kinds = (lines: string[]) => checkBatch(opening, 4, lines, false).map((v) => v.kind);
    expect(kinds([refusal, init, result(ids.early[1]!), result(ids.early[2]!)])).toEqual([
      "answered-before-initialize",
      "early-request-refused",
    ]);
    expect(kinds([init, result(ids.early[2]!), result(ids.early[0]!), result(ids.early[1]!)])).toEqual(["early-out-of-order"]);
    expect(kinds([init, result(ids.early[0]!), result(ids.early[0]!), result(ids.early[1]!), result(ids.early[2]!)])).toEqual([
      "answered-twice",
    ]);
    expect(kinds([init, result(ids.early[0]!), result(ids.early[1]!)])).toEqual(["unanswered"]);
    const envelope = `{"jsonrpc":"2.0","id":"${ids.ping}","error":{"code":-32602,"message":"Missing or invalid params._meta"}}`;
    expect(checkPingFirst([envelope], ids.ping).map((v) => v.kind)).toEqual(["ping-refused"]);
    expect(
      checkBatch(
        opening,
        4,
        [init, result(ids.early[0]!, '{"tools":[],"resultType":"complete"}'), result(ids.early[1]!), result(ids.early[2]!)],
        false,
      ).map((v) => v.kind),
    ).toEqual(["later-era-field"]);
  });

  it("name only known kinds", () => {
    for (const kind of [
      "session-id-echoed",
      "session-header-honoured",
      "invalid-response-accepted",
      "early-request-refused",
      "answered-before-initialize",
      "early-out-of-order",
      "ping-refused",
    ])
      expect(VIOLATION_KINDS).toContain(kind);
    expect(parseLossless(init)).toBeDefined();
  });
});
