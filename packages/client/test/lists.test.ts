import { describe, expect, it } from "vitest";
import { ClientErrorCode } from "../src/index.js";
import { listResult, memoryClient, textResult, tool } from "./helpers.js";

describe("list helpers", () => {
  it("follow nextCursor, an empty string included, until a page has none", async () => {
    const pages: Record<string, unknown> = {
      start: listResult("tools", [tool("a")], { nextCursor: "" }),
      "": listResult("tools", [tool("b")], { nextCursor: "p3" }),
      p3: listResult("tools", [tool("c")]),
    };
    const { client, requests } = await memoryClient({
      "tools/list": (p) => pages[p.cursor === undefined ? "start" : String(p.cursor)] as never,
    });
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["a", "b", "c"]);
    expect(requests.map((r) => (r.message.params as { cursor?: string }).cursor)).toEqual([undefined, "", "p3"]);
  });

  it("list resources, templates and prompts page by page too", async () => {
    const { client } = await memoryClient({
      "resources/list": (p) =>
        listResult("resources", [{ uri: `file:///${String(p.cursor ?? "0")}`, name: "r" }], p.cursor ? {} : { nextCursor: "1" }),
      "resources/templates/list": () => listResult("resourceTemplates", [{ uriTemplate: "file:///{x}", name: "t" }]),
      "prompts/list": (p) => listResult("prompts", [{ name: `p${String(p.cursor ?? "0")}` }], p.cursor ? {} : { nextCursor: "1" }),
    });
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(["file:///0", "file:///1"]);
    expect((await client.listAllResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["file:///{x}"]);
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(["p0", "p1"]);
  });

  it("stop at the page cap with -32095", async () => {
    let n = 0;
    const { client, requests } = await memoryClient({
      "tools/list": () => listResult("tools", [tool(`t${n}`)], { nextCursor: `c${n++}` }),
    });
    await expect(client.listAllTools({ maxPages: 5 })).rejects.toMatchObject({
      code: ClientErrorCode.ListTooLong,
      data: { maxPages: 5, items: 5 },
    });
    expect(requests).toHaveLength(5);
  });

  it("stop with -32095 when the server repeats a cursor", async () => {
    const { client } = await memoryClient({ "tools/list": () => listResult("tools", [], { nextCursor: "same" }) });
    await expect(client.listAllTools()).rejects.toMatchObject({
      code: ClientErrorCode.ListTooLong,
      message: expect.stringMatching(/repeated the cursor/),
    });
  });
});

describe("tools with invalid x-mcp-header annotations", () => {
  const tools = [
    tool("valid", { inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } }),
    tool("bad_number", { inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } } }),
    { description: "no name" },
  ];

  it("are dropped from tools/list with a warning when the transport carries headers, and cannot be called", async () => {
    const warnings: string[] = [];
    const { client, requests } = await memoryClient(
      { "tools/list": () => listResult("tools", tools), "tools/call": () => textResult("called") },
      { onWarning: (w) => warnings.push(w) },
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["valid"]);
    expect(warnings).toEqual([expect.stringMatching(/Rejected tool "bad_number": .*type "number"/), expect.stringMatching(/not a tool/)]);
    await expect(client.callTool("bad_number", { score: 1 })).rejects.toMatchObject({
      code: ClientErrorCode.InvalidArguments,
      data: { tool: "bad_number" },
    });
    expect(requests.filter((r) => r.message.method === "tools/call")).toHaveLength(0);
  });

  it("are kept when the transport carries no headers (stdio may ignore the annotations)", async () => {
    const { client } = await memoryClient({ "tools/list": () => listResult("tools", tools) }, {}, { mirrorsHeaders: false });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["valid", "bad_number"]);
  });
});

describe("callTool and tool headers", () => {
  it("lists the tools first when it does not know the tool, and sends its Mcp-Param headers", async () => {
    const { client, requests } = await memoryClient({
      "tools/list": () =>
        listResult("tools", [
          tool("sql", { inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } }),
        ]),
      "tools/call": () => textResult("ok"),
    });
    await client.callTool("sql", { region: "us-west1", query: "SELECT 1" });
    expect(requests.map((r) => r.message.method)).toEqual(["tools/list", "tools/call"]);
    expect(requests[1]!.headers).toMatchObject({
      "mcp-method": "tools/call",
      "mcp-name": "sql",
      "mcp-param-region": "us-west1",
      "mcp-protocol-version": "2026-07-28",
    });
  });

  it("calls the tool anyway, with a warning, when listing the tools fails with a server error", async () => {
    const warnings: string[] = [];
    const { client, requests } = await memoryClient({ "tools/call": () => textResult("ok") }, { onWarning: (w) => warnings.push(w) });
    expect((await client.callTool("t")).content).toEqual([{ type: "text", text: "ok" }]);
    expect(requests.map((r) => r.message.method)).toEqual(["tools/list", "tools/call"]);
    expect(warnings).toEqual([expect.stringMatching(/Could not list the tools before calling "t": Method not found/)]);
  });

  it("does not list first with lookupTools: false", async () => {
    const { client, requests } = await memoryClient({ "tools/call": () => textResult("ok") }, { lookupTools: false });
    await client.callTool("anything");
    expect(requests.map((r) => r.message.method)).toEqual(["tools/call"]);
  });

  it("lists the tools afresh and retries once after a -32020 header mismatch", async () => {
    let version = 1;
    const { client, requests } = await memoryClient({
      "tools/list": () =>
        listResult(
          "tools",
          [
            tool("t", {
              inputSchema: { type: "object", properties: version === 1 ? {} : { region: { type: "string", "x-mcp-header": "Region" } } },
            }),
          ],
          { ttlMs: 60_000, cacheScope: "public" },
        ),
      "tools/call": (_p, exchange) =>
        exchange.headers["mcp-param-region"] === "eu"
          ? textResult("ok")
          : { error: { code: -32020, message: "Missing Mcp-Param-Region header" } },
    });
    await client.listTools();
    version = 2;
    expect((await client.callTool("t", { region: "eu" })).content).toEqual([{ type: "text", text: "ok" }]);
    expect(requests.map((r) => r.message.method)).toEqual(["tools/list", "tools/call", "tools/list", "tools/call"]);
    version = 3;
    const { client: stubborn } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("t")]),
      "tools/call": () => ({ error: { code: -32020, message: "mismatch" } }),
    });
    await expect(stubborn.callTool("t")).rejects.toMatchObject({ code: -32020 });
  });

  it("refuses an argument that cannot be mirrored, before sending", async () => {
    const { client, requests } = await memoryClient({
      "tools/list": () =>
        listResult("tools", [tool("t", { inputSchema: { type: "object", properties: { n: { type: "integer", "x-mcp-header": "N" } } } })]),
    });
    await expect(client.callTool("t", { n: 1.5 })).rejects.toMatchObject({ code: ClientErrorCode.InvalidArguments });
    expect(requests.map((r) => r.message.method)).toEqual(["tools/list"]);
  });

  it("refuses a name or args of the wrong type with a TypeError", async () => {
    const { client } = await memoryClient({});
    await expect(client.callTool(7 as never)).rejects.toThrow(TypeError);
    await expect(client.callTool("t", [] as never)).rejects.toThrow(TypeError);
  });
});
