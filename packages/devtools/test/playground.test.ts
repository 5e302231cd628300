import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachDevtools, type Devtools } from "../src/index.js";
import { fixtureServer } from "./fixture.js";
import { type EventReader, readEvents, traffic } from "./sse.js";

const ERAS = ["2026-07-28", "2025-11-25"] as const;
let devtools: Devtools;
let page: EventReader;

beforeAll(async () => {
  devtools = await attachDevtools(fixtureServer(), { print: false });
  page = await readEvents(`${devtools.url}api/events`);
});
afterAll(async () => {
  page.close();
  await devtools.close();
});

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${devtools.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

describe.each(ERAS)("try it, in %s", (era) => {
  it("lists every tool, prompt, resource and template", async () => {
    const catalog = await (await fetch(`${devtools.url}api/catalog?era=${era}`)).json();
    expect(catalog.tools.map((t: { name: string }) => t.name).sort()).toEqual(["add", "confirm", "count"]);
    expect(catalog.tools.find((t: { name: string }) => t.name === "add").outputSchema).toBeDefined();
    expect(catalog.prompts.map((p: { name: string }) => p.name)).toEqual(["greet"]);
    expect(catalog.resources.map((r: { uri: string }) => r.uri)).toEqual(["notes://index"]);
    expect(catalog.resourceTemplates.map((r: { uriTemplate: string }) => r.uriTemplate)).toEqual(["notes://{title}"]);
  });

  it("calls a tool and checks its structured content against the output schema", async () => {
    const good = await (await post("api/call", { era, kind: "tool", name: "add", arguments: { a: 20, b: 22 } })).json();
    expect(good).toMatchObject({ ok: true, result: { structuredContent: { sum: 42 } }, check: { valid: true, problems: [] } });
    const bad = await (await post("api/call", { era, kind: "tool", name: "count", arguments: {} })).json();
    expect(bad).toMatchObject({ ok: true, result: { isError: true, structuredContent: { count: "many" } }, check: { valid: false } });
    expect(bad.check.problems.join("\n")).toMatch(/count/);
  });

  it("reads a prompt and a resource, and reports an error as one", async () => {
    const prompt = await (await post("api/call", { era, kind: "prompt", name: "greet", arguments: { name: "Ada" } })).json();
    expect(JSON.stringify(prompt.result.messages)).toContain("Hello Ada");
    const resource = await (await post("api/call", { era, kind: "resource", uri: "notes://x" })).json();
    expect(resource.result.contents[0].text).toBe("note x");
    const missing = await (await post("api/call", { era, kind: "prompt", name: "nope" })).json();
    expect(missing).toMatchObject({ ok: false, error: { code: expect.any(Number), message: expect.any(String) } });
  });

  it("relays an elicitation to the page and the page's answer to the server", async () => {
    const call = post("api/call", { era, kind: "tool", name: "confirm", arguments: {} });
    const events = await page.until((all) => all.some((e) => e.type === "ask" && (e.ask as { era: string }).era === era));
    const ask = events.find((e) => e.type === "ask" && (e.ask as { era: string }).era === era)?.ask as Record<string, any>;
    expect(ask).toMatchObject({ message: "Go ahead?", tool: "confirm", requestedSchema: { properties: { ok: { type: "boolean" } } } });
    const answered = await post(`api/asks/${ask.id}`, { action: "accept", content: { ok: true } });
    expect(answered.status).toBe(204);
    const outcome = await (await call).json();
    expect(outcome).toMatchObject({ ok: true, result: { content: [{ type: "text", text: "confirmed: true" }] } });
    await page.until((all) => all.some((e) => e.type === "ask-done" && e.id === ask.id));
    expect((await post(`api/asks/${ask.id}`, { action: "cancel" })).status).toBe(404);
    // The page's own client shows in the traffic like any other.
    const own = traffic(await page.until((all) => traffic(all).some((e) => e.clientInfo?.name === "x-mcp-devtools")));
    expect(own.some((e) => e.clientInfo?.name === "x-mcp-devtools")).toBe(true);
  });
});

describe("the catalog of a server with tools only", () => {
  it.each(ERAS)("asks only for what the server declares, so the page adds no error to the traffic (%s)", async (era) => {
    const { McpServer } = await import("@x/server");
    const server = new McpServer({ name: "tools-only", version: "1" });
    server.registerTool("ping", {}, () => "pong");
    const tools = await attachDevtools(server, { print: false });
    try {
      const catalog = await (await fetch(`${tools.url}api/catalog?era=${era}`)).json();
      expect(catalog).toEqual({ tools: [expect.objectContaining({ name: "ping" })], prompts: [], resources: [], resourceTemplates: [] });
      const exported = JSON.parse(await (await fetch(`${tools.url}api/export`)).text()) as {
        events: { event: { method?: string; response?: { error?: unknown } } }[];
      };
      const methods = exported.events.map((e) => e.event.method).filter(Boolean);
      expect(methods).toContain("tools/list");
      expect(methods.filter((m) => /^(prompts|resources)\//.test(m!))).toEqual([]);
      expect(exported.events.filter((e) => e.event.response?.error !== undefined)).toEqual([]);
    } finally {
      await tools.close();
    }
  });
});
