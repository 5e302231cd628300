import { PassThrough } from "node:stream";
import { serveStdio } from "@x/server";
import { afterEach, describe, expect, it } from "vitest";
import { attachDevtools } from "../src/index.js";
import { fixtureServer } from "./fixture.js";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "stdio-2026", version: "1" },
};

describe("the traffic of a server served over stdio", () => {
  it.each([
    [
      "2026-07-28",
      [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 }, _meta: META } }],
      { era: "2026-07-28", protocolVersion: "2026-07-28", clientInfo: { name: "stdio-2026" } },
    ],
    [
      "the initialize era",
      [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "stdio-2025", version: "1" } },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } },
      ],
      { era: "initialize", protocolVersion: "2025-11-25", clientInfo: { name: "stdio-2025" } },
    ],
  ] as const)("shows each request, in %s, as carried by stdio", async (_era, lines, expected) => {
    const server = fixtureServer();
    const devtools = await attachDevtools(server, { print: false });
    cleanup.push(() => devtools.close());
    const input = new PassThrough();
    const output = new PassThrough();
    const answers: string[] = [];
    output.on("data", (chunk: Buffer) => answers.push(...chunk.toString("utf8").split("\n").filter(Boolean)));
    void serveStdio(server, { input, output, errors: new PassThrough() });
    cleanup.push(() => void input.end());
    const last = lines.at(-1)!;
    for (const line of lines) input.write(`${JSON.stringify(line)}\n`);
    // Waits for the line that answers the last request (the suite's hang guard bounds it).
    const lastId = (last as { id: number }).id;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (answers.some((a) => JSON.parse(a).id === lastId)) resolve();
      };
      output.on("data", () => setImmediate(check));
      check();
    });
    const exported = JSON.parse(await (await fetch(`${devtools.url}api/export`)).text()) as { events: { event: Record<string, any> }[] };
    const call = exported.events.map((e) => e.event).find((e) => e.method === "tools/call" && e.phase === "end");
    expect(call).toMatchObject({
      transport: "stdio",
      ...expected,
      response: { result: { structuredContent: { sum: 3 } } },
    });
    expect(call?.status).toBeUndefined();
    if (expected.era === "initialize") {
      // One stdio connection is one session: it has no id of its own.
      expect(call?.sessionId).toBeUndefined();
      expect(exported.events.map((e) => e.event.method ?? e.event.message?.method)).toEqual(
        expect.arrayContaining(["initialize", "notifications/initialized"]),
      );
    }
  });
});
