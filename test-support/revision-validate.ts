/**
 * `validate(definition, value)` and `validateStrict(definition, value)` of a
 * generated revision package (see packages/mcp-v*\/test/validate.test.ts):
 * typed results, JSON Pointer paths, readable messages, the same
 * definitions by name, and the strict one refusing what the other lets
 * through, on definitions every revision has.
 */
import { describe, expect, it } from "vitest";
import type { RevisionPackage } from "./revision-package.js";

type Result = { ok: true; value: unknown } | { ok: false; problems: { path: string; message: string }[] };
type Check = (definition: never, value: unknown) => Result;

/** Declares the tests of `validate` and `validateStrict` of one revision package. */
export function describeValidate(pkg: RevisionPackage, validateTyped: Check, validateStrictTyped: Check): void {
  const validate = (definition: string, value: unknown) => validateTyped(definition as never, value);
  const validateStrict = (definition: string, value: unknown) => validateStrictTyped(definition as never, value);
  const initialize = (clientInfo: unknown) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: pkg.revision, capabilities: {}, clientInfo },
  });

  describe("validate", () => {
    it("returns the same value, typed, when it matches", () => {
      const value = { content: [{ type: "text", text: "hi" }], isError: false };
      const result = validate("CallToolResult", value);
      expect(result).toEqual({ ok: true, value });
      expect(result.ok && result.value).toBe(value);
    });

    it("reports a missing property at the object that lacks it, and nested problems with JSON Pointer paths", () => {
      expect(validate("CallToolResult", { isError: true })).toEqual({
        ok: false,
        problems: [{ path: "", message: "must have required property 'content'" }],
      });
      const nested = validate("InitializeRequest", initialize({ name: "c", version: 1 }));
      expect(!nested.ok && nested.problems).toEqual([{ path: "/params/clientInfo/version", message: "must be string" }]);
    });

    it("escapes '/' and '~' in member names of a path", () => {
      const result = validate("ClientCapabilities", { experimental: { "a/b~c": "not an object" } });
      expect(!result.ok && result.problems).toEqual([{ path: "/experimental/a~1b~0c", message: "must be object" }]);
    });

    it("names the expected constant, the allowed values and the failed format", () => {
      const wrongConst = validate("JSONRPCRequest", { jsonrpc: "1.0", id: 1, method: "x" });
      expect(!wrongConst.ok && wrongConst.problems).toEqual([{ path: "/jsonrpc", message: 'must be equal to constant "2.0"' }]);
      const wrongEnum = validate("Role", "robot");
      expect(!wrongEnum.ok && wrongEnum.problems).toEqual([
        { path: "", message: 'must be equal to one of the allowed values: "assistant", "user"' },
      ]);
      const wrongFormat = validate("Root", { uri: "not a uri" });
      expect(!wrongFormat.ok && wrongFormat.problems).toEqual([{ path: "/uri", message: 'must match format "uri"' }]);
      const wrongTemplate = validate("ResourceTemplate", { name: "t", uriTemplate: "file:///{path" });
      expect(!wrongTemplate.ok && wrongTemplate.problems).toEqual([{ path: "/uriTemplate", message: 'must match format "uri-template"' }]);
    });

    it("reports each branch of an anyOf it tried, then the anyOf", () => {
      const result = validate("CallToolResult", { content: [{ type: "text" }] });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.problems.at(-1)).toEqual({ path: "/content/0", message: "must match a schema in anyOf" });
      expect(result.problems).toContainEqual({ path: "/content/0", message: "must have required property 'text'" });
    });

    it("accepts any JSON in untyped slots, and members the schema does not list", () => {
      const error = (data: unknown) => ({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "bad", data } });
      expect(validate("JSONRPCError", error(null)).ok).toBe(true);
      expect(validate("JSONRPCError", error({ nested: [1.5, null] })).ok).toBe(true);
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { a: null } } };
      expect(validate("CallToolRequest", call).ok).toBe(true);
      expect(validate("Implementation", { name: "c", version: "1", fromALaterRevision: true }).ok).toBe(true);
    });

    it("knows every definition of the schema by name, and only those", () => {
      for (const name of pkg.definitionNames) {
        expect(() => validate(name, null)).not.toThrow();
        expect(() => validateStrict(name, null)).not.toThrow();
      }
      expect(() => validate("JSONValue", null)).toThrow(/unknown definition "JSONValue"/);
      expect(() => validate("toString", {})).toThrow(TypeError);
      expect(() => validateStrict("toString", {})).toThrow(/^validateStrict: unknown definition "toString"$/);
    });

    it("does not keep state between calls", () => {
      expect(validate("Role", "robot").ok).toBe(false);
      expect(validate("Role", "user")).toEqual({ ok: true, value: "user" });
    });
  });

  describe("validateStrict", () => {
    it("accepts what the schema lists, and refuses an unknown member with its name and place", () => {
      const clientInfo = { name: "c", version: "1" };
      expect(validateStrict("InitializeRequest", initialize(clientInfo))).toEqual({ ok: true, value: initialize(clientInfo) });
      const result = validateStrict("InitializeRequest", initialize({ ...clientInfo, nickname: "x" }));
      expect(!result.ok && result.problems).toEqual([
        { path: "/params/clientInfo", message: "must NOT have additional properties: 'nickname'" },
      ]);
      expect(validate("InitializeRequest", initialize({ ...clientInfo, nickname: "x" })).ok).toBe(true);
    });

    it("keeps open what the schema opens: _meta, experimental, a tool's arguments, the base Result", () => {
      const result = { content: [], _meta: { anything: { at: "all" } } };
      expect(validateStrict("CallToolResult", result).ok).toBe(true);
      expect(validateStrict("ClientCapabilities", { experimental: { mine: { any: 1 } } }).ok).toBe(true);
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { any: { thing: 1 } } } };
      expect(validateStrict("CallToolRequest", call).ok).toBe(true);
      expect(validateStrict("Result", { whatever: 1 }).ok).toBe(true);
    });

    it("accepts a progress token in any request's _meta, as the base Request declares it", () => {
      const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", _meta: { progressToken: "p" } } };
      expect(validateStrict("CallToolRequest", call).ok).toBe(true);
      const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: { progressToken: 7 } } };
      expect(validateStrict("ListToolsRequest", list).ok).toBe(true);
      expect(validateStrict("ListToolsRequest", { ...list, params: { _meta: { progressToken: true } } }).ok).toBe(false);
    });

    it("keeps a tool's inputSchema open: a JSON Schema has keywords the schema does not list", () => {
      const inputSchema = {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { q: { type: "string", minLength: 1 } },
        required: ["q"],
        additionalProperties: false,
      };
      expect(validateStrict("Tool", { name: "search", inputSchema })).toEqual({ ok: true, value: { name: "search", inputSchema } });
    });
  });
}
