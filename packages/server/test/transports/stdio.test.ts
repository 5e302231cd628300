// stdio's lifecycle across eras (spec 2025-11-25: basic/lifecycle, basic/utilities/ping;
// 2026-07-28: basic/versioning "Backward Compatibility") and the messages it
// never answers (JSON-RPC 2.0 "Response object"): read through real pipes.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { MAX_EARLY_MESSAGES, McpServer, serveStdio } from "../../src/index.js";
import type { MessageIgnoredEvent } from "../../src/telemetry.js";
import { meta } from "../helpers.js";

function eraServer() {
  const server = new McpServer({ name: "era", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, (args) => String(args.text));
  server.registerResource("doc", "test://doc", {}, () => "the doc");
  return server;
}

/** Writes `lines` in one chunk, ends the input, and returns every line written back once the server is done. */
async function exchange(server: McpServer, lines: readonly unknown[], maxLineBytes?: number): Promise<any[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: Buffer[] = [];
  stdout.on("data", (c: Buffer) => out.push(c));
  const done = serveStdio(server, { input: stdin, output: stdout, errors: new PassThrough(), maxLineBytes });
  stdin.end(lines.map((l) => `${typeof l === "string" ? l : JSON.stringify(l)}\n`).join(""));
  await done;
  return Buffer.concat(out)
    .toString("utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

const initialize = (id: number | string) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
});
const rq = (id: number, method: string, params?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params ? { params } : {}),
});

describe("stdio: requests written right after initialize, before its answer", () => {
  it("are answered after initialize, each once, handled in the order written, in the initialize era", async () => {
    const lines = await exchange(eraServer(), [
      initialize(1),
      rq(2, "tools/list"),
      rq(3, "ping"),
      rq(4, "tools/call", { name: "echo", arguments: { text: "a" } }),
      rq(5, "resources/list"),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      rq(6, "ping"),
    ]);
    const ids = lines.map((l) => l.id);
    expect(ids[0]).toBe(1);
    expect(lines[0].result.protocolVersion).toBe("2025-11-25");
    expect(ids.slice(1).sort()).toEqual([2, 3, 4, 5, 6]);
    // Handled in the order read: those answered at once (all but resources/list, whose handler is async) leave in that order.
    expect(ids.filter((id) => id !== 5)).toEqual([1, 2, 3, 4, 6]);
    for (const line of lines) expect(line.error).toBeUndefined();
    const byId = new Map(lines.map((l) => [l.id, l.result]));
    // Stamped for the era: no 2026-07-28 result members.
    expect(byId.get(2).tools.map((t: { name: string }) => t.name)).toEqual(["echo"]);
    expect(byId.get(2).resultType).toBeUndefined();
    expect(byId.get(3)).toEqual({});
    expect(byId.get(4)).toEqual({ content: [{ type: "text", text: "a" }] });
    expect(byId.get(5).resources).toHaveLength(1);
  });

  it(`wait in a bounded queue: past ${MAX_EARLY_MESSAGES} messages a request is refused with -32000 naming the bound`, async () => {
    const early = Array.from({ length: MAX_EARLY_MESSAGES + 2 }, (_, k) => rq(100 + k, "ping"));
    const lines = await exchange(eraServer(), [initialize(1), ...early]);
    const refused = lines.filter((l) => l.error);
    expect(refused.map((l) => l.id)).toEqual([100 + MAX_EARLY_MESSAGES, 101 + MAX_EARLY_MESSAGES]);
    expect(refused[0].error).toEqual({
      code: -32000,
      message: `Server busy: more than ${MAX_EARLY_MESSAGES} messages or 4194304 bytes arrived before initialize was answered`,
    });
    const answered = lines.filter((l) => l.result);
    expect(answered.map((l) => l.id)).toEqual([1, ...early.slice(0, MAX_EARLY_MESSAGES).map((r) => r.id)]);
  });

  it("wait in all at most maxLineBytes bytes: past them a request is refused even under the count", async () => {
    // The bound is the initialize line's length; two of these pings fit in it, the third does not.
    const bound = JSON.stringify(initialize(1)).length;
    const pad = Math.floor(bound / 2) - JSON.stringify(rq(10, "ping", { pad: "" })).length;
    const ping = (id: number) => rq(id, "ping", { pad: "x".repeat(pad) });
    const lines = await exchange(eraServer(), [initialize(1), ping(10), ping(11), ping(12)], bound);
    expect(lines.map((l) => [l.id, l.error?.code])).toEqual([
      [12, -32000],
      [1, undefined],
      [10, undefined],
      [11, undefined],
    ]);
    expect(lines[0].error.message).toBe(
      `Server busy: more than ${MAX_EARLY_MESSAGES} messages or ${bound} bytes arrived before initialize was answered`,
    );
  });

  it("after a failed initialize, a request of that era gets that era's refusal (-32600), never the 2026-07-28 envelope's", async () => {
    const bad = { ...initialize(1), params: { capabilities: {} } };
    const lines = await exchange(eraServer(), [bad, rq(2, "tools/list"), rq(3, "ping"), rq(4, "tools/list", { _meta: meta() })]);
    expect(lines.map((l) => l.id)).toEqual([1, 2, 3, 4]);
    expect(lines[0].error.code).toBe(-32602);
    expect(lines[1].error).toEqual({
      code: -32600,
      message: "Invalid request: initialize has not succeeded on this connection; send initialize first",
    });
    expect(lines[2].result).toEqual({});
    // A request that carries the 2026-07-28 envelope is of that era, and served.
    expect(lines[3].result.resultType).toBe("complete");
  });

  it("are read afresh when initialize fails: a second initialize among them opens the era", async () => {
    const bad = { ...initialize(1), params: { capabilities: {} } };
    const lines = await exchange(eraServer(), [bad, initialize(2), rq(3, "tools/list")]);
    expect(lines.map((l) => l.id)).toEqual([1, 2, 3]);
    expect(lines[0].error.code).toBe(-32602);
    expect(lines[1].result.protocolVersion).toBe("2025-11-25");
    expect(lines[2].result.tools).toHaveLength(1);
  });
});

describe("stdio: ping before any era is pinned", () => {
  it("is answered with an empty result and pins nothing: either era may still open", async () => {
    const legacy = await exchange(eraServer(), [rq(1, "ping"), initialize(2), { jsonrpc: "2.0", method: "notifications/initialized" }]);
    expect(legacy).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      expect.objectContaining({ id: 2, result: expect.objectContaining({ protocolVersion: "2025-11-25" }) }),
    ]);
    const modern = await exchange(eraServer(), [rq(1, "ping"), rq(2, "tools/list", { _meta: meta() })]);
    expect(modern[0]).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(modern[1].result.resultType).toBe("complete");
  });
});

describe("stdio: a batch of responses", () => {
  it("is never answered (JSON-RPC 2.0 section 6), well formed or not, and a batch holding a request is still refused", async () => {
    const lines = await exchange(eraServer(), [
      [{ jsonrpc: "2.0", id: 1, result: {} }],
      [
        { jsonrpc: "2.0", id: 2, result: {} },
        { jsonrpc: "2.0", error: [[]] },
      ],
      [{ jsonrpc: "2.0", id: 3, result: {} }, rq(4, "tools/list", { _meta: meta() })],
      rq(5, "tools/list", { _meta: meta() }),
    ]);
    expect(lines.map((l) => l.id)).toEqual([null, 5]);
    expect(lines[0].error).toEqual({ code: -32600, message: "Invalid request: batches are not supported" });
  });
});

describe("stdio: response-shaped messages", () => {
  const malformed = [
    '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":-1,"message":"both"}}',
    '{"jsonrpc":"2.0","id":2,"error":"not an object"}',
    '{"jsonrpc":"2.0","error":[[]]}',
    '{"jsonrpc":"2.0","id":3,"error":{"code":1.5,"message":"fractional code"}}',
    '{"jsonrpc":"2.0","id":4,"error":{"code":-1}}',
    '{"id":5,"result":{}}',
    '{"jsonrpc":"2.0","result":{}}',
    '{"jsonrpc":"2.0","id":null,"result":{}}',
    '{"jsonrpc":"1.0","id":6,"result":{}}',
  ];

  it("are never answered when malformed, on a connection of either era, and each is reported as an invalid response", async () => {
    const ignored: MessageIgnoredEvent[] = [];
    const listener = (m: unknown) => ignored.push(m as MessageIgnoredEvent);
    subscribe("x-mcp:message:ignored", listener);
    try {
      const before = await exchange(eraServer(), [...malformed, rq(9, "tools/list", { _meta: meta() })]);
      expect(before.map((l) => l.id)).toEqual([9]);
      const pinned = await exchange(eraServer(), [initialize(1), { jsonrpc: "2.0", method: "notifications/initialized" }, ...malformed]);
      expect(pinned.map((l) => l.id)).toEqual([1]);
    } finally {
      unsubscribe("x-mcp:message:ignored", listener);
    }
    expect(ignored).toHaveLength(2 * malformed.length);
    for (const event of ignored) expect(event.reason).toBe("invalid-response");
    expect(ignored[1]).toEqual({ reason: "invalid-response", requestId: 2, code: undefined });
  });
});
