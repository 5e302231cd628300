import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const entry = fileURLToPath(new URL("../dist/server.js", import.meta.url));
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "example-test", version: "1" },
};

function body(id: number, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...meta } as Record<string, unknown> } };
}

describe("example server over HTTP (a real process)", () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    child = spawn(process.execPath, [entry, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let seen = "";
    url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on("data", (c) => {
        seen += String(c);
        const match = /listening on (\S+)/.exec(seen);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${seen}`)));
    });
  });

  afterAll(async () => {
    if (child.exitCode === null) {
      process.kill(child.pid!, "SIGTERM");
      await once(child, "exit");
    }
  });

  async function call(id: number, method: string, params: Record<string, unknown> = {}, metaExtra: Record<string, unknown> = {}) {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
    };
    if (typeof params.name === "string") headers["mcp-name"] = params.name;
    else if (typeof params.uri === "string") headers["mcp-name"] = params.uri;
    const message = body(id, method, params);
    Object.assign(message.params._meta, metaExtra);
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
    return { status: response.status, json: await response.json() };
  }

  it("answers server/discover with the tools capability (and the tasks extension, for make_report)", async () => {
    const { status, json } = await call(1, "server/discover");
    expect(status).toBe(200);
    expect(json.result.capabilities).toEqual({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      completions: {},
      extensions: { "io.modelcontextprotocol/tasks": {} },
    });
    expect(json.result._meta["io.modelcontextprotocol/serverInfo"].name).toBe("x-example");
  });

  it("lists its tools, one with an outputSchema", async () => {
    const { json } = await call(2, "tools/list");
    const names = json.result.tools.map((t: { name: string }) => t.name);
    expect(names.slice(0, 4)).toEqual(["echo", "add", "word_stats", "divide"]);
    expect(names).toContain("book_table");
    expect(json.result.tools[1].outputSchema.required).toEqual(["sum"]);
  });

  it("book_table asks two questions over two rounds, then books", async () => {
    const caps = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const first = (await call(6, "tools/call", { name: "book_table", arguments: { restaurant: "Chez X" } }, caps)).json.result;
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests["elicit-1"].params.message).toBe("How many people for Chez X?");
    const second = (
      await call(
        7,
        "tools/call",
        {
          name: "book_table",
          arguments: { restaurant: "Chez X" },
          inputResponses: { "elicit-1": { action: "accept", content: { people: 4 } } },
          requestState: first.requestState,
        },
        caps,
      )
    ).json.result;
    expect(Object.keys(second.inputRequests)).toEqual(["elicit-2"]);
    const third = (
      await call(
        8,
        "tools/call",
        {
          name: "book_table",
          arguments: { restaurant: "Chez X" },
          inputResponses: { "elicit-2": { action: "accept", content: { time: "19:30" } } },
          requestState: second.requestState,
        },
        caps,
      )
    ).json.result;
    expect(third.content[0].text).toBe("Booked Chez X for 4 at 19:30.");
    // Without the capability the tool says so instead of asking.
    const none = (await call(9, "tools/call", { name: "book_table", arguments: { restaurant: "Y" } })).json.result;
    expect(none.isError).toBe(true);
  });

  it("serves a resource, a template and a prompt", async () => {
    const read = (await call(20, "resources/read", { uri: "file:///readme.md" })).json.result;
    expect(read.contents[0].text).toContain("# @x example server");
    expect(read).toMatchObject({ ttlMs: 60_000, cacheScope: "public" });
    const unit = (await call(21, "resources/read", { uri: "units://km" })).json.result;
    expect(JSON.parse(unit.contents[0].text)).toEqual({ unit: "km" });
    const prompt = (await call(22, "prompts/get", { name: "summarize", arguments: { text: "a b c" } })).json.result;
    expect(prompt.messages[0].content.text).toContain("a b c");
  });

  it("calls tools: structured content, text, and a tool error", async () => {
    expect((await call(3, "tools/call", { name: "add", arguments: { a: 2, b: 40 } })).json.result.structuredContent).toEqual({ sum: 42 });
    const stats = (await call(4, "tools/call", { name: "word_stats", arguments: { text: "a b\nc" } })).json.result;
    expect(stats.structuredContent).toEqual({ words: 3, lines: 2, characters: 5 });
    const division = (await call(5, "tools/call", { name: "divide", arguments: { dividend: 1, divisor: 0 } })).json.result;
    expect(division.isError).toBe(true);
    expect(division.content[0].text).toBe("Cannot divide by zero");
  });

  it("add sums an integer beyond 2^53 as the double JSON.parse gives, not a tool fault", async () => {
    // Written as text: JSON.stringify here would round 9007199254740993 itself.
    const text = JSON.stringify(body(10, "tools/call", { name: "add", arguments: { a: "__A__", b: 1 } })).replace(
      '"__A__"',
      "9007199254740993",
    );
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "add",
    };
    const response = await fetch(url, { method: "POST", headers, body: text });
    const { result } = await response.json();
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ sum: 9007199254740992 + 1 });
  });
});

describe("example server over stdio (a real process)", () => {
  it("answers requests line by line and exits when stdin ends", async () => {
    const child = spawn(process.execPath, [entry, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (c) => {
      out += String(c);
    });
    child.stdin!.write(`${JSON.stringify(body(1, "tools/call", { name: "echo", arguments: { text: "hi" } }))}\n`);
    child.stdin!.write(`${JSON.stringify(body(2, "server/discover"))}\n`);
    child.stdin!.end();
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    const byId = new Map(lines.map((l) => [l.id, l]));
    expect(byId.get(1).result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(byId.get(2).result.supportedVersions).toEqual(["2026-07-28"]);
  });
});
