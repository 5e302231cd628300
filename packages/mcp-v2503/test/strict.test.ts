/**
 * `@x/mcp-v2503/strict`: what 2025-03-26 defines and nothing else. Each
 * member refused here is checked against the schemas first: absent from
 * this revision's definition, present in 2025-06-18's.
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
const later = loadRevision("2025-06-18").schema.$defs;

const tool = {
  name: "forecast",
  description: "Tomorrow's forecast",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  annotations: { title: "Forecast", readOnlyHint: true },
};

/** The problems of a strict check that must fail, where the usual check passes. */
function refused(definition: Parameters<typeof validateStrict>[0], value: unknown) {
  expect(validate(definition, value).ok).toBe(true);
  const result = validateStrict(definition, value);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems;
}

describe("validateStrict of 2025-03-26", () => {
  it("refuses an elicitation capability, which 2025-06-18 added", () => {
    expect(ours.ClientCapabilities?.properties).not.toHaveProperty("elicitation");
    expect(later.ClientCapabilities?.properties).toHaveProperty("elicitation");
    expect(validateStrict("ClientCapabilities", { roots: { listChanged: true }, sampling: {}, experimental: { x: {} } }).ok).toBe(true);
    expect(refused("ClientCapabilities", { roots: {}, elicitation: {} })).toEqual([
      { path: "", message: "must NOT have additional properties: 'elicitation'" },
    ]);
  });

  it("accepts a tool with annotations, and refuses title and outputSchema, which 2025-06-18 added", () => {
    expect(validateStrict("ListToolsResult", { tools: [tool] }).ok).toBe(true);
    for (const member of ["title", "outputSchema"]) {
      expect(ours.Tool?.properties).not.toHaveProperty(member);
      expect(later.Tool?.properties).toHaveProperty(member);
    }
    expect(refused("Tool", { ...tool, title: "Forecast" })).toEqual([
      { path: "", message: "must NOT have additional properties: 'title'" },
    ]);
    expect(refused("Tool", { ...tool, outputSchema: { type: "object" } })).toEqual([
      { path: "", message: "must NOT have additional properties: 'outputSchema'" },
    ]);
  });

  it("refuses structuredContent and a resource link in a tool result", () => {
    expect(ours.CallToolResult?.properties).not.toHaveProperty("structuredContent");
    expect(refused("CallToolResult", { content: [], structuredContent: { high: 24 } })).toEqual([
      { path: "", message: "must NOT have additional properties: 'structuredContent'" },
    ]);
    const link = { type: "resource_link", uri: "file:///a.txt", name: "a" };
    expect(validateStrict("CallToolResult", { content: [link] }).ok).toBe(false);
    expect(validateStrict("CallToolResult", { content: [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }] }).ok).toBe(true);
  });

  it("accepts a batch of whole messages, and refuses a member no message defines", () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ];
    expect(validateStrict("JSONRPCBatchRequest", batch).ok).toBe(true);
    expect(validateStrict("JSONRPCBatchRequest", [{ ...batch[0], extra: true }]).ok).toBe(false);
    expect(validateStrict("ListToolsRequest", batch[0]).ok).toBe(true);
  });

  it("refuses a client identity with a title, and keeps a progress message, which 2025-03-26 introduced", () => {
    expect(refused("Implementation", { name: "c", title: "C", version: "1" })).toEqual([
      { path: "", message: "must NOT have additional properties: 'title'" },
    ]);
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1, message: "one" } };
    expect(validateStrict("ProgressNotification", progress).ok).toBe(true);
  });
});
