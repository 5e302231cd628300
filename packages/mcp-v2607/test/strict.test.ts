/**
 * `@x/mcp-v2607/strict`: what 2026-07-28 defines and nothing else. The
 * spec's own examples pass the strict check, but for two that carry what
 * their definition does not list; the input requests, which travel inside a
 * result, take no JSON-RPC members.
 */
import { describe, expect, it } from "vitest";
import { validateStrict } from "../src/generated/strict.js";
import { type DefinitionName, validate } from "../src/index.js";
import { loadExamples } from "./helpers.js";

/**
 * Examples of the spec that hold a member their definition does not list,
 * and why: the strict check refuses them, the usual one does not.
 */
const NOT_STRICT: Record<string, string> = {
  // An input request travels inside an InputRequiredResult and has no id; the example gives it one.
  "ListRootsRequest/list-roots-request.json": "/: must NOT have additional properties: 'id'",
  // ReadResourceResult requires cacheScope, which the example lacks; the usual check lets it pass as an
  // InputRequiredResult (an open object), which the strict check closes.
  "ReadResourceResultResponse/read-resource-result-response.json": "/result: must NOT have additional properties: 'contents'",
};

describe("validateStrict of 2026-07-28", () => {
  const examples = loadExamples();

  it.each(examples.map((e) => [e.name, e] as const))(
    "%s passes the strict check (or is refused for its listed reason)",
    (name, example) => {
      const result = validateStrict(example.type as DefinitionName, example.value);
      const problems = result.ok ? [] : result.problems.map((p) => `${p.path || "/"}: ${p.message}`);
      if (name in NOT_STRICT) {
        expect(problems).toContain(NOT_STRICT[name]);
        expect(validate(example.type as DefinitionName, example.value).ok).toBe(true);
      } else {
        expect(problems).toEqual([]);
      }
    },
  );

  it("lists only examples that exist", () => {
    expect(Object.keys(NOT_STRICT).filter((name) => !examples.some((e) => e.name === name))).toEqual([]);
  });

  it("gives an input request no JSON-RPC members, and closes a result to what it lists", () => {
    expect(validateStrict("ListRootsRequest", { method: "roots/list" }).ok).toBe(true);
    expect(validateStrict("ListRootsRequest", { jsonrpc: "2.0", method: "roots/list" }).ok).toBe(false);
    const result = validateStrict("CallToolResult", { resultType: "complete", content: [], execution: {} });
    expect(!result.ok && result.problems).toEqual([{ path: "", message: "must NOT have additional properties: 'execution'" }]);
  });
});
