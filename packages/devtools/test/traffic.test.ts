import { Client, StreamableHttpTransport } from "@x/client";
import { afterEach, describe, expect, it } from "vitest";
import { attachDevtools, type Devtools } from "../src/index.js";
import { fixtureServer, serveFixture, TOKEN } from "./fixture.js";
import { readEvents, traffic } from "./sse.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function connected(url: string, protocol: "2026-07-28" | "2025-11-25", name: string): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { protocol });
  await client.connect(new StreamableHttpTransport(url, { headers: { authorization: `Bearer ${TOKEN}` } }));
  cleanup.push(() => client.close());
  return client;
}

/** The end of the `tools/call` of `tool` by the client named `name`, once it is in `events`. */
function endOf(events: Record<string, unknown>[], name: string, tool: string): Record<string, any> | undefined {
  return traffic(events).find(
    (e) => e.kind === "request" && e.phase === "end" && e.method === "tools/call" && e.clientInfo?.name === name && e.params?.name === tool,
  );
}

describe("the traffic feed", () => {
  it("replays, then streams, the calls of clients of both eras with their principal and never the bearer token", async () => {
    const server = fixtureServer();
    const devtools: Devtools = await attachDevtools(server, { print: false });
    cleanup.push(() => devtools.close());
    const http = await serveFixture(server, true);
    cleanup.push(() => http.close());

    // Before any page is open: the page that opens later replays it.
    const modern = await connected(http.url, "2026-07-28", "modern-client");
    expect((await modern.callTool("add", { a: 2, b: 40 })).structuredContent).toEqual({ sum: 42 });

    const page = await readEvents(`${devtools.url}api/events`);
    cleanup.push(async () => page.close());
    const replayed = endOf(await page.until((events) => endOf(events, "modern-client", "add") !== undefined), "modern-client", "add");
    expect(replayed).toMatchObject({
      transport: "http",
      era: "2026-07-28",
      protocolVersion: "2026-07-28",
      principal: { subject: "alice", clientId: "cli-1" },
      status: 200,
      response: { result: { structuredContent: { sum: 42 } } },
    });
    expect(replayed?.durationMs).toBeGreaterThanOrEqual(0);

    // While the page is open: streamed live.
    const legacy = await connected(http.url, "2025-11-25", "legacy-client");
    await legacy.callTool("add", { a: 1, b: 1 });
    const events = await page.until((all) => endOf(all, "legacy-client", "add") !== undefined);
    const live = endOf(events, "legacy-client", "add");
    expect(live).toMatchObject({ era: "initialize", protocolVersion: "2025-11-25", principal: { subject: "alice", clientId: "cli-1" } });
    expect(typeof live?.sessionId).toBe("string");
    // A start precedes each end, with the same seq.
    const starts = traffic(events).filter((e) => e.kind === "request" && e.phase === "start" && e.seq === live?.seq);
    expect(starts).toHaveLength(1);

    expect(page.text()).not.toContain(TOKEN);
    const exported = await fetch(`${devtools.url}api/export`);
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment/);
    const text = await exported.text();
    expect(text).not.toContain(TOKEN);
    const body = JSON.parse(text);
    expect(body.server).toEqual({ name: "fixture", version: "1.2.3", title: "Fixture" });
    expect(endOf(body.events, "legacy-client", "add")).toBeDefined();
  });

  it("keeps the last maxEvents and cuts a member over maxEventBytes to a preview", async () => {
    const server = fixtureServer();
    server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) => String(text));
    const devtools = await attachDevtools(server, { print: false, maxEvents: 4, maxEventBytes: 16 * 1024 });
    cleanup.push(() => devtools.close());
    const http = await serveFixture(server);
    cleanup.push(() => http.close());
    const client = new Client({ name: "big", version: "1" }, { protocol: "2026-07-28" });
    await client.connect(new StreamableHttpTransport(http.url));
    cleanup.push(() => client.close());
    for (let i = 0; i < 3; i++) await client.callTool("add", { a: i, b: 0 });
    await client.callTool("echo", { text: "y".repeat(40_000) });

    const page = await readEvents(`${devtools.url}api/events`);
    cleanup.push(async () => page.close());
    // The echo's end is the last event of the ring: both its params and its response were cut.
    const events = await page.until((all) => traffic(all).length === 4);
    expect(events[0]).toEqual({ type: "dropped", count: expect.any(Number) });
    const end = traffic(events)[3];
    expect(end).toMatchObject({ kind: "request", phase: "end", method: "tools/call" });
    expect(end?.params).toMatchObject({ truncated: true });
    expect(end?.response).toMatchObject({ truncated: true, bytes: expect.any(Number) });
    expect(end?.response.bytes).toBeGreaterThan(40_000);
    expect(end?.response.preview).toHaveLength(4096);
  });
});
