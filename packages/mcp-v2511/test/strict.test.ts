/**
 * `@x/mcp-v2511/strict`: what 2025-11-25 defines and nothing else. The
 * hand-written fixtures hold only members of this revision, so each passes
 * the strict check too; a member 2026-07-28 added does not, and the `allOf`
 * definitions of tasks and errors are read as one object each.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { validateStrict } from "../src/generated/strict.js";
import { type DefinitionName, validate } from "../src/index.js";
import { loadFixtures, repoRoot, schema } from "./helpers.js";

type Defs = Record<string, { properties?: Record<string, any> }>;
const { loadRevision } = (await import(pathToFileURL(join(repoRoot, "scripts/lib/revision.mjs")).href)) as {
  loadRevision(revision: string): { schema: { $defs: Defs } };
};
const later = loadRevision("2026-07-28").schema.$defs;
const task = { taskId: "t-1", status: "working", createdAt: "2025-11-25T10:00:00Z", lastUpdatedAt: "2025-11-25T10:00:00Z", ttl: 60000 };

/** The problems of a strict check that must fail, where the usual check passes. */
function refused(definition: DefinitionName, value: unknown) {
  expect(validate(definition, value).ok).toBe(true);
  const result = validateStrict(definition, value);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems;
}

describe("validateStrict of 2025-11-25", () => {
  it.each(loadFixtures("valid").map((f) => [f.name, f] as const))("%s passes the strict check", (_name, fixture) => {
    const result = validateStrict(fixture.type as DefinitionName, fixture.value);
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it("refuses resultType, which 2026-07-28 added to every result", () => {
    expect((schema.$defs.CallToolResult as Defs[string]).properties).not.toHaveProperty("resultType");
    expect(later.CallToolResult?.properties).toHaveProperty("resultType");
    expect(refused("CallToolResult", { content: [], resultType: "complete" })).toEqual([
      { path: "", message: "must NOT have additional properties: 'resultType'" },
    ]);
  });

  it("reads a task result (allOf of Result and Task) as one object: the task's members and _meta pass, others do not", () => {
    expect(validateStrict("CancelTaskResult", { ...task, _meta: { any: 1 } }).ok).toBe(true);
    expect(validateStrict("GetTaskResult", { ...task, status: "completed" }).ok).toBe(true);
    expect(refused("CancelTaskResult", { ...task, progress: 0.5 })).toEqual([
      { path: "", message: "must NOT have additional properties: 'progress'" },
    ]);
    expect(validateStrict("CancelTaskResult", { _meta: {} }).ok).toBe(false);
  });

  it("reads an error with a fixed code (allOf of Error and its own members) as one object", () => {
    const [fixture] = loadFixtures("valid").filter((f) => f.type === "URLElicitationRequiredError");
    const error = fixture!.value as { error: Record<string, unknown> };
    expect(validateStrict("URLElicitationRequiredError", error).ok).toBe(true);
    expect(refused("URLElicitationRequiredError", { ...error, error: { ...error.error, hint: "x" } })).toEqual([
      { path: "/error", message: "must NOT have additional properties: 'hint'" },
    ]);
    expect(validateStrict("URLElicitationRequiredError", { ...error, error: { ...error.error, code: -32000 } }).ok).toBe(false);
  });

  it("keeps a tool's inputSchema and outputSchema open, and the tool itself closed", () => {
    const tool = {
      name: "t",
      inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", additionalProperties: false },
      outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false },
    };
    expect(validateStrict("Tool", tool).ok).toBe(true);
    expect(refused("Tool", { ...tool, inputSchemaUri: "x" })).toEqual([
      { path: "", message: "must NOT have additional properties: 'inputSchemaUri'" },
    ]);
  });
});
