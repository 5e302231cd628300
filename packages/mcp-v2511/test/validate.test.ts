/** validate(definition, value): typed results, JSON Pointer paths, readable messages. */
import { describe, expect, it } from "vitest";
import { type DefinitionName, validate } from "../src/index.js";
import { definitionNames } from "./helpers.js";

describe("validate", () => {
  it("returns the same value, typed, when it matches", () => {
    const value = { content: [{ type: "text", text: "hi" }], structuredContent: { n: [1, null, "x"] } };
    const result = validate("CallToolResult", value);
    expect(result).toEqual({ ok: true, value });
    expect(result.ok && result.value).toBe(value);
  });

  it("reports a missing property at the object that lacks it", () => {
    const result = validate("CallToolResult", { isError: true });
    expect(result).toEqual({ ok: false, problems: [{ path: "", message: "must have required property 'content'" }] });
  });

  it("reports nested problems with JSON Pointer paths", () => {
    const result = validate("InitializeRequest", {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: 1 } },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toEqual([{ path: "/params/clientInfo/version", message: "must be string" }]);
  });

  it("escapes '/' and '~' in member names of a path", () => {
    const result = validate("ClientCapabilities", { experimental: { "a/b~c": "not an object" } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toEqual([{ path: "/experimental/a~1b~0c", message: "must be object" }]);
  });

  it("names the expected constant, the allowed values and the failed format", () => {
    const wrongConst = validate("JSONRPCRequest", { jsonrpc: "1.0", id: 1, method: "x" });
    expect(!wrongConst.ok && wrongConst.problems).toEqual([{ path: "/jsonrpc", message: 'must be equal to constant "2.0"' }]);
    const wrongEnum = validate("TaskStatus", "paused");
    expect(!wrongEnum.ok && wrongEnum.problems).toEqual([
      { path: "", message: 'must be equal to one of the allowed values: "cancelled", "completed", "failed", "input_required", "working"' },
    ]);
    const wrongFormat = validate("Root", { uri: "not a uri" });
    expect(!wrongFormat.ok && wrongFormat.problems).toEqual([{ path: "/uri", message: 'must match format "uri"' }]);
    const wrongTemplate = validate("ResourceTemplate", { name: "t", uriTemplate: "file:///{path" });
    expect(!wrongTemplate.ok && wrongTemplate.problems).toEqual([{ path: "/uriTemplate", message: 'must match format "uri-template"' }]);
  });

  it("reports each branch of an anyOf it tried, then the anyOf", () => {
    const result = validate("ContentBlock", { type: "text" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.at(-1)).toEqual({ path: "", message: "must match a schema in anyOf" });
    expect(result.problems).toContainEqual({ path: "", message: "must have required property 'text'" });
  });

  it("accepts a task's null ttl, and a JSON-RPC error response without an id", () => {
    const task = { taskId: "t", status: "working", createdAt: "2025-11-25T00:00:00Z", lastUpdatedAt: "2025-11-25T00:00:00Z", ttl: null };
    expect(validate("Task", task).ok).toBe(true);
    expect(validate("Task", { ...task, ttl: 1.5 }).ok).toBe(false);
    expect(validate("JSONRPCErrorResponse", { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } }).ok).toBe(true);
  });

  it("knows every definition of the schema, and only those", () => {
    for (const name of definitionNames) {
      expect(() => validate(name as DefinitionName, null)).not.toThrow();
    }
    // 2025-11-25 defines no JSONValue: the type exists, the validator does not.
    expect(() => validate("JSONValue" as DefinitionName, null)).toThrow(/unknown definition "JSONValue"/);
  });

  it("throws a TypeError for an unknown definition name", () => {
    expect(() => validate("NoSuchThing" as DefinitionName, {})).toThrow(TypeError);
    expect(() => validate("toString" as DefinitionName, {})).toThrow(/unknown definition "toString"/);
  });

  it("accepts any JSON in untyped slots", () => {
    expect(validate("Error", { code: -32603, message: "bad", data: null }).ok).toBe(true);
    expect(validate("Error", { code: -32603, message: "bad", data: { nested: [1.5, null] } }).ok).toBe(true);
    expect(
      validate("CallToolRequest", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { a: null } } }).ok,
    ).toBe(true);
  });

  it("does not keep state between calls", () => {
    expect(validate("Role", "robot").ok).toBe(false);
    expect(validate("Role", "user")).toEqual({ ok: true, value: "user" });
  });
});
