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
