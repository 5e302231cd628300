import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { PassThrough, Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { McpServer, serveStdio } from "../src/index.js";
import { request, testServer } from "./helpers.js";

function run(server: McpServer, input: string | Buffer[], options: { maxLineBytes?: number } = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  stdout.on("data", (c) => out.push(c));
  const done = serveStdio(server, { input: stdin, output: stdout, errors: stderr, ...options });
  for (const chunk of typeof input === "string" ? [input] : input) stdin.write(chunk);
  stdin.end();
  return done.then(() =>
    Buffer.concat(out)
      .toString("utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l)),
  );
}

describe("serveStdio", () => {
  it("answers newline-delimited requests, one line each, and ends when input ends", async () => {
    const a = request("tools/call", { name: "echo", arguments: { text: "one" } });
    const b = request("tools/list");
    const lines = await run(testServer(), `${JSON.stringify(a)}\n${JSON.stringify(b)}\n`);
    expect(lines).toHaveLength(2);
    const byId = new Map(lines.map((l) => [l.id, l]));
    expect(byId.get(a.id).result.content).toEqual([{ type: "text", text: "one" }]);
    expect(byId.get(b.id).result.tools.length).toBeGreaterThan(0);
  });

  it("splits only on \\n: a CR or U+2028 inside a message is data, and a message split across chunks is joined", async () => {
    const a = request("tools/call", { name: "echo", arguments: { text: "x\r\u2028y" } });
    const text = JSON.stringify(a);
    const lines = await run(testServer(), [Buffer.from(text.slice(0, 10)), Buffer.from(`${text.slice(10)}\n`)]);
    expect(lines[0].result.content[0].text).toBe("x\r\u2028y");
  });

  it("answers a bad line with -32700, a non-request with -32600, and ignores notifications", async () => {
    const lines = await run(
      testServer(),
      `not json\n[1]\n{"jsonrpc":"2.0","method":"notifications/x"}\n{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}\n{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}\n`,
    );
    expect(lines.map((l) => l.error.code)).toEqual([-32700, -32600, -32602, -32600]);
    // JSON-RPC 2.0: an id that could not be read is answered as null, not left out.
    expect(lines.map((l) => l.id)).toEqual([null, null, 1, null]);
  });

  it("answers a malformed _meta member with -32602 naming it", async () => {
    const caps = request("tools/list");
    (caps.params._meta as Record<string, unknown>)["io.modelcontextprotocol/clientCapabilities"] = { elicitation: "yes" };
    const level = request("tools/list");
    (level.params._meta as Record<string, unknown>)["io.modelcontextprotocol/logLevel"] = "";
    const lines = await run(testServer(), `${JSON.stringify(caps)}\n${JSON.stringify(level)}\n`);
    const byId = new Map(lines.map((l) => [l.id, l.error]));
    expect(byId.get(caps.id)).toEqual({
      code: -32602,
      message: 'Invalid params: _meta["io.modelcontextprotocol/clientCapabilities"].elicitation must be an object',
    });
    expect(byId.get(level.id).code).toBe(-32602);
    expect(byId.get(level.id).message).toMatch(/^Invalid params: _meta\["io\.modelcontextprotocol\/logLevel"\] must be one of "alert"/);
  });

  it("never answers a JSON-RPC response (it sends no requests), and reports each on x-mcp:message:ignored", async () => {
    const ignored: unknown[] = [];
    const listener = (m: unknown) => ignored.push(m);
    subscribe("x-mcp:message:ignored", listener);
    const call = request("tools/list");
    try {
      const lines = await run(
        testServer(),
        [
          '{"jsonrpc":"2.0","id":7,"result":{}}',
          '{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"failed"}}',
          '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
          '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid request"}}',
          JSON.stringify(call),
          "",
        ].join("\n"),
      );
      expect(lines.map((l) => l.id)).toEqual([call.id]);
      expect(lines[0].result).toBeDefined();
    } finally {
      unsubscribe("x-mcp:message:ignored", listener);
    }
    expect(ignored).toEqual([
      { reason: "unsolicited-response", requestId: 7, code: undefined },
      { reason: "unsolicited-response", requestId: 7, code: -32603 },
      { reason: "unsolicited-response", requestId: undefined, code: -32700 },
      { reason: "unsolicited-response", requestId: undefined, code: -32600 },
    ]);
  });

  it("notifications/cancelled aborts the request and nothing is sent for it", async () => {
    const server = new McpServer({ name: "slow", version: "1" });
    let aborted = false;
    server.registerTool(
      "wait",
      {},
      (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            aborted = true;
            resolve("too late");
          });
        }),
    );
    const call = request("tools/call", { name: "wait" });
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: call.id } };
    const lines = await run(server, `${JSON.stringify(call)}\n${JSON.stringify(cancel)}\n`);
    expect(aborted).toBe(true);
    expect(lines).toEqual([]);
  });
});

describe("serveStdio failure modes", () => {
  it("stops cleanly when stdout fails (the client closed it), aborting what runs", async () => {
    const server = new McpServer({ name: "epipe", version: "1" });
    let aborted = false;
    server.registerTool(
      "wait",
      {},
      (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => {
            aborted = true;
            resolve("aborted");
          });
        }),
    );
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let diagnostics = "";
    stderr.on("data", (c) => {
      diagnostics += String(c);
    });
    const done = serveStdio(server, { input: stdin, output: stdout, errors: stderr });
    stdin.write(`${JSON.stringify(request("tools/call", { name: "wait" }))}\n`);
    await new Promise((r) => setTimeout(r, 20));
    stdout.emit("error", Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    await done;
    expect(aborted).toBe(true);
    expect(diagnostics).toContain("output closed (EPIPE)");
  });

  it("refuses a line nested deeper than the limit with -32600", async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${"[".repeat(70)}${"]".repeat(70)}}}`;
    const lines = await run(testServer(), `${deep}\n`);
    expect(lines[0].error.code).toBe(-32600);
    expect(lines[0].error.message).toContain("nested deeper than 64");
  });
});

describe("serveStdio line limit", () => {
  it("measures the whole line, whether it comes in one chunk or its end comes in the chunk that passes the limit", async () => {
    const long = JSON.stringify(request("tools/call", { name: "echo", arguments: { text: "x".repeat(300) } }));
    const short = request("tools/list");
    const limit = long.length - 10;
    const cases = [
      [Buffer.from(`${long}\n`)],
      [Buffer.from(long.slice(0, 100)), Buffer.from(`${long.slice(100)}\n`)],
      [Buffer.from(long.slice(0, limit - 1)), Buffer.from(`${long.slice(limit - 1)}\n`)],
    ];
    for (const chunks of cases) {
      const lines = await run(testServer(), [...chunks, Buffer.from(`${JSON.stringify(short)}\n`)], { maxLineBytes: limit });
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatchObject({ error: { code: -32600, message: `Invalid request: line longer than ${limit} bytes` } });
      expect(lines[1].id).toBe(short.id);
      expect(lines[1].result.tools.length).toBeGreaterThan(0);
    }
  });
});

describe("serveStdio chunks", () => {
  /** The lines a client might send: ASCII and non-ASCII requests, invalid UTF-8, blank, too long, not JSON. */
  const line = fc.oneof(
    fc
      .constantFrom("hello", "caf\u00e9 \ud83d\ude00", "\u2028")
      .map((text) => Buffer.from(JSON.stringify(request("tools/call", { name: "echo", arguments: { text } })))),
    fc.constant(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d])),
    fc.constantFrom(Buffer.from(""), Buffer.from(" \t\r"), Buffer.from("not json"), Buffer.from(`{"x":"${"y".repeat(500)}"}`)),
  );

  it("answers the same, in the same order, however the bytes are cut into chunks (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 6 }), async (lines, cuts) => {
        const bytes = Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")]));
        const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((from, i) => bytes.subarray(from, [...at, bytes.length][i]));
        // One write per line is the reference: no line shares a chunk or spans two.
        const reference = await run(
          testServer(),
          lines.map((l) => Buffer.concat([l, Buffer.from("\n")])),
          { maxLineBytes: 400 },
        );
        const cut = await run(testServer(), chunks, { maxLineBytes: 400 });
        expect(cut).toEqual(reference);
        expect(reference).toHaveLength(lines.filter((l) => l.toString().trim() !== "").length);
        // Every request is answered with its result, the others with errors.
        const requests = lines.filter((l) => l.includes('"method":"tools/call"')).length;
        expect(reference.filter((r) => r.result?.content[0].type === "text")).toHaveLength(requests);
      }),
      { numRuns: 60 },
    );
  });

  it("reads plain Uint8Array chunks (a stream in object mode) as it reads Buffers", async () => {
    const a = request("tools/call", { name: "echo", arguments: { text: "typed" } });
    const b = request("tools/call", { name: "echo", arguments: { text: "\u00e9" } });
    const encoded = new TextEncoder().encode(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`);
    const stdout = new PassThrough();
    const out: Buffer[] = [];
    stdout.on("data", (c) => out.push(c));
    const first = JSON.stringify(a).length + 1;
    // A whole ASCII line, then a line cut in two.
    const input = Readable.from([encoded.subarray(0, first), encoded.subarray(first, first + 40), encoded.subarray(first + 40)]);
    await serveStdio(testServer(), { input, output: stdout, errors: new PassThrough() });
    const lines = Buffer.concat(out)
      .toString("utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.result.content[0].text)).toEqual(["typed", "\u00e9"]);
  });

  it("reads a chunk of ASCII lines as text and still refuses the bad ones among them", async () => {
    const ok = request("tools/call", { name: "echo", arguments: { text: "ascii" } });
    const wide = request("tools/call", { name: "echo", arguments: { text: "\u00e9" } });
    const chunk = Buffer.concat([
      Buffer.from(`${JSON.stringify(ok)}\n{bad\n${"x".repeat(450)}\n`),
      Buffer.from(`${JSON.stringify(wide)}\n`),
      Buffer.from([0x22, 0xc3, 0x28, 0x22, 0x0a]),
    ]);
    const lines = await run(testServer(), [chunk], { maxLineBytes: 400 });
    expect(lines.map((l) => l.result?.content[0].text ?? l.error.code)).toEqual(["ascii", -32700, -32600, "\u00e9", -32700]);
  });
});

describe("stdio under fake timers", () => {
  it("writes a turn's answers with the real setImmediate, so a test with vi.useFakeTimers() still gets them", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const done = serveStdio(testServer(), { input, output, errors: new PassThrough() });
    vi.useFakeTimers();
    let line: string;
    try {
      // Only the turn's flush writes; with a faked setImmediate it would never come (the test's timeout bounds the wait).
      const written = new Promise<string>((resolve) => output.once("data", (chunk) => resolve(String(chunk))));
      input.write(`${JSON.stringify(request("tools/call", { name: "echo", arguments: { text: "faked" } }))}\n`);
      line = await written;
    } finally {
      vi.useRealTimers();
    }
    input.end();
    await done;
    expect(JSON.parse(line.split("\n")[0]!).result.content[0].text).toBe("faked");
  });
});
