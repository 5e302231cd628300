// What the Streamable HTTP ladder does with a POSTed body shaped as a
// JSON-RPC response (JSON-RPC 2.0 "Response object"; spec 2026-07-28,
// basic/transports/streamable-http "Sending Messages to the Server"): 202
// with no body when it is a well-formed response, 400 with an error that
// carries no id when it is not; never an answer to its id.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { PROTOCOL_VERSION } from "@x/mcp-v2607";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../../src/index.js";
import type { MessageIgnoredEvent } from "../../../src/telemetry.js";
import { open, post, rq, sse, start } from "../../legacy/helpers.js";

let srv: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  const server = new McpServer({ name: "responses", version: "1.0.0" });
  server.registerTool("ask", {}, async (_args, ctx) => {
    const answer = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
    return answer.action === "accept" ? `Hello ${String(answer.content?.name)}` : answer.action;
  });
  srv = await start(server);
});
afterAll(() => srv.stop());

const WELL_FORMED = [
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: "r", result: null },
  { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "failed", data: [1] } },
  { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
  { jsonrpc: "2.0", error: { code: -32600, message: "Invalid request" } },
];

const MALFORMED: unknown[] = [
  { jsonrpc: "2.0", error: [[]] },
  { jsonrpc: "2.0", id: 3, error: "no" },
  { jsonrpc: "2.0", id: 4, result: {}, error: { code: 1, message: "both" } },
  { jsonrpc: "2.0", id: 5, error: { code: "1", message: "string code" } },
  { jsonrpc: "2.0", id: 6, error: { code: 1 } },
  { id: 7, result: {} },
  { jsonrpc: "2.0", result: {} },
  { jsonrpc: "2.0", id: 1.5, error: { code: 1, message: "m" } },
];

describe("a POSTed JSON-RPC response", () => {
  it("is accepted with 202 and an empty body when well formed, with or without a session", async () => {
    const { headers } = await open(srv.url);
    for (const extra of [{ "mcp-protocol-version": PROTOCOL_VERSION }, headers]) {
      for (const body of WELL_FORMED) {
        const res = await post(srv.url, body, extra);
        expect(res.status, JSON.stringify(body)).toBe(202);
        expect(await res.text()).toBe("");
      }
    }
  });

  it("is refused with 400 and a -32600 error without id when malformed, with or without a session, and reported", async () => {
    const ignored: MessageIgnoredEvent[] = [];
    const listener = (m: unknown) => ignored.push(m as MessageIgnoredEvent);
    subscribe("x-mcp:message:ignored", listener);
    try {
      const { headers } = await open(srv.url);
      for (const extra of [{ "mcp-protocol-version": PROTOCOL_VERSION }, headers]) {
        for (const body of MALFORMED) {
          const res = await post(srv.url, body, extra);
          expect(res.status, JSON.stringify(body)).toBe(400);
          const answer = await res.json();
          expect(answer.jsonrpc).toBe("2.0");
          expect(answer.id ?? null).toBeNull();
          expect(answer.error.code).toBe(-32600);
          expect(answer.error.message).toMatch(/^Invalid response: /);
          expect(answer.result).toBeUndefined();
        }
      }
    } finally {
      unsubscribe("x-mcp:message:ignored", listener);
    }
    expect(ignored.map((e) => e.reason)).toEqual(Array(2 * MALFORMED.length).fill("invalid-response"));
  });
});

describe("a POSTed batch of responses (JSON-RPC 2.0 section 6: nothing in it to answer)", () => {
  it("gets 202 with no body when every member is well formed, 400 with id null when one is not; a batch holding a request is refused", async () => {
    const extra = { "mcp-protocol-version": PROTOCOL_VERSION };
    const fine = await post(srv.url, WELL_FORMED, extra);
    expect(fine.status).toBe(202);
    expect(await fine.text()).toBe("");
    const mixed = await post(srv.url, [WELL_FORMED[0], MALFORMED[0]], extra);
    expect(mixed.status).toBe(400);
    expect(await mixed.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    const withRequest = await post(srv.url, [WELL_FORMED[0], { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} }], extra);
    expect(withRequest.status).toBe(400);
    expect(await withRequest.json()).toMatchObject({
      id: null,
      error: { code: -32600, message: "Invalid request: batches are not supported" },
    });
  });

  it("settles a session's request it answers, as one response would", async () => {
    const { headers } = await open(srv.url, { elicitation: {} });
    const events = sse(await post(srv.url, rq("tools/call", { name: "ask", arguments: {} }), headers));
    const asked = (await events.message())!;
    expect(asked.method).toBe("elicitation/create");
    const batch = [{ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Bo" } } }];
    expect((await post(srv.url, batch, headers)).status).toBe(202);
    expect((await events.message())!.result.content[0].text).toBe("Hello Bo");
  });
});
