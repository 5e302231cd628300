// The 2026-07-28-only entry (`@x/server/v2607`): the same registration API
// and transports as `@x/server`, without the initialize era. Served on real
// transports: Streamable HTTP on 127.0.0.1, stdio on in-memory streams.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { McpServer as TwoEraServer } from "../src/index.js";
import { createFetchHandler, listen, McpServer, serveStdio } from "../src/v2607.js";
import { headersFor, meta, request } from "./helpers.js";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
};

function server(options: ConstructorParameters<typeof McpServer>[1] = {}): McpServer {
  const mcp = new McpServer({ name: "modern", version: "1.0.0" }, options);
  mcp.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) => String(text));
  mcp.registerPrompt("greet", {}, () => "Hi");
  mcp.registerResource("doc", "test://doc", {}, () => "the doc");
  return mcp;
}

describe("the McpServer of @x/server/v2607", () => {
  it("is the server @x/server's McpServer extends, with the same registration API", () => {
    expect(Object.getPrototypeOf(TwoEraServer)).toBe(McpServer);
    expect(server().supportedVersions).toEqual(["2026-07-28"]);
  });

  it("refuses protocolVersions naming an initialize-era version with a RangeError that says where it is served", () => {
    for (const versions of [["2025-11-25"], ["2026-07-28", "2024-11-05"]]) {
      expect(() => server({ protocolVersions: versions })).toThrow(RangeError);
    }
    expect(() => server({ protocolVersions: ["2026-07-28", "2025-06-18"] })).toThrow(
      /protocolVersions may list only 2026-07-28 \(got "2025-06-18"\); this McpServer serves 2026-07-28 alone, the McpServer of "@x\/server" also serves 2025-11-25/,
    );
    expect(server({ protocolVersions: ["2026-07-28"] }).supportedVersions).toEqual(["2026-07-28"]);
  });

  it("serves 2026-07-28 over HTTP, answers initialize with -32022 naming its version, and has no sessions", async () => {
    const running = await listen(server(), { port: 0, cors: { origins: ["https://app.example"] } });
    try {
      const call = request("tools/call", { name: "echo", arguments: { text: "hi" } });
      const answered = await fetch(running.url, { method: "POST", headers: headersFor(call), body: JSON.stringify(call) });
      expect(answered.status).toBe(200);
      expect((await answered.json()).result.content).toEqual([{ type: "text", text: "hi" }]);

      const init = await fetch(running.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": "abc" },
        body: JSON.stringify(INITIALIZE),
      });
      expect(init.status).toBe(400);
      expect(init.headers.get("mcp-session-id")).toBeNull();
      expect((await init.json()).error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"], requested: "2025-11-25" } });

      // No GET stream nor DELETE: 405 naming POST (and OPTIONS, with CORS) alone.
      for (const method of ["GET", "DELETE"]) {
        const refused = await fetch(running.url, { method, headers: { accept: "text/event-stream", "mcp-session-id": "abc" } });
        expect(refused.status, method).toBe(405);
        expect(refused.headers.get("allow"), method).toBe("POST, OPTIONS");
      }
      // CORS names no session header.
      const preflight = await fetch(running.url, {
        method: "OPTIONS",
        headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      });
      expect(preflight.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
      expect(preflight.headers.get("access-control-allow-headers")).not.toContain("mcp-session-id");
      const cors = await fetch(running.url, {
        method: "POST",
        headers: { ...headersFor(call), origin: "https://app.example" },
        body: JSON.stringify(call),
      });
      expect(cors.headers.get("access-control-expose-headers")).toBe("content-type, mcp-protocol-version, www-authenticate");
    } finally {
      await running.close();
    }
  });

  it("answers a request naming an initialize-era session statelessly, as a message of no session", async () => {
    const handle = createFetchHandler(server());
    const list = request("tools/list");
    const response = await handle(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...headersFor(list), "mcp-session-id": "00000000-0000-4000-8000-000000000000" },
        body: JSON.stringify(list),
      }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).result.tools.map((t: { name: string }) => t.name)).toEqual(["echo"]);
    // A notification that says it is of the earlier era is accepted and dropped: there is no session to want.
    const note = await handle(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      }),
    );
    expect(note.status).toBe(202);
  });

  it("serves 2026-07-28 over stdio and refuses initialize and an envelope-less ping there", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: Record<string, any>[] = [];
    let text = "";
    let wake: (() => void) | undefined;
    output.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n")) {
        lines.push(JSON.parse(text.slice(0, nl)));
        text = text.slice(nl + 1);
      }
      wake?.();
    });
    const done = serveStdio(server(), { input, output, errors: new PassThrough() });
    const answerTo = async (id: number) => {
      for (let i = 0; i < 100 && !lines.some((l) => l.id === id); i++) await new Promise<void>((resolve) => (wake = resolve));
      return lines.find((l) => l.id === id)!;
    };
    input.write(`${JSON.stringify(INITIALIZE)}\n`);
    expect((await answerTo(1)).error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"] } });
    input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping", params: {} })}\n`);
    expect((await answerTo(2)).error?.code).toBe(-32602);
    input.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { text: "x" }, _meta: meta() } })}\n`,
    );
    expect((await answerTo(3)).result.content).toEqual([{ type: "text", text: "x" }]);
    input.end();
    await done;
  });
});
