/**
 * `@x/mcp-v2411/strict`: what 2024-11-05 defines and nothing else. Each
 * member refused here is checked against the schemas first: absent from
 * this revision's definition, present in a later revision's.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { validateStrict } from "../src/generated/strict.js";
import { validate } from "../src/index.js";
import { pkg } from "./helpers.js";

type Defs = Record<string, { properties?: Record<string, any> }>;
const { loadRevision } = (await import(pathToFileURL(join(pkg.repoRoot, "scripts/lib/revision.mjs")).href)) as {
  loadRevision(revision: string): { schema: { $defs: Defs } };
};
const ours = pkg.schema.$defs as Defs;
const v2503 = loadRevision("2025-03-26").schema.$defs;
const v2506 = loadRevision("2025-06-18").schema.$defs;

const tool = {
  name: "forecast",
  description: "Tomorrow's forecast",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
};

/** The problems of a strict check that must fail, where the usual check passes. */
function refused(definition: Parameters<typeof validateStrict>[0], value: unknown) {
  expect(validate(definition, value).ok).toBe(true);
  const result = validateStrict(definition, value);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems;
}

describe("validateStrict of 2024-11-05", () => {
  it("refuses structuredContent in a tool result, which 2025-06-18 added", () => {
    expect(ours.CallToolResult?.properties).not.toHaveProperty("structuredContent");
    expect(v2506.CallToolResult?.properties).toHaveProperty("structuredContent");
    expect(validateStrict("CallToolResult", { content: [{ type: "text", text: "24" }], isError: false }).ok).toBe(true);
    expect(refused("CallToolResult", { content: [], structuredContent: { high: 24 } })).toEqual([
      { path: "", message: "must NOT have additional properties: 'structuredContent'" },
    ]);
  });

  it("refuses a tool's outputSchema (2025-06-18) and annotations (2025-03-26), and keeps its inputSchema open", () => {
    expect(ours.Tool?.properties).not.toHaveProperty("outputSchema");
    expect(v2506.Tool?.properties).toHaveProperty("outputSchema");
    expect(ours.Tool?.properties).not.toHaveProperty("annotations");
    expect(v2503.Tool?.properties).toHaveProperty("annotations");
    expect(validateStrict("ListToolsResult", { tools: [tool] }).ok).toBe(true);
    expect(refused("ListToolsResult", { tools: [{ ...tool, outputSchema: { type: "object" } }] })).toEqual([
      { path: "/tools/0", message: "must NOT have additional properties: 'outputSchema'" },
    ]);
    expect(refused("ListToolsResult", { tools: [{ ...tool, annotations: { readOnlyHint: true } }] })).toEqual([
      { path: "/tools/0", message: "must NOT have additional properties: 'annotations'" },
    ]);
  });

  it("refuses the completions capability and a progress message, which 2025-03-26 added", () => {
    expect(ours.ServerCapabilities?.properties).not.toHaveProperty("completions");
    expect(v2503.ServerCapabilities?.properties).toHaveProperty("completions");
    expect(validateStrict("ServerCapabilities", { logging: {}, prompts: {}, resources: { subscribe: true }, tools: {} }).ok).toBe(true);
    expect(refused("ServerCapabilities", { tools: {}, completions: {} })).toEqual([
      { path: "", message: "must NOT have additional properties: 'completions'" },
    ]);
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };
    expect(validateStrict("ProgressNotification", progress).ok).toBe(true);
    expect(refused("ProgressNotification", { ...progress, params: { ...progress.params, message: "one" } })).toEqual([
      { path: "/params", message: "must NOT have additional properties: 'message'" },
    ]);
  });

  it("refuses audio content, which 2025-03-26 added", () => {
    expect(ours).not.toHaveProperty("AudioContent");
    expect(validateStrict("CallToolResult", { content: [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }] }).ok).toBe(false);
  });
});
