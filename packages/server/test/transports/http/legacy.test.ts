// The dual-era rule on Streamable HTTP (spec 2026-07-28: basic/versioning
// "Backward Compatibility", basic/transports/streamable-http "Earlier
// Streamable HTTP Revisions"): a request carrying the 2026-07-28 `_meta`
// envelope is served statelessly whatever `Mcp-Session-Id` it carries (the
// header is ignored, never minted or echoed); only `initialize` and requests
// without the envelope are of the initialize era.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServer } from "../../../src/index.js";
import { headersFor, meta } from "../../helpers.js";
import { open, post, rq, start } from "../../legacy/helpers.js";

/** Session ids no server minted (one well formed) and ids that are not session ids at all. */
const MALFORMED_OR_STALE = ["00000000-0000-4000-8000-000000000000", "a b", "x".repeat(300), "stale-session"];

function eraServer() {
  const server = new McpServer({ name: "era", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => String(args.text));
  return server;
}

let srv: Awaited<ReturnType<typeof start>>;
beforeAll(async () => {
  srv = await start(eraServer());
});
afterAll(() => srv.stop());

/** A 2026-07-28 request with a conforming client's headers, plus `extra`. */
async function modern(method: string, params: Record<string, unknown>, extra: Record<string, string>) {
  const body = { ...rq(method, params), params: { ...params, _meta: meta() } };
  return post(srv.url, body, { ...headersFor(body), ...extra });
}

describe("a 2026-07-28 request that carries Mcp-Session-Id", () => {
  it("is served statelessly, as without the header, whatever session it names; the answer carries no Mcp-Session-Id", async () => {
    const { id } = await open(srv.url);
    const plain = await modern("tools/call", { name: "echo", arguments: { text: "hi" } }, {});
    const expected = (await plain.json()).result;
    for (const sessionId of [id, ...MALFORMED_OR_STALE]) {
      const res = await modern("tools/call", { name: "echo", arguments: { text: "hi" } }, { "mcp-session-id": sessionId });
      expect(res.status, sessionId).toBe(200);
      expect(res.headers.get("mcp-session-id"), sessionId).toBeNull();
      const answer = await res.json();
      expect(answer.result, sessionId).toEqual(expected);
      expect(answer.result.resultType).toBe("complete");
    }
    // The session it named is untouched and still serves its own era.
    expect(srv.legacy.session(id)).toBeDefined();
  });

  it("gets the 2026-07-28 answer to a bad request (-32022 for an unsupported version), not the session's 404", async () => {
    const body = { ...rq("tools/list"), params: { _meta: meta({ "io.modelcontextprotocol/protocolVersion": "1999-01-01" }) } };
    const headers = { ...headersFor(body), "mcp-protocol-version": "1999-01-01" };
    const without = await post(srv.url, body, headers);
    const withStale = await post(srv.url, body, { ...headers, "mcp-session-id": MALFORMED_OR_STALE[0]! });
    expect(withStale.status).toBe(without.status);
    expect((await withStale.json()).error).toEqual((await without.json()).error);
    expect(withStale.headers.get("mcp-session-id")).toBeNull();
  });

  it("leaves the initialize era's rules alone: a request without the envelope, GET and DELETE still need a live session", async () => {
    const stale = MALFORMED_OR_STALE[0]!;
    expect((await post(srv.url, rq("tools/list"), { "mcp-session-id": stale })).status).toBe(404);
    expect((await fetch(srv.url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": stale } })).status).toBe(404);
    expect((await fetch(srv.url, { method: "DELETE", headers: { "mcp-session-id": stale } })).status).toBe(404);
    const { headers } = await open(srv.url);
    const legacy = await post(srv.url, rq("tools/list"), headers);
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get("mcp-session-id")).toBe(headers["mcp-session-id"]);
    expect((await legacy.json()).result.resultType).toBeUndefined();
  });
});
