import { validate } from "@x/mcp-v2607";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../src/index.js";
import { statusOf } from "../src/transports/http/status.js";
import { rpc } from "./helpers.js";

function featureServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: "features", version: "1.0.0" }, options);
  server.registerResource("readme", "file:///readme.md", { description: "The readme", mimeType: "text/markdown" }, () => "# Hello");
  server.registerResource("logo", "file:///logo.png", { mimeType: "image/png", cache: { ttlMs: 5000, cacheScope: "public" } }, (uri) => ({
    uri,
    mimeType: "image/png",
    blob: "iVBORw0KGgo=",
  }));
  server.registerResourceTemplate(
    "user",
    "users://{id}/profile",
    { mimeType: "application/json", complete: { id: (value) => ["alice", "albert", "bob"].filter((v) => v.startsWith(value)) } },
    (uri, { id }) => JSON.stringify({ id, uri }),
  );
  server.registerResourceTemplate(
    "files",
    "files:///{+path}{?rev}",
    { mimeType: "text/plain" },
    (_uri, vars) => `path=${vars.path} rev=${vars.rev ?? "-"}`,
  );
  server.registerPrompt(
    "greet",
    {
      description: "Greets someone",
      arguments: [
        { name: "name", required: true },
        { name: "tone", required: false },
      ],
      complete: { tone: (value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`) },
    },
    ({ name, tone }) => `Say hello to ${name}${tone ? ` in a ${tone} tone` : ""}`,
  );
  server.registerPrompt("pair", { description: "Two messages" }, () => [
    { role: "user", content: { type: "text", text: "Q" } },
    { role: "assistant", content: { type: "text", text: "A" } },
  ]);
  return server;
}

let running: RunningHttpServer;
beforeAll(async () => {
  running = await listen(
    featureServer({ cache: { ttlMs: 1000, cacheScope: "private", methods: { "prompts/list": { ttlMs: 30_000, cacheScope: "public" } } } }),
    {
      port: 0,
    },
  );
});
afterAll(() => running.close());

describe("resources", () => {
  it("lists static resources with cache hints, and templates separately", async () => {
    const list = (await rpc(running.url, "resources/list")).json.result;
    expect(validate("ListResourcesResult", list).ok).toBe(true);
    expect(list.resources.map((r: { uri: string }) => r.uri)).toEqual(["file:///readme.md", "file:///logo.png"]);
    expect(list.resources[0]).toEqual({ uri: "file:///readme.md", name: "readme", description: "The readme", mimeType: "text/markdown" });
    expect(list).toMatchObject({ ttlMs: 1000, cacheScope: "private" });
    const templates = (await rpc(running.url, "resources/templates/list")).json.result;
    expect(validate("ListResourceTemplatesResult", templates).ok).toBe(true);
    expect(templates.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      "users://{id}/profile",
      "files:///{+path}{?rev}",
    ]);
  });

  it("reads text and blob contents, with per-registration cache hints winning", async () => {
    const text = (await rpc(running.url, "resources/read", { uri: "file:///readme.md" })).json.result;
    expect(validate("ReadResourceResult", text).ok).toBe(true);
    expect(text.contents).toEqual([{ uri: "file:///readme.md", mimeType: "text/markdown", text: "# Hello" }]);
    expect(text).toMatchObject({ ttlMs: 1000, cacheScope: "private" });
    const blob = (await rpc(running.url, "resources/read", { uri: "file:///logo.png" })).json.result;
    expect(blob.contents[0]).toEqual({ uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" });
    expect(blob).toMatchObject({ ttlMs: 5000, cacheScope: "public" });
  });

  it("matches URI templates (levels 1 to 4) and passes the variables", async () => {
    const user = (await rpc(running.url, "resources/read", { uri: "users://alice/profile" })).json.result;
    expect(JSON.parse(user.contents[0].text)).toEqual({ id: "alice", uri: "users://alice/profile" });
    const file = (await rpc(running.url, "resources/read", { uri: "files:///a/b/c.txt?rev=7" })).json.result;
    expect(file.contents[0].text).toBe("path=a/b/c.txt rev=7");
  });

  it("never lets a simple variable swallow a slash", async () => {
    const res = await rpc(running.url, "resources/read", { uri: "users://a/b/profile" });
    expect(res.json.error).toMatchObject({ code: -32602, data: { uri: "users://a/b/profile" } });
  });

  it("answers an unknown URI with -32602 and data.uri, never empty contents", async () => {
    const res = await rpc(running.url, "resources/read", { uri: "file:///nope" });
    expect(res.status).toBe(200);
    expect(res.json.error).toEqual({ code: -32602, message: "Resource not found", data: { uri: "file:///nope" } });
  });
});

describe("prompts", () => {
  it("lists prompts with declared arguments and per-method cache hints", async () => {
    const list = (await rpc(running.url, "prompts/list")).json.result;
    expect(validate("ListPromptsResult", list).ok).toBe(true);
    expect(list.prompts[0]).toEqual({
      name: "greet",
      description: "Greets someone",
      arguments: [
        { name: "name", required: true },
        { name: "tone", required: false },
      ],
    });
    expect(list).toMatchObject({ ttlMs: 30_000, cacheScope: "public" });
  });

  it("gets a prompt with its arguments", async () => {
    const result = (await rpc(running.url, "prompts/get", { name: "greet", arguments: { name: "Ada", tone: "warm" } })).json.result;
    expect(validate("GetPromptResult", result).ok).toBe(true);
    expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hello to Ada in a warm tone" } }]);
    expect(result.description).toBe("Greets someone");
    const pair = (await rpc(running.url, "prompts/get", { name: "pair" })).json.result;
    expect(pair.messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
  });

  it("answers a missing required argument with -32602 naming it", async () => {
    const res = await rpc(running.url, "prompts/get", { name: "greet", arguments: { tone: "dry" } });
    expect(res.json.error).toMatchObject({ code: -32602, message: "Missing required argument: name", data: { argument: "name" } });
    const notString = await rpc(running.url, "prompts/get", { name: "greet", arguments: { name: 5 } });
    expect(notString.json.error.code).toBe(-32602);
    const unknown = await rpc(running.url, "prompts/get", { name: "nope" });
    expect(unknown.json.error).toMatchObject({ code: -32602, message: "Unknown prompt: nope" });
  });
});

describe("completion", () => {
  it("completes a template variable and a prompt argument, capped at 100 values", async () => {
    const user = (
      await rpc(running.url, "completion/complete", {
        ref: { type: "ref/resource", uri: "users://{id}/profile" },
        argument: { name: "id", value: "al" },
      })
    ).json.result;
    expect(validate("CompleteResult", user).ok).toBe(true);
    expect(user.completion).toEqual({ values: ["alice", "albert"], total: 2, hasMore: false });
    const tone = (
      await rpc(running.url, "completion/complete", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "tone", value: "x" } })
    ).json.result;
    expect(tone.completion.values).toHaveLength(100);
    expect(tone.completion).toMatchObject({ total: 150, hasMore: true });
    const none = (
      await rpc(running.url, "completion/complete", { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "" } })
    ).json.result;
    expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  it("refuses an unknown prompt, argument or template with -32602", async () => {
    for (const params of [
      { ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } },
      { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "nope", value: "" } },
      { ref: { type: "ref/resource", uri: "nope://{x}" }, argument: { name: "x", value: "" } },
      { ref: { type: "ref/other" }, argument: { name: "x", value: "" } },
      { argument: { name: "x", value: "" } },
    ]) {
      expect((await rpc(running.url, "completion/complete", params)).json.error.code).toBe(-32602);
    }
  });
});

describe("server/discover", () => {
  it("advertises exactly what the registrations imply", async () => {
    const caps = (await rpc(running.url, "server/discover")).json.result.capabilities;
    expect(caps).toEqual({ prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, completions: {} });
    // No tools registered: tools/list is -32601.
    expect((await rpc(running.url, "tools/list")).status).toBe(404);
  });

  it("adds logging only when declared, and tools only with tools", async () => {
    const s = new McpServer({ name: "l", version: "1" }, { logging: true });
    s.registerTool("t", {}, () => "t");
    const r = (
      await s.handle({
        jsonrpc: "2.0",
        id: 1,
        method: "server/discover",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
      })
    ).response as any;
    expect(r.result.capabilities).toEqual({ tools: { listChanged: true }, logging: {} });
  });
});

describe("pagination", () => {
  const paged = new McpServer({ name: "p", version: "1" }, { pageSize: 2 });
  for (const name of ["a", "b", "c", "d", "e"]) paged.registerTool(name, {}, () => name);
  let url: string;
  let pagedRunning: RunningHttpServer;
  beforeAll(async () => {
    pagedRunning = await listen(paged, { port: 0 });
    url = pagedRunning.url;
  });
  afterAll(() => pagedRunning.close());

  it("walks every page in order, each page with the same cacheScope, the last without nextCursor", async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    const scopes = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const result = (await rpc(url, "tools/list", cursor === undefined ? {} : { cursor })).json.result;
      names.push(...result.tools.map((t: { name: string }) => t.name));
      scopes.add(result.cacheScope);
      cursor = result.nextCursor;
      if (cursor === undefined) {
        expect("nextCursor" in result).toBe(false);
        break;
      }
    }
    expect(names).toEqual(["a", "b", "c", "d", "e"]);
    expect(scopes.size).toBe(1);
  });

  it("answers a forged, tampered or foreign cursor with -32602", async () => {
    const first = (await rpc(url, "tools/list")).json.result;
    const good: string = first.nextCursor;
    const [body, tag] = good.split(".");
    const forged = `${Buffer.from(JSON.stringify(["tools/list", 0])).toString("base64url")}.${tag}`;
    const flipped = `${body}.${tag!.startsWith("A") ? "B" : "A"}${tag!.slice(1)}`;
    for (const cursor of ["", "junk", forged, flipped, `${body}.`, 42]) {
      const res = await rpc(url, "tools/list", { cursor });
      expect(res.json.error?.code, String(cursor)).toBe(-32602);
    }
    // A cursor of one server is refused by another with different keys.
    const other = new McpServer({ name: "o", version: "1" }, { pageSize: 2 });
    other.registerTool("x", {}, () => "x");
    const foreign = await other.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        cursor: good,
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
      },
    });
    expect((foreign.response as any).error.code).toBe(-32602);
  });

  it("shares cursors between instances that share keys", async () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const make = () => {
      const s = new McpServer({ name: "k", version: "1" }, { pageSize: 1, requestStateKeys: [key] });
      s.registerTool("x", {}, () => "x").registerTool("y", {}, () => "y");
      return s;
    };
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const first = (await make().handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } })).response as any;
    const second = (
      await make().handle({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor: first.result.nextCursor, _meta: meta } })
    ).response as any;
    expect(second.result.tools.map((t: { name: string }) => t.name)).toEqual(["y"]);
  });
});

describe("configuration is checked when configured, not when served", () => {
  it("refuses invalid cache hints, page sizes, keys, templates and completers at once", () => {
    expect(() => new McpServer({ name: "c", version: "1" }, { cache: { ttlMs: -1 } })).toThrow(RangeError);
    expect(() => new McpServer({ name: "c", version: "1" }, { cache: { cacheScope: "shared" as never } })).toThrow(/cacheScope/);
    expect(() => new McpServer({ name: "c", version: "1" }, { cache: { methods: { "tools/call": { ttlMs: 1 } } as never } })).toThrow(
      /carries no cache hints/,
    );
    expect(() => new McpServer({ name: "c", version: "1" }, { pageSize: 0 })).toThrow(RangeError);
    expect(() => new McpServer({ name: "c", version: "1" }, { requestStateKeys: [Buffer.alloc(8)] })).toThrow(/at least 32 bytes/);
    expect(() => new McpServer({ name: "c", version: "1", title: 5 as never })).toThrow(/title must be a string/);
    const s = new McpServer({ name: "c", version: "1" });
    expect(() => s.registerResource("r", "file:///r", { cache: { ttlMs: 1.5 } }, () => "")).toThrow(/ttlMs/);
    expect(() => s.registerResourceTemplate("t", "x://{a}", { complete: { b: () => [] } }, () => "")).toThrow(/names no template variable/);
    expect(() => s.registerPrompt("p", { arguments: [{ name: "a" }], complete: { b: () => [] } }, () => "")).toThrow(
      /names no declared argument/,
    );
  });

  it("checks x-mcp-header annotations at registration", () => {
    const s = new McpServer({ name: "h", version: "1" });
    const bad = [
      { type: "object", properties: { a: { type: "number", "x-mcp-header": "A" } } },
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "" } } },
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "Bad Name" } } },
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } } },
      { type: "object", properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } } },
      { type: "object", properties: { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } } },
    ];
    bad.forEach((inputSchema, i) => {
      expect(() => s.registerTool(`t${i}`, { inputSchema: inputSchema as never }, () => "")).toThrow(/x-mcp-header/);
    });
    expect(() =>
      s.registerTool(
        "ok",
        {
          inputSchema: {
            type: "object",
            properties: { o: { type: "object", properties: { r: { type: "string", "x-mcp-header": "Region" } } } },
          },
        },
        () => "",
      ),
    ).not.toThrow();
    // The server's own schema has no depth bound (a client bounds untrusted ones).
    let deep: Record<string, unknown> = { type: "string", "x-mcp-header": "Deep" };
    for (let i = 0; i < 70; i++) deep = { type: "object", properties: { [`p${i}`]: deep } };
    expect(() => s.registerTool("deep", { inputSchema: deep as never }, () => "")).not.toThrow();
  });

  it("checks tool names against the spec's rule unless told not to", () => {
    const s = new McpServer({ name: "n", version: "1" });
    expect(() => s.registerTool("admin.tools.list", {}, () => "")).not.toThrow();
    expect(() => s.registerTool("a".repeat(128), {}, () => "")).not.toThrow();
    for (const name of ["a".repeat(129), "has space", "slash/name", "ünicode"]) {
      expect(() => s.registerTool(name, {}, () => "")).toThrow(/spec's rule/);
    }
    const loose = new McpServer({ name: "n", version: "1" }, { strictToolNames: false });
    expect(() => loose.registerTool("slash/name", {}, () => "")).not.toThrow();
  });
});

describe("requiredClientCapabilities", () => {
  it("answers a call without the declared capabilities with -32021 and HTTP 400, before the handler runs", async () => {
    let ran = 0;
    const s = new McpServer({ name: "r", version: "1" });
    s.registerTool("needs", { requiredClientCapabilities: { sampling: {}, elicitation: { form: {} } } }, () => {
      ran++;
      return "ran";
    });
    const r = await listen(s, { port: 0 });
    try {
      const refused = await rpc(r.url, "tools/call", { name: "needs" });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {}, elicitation: { form: {} } } },
      });
      expect(validate("MissingRequiredClientCapabilityError", refused.json).ok).toBe(true);
      const partial = await rpc(
        r.url,
        "tools/call",
        { name: "needs" },
        { meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: { url: {} } } } },
      );
      expect(partial.status).toBe(400);
      expect(ran).toBe(0);
      const ok = await rpc(
        r.url,
        "tools/call",
        { name: "needs" },
        { meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: { form: {} } } } },
      );
      expect(ok.json.result.content[0].text).toBe("ran");
      expect(ran).toBe(1);
    } finally {
      await r.close();
    }
  });
});

describe("more cache hint layers and binding rules", () => {
  it("a result's own hints win over the registration's and the method's, and are checked", async () => {
    const s = new McpServer({ name: "h", version: "1" }, { cache: { ttlMs: 10 } });
    s.registerResource("own", "file:///own", { cache: { ttlMs: 20 } }, (uri) => ({
      resultType: "complete",
      contents: [{ uri, text: "x" }],
      ttlMs: 30,
      cacheScope: "public",
    }));
    s.registerResource("bad", "file:///bad", {}, (uri) => ({ resultType: "complete", contents: [{ uri, text: "x" }], ttlMs: -1 }) as never);
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const own = (await s.handle({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///own", _meta: meta } }))
      .response as any;
    expect(own.result).toMatchObject({ ttlMs: 30, cacheScope: "public" });
    const bad = (await s.handle({ jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "file:///bad", _meta: meta } }))
      .response as any;
    expect(bad.error.code).toBe(-32603);
  });

  it("a template's list() entries are checked: one without a string uri is an internal error", async () => {
    const s = new McpServer({ name: "l", version: "1" });
    s.registerResourceTemplate("t", "x://{a}", { list: () => [{ name: "no uri" }] as never }, () => "");
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const listed = (await s.handle({ jsonrpc: "2.0", id: 1, method: "resources/list", params: { _meta: meta } })).response as any;
    expect(listed.error.code).toBe(-32603);
  });

  it("refuses to turn DNS-rebinding protection off on a non-loopback address", async () => {
    const s = new McpServer({ name: "b", version: "1" });
    await expect(listen(s, { host: "0.0.0.0", port: 0, allowedHosts: ["example.com"], dnsRebindingProtection: false })).rejects.toThrow(
      /only be turned off on a loopback address/,
    );
    const r = await listen(s, { port: 0, dnsRebindingProtection: false });
    try {
      const res = await fetch(r.url, {
        method: "POST",
        headers: { origin: "https://elsewhere.example", host: "elsewhere.example" },
        body: "{",
      });
      expect(res.status).toBe(400);
    } finally {
      await r.close();
    }
  });
});

describe("templates and completion capability", () => {
  it("passes an exploded variable as a list, and advertises completions only with a completer", async () => {
    const s = new McpServer({ name: "t", version: "1" });
    s.registerResourceTemplate("path", "tree://x{/path*}", {}, (_uri, { path }) => JSON.stringify(path));
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const read = (await s.handle({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "tree://x/a/b/c", _meta: meta } }))
      .response as any;
    expect(JSON.parse(read.result.contents[0].text)).toEqual(["a", "b", "c"]);
    expect(s.capabilities().completions).toBeUndefined();
    const complete = await s.handle({
      jsonrpc: "2.0",
      id: 2,
      method: "completion/complete",
      params: { ref: { type: "ref/resource", uri: "tree://x{/path*}" }, argument: { name: "path", value: "" }, _meta: meta },
    });
    expect(statusOf(complete)).toBe(404);
    s.registerPrompt("p", { arguments: [{ name: "a" }], complete: { a: () => ["x"] } }, () => "p");
    expect(s.capabilities().completions).toEqual({});
  });
});
