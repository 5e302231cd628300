// What the fast request path must keep: an overridden execute() still answers
// every request, handlers may destructure their context, results handed back
// are never mutated, and a failing assigns hook costs no request slot.
import { PassThrough } from "node:stream";
import { callToolResult } from "@x/builders";
import { META_SERVER_INFO } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import {
  type Inbound,
  listen,
  McpError,
  McpServer,
  MissingDependencyError,
  type Outcome,
  serveStdio,
  type TransportInfo,
} from "../src/index.js";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { requireLazily } from "@x/jsonrpc";
import { meta, rpc } from "./helpers.js";

// This package's folder (vitest runs in it), where its own dependencies resolve.
const here = pathToFileURL(join(process.cwd(), "package.json"));

/** A server whose execute() refuses requests without an authenticated user (an access gate). */
class Gated extends McpServer {
  override execute(request: Extract<Inbound, { kind: "request" }>, transport?: TransportInfo): Promise<Outcome> {
    if (transport?.assigns?.user) return super.execute(request, transport);
    return Promise.resolve({
      status: 401,
      response: { jsonrpc: "2.0", id: request.id, error: { code: -32001, message: "denied" } },
    } as Outcome);
  }
}

async function stdioLines(server: McpServer, lines: object[]): Promise<Record<string, any>[]> {
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
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe("the request path", () => {
  it("answers through an overridden execute() over HTTP and stdio", async () => {
    const gated = new Gated({ name: "gated", version: "1" });
    gated.registerTool("secret", {}, () => "the secret");
    const running = await listen(gated, { port: 0, assigns: (h) => (h("authorization") === "Bearer ok" ? { user: "u" } : undefined) });
    try {
      const refused = await rpc(running.url, "tools/call", { name: "secret" });
      expect(refused.status).toBe(401);
      expect(refused.json.error.code).toBe(-32001);
      const allowed = await rpc(running.url, "tools/call", { name: "secret" }, { headers: { authorization: "Bearer ok" } });
      expect(allowed.json.result.content[0].text).toBe("the secret");
    } finally {
      await running.close(500);
    }
    const [answer] = await stdioLines(gated, [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "secret", _meta: meta() } }]);
    expect(answer!.error.code).toBe(-32001);
  });

  it("an execute() override that rejects still gets the stdio request answered (-32603)", async () => {
    class Broken extends McpServer {
      override execute(): Promise<Outcome> {
        return Promise.reject(new Error("boom"));
      }
    }
    const [answer] = await stdioLines(new Broken({ name: "b", version: "1" }), [
      { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: meta() } },
    ]);
    expect(answer).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Internal error" } });
  });

  it("handlers may take the context's methods off it", async () => {
    const server = new McpServer({ name: "d", version: "1" });
    server.registerTool("steps", {}, async (_args, { progress, log, signal, requestId }) => {
      const sent = progress(1, 2);
      log("info", "hello");
      return `progress sent: ${sent}, aborted: ${signal.aborted}, id: ${String(requestId)}`;
    });
    server.registerTool("ask", {}, async (_args, { elicit }) => {
      const answer = await elicit("Name?", { type: "object", properties: { name: { type: "string" } } });
      return answer.action;
    });
    const [steps, asked] = await stdioLines(server, [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "steps", _meta: meta({ progressToken: "p" }) } },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "ask", _meta: meta({ "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } }) },
      },
    ]).then((lines) => [lines.find((l) => l.id === 1), lines.find((l) => l.id === 2)]);
    expect(steps!.result.content[0].text).toBe("progress sent: true, aborted: false, id: 1");
    expect(asked!.result.resultType).toBe("input_required");
    expect(Object.values(asked!.result.inputRequests)).toHaveLength(1);
  });

  it("never changes a result a handler returns: frozen and shared results answer every server with its own info", async () => {
    const shared = callToolResult([{ type: "text", text: "hi" }]);
    const before = JSON.stringify(shared);
    const frozen = Object.freeze({ resultType: "complete", messages: [] });
    const servers = ["server-A", "server-B"].map((name) => {
      const s = new McpServer({ name, version: "1" });
      s.registerTool("hello", {}, () => shared);
      s.registerPrompt("p", {}, () => frozen as never);
      return s;
    });
    for (const s of servers) {
      const [tool, prompt] = await stdioLines(s, [
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hello", _meta: meta() } },
        { jsonrpc: "2.0", id: 2, method: "prompts/get", params: { name: "p", _meta: meta() } },
      ]).then((lines) => [lines.find((l) => l.id === 1), lines.find((l) => l.id === 2)]);
      expect(tool!.result._meta[META_SERVER_INFO].name).toBe(s.info.name);
      expect(tool!.result.content).toEqual([{ type: "text", text: "hi" }]);
      expect(prompt!.result._meta[META_SERVER_INFO].name).toBe(s.info.name);
    }
    expect(JSON.stringify(shared)).toBe(before);
    expect(frozen).toEqual({ resultType: "complete", messages: [] });
  });

  it("an assigns hook that throws is answered 500/-32603 and frees its slot", async () => {
    const server = new McpServer({ name: "a", version: "1" });
    server.registerTool("t", {}, () => "ok");
    const running = await listen(server, {
      port: 0,
      maxConcurrentRequests: 2,
      assigns: (h) => {
        if (!h("authorization")) throw new Error("no token");
        return { user: "u" };
      },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const failed = await rpc(running.url, "tools/call", { name: "t" });
        expect(failed.status).toBe(500);
        expect(failed.json.error.code).toBe(-32603);
        expect(failed.raw).not.toContain("no token");
      }
      const ok = await rpc(running.url, "tools/call", { name: "t" }, { headers: { authorization: "Bearer x" } });
      expect(ok.status).toBe(200);
      expect(ok.json.result.content[0].text).toBe("ok");
    } finally {
      await running.close(500);
    }
  });
});

describe("execute() overrides that refuse", () => {
  class Refusing extends McpServer {
    mode: "throw" | "mcp" | "garbage" = "throw";
    override execute(request: Extract<Inbound, { kind: "request" }>, transport?: TransportInfo): Promise<Outcome> {
      if (request.method !== "tools/call") return super.execute(request, transport);
      if (this.mode === "throw") throw new Error("not allowed");
      if (this.mode === "mcp") return Promise.reject(new McpError(-32001, "denied"));
      return Promise.resolve(undefined as unknown as Outcome);
    }
  }

  it("a synchronous throw, an McpError rejection and a non-Outcome are all answered, and free their slot", async () => {
    const server = new Refusing({ name: "r", version: "1" }, { onError: () => {} });
    server.registerTool("t", {}, () => "ok");
    const running = await listen(server, { port: 0, maxConcurrentRequests: 1 });
    try {
      for (let i = 0; i < 2; i++) {
        server.mode = "throw";
        const thrown = await rpc(running.url, "tools/call", { name: "t" });
        expect(thrown.json.error).toEqual({ code: -32603, message: "Internal error" });
        server.mode = "mcp";
        const refused = await rpc(running.url, "tools/call", { name: "t" });
        expect(refused.json.error).toEqual({ code: -32001, message: "denied" });
        server.mode = "garbage";
        const garbage = await rpc(running.url, "tools/call", { name: "t" });
        expect(garbage.json.error.code).toBe(-32603);
      }
      // Nothing leaked: the single slot still serves.
      expect((await rpc(running.url, "tools/list")).json.result.tools).toHaveLength(1);
    } finally {
      await running.close(500);
    }
  });
});

describe("packages loaded at run time", () => {
  it("a missing one is named by a MissingDependencyError, never blamed on a schema", () => {
    // A require of this package's location, as a bundle's or CommonJS's would be.
    const local = createRequire(here);
    const missing = () => requireLazily(() => local("x-mcp-no-such-package"), "x-mcp-no-such-package", "x-mcp-no-such-package", here);
    expect(missing).toThrow(MissingDependencyError);
    try {
      missing();
    } catch (error) {
      expect((error as MissingDependencyError).dependency).toBe("x-mcp-no-such-package");
      expect((error as Error).message).toMatch(/needs the package "x-mcp-no-such-package" at run time/);
    }
    expect(requireLazily(() => local("uri-templates"), "uri-templates", "uri-templates", here)).toBeTypeOf("function");
  });
});
