import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../src/index.js";
import { headersFor, request, testServer } from "./helpers.js";

const handle = createFetchHandler(testServer(), { allowedHosts: ["mcp.example.com"], allowedOrigins: ["https://app.example.com"] });

describe("createFetchHandler", () => {
  it("answers a tools/call Request with a JSON Response", async () => {
    const body = request("tools/call", { name: "echo", arguments: { text: "fetch" } });
    const response = await handle(
      new Request("https://mcp.example.com/mcp", { method: "POST", headers: headersFor(body), body: JSON.stringify(body) }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ id: body.id, result: { content: [{ type: "text", text: "fetch" }] } });
  });

  it("checks Host and Origin against the configured allow-lists", async () => {
    const body = request("tools/list");
    const init = { method: "POST", headers: headersFor(body), body: JSON.stringify(body) };
    expect((await handle(new Request("https://other.example.com/mcp", init))).status).toBe(403);
    const withOrigin = { ...init, headers: { ...headersFor(body), origin: "https://app.example.com" } };
    expect((await handle(new Request("https://mcp.example.com/mcp", withOrigin))).status).toBe(200);
    const foreign = { ...init, headers: { ...headersFor(body), origin: "http://localhost:3000" } };
    expect((await handle(new Request("https://mcp.example.com/mcp", foreign))).status).toBe(403);
  });

  it("answers a notification with 202 and no body, and GET with 405", async () => {
    const note = await handle(
      new Request("https://mcp.example.com/mcp", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/x" }),
      }),
    );
    expect(note.status).toBe(202);
    expect(await note.text()).toBe("");
    const get = await handle(new Request("https://mcp.example.com/mcp"));
    expect(get.status).toBe(405);
    // The initialize era is served too: GET and DELETE serve its sessions.
    expect(get.headers.get("allow")).toBe("GET, POST, DELETE");
  });

  it("answers a body a Request typed text/plain (what a string body gets by default) with 415", async () => {
    const body = request("tools/list");
    const headers: Record<string, string> = { ...headersFor(body) };
    delete headers["content-type"];
    const plain = await handle(new Request("https://mcp.example.com/mcp", { method: "POST", headers, body: JSON.stringify(body) }));
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({ error: { code: -32600 }, id: null });
  });
});
