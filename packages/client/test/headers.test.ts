import { describe, expect, it } from "vitest";
import { encodeHeaderValue, standardHeaders, toolHeaderParams } from "@x/mcp-v2607/wire";
import { paramHeaders } from "../src/headers.js";
import { ClientErrorCode } from "../src/index.js";

describe("encodeHeaderValue", () => {
  // The spec's encoding examples (streamable-http "Value Encoding").
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
  ])("encodes %j as %j", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
  });

  it("keeps inner spaces and the empty string plain, and always encodes a tab or a carriage return", () => {
    expect(encodeHeaderValue("us west 1")).toBe("us west 1");
    expect(encodeHeaderValue("")).toBe("");
    expect(encodeHeaderValue("a\tb")).toBe(`=?base64?${Buffer.from("a\tb").toString("base64")}?=`);
    expect(encodeHeaderValue("a\r\nb")).toBe(`=?base64?${Buffer.from("a\r\nb").toString("base64")}?=`);
  });

  it("leaves a value that only starts like a sentinel plain", () => {
    expect(encodeHeaderValue("=?base64?abc")).toBe("=?base64?abc");
  });
});

describe("toolHeaderParams", () => {
  const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    inputSchema: { type: "object", properties, ...extra } as never,
  });

  it("finds annotations on properties, nested ones included, with their paths and types", () => {
    const check = toolHeaderParams(
      schema({
        region: { type: "string", "x-mcp-header": "Region" },
        n: { type: "integer", "x-mcp-header": "N" },
        opts: { type: "object", properties: { dry: { type: "boolean", "x-mcp-header": "Dry-Run" } } },
        plain: { type: "string" },
      }),
    );
    expect(check).toEqual({
      ok: true,
      params: [
        { header: "Region", path: ["region"], type: "string" },
        { header: "N", path: ["n"], type: "integer" },
        { header: "Dry-Run", path: ["opts", "dry"], type: "boolean" },
      ],
    });
  });

  it("accepts a tool with no annotation, and a property literally named x-mcp-header", () => {
    expect(toolHeaderParams(schema({ "x-mcp-header": { type: "string" } }))).toEqual({ ok: true, params: [] });
  });

  it.each([
    ["an empty name", { v: { type: "string", "x-mcp-header": "" } }, /empty/],
    ["a name with a space", { v: { type: "string", "x-mcp-header": "My Header" } }, /token/],
    ["a name with a colon", { v: { type: "string", "x-mcp-header": "A:B" } }, /token/],
    ["a non-ASCII name", { v: { type: "string", "x-mcp-header": "Région" } }, /token/],
    ["a control character", { v: { type: "string", "x-mcp-header": "A\r\nB" } }, /token/],
    ["a number property", { v: { type: "number", "x-mcp-header": "V" } }, /type "number"/],
    ["an object property", { v: { type: "object", "x-mcp-header": "V" } }, /type "object"/],
    ["an array property", { v: { type: "array", items: { type: "string" }, "x-mcp-header": "V" } }, /type "array"/],
    ["a null property", { v: { type: "null", "x-mcp-header": "V" } }, /type "null"/],
    ["a property with no type", { v: { "x-mcp-header": "V" } }, /type null/],
    ["a duplicate", { a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "Region" } }, /repeats/],
    [
      "a duplicate in another case",
      { a: { type: "string", "x-mcp-header": "Region" }, b: { type: "string", "x-mcp-header": "REGION" } },
      /repeats/,
    ],
  ])("rejects %s", (_label, properties, reason) => {
    const check = toolHeaderParams(schema(properties));
    expect(check.ok).toBe(false);
    expect(check.ok ? "" : check.reason).toMatch(reason);
  });

  it.each([
    ["items", { list: { type: "array", items: { type: "string", "x-mcp-header": "X" } } }, {}],
    ["anyOf", { v: { anyOf: [{ type: "string", "x-mcp-header": "X" }] } }, {}],
    ["$defs", {}, { $defs: { d: { type: "string", "x-mcp-header": "X" } } }],
    ["if/else", { v: { if: { type: "string" }, else: { type: "string", "x-mcp-header": "X" } } }, {}],
    ["additionalProperties", {}, { additionalProperties: { type: "string", "x-mcp-header": "X" } }],
  ])("rejects an annotation reached through %s", (_label, properties, extra) => {
    const check = toolHeaderParams(schema(properties, extra));
    expect(check.ok).toBe(false);
    expect(check.ok ? "" : check.reason).toMatch(/not on a property reachable/);
  });

  it("rejects an annotation on the schema root", () => {
    expect(toolHeaderParams({ inputSchema: { type: "object", "x-mcp-header": "Root" } as never }).ok).toBe(false);
  });
});

describe("paramHeaders", () => {
  const params = [
    { header: "Region", path: ["region"], type: "string" as const },
    { header: "Priority", path: ["priority"], type: "integer" as const },
    { header: "Verbose", path: ["verbose"], type: "boolean" as const },
    { header: "Dry", path: ["opts", "dry"], type: "boolean" as const },
  ];

  it("converts strings, integers and booleans, and encodes what is not plain", () => {
    expect(paramHeaders(params, { region: "Zürich", priority: -7, verbose: false, opts: { dry: true } })).toEqual({
      "Mcp-Param-Region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=`,
      "Mcp-Param-Priority": "-7",
      "Mcp-Param-Verbose": "false",
      "Mcp-Param-Dry": "true",
    });
  });

  it("omits the header of a missing or null argument", () => {
    expect(paramHeaders(params, { region: "eu", verbose: null })).toEqual({ "Mcp-Param-Region": "eu" });
  });

  it.each([
    ["a fraction", { priority: 3.5 }],
    ["an unsafe integer", { priority: 2 ** 53 }],
    ["an object", { region: { a: 1 } }],
    ["an array", { region: ["a"] }],
  ])("refuses %s with -32602", (_label, args) => {
    expect(() => paramHeaders(params, args)).toThrowError(expect.objectContaining({ code: ClientErrorCode.InvalidArguments }));
  });
});

describe("standardHeaders", () => {
  it("mirrors the version, the method and the name or uri", () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
    expect(standardHeaders({ method: "tools/call", params: { name: "get_weather", _meta: meta } })).toEqual({
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "get_weather",
    });
    expect(standardHeaders({ method: "resources/read", params: { uri: "file:///a b", _meta: meta } })["Mcp-Name"]).toBe("file:///a b");
    expect(standardHeaders({ method: "prompts/get", params: { name: "café", _meta: meta } })["Mcp-Name"]).toBe(
      `=?base64?${Buffer.from("café").toString("base64")}?=`,
    );
    expect(standardHeaders({ method: "tools/list", params: { name: "ignored", _meta: meta } })).not.toHaveProperty("Mcp-Name");
  });
});
