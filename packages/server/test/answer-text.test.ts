// A 2026-07-28 answer is written out as text when it is answered, without a
// second walk of what the stamp adds: that text must be the very bytes
// JSON.stringify gives for the stamped response, and nothing a handler or an
// execute() override does may be lost by it.
import { PassThrough } from "node:stream";
import { callToolResult } from "@x/builders";
import { META_SERVER_INFO } from "@x/mcp-v2607";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { responseText } from "../src/dispatch.js";
import { listen, McpServer, type Outcome, serveStdio, type TransportInfo } from "../src/index.js";
import { revision2607 } from "../src/revisions/2026-07-28/index.js";
import { meta, rpc } from "./helpers.js";

const info = Object.freeze({ name: "text", version: "1.0.0", title: 'Text \u2713 "quoted"' });

/** What the stamp path writes: JSON.stringify of the stamped copy. */
const stamped = (result: Record<string, unknown>) => JSON.stringify(revision2607.stamp(result, info));

/** Every answer line `server` writes over stdio for `lines`, as text. */
async function stdioText(server: McpServer, lines: object[]): Promise<string[]> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: Buffer[] = [];
  stdout.on("data", (c) => out.push(c));
  const done = serveStdio(server, { input: stdin, output: stdout, errors: new PassThrough() });
  stdin.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  await done;
  return Buffer.concat(out)
    .toString("utf8")
    .split("\n")
    .filter((l) => l !== "");
}

/** A result as a JavaScript handler may give it: without the resultType the typed CallToolResult requires. */
const untyped = (result: object) => result as never;

const call = (id: number | string, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, _meta: meta() } });

describe("stampText", () => {
  it("is JSON.stringify of the stamped copy for any result without _meta or toJSON, with or without its own resultType (fast-check)", () => {
    const results = fc
      .tuple(
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 8 }),
        fc.option(fc.constantFrom("complete", "input_required", 5, null), { nil: undefined }),
        fc.boolean(),
      )
      .map(([members, resultType, first]): Record<string, unknown> => {
        if (resultType === undefined) return members;
        // Its own resultType, before or after the other members.
        return first ? Object.assign({ resultType }, members) : Object.assign(members, { resultType });
      });
    let written = 0;
    fc.assert(
      fc.property(results, (result) => {
        const text = revision2607.stampText?.(result, info);
        if ("_meta" in result || ("resultType" in result && result.resultType === undefined)) expect(text).toBeUndefined();
        else {
          expect(text).toBe(stamped(result));
          written++;
        }
      }),
      { numRuns: 2000 },
    );
    expect(written).toBeGreaterThan(1000);
  });

  it("leaves to the stamped copy what it cannot write the same: its own _meta or an undefined, inherited or hidden resultType, toJSON, bigint, cycles, boxed values", () => {
    class WithJson {
      toJSON() {
        return { content: [] };
      }
    }
    const cyclic: Record<string, unknown> = { content: [] };
    cyclic.self = cyclic;
    class Typed {
      get resultType() {
        return "complete";
      }
    }
    for (const result of [
      { content: [], resultType: undefined },
      new Typed(),
      // Own but hidden: the copy skips it and appends "complete".
      Object.defineProperty({ content: [] }, "resultType", { value: "input_required", enumerable: false }),
      { content: [], _meta: { "x/a": 1 } },
      { content: [], toJSON: () => ({}) },
      new WithJson(),
      { content: [], big: 2n ** 64n },
      cyclic,
      new String("ab"),
      ["a"],
      null,
    ]) {
      expect(revision2607.stampText?.(result, info)).toBeUndefined();
    }
    // Empty, nested, unicode and escapes are written as the copy is.
    for (const result of [
      {},
      { resultType: "complete" },
      { resultType: "input_required", inputRequests: {} },
      callToolResult([{ type: "text", text: "built" }]),
      { a: { b: [1, "\u2028", null] }, "\u00e9": '\n\t"' },
      { __proto__: null, x: 1 },
    ]) {
      expect(revision2607.stampText?.(result, info)).toBe(stamped(result));
    }
  });
});

describe("answers written as text", () => {
  function server(name = "text-server") {
    const s = new McpServer({ name, version: "2.0.0", title: "T \u00e9", websiteUrl: "https://example.com/x?a=1&b=2" });
    s.registerTool("plain", {}, () => untyped({ content: [{ type: "text", text: 'hi \u2603 "q"' }] }));
    s.registerTool("built", {}, () => callToolResult([{ type: "text", text: "built" }]));
    s.registerTool("own-meta", {}, () => untyped({ content: [{ type: "text", text: "m" }], _meta: { "x/trace": "t" } }));
    s.registerTool("big", {}, () => untyped({ content: [{ type: "text", text: "b" }], structuredContent: { n: 2n ** 70n } }));
    s.registerTool("empty", {}, () => untyped({ content: [] }));
    return s;
  }

  it("over stdio, are the bytes of the stamped response, with string and number ids, and bigints as digits", async () => {
    const s = server();
    const requests = [call(1, "plain"), call('a"b', "plain"), call(3, "own-meta"), call(4, "big"), call(5, "empty"), call(6, "built")];
    const lines = await stdioText(s, requests);
    expect(lines).toHaveLength(requests.length);
    for (const request of requests) {
      // server.handle answers without a transport: its response, written by JSON.stringify, is the reference.
      const outcome = await s.handle(request);
      const reference = JSON.stringify(outcome.response, (_k, v) => (typeof v === "bigint" ? `${v}` : v)).replace(/"(\d{19,})"/g, "$1");
      expect(lines).toContain(reference);
    }
    const plain = JSON.parse(lines.find((l) => l.includes('"id":1,'))!);
    expect(plain.result._meta[META_SERVER_INFO]).toEqual(s.info);
    expect(lines.find((l) => l.includes('"id":4,'))).toContain(`"n":${2n ** 70n}`);
  });

  it("over HTTP, the JSON body is the response's text, byte for byte", async () => {
    const s = server();
    const running = await listen(s, { port: 0 });
    try {
      const answer = await rpc(running.url, "tools/call", { name: "plain" }, { id: 7 });
      const outcome = await s.handle(call(7, "plain"));
      expect(answer.status).toBe(200);
      expect(answer.raw).toBe(responseText(outcome));
      expect(responseText(outcome)).toBe(JSON.stringify(outcome.response));
    } finally {
      await running.close();
    }
  });

  it("two servers answering in turn each carry their own server info", async () => {
    const a = server("server-a");
    const b = server("server-b");
    for (let i = 0; i < 4; i++) {
      for (const s of [a, b]) {
        const text = responseText(await s.handle(call(i, "plain")));
        expect(JSON.parse(text).result._meta[META_SERVER_INFO].name).toBe(s.info.name);
      }
    }
    expect(Object.isFrozen(a.info)).toBe(true);
  });

  it("writes a result read once: with getters that change on every read or a strict proxy, the text is the response's", async () => {
    const responses: unknown[] = [];
    class Keeping extends McpServer {
      override async execute(request: Parameters<McpServer["execute"]>[0], transport?: TransportInfo): Promise<Outcome> {
        const outcome = await super.execute(request, transport);
        // Kept as a string now: the text must be what the response was when it was answered.
        responses.push(JSON.stringify(outcome.response));
        return outcome;
      }
    }
    const s = new Keeping({ name: "once", version: "1" });
    let ticks = 0;
    s.registerTool("getter", {}, () =>
      untyped({
        get content() {
          return [{ type: "text", text: `read ${++ticks}` }];
        },
      }),
    );
    const known = new Set(["content", "then", "resultType", "structuredContent", "isError", "_meta"]);
    s.registerTool("strict", {}, () =>
      untyped(
        new Proxy(
          { content: [{ type: "text", text: "strict" }] },
          {
            get(target, key) {
              if (typeof key === "string" && !known.has(key)) throw new Error(`read of ${key}`);
              return Reflect.get(target, key);
            },
          },
        ),
      ),
    );
    const lines = await stdioText(s, [call(1, "getter"), call(2, "strict")]);
    expect(lines).toEqual(responses);
    expect(JSON.parse(lines[1]!).result.content).toEqual([{ type: "text", text: "strict" }]);
  });

  it("a frozen outcome from an execute() override is answered, with the response it carries", async () => {
    class Freezing extends McpServer {
      override async execute(request: Parameters<McpServer["execute"]>[0], transport?: TransportInfo): Promise<Outcome> {
        return Object.freeze(await super.execute(request, transport));
      }
    }
    const s = new Freezing({ name: "freezing", version: "1" });
    s.registerTool("plain", {}, () => untyped({ content: [{ type: "text", text: "hi" }] }));
    const [line] = await stdioText(s, [call(1, "plain")]);
    const answer = JSON.parse(line!);
    expect(answer.error).toBeUndefined();
    expect(answer.result.content).toEqual([{ type: "text", text: "hi" }]);
  });

  it("what an execute() override changes in the response is sent, over stdio and HTTP", async () => {
    class Tracing extends McpServer {
      override async execute(request: Parameters<McpServer["execute"]>[0], transport?: TransportInfo): Promise<Outcome> {
        const outcome = await super.execute(request, transport);
        const result = (outcome.response as { result?: Record<string, any> }).result;
        if (result) {
          result._meta["x/trace"] = "traced";
          result.added = true;
        }
        return outcome;
      }
    }
    const s = new Tracing({ name: "tracing", version: "1" });
    s.registerTool("plain", {}, () => untyped({ content: [{ type: "text", text: "hi" }] }));
    const [line] = await stdioText(s, [call(1, "plain")]);
    const viaStdio = JSON.parse(line!).result;
    expect(viaStdio._meta).toEqual({ [META_SERVER_INFO]: s.info, "x/trace": "traced" });
    expect(viaStdio.added).toBe(true);
    const running = await listen(s, { port: 0 });
    try {
      const viaHttp = (await rpc(running.url, "tools/call", { name: "plain" })).json.result;
      expect(viaHttp._meta["x/trace"]).toBe("traced");
      expect(viaHttp.added).toBe(true);
    } finally {
      await running.close();
    }
  });
});
