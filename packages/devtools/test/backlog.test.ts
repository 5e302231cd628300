import { McpServer } from "@x/server";
import { afterEach, describe, expect, it } from "vitest";
import { attachDevtools, MAX_PAGE_BACKLOG } from "../src/index.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "loop", version: "1" },
};

describe("a page whose replay is larger than MAX_PAGE_BACKLOG", () => {
  it("is not dropped by the next live event while it reads its replay", async () => {
    const server = new McpServer({ name: "blob", version: "1" });
    server.registerTool("blob", {}, () => "y".repeat(200_000));
    const devtools = await attachDevtools(server, { print: false });
    cleanup.push(() => devtools.close());
    let id = 0;
    const call = () =>
      server.handle({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "blob", arguments: {}, _meta: META } });
    // A ring of about 12 MB, every event under the default maxEventBytes.
    for (let i = 0; i < 60; i++) await call();
    expect(Buffer.byteLength(await (await fetch(`${devtools.url}api/export`)).text())).toBeGreaterThan(MAX_PAGE_BACKLOG);

    const response = await fetch(`${devtools.url}api/events`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // Live traffic right after the page opened, before it read its replay.
    await Promise.all([call(), call()]);
    let read = 0;
    let live = false;
    const decoder = new TextDecoder();
    let tail = "";
    while (!live) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the page's stream ended");
      read += value.length;
      tail = (tail + decoder.decode(value, { stream: true })).slice(-400_000);
      live = tail.includes(`"requestId":${id},`);
    }
    expect(read).toBeGreaterThan(MAX_PAGE_BACKLOG);
    await reader.cancel();
  });
});

describe("the ring of kept events", () => {
  it("holds at most maxBufferBytes of JSON, dropping the oldest and saying how many", async () => {
    const server = new McpServer({ name: "blob", version: "1" });
    server.registerTool("blob", {}, () => "z".repeat(40_000));
    const devtools = await attachDevtools(server, { print: false, maxEventBytes: 64 * 1024, maxBufferBytes: 200_000 });
    cleanup.push(() => devtools.close());
    for (let id = 1; id <= 20; id++) {
      await server.handle({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "blob", arguments: {}, _meta: META } });
    }
    const exported = await (await fetch(`${devtools.url}api/export`)).text();
    const events = JSON.parse(exported).events as { event: { requestId: number; phase: string } }[];
    // 40 events of about 40 KB (the ends) or a few hundred bytes (the starts): only the newest fit in 200 KB.
    expect(Buffer.byteLength(exported)).toBeLessThan(200_000 + 1_000);
    expect(events.length).toBeLessThan(40);
    expect(events.at(-1)!.event).toMatchObject({ requestId: 20, phase: "end" });
    const stream = await fetch(`${devtools.url}api/events`);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    // Read until the first event (bounded by a count of reads, however the bytes are split).
    let text = "";
    const decoder = new TextDecoder();
    for (let reads = 0; reads < 100 && !text.includes("data: "); reads++)
      text += decoder.decode((await reader.read()).value, { stream: true });
    for (let reads = 0; reads < 100 && !text.slice(text.indexOf("data: ")).includes("\n\n"); reads++)
      text += decoder.decode((await reader.read()).value, { stream: true });
    expect(text.slice(text.indexOf("data: "))).toMatch(/^data: \{"type":"dropped","count":\d+\}/);
    await reader.cancel();
  });

  it("refuses a maxBufferBytes below maxEventBytes", async () => {
    const server = new McpServer({ name: "blob", version: "1" });
    await expect(attachDevtools(server, { print: false, maxEventBytes: 64 * 1024, maxBufferBytes: 1000 })).rejects.toThrow(RangeError);
  });
});
