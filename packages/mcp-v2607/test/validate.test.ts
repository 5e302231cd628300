/** validate(definition, value): typed results, JSON Pointer paths, readable messages. */
import { describe, expect, it } from "vitest";
import { type DefinitionName, validate } from "../src/index.js";
import { definitionNames } from "./helpers.js";

describe("validate", () => {
  it("returns the same value, typed, when it matches", () => {
    const value = { resultType: "complete", content: [{ type: "text", text: "hi" }], structuredContent: [1, null, "x"] };
    const result = validate("CallToolResult", value);
    expect(result).toEqual({ ok: true, value });
    expect(result.ok && result.value).toBe(value);
  });

  it("reports a missing property at the object that lacks it", () => {
    const result = validate("CallToolResult", { resultType: "complete" });
    expect(result).toEqual({ ok: false, problems: [{ path: "", message: "must have required property 'content'" }] });
  });

  it("reports nested problems with JSON Pointer paths", () => {
    const result = validate("CallToolRequest", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: 7,
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
      },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toEqual([{ path: "/params/name", message: "must be string" }]);
  });

  it("escapes '/' and '~' in member names of a path", () => {
    const result = validate("RequestMetaObject", {
      "io.modelcontextprotocol/protocolVersion": 2026,
      "io.modelcontextprotocol/clientCapabilities": {},
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toEqual([{ path: "/io.modelcontextprotocol~1protocolVersion", message: "must be string" }]);
  });

  it("names the expected constant, the allowed values and the failed format", () => {
    const wrongConst = validate("JSONRPCRequest", { jsonrpc: "1.0", id: 1, method: "x" });
    expect(!wrongConst.ok && wrongConst.problems).toEqual([{ path: "/jsonrpc", message: 'must be equal to constant "2.0"' }]);
    const wrongEnum = validate("LoggingLevel", "verbose");
    expect(!wrongEnum.ok && wrongEnum.problems[0]!.message).toMatch(/^must be equal to one of the allowed values: "alert", /);
    const wrongFormat = validate("ResourceLink", { type: "resource_link", name: "x", uri: "not a uri" });
    expect(!wrongFormat.ok && wrongFormat.problems).toEqual([{ path: "/uri", message: 'must match format "uri"' }]);
    const wrongBase64 = validate("ImageContent", { type: "image", mimeType: "image/png", data: "not base64!" });
    expect(!wrongBase64.ok && wrongBase64.problems).toEqual([{ path: "/data", message: 'must match format "byte"' }]);
  });

  it("reports each branch of an anyOf it tried, then the anyOf", () => {
    const result = validate("ContentBlock", { type: "text" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.at(-1)).toEqual({ path: "", message: "must match a schema in anyOf" });
    expect(result.problems).toContainEqual({ path: "", message: "must have required property 'text'" });
  });

  it("knows every definition of the schema", () => {
    for (const name of definitionNames) {
      expect(() => validate(name as DefinitionName, null)).not.toThrow();
    }
  });

  it("throws a TypeError for an unknown definition name", () => {
    expect(() => validate("NoSuchThing" as DefinitionName, {})).toThrow(TypeError);
    expect(() => validate("toString" as DefinitionName, {})).toThrow(/unknown definition "toString"/);
  });

  it("accepts any JSON in untyped slots, but the JSONValue definition as the schema writes it", () => {
    expect(validate("CallToolResult", { resultType: "complete", content: [], structuredContent: null }).ok).toBe(true);
    expect(validate("ParseError", { code: -32700, message: "bad", data: { nested: [1.5, null] } }).ok).toBe(true);
    // The schema's own JSONValue lists string, integer, boolean, array and object.
    expect(validate("JSONValue", { a: [1, "x", true] }).ok).toBe(true);
    expect(validate("JSONValue", null).ok).toBe(false);
  });

  it("does not keep state between calls", () => {
    expect(validate("Role", "robot").ok).toBe(false);
    expect(validate("Role", "user")).toEqual({ ok: true, value: "user" });
  });
});
