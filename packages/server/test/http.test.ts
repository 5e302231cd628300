import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningHttpServer } from "../src/index.js";
import { headersFor, request, testServer } from "./helpers.js";

let running: RunningHttpServer;
let port: number;

beforeAll(async () => {
  running = await listen(testServer(), { port: 0, maxBodyBytes: 64 * 1024 });
  port = Number(new URL(running.url).port);
});
afterAll(async () => {
  await running.close();
});

/** Sends one raw HTTP request with node:http (so Host and Origin can be set freely). */
function send(options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; path?: string }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path: options.path ?? "/mcp", method: options.method ?? "POST", headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

async function post(body: unknown, headers?: Record<string, string>) {
  const text = JSON.stringify(body);
  const res = await send({ body: text, headers: headers ?? headersFor(body as { method: string }) });
  return { ...res, json: res.body ? JSON.parse(res.body) : undefined };
}

describe("Streamable HTTP: the order of checks", () => {
  it("1. a foreign Origin or Host is refused with 403 and an error whose id is null (none was read)", async () => {
    const body = request("tools/list");
    const badOrigin = await send({ body: JSON.stringify(body), headers: { ...headersFor(body), origin: "https://evil.example" } });
    expect(badOrigin.status).toBe(403);
    const parsed = JSON.parse(badOrigin.body);
    expect(parsed.error).toBeDefined();
    expect(parsed.id).toBeNull();
    const badHost = await send({ body: JSON.stringify(body), headers: { ...headersFor(body), host: "evil.example:3000" } });
    expect(badHost.status).toBe(403);
    // A foreign Origin wins over every later problem, even a GET.
    expect((await send({ method: "GET", headers: { origin: "http://evil.example" } })).status).toBe(403);
  });

  it("1. loopback Origins and a missing Origin are allowed", async () => {
    for (const origin of ["http://localhost:5173", "http://127.0.0.1", "http://[::1]:8080", undefined]) {
      const body = request("tools/list");
      const headers = { ...headersFor(body), ...(origin ? { origin } : {}) };
      const res = await send({ body: JSON.stringify(body), headers });
      expect(res.status).toBe(200);
    }
  });

  it("2. a method the endpoint does not serve gets 405 with an Allow that lists what it serves", async () => {
    // This server also serves the initialize era: GET and DELETE serve its sessions, so a GET without one is refused but allowed.
    for (const method of ["GET", "DELETE", "PUT", "PATCH"]) {
      const res = await send({ method });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow, method).toBe("GET, POST, DELETE");
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: -32600 }, id: null });
    }
    expect(JSON.parse((await send({ method: "GET" })).body).error.message).toContain("needs the Mcp-Session-Id");
    // A 2026-07-28-only endpoint serves POST alone; with CORS on, OPTIONS too (the preflight says the same).
    const modern = await listen(testServer({ protocolVersions: ["2026-07-28"] }), { port: 0 });
    const cors = await listen(testServer(), { port: 0, cors: { origins: ["https://app.example.com"] } });
    try {
      for (const method of ["GET", "DELETE", "PUT"]) {
        const res = await fetch(modern.url, { method });
        expect(res.status).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
      }
      const get = await fetch(cors.url);
      expect(get.status).toBe(405);
      expect(get.headers.get("allow")).toBe("GET, POST, DELETE, OPTIONS");
      const preflight = await fetch(cors.url, {
        method: "OPTIONS",
        headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
      });
      expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE, OPTIONS");
    } finally {
      await modern.close();
      await cors.close();
    }
  });

  it("3. a body not sent as application/json gets 415 and -32600 (id null), whatever it holds", async () => {
    const body = request("tools/list");
    const refused: (string | undefined)[] = [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "text/plain; a=application/json",
      "application/jsonx",
      "application/json-seq",
      undefined,
    ];
    for (const type of refused) {
      const headers = { ...headersFor(body) };
      if (type === undefined) delete headers["content-type"];
      else headers["content-type"] = type;
      const res = await send({ body: JSON.stringify(body), headers });
      expect(res.status, String(type)).toBe(415);
      expect(res.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
      expect(JSON.parse(res.body).error.message).toContain("Content-Type: application/json");
    }
    for (const type of [
      "application/json; charset=utf-8",
      "Application/JSON",
      "APPLICATION/JSON;charset=UTF-8",
      " application/json ; q=1",
    ]) {
      const res = await send({ body: JSON.stringify(body), headers: { ...headersFor(body), "content-type": type } });
      expect(res.status, type).toBe(200);
    }
  });

  it("3. a body over the limit gets 413", async () => {
    const big = JSON.stringify({ ...request("tools/call", { name: "echo", arguments: { text: "x".repeat(70 * 1024) } }) });
    const res = await send({ body: big, headers: headersFor({ method: "tools/call", params: { name: "echo" } }) });
    expect(res.status).toBe(413);
  });

  it("4. a body that is not JSON or not UTF-8 gets 400 and -32700", async () => {
    for (const body of ["{not json", Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
      const res = await send({ body, headers: { "content-type": "application/json" } });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ error: { code: -32700 }, id: null });
    }
  });

  it("5. an array or a non-request gets 400 and -32600", async () => {
    for (const body of [[request("tools/list")], { jsonrpc: "2.0", id: 1.5, result: {} }, { jsonrpc: "2.0", result: {} }, 42]) {
      const res = await post(body, { "content-type": "application/json" });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe(-32600);
      // None of these has an id the server could read: JSON-RPC 2.0 answers null.
      expect(res.json.id).toBeNull();
    }
  });

  it("6. a notification gets 202 and an empty body", async () => {
    const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "content-type": "application/json" });
    expect(res.status).toBe(202);
    expect(res.body).toBe("");
  });

  it("6. a JSON-RPC response gets 202 and an empty body: the server asked for none, so it answers none", async () => {
    const responses = [
      { jsonrpc: "2.0", id: 7, result: {} },
      { jsonrpc: "2.0", id: "r", error: { code: -32603, message: "failed" } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
    ];
    for (const body of responses) {
      const res = await post(body, { "content-type": "application/json", accept: "application/json, text/event-stream" });
      expect(res.status).toBe(202);
      expect(res.body).toBe("");
    }
  });

  it("7. a malformed _meta member gets 400 and -32602 naming it", async () => {
    const cases: [string, unknown, string][] = [
      ["io.modelcontextprotocol/clientCapabilities", { sampling: 5 }, ".sampling must be an object"],
      ["io.modelcontextprotocol/clientCapabilities", { roots: [] }, ".roots must be an object"],
      ["io.modelcontextprotocol/logLevel", "DEBUG", " must be one of"],
      ["io.modelcontextprotocol/logLevel", null, " must be a string"],
      ["io.modelcontextprotocol/clientInfo", { name: "c", version: 1 }, ".version must be a string"],
    ];
    for (const [key, value, problem] of cases) {
      const body = request("tools/list");
      (body.params._meta as Record<string, unknown>)[key] = value;
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ id: body.id, error: { code: -32602 } });
      expect(res.json.error.message).toContain(`Invalid params: _meta["${key}"]${problem}`);
    }
  });

  it("7. missing _meta gets 400 and -32602, before any header check", async () => {
    const res = await post({ jsonrpc: "2.0", id: 5, method: "tools/list", params: {} }, { "content-type": "application/json" });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ id: 5, error: { code: -32602 } });
  });

  it("8. missing or unequal MCP-Protocol-Version, Mcp-Method or Mcp-Name get 400 and -32020", async () => {
    const body = request("tools/call", { name: "echo", arguments: { text: "a" } });
    const good = headersFor(body);
    const cases: Record<string, string | undefined>[] = [
      { "mcp-protocol-version": undefined },
      { "mcp-protocol-version": "2025-11-25" },
      { "mcp-method": undefined },
      { "mcp-method": "tools/list" },
      { "mcp-name": undefined },
      { "mcp-name": "sum" },
      { "mcp-name": "=?base64?!!!?=" },
    ];
    for (const change of cases) {
      const headers: Record<string, string> = { ...good };
      for (const [k, v] of Object.entries(change)) {
        if (v === undefined) delete headers[k];
        else headers[k] = v;
      }
      const res = await post(body, headers);
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.json.error.code).toBe(-32020);
      expect(res.json.id).toBe(body.id);
    }
  });

  it("8. a Base64-sentinel Mcp-Name is decoded before comparing", async () => {
    const body = request("tools/call", { name: "echo", arguments: { text: "a" } });
    const res = await post(body, { ...headersFor(body), "mcp-name": `=?base64?${Buffer.from("echo").toString("base64")}?=` });
    expect(res.status).toBe(200);
    expect(res.json.result.content).toEqual([{ type: "text", text: "a" }]);
  });

  it("8. Mcp-Param headers of x-mcp-header arguments must be present and equal", async () => {
    const body = request("tools/call", { name: "region", arguments: { region: "us-west1", n: 42 } });
    const ok = await post(body, { ...headersFor(body), "mcp-param-region": "us-west1", "mcp-param-n": "42.0" });
    expect(ok.status).toBe(200);
    const missing = await post(body, { ...headersFor(body), "mcp-param-n": "42" });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe(-32020);
    const wrong = await post(body, { ...headersFor(body), "mcp-param-region": "eu-west1", "mcp-param-n": "42" });
    expect(wrong.json.error.code).toBe(-32020);
    const encoded = await post(body, {
      ...headersFor(body),
      "mcp-param-region": `=?base64?${Buffer.from("us-west1").toString("base64")}?=`,
      "mcp-param-n": "42",
    });
    expect(encoded.status).toBe(200);
    const absent = request("tools/call", { name: "region", arguments: {} });
    expect((await post(absent)).status).toBe(200);
  });

  it("9. an unsupported protocol version gets 400 and -32022", async () => {
    const body = request("tools/list");
    (body.params._meta as Record<string, unknown>)["io.modelcontextprotocol/protocolVersion"] = "2024-11-05";
    const res = await post(body, { ...headersFor(body), "mcp-protocol-version": "2024-11-05" });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"], requested: "2024-11-05" } });
  });

  it("10. an unknown or removed method gets 404 and -32601", async () => {
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe"]) {
      const res = await post(request(method));
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe(-32601);
    }
  });

  it("an unknown tool is 200 with -32602 naming it; a call answers JSON", async () => {
    const res = await post(request("tools/call", { name: "missing_tool" }));
    expect(res.status).toBe(200);
    expect(res.json.error).toMatchObject({ code: -32602, message: "Unknown tool: missing_tool" });
    const ok = await post(request("tools/call", { name: "sum", arguments: { a: 1, b: 2 } }));
    expect(ok.status).toBe(200);
    expect(ok.headers["content-type"]).toBe("application/json");
    expect(ok.json.result.structuredContent).toEqual({ sum: 3 });
  });

  it("other paths are 404", async () => {
    expect((await send({ path: "/other", body: "{}" })).status).toBe(404);
  });

  it("refuses to bind a non-loopback address without allowedHosts", async () => {
    await expect(listen(testServer(), { host: "0.0.0.0", port: 0 })).rejects.toThrow(/allowedHosts/);
  });

  it("refuses to turn DNS-rebinding protection off on a non-loopback address", async () => {
    const s = testServer();
    await expect(listen(s, { host: "0.0.0.0", port: 0, allowedHosts: ["example.com"], dnsRebindingProtection: false })).rejects.toThrow(
      /only be turned off on a loopback address/,
    );
    const r = await listen(s, { port: 0, dnsRebindingProtection: false });
    try {
      const res = await fetch(r.url, {
        method: "POST",
        headers: { origin: "https://elsewhere.example", host: "elsewhere.example", "content-type": "application/json" },
        body: "{",
      });
      expect(res.status).toBe(400);
    } finally {
      await r.close();
    }
  });
});
