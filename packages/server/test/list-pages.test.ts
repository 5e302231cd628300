// tools/list pages are made once per registry state (PageCache in
// src/pagination.ts): the slice, the next cursor and the result's JSON text
// are kept. What is sent must stay exactly what a fresh page would be, and
// nothing a caller does with one answer may show up in the next.
import { describe, expect, it, vi } from "vitest";
import { responseText } from "../src/dispatch.js";
import { McpServer, type Outcome } from "../src/index.js";
import { meta } from "./helpers.js";

let nextId = 1;
const list = (cursor?: unknown) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method: "tools/list",
  params: { ...(cursor === undefined ? {} : { cursor }), _meta: meta() },
});

/** The text sent for `outcome`, checked against JSON.stringify of its response (what an uncached answer writes). */
function sent(outcome: Outcome): string {
  const text = responseText(outcome);
  expect(text).toBe(JSON.stringify(outcome.response));
  return text;
}

/** Every page of the list, following cursors: the sent text of each, and the tool names of each. */
async function walk(server: McpServer): Promise<{ texts: string[]; names: string[][] }> {
  const texts: string[] = [];
  const names: string[][] = [];
  let cursor: unknown;
  for (let pages = 0; pages < 100; pages++) {
    const outcome = await server.handle(list(cursor));
    const text = sent(outcome);
    const answer = JSON.parse(text);
    texts.push(text.replace(/"id":\d+,/, ""));
    names.push(answer.result.tools.map((t: { name: string }) => t.name));
    cursor = answer.result.nextCursor;
    if (cursor === undefined) break;
  }
  return { texts, names };
}

// One key for all: two servers with the same registry sign the same cursors.
const KEY = Buffer.alloc(32, 9).toString("base64");

function server(count: number, pageSize = 2) {
  const s = new McpServer({ name: "pages", version: "1.0.0" }, { pageSize, requestStateKeys: [KEY] });
  for (let i = 0; i < count; i++) {
    s.registerTool(
      `t${i}`,
      { description: `Tool "${i}" \u2713`, inputSchema: { type: "object", properties: { n: { type: "integer" } } } },
      () => ({ content: [] }) as never,
    );
  }
  return s;
}

describe("tools/list pages made once", () => {
  it("sends, page after page and walk after walk, the text a fresh page gives", async () => {
    const s = server(5);
    const first = await walk(s);
    expect(first.names).toEqual([["t0", "t1"], ["t2", "t3"], ["t4"]]);
    const again = await walk(s);
    expect(again.texts).toEqual(first.texts);
    // The same registry on a server that never answered a page: the same bytes.
    expect((await walk(server(5))).texts).toEqual(first.texts);
  });

  it("follows the registry: a tool added or removed shows on the next call, old cursors still read", async () => {
    const s = server(5);
    const before = await walk(s);
    const second = JSON.parse(before.texts[0]!).result.nextCursor;
    s.registerTool("added", { description: "new" }, () => ({ content: [] }) as never);
    s.removeTool("t0");
    const after = await walk(s);
    expect(after.names).toEqual([["t1", "t2"], ["t3", "t4"], ["added"]]);
    const fromOld = JSON.parse(sent(await s.handle(list(second))));
    expect(fromOld.result.tools.map((t: { name: string }) => t.name)).toEqual(["t3", "t4"]);
  });

  it("a caller changing the result it got (in process) changes nothing sent later", async () => {
    const s = server(3);
    const reference = (await walk(s)).texts;
    const outcome = await s.handle(list());
    const result = outcome.response as unknown as { result: { tools: unknown[]; ttlMs: number; nextCursor?: string } };
    result.result.tools.push({ name: "intruder", inputSchema: { type: "object" } });
    result.result.tools.reverse();
    result.result.ttlMs = 99;
    delete result.result.nextCursor;
    expect((await walk(s)).texts).toEqual(reference);
  });

  it("still refuses forged and malformed cursors once good ones are kept, and answers the good ones after", async () => {
    const s = server(5);
    const good = JSON.parse(sent(await s.handle(list()))).result.nextCursor as string;
    await s.handle(list(good));
    const [body, tag] = good.split(".");
    const flipped = `${body}.${tag!.startsWith("A") ? "B" : "A"}${tag!.slice(1)}`;
    for (let i = 0; i < 3; i++) {
      for (const cursor of ["", "junk", flipped, `${body}.`, 42, null, {}]) {
        const answer = (await s.handle(list(cursor))).response as { error?: { code: number } };
        expect(answer.error?.code, String(cursor)).toBe(-32602);
      }
    }
    const page = JSON.parse(sent(await s.handle(list(good))));
    expect(page.result.tools.map((t: { name: string }) => t.name)).toEqual(["t2", "t3"]);
  });

  it("answers right beyond the cursors it keeps: many valid cursor strings for one page, from servers sharing keys", async () => {
    const keys = Array.from({ length: 24 }, (_, i) => Buffer.alloc(32, i + 1).toString("base64"));
    const make = (ring: string[]) => {
      const s = new McpServer({ name: "ring", version: "1.0.0" }, { pageSize: 1, requestStateKeys: ring });
      for (const name of ["a", "b", "c"]) s.registerTool(name, {}, () => ({ content: [] }) as never);
      return s;
    };
    const verifier = make(keys);
    // Each signer signs with its own key, which the verifier's ring holds: 24 cursor strings for offset 1.
    const cursors = await Promise.all(keys.map(async (k) => JSON.parse(sent(await make([k]).handle(list()))).result.nextCursor as string));
    expect(new Set(cursors).size).toBe(keys.length);
    for (let round = 0; round < 2; round++) {
      for (const cursor of cursors) {
        const page = JSON.parse(sent(await verifier.handle(list(cursor))));
        expect(page.result.tools.map((t: { name: string }) => t.name)).toEqual(["b"]);
      }
    }
  });

  it("one page of many tools, sent twice, is the same text, and a one-tool change is seen", async () => {
    const s = server(1000, 10_000);
    const one = await walk(s);
    expect(one.names[0]).toHaveLength(1000);
    expect((await walk(s)).texts).toEqual(one.texts);
    s.removeTool("t999");
    expect((await walk(s)).names[0]).toHaveLength(999);
  });

  it("the definitions are frozen copies: nothing an answer's reader, a handler or the registering code changes reaches the list", async () => {
    const annotations = { readOnlyHint: true };
    const s = new McpServer({ name: "frozen", version: "1.0.0" }, { pageSize: 2, requestStateKeys: [KEY] });
    s.registerTool("sorter", { annotations }, (_args, ctx) => {
      // ctx.tools is the published list: read-only, all the way down.
      expect(() => (ctx.tools as unknown[]).reverse()).toThrow(TypeError);
      expect(() => {
        (ctx.tools[0]!.annotations as { readOnlyHint: boolean }).readOnlyHint = false;
      }).toThrow(TypeError);
      return { content: [] } as never;
    });
    for (const name of ["b", "c", "d"]) s.registerTool(name, { description: name }, () => ({ content: [] }) as never);
    const reference = await walk(s);
    expect(reference.names).toEqual([
      ["sorter", "b"],
      ["c", "d"],
    ]);
    const first = (await s.handle(list())).response as unknown as { result: { tools: Array<{ description?: string }> } };
    expect(() => {
      first.result.tools[1]!.description = "CHANGED";
    }).toThrow(TypeError);
    const call = await s.handle({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "sorter", _meta: meta() } });
    expect((call.response as { error?: unknown }).error).toBeUndefined();
    annotations.readOnlyHint = false;
    const after = await walk(s);
    expect(after.texts).toEqual(reference.texts);
    expect(after.names).toEqual(reference.names);
  });

  it("a definition holding more than plain data (a class instance, its toJSON) is written afresh on every answer", async () => {
    const s = server(2);
    const where = new URL("https://example.com/a");
    s.registerTool("located", { _meta: { "x/where": where } as never }, () => ({ content: [] }) as never);
    const before = await walk(s);
    expect(before.texts.join("")).toContain("https://example.com/a");
    where.pathname = "/b";
    const after = await walk(s);
    expect(after.texts.join("")).toContain("https://example.com/b");
    // Removing it makes the rest plain again: kept, and still right.
    s.removeTool("located");
    expect((await walk(s)).names).toEqual([["t0", "t1"]]);
  });

  it("serves a cursor another server signed for an offset that is not one of its own page boundaries", async () => {
    const signer = server(5, 1);
    const verifier = server(5, 2);
    const cursor = JSON.parse(sent(await signer.handle(list()))).result.nextCursor;
    for (let i = 0; i < 2; i++) {
      const page = JSON.parse(sent(await verifier.handle(list(cursor))));
      expect(page.result.tools.map((t: { name: string }) => t.name)).toEqual(["t1", "t2"]);
      const next = JSON.parse(sent(await verifier.handle(list(page.result.nextCursor))));
      expect(next.result.tools.map((t: { name: string }) => t.name)).toEqual(["t3", "t4"]);
    }
  });

  it("keeps the text again once the last tool that is not plain data is gone, even if someone froze its definition", async () => {
    const s = server(2, 10);
    s.registerTool("located", { _meta: { "x/where": new URL("https://example.com/a") } as never }, () => ({ content: [] }) as never);
    const listed = (await s.handle(list())).response as unknown as { result: { tools: Array<{ name: string }> } };
    expect(listed.result.tools[2]!.name).toBe("located");
    Object.freeze(listed.result.tools[2]);
    s.removeTool("located");
    // How often a tools/list result is written by JSON.stringify, over two more answers of the same page.
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      sent(await s.handle(list()));
      const before = stringify.mock.calls.filter(([v]) => (v as { tools?: unknown })?.tools !== undefined).length;
      responseText(await s.handle(list()));
      const after = stringify.mock.calls.filter(([v]) => (v as { tools?: unknown })?.tools !== undefined).length;
      // sent() itself stringifies the response once (not a result): only the first answer wrote the page.
      expect(after).toBe(before);
      expect(before).toBe(1);
    } finally {
      stringify.mockRestore();
    }
  });
});
