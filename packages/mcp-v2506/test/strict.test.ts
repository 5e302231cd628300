/**
 * `@x/mcp-v2506/strict`: what 2025-06-18 defines and nothing else. Each
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
const later = loadRevision("2025-11-25").schema.$defs;

const tool = {
  name: "forecast",
  title: "Weather forecast",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  outputSchema: { type: "object", properties: { high: { type: "number" } }, required: ["high"] },
  annotations: { readOnlyHint: true },
  _meta: { "example.com/owner": "weather" },
};

/** The problems of a strict check that must fail. */
function refused(definition: Parameters<typeof validateStrict>[0], value: unknown) {
  expect(validate(definition, value).ok).toBe(true);
  const result = validateStrict(definition, value);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems;
}

describe("validateStrict of 2025-06-18", () => {
  it("accepts a tools/list result whose tools hold only 2025-06-18 members", () => {
    expect(validateStrict("ListToolsResult", { tools: [tool] })).toEqual({ ok: true, value: { tools: [tool] } });
  });

  it("refuses a tool carrying execution or icons, members 2025-11-25 added", () => {
    for (const member of ["execution", "icons"]) {
      expect(ours.Tool?.properties).not.toHaveProperty(member);
      expect(later.Tool?.properties).toHaveProperty(member);
    }
    expect(refused("ListToolsResult", { tools: [{ ...tool, execution: { taskSupport: "optional" } }] })).toEqual([
      { path: "/tools/0", message: "must NOT have additional properties: 'execution'" },
    ]);
    expect(refused("ListToolsResult", { tools: [{ ...tool, icons: [{ src: "https://example.com/i.png" }] }] })).toEqual([
      { path: "/tools/0", message: "must NOT have additional properties: 'icons'" },
    ]);
  });

  it("refuses the capabilities 2025-11-25 added (tasks, elicitation modes), and keeps this revision's", () => {
    expect(ours.ClientCapabilities?.properties).not.toHaveProperty("tasks");
    expect(later.ClientCapabilities?.properties).toHaveProperty("tasks");
    expect(validateStrict("ClientCapabilities", { elicitation: {}, roots: { listChanged: true }, sampling: {} }).ok).toBe(true);
    expect(refused("ClientCapabilities", { tasks: { list: {} } })).toEqual([
      { path: "", message: "must NOT have additional properties: 'tasks'" },
    ]);
    expect(refused("ServerCapabilities", { tools: {}, tasks: {} })).toEqual([
      { path: "", message: "must NOT have additional properties: 'tasks'" },
    ]);
    // The elicitation capability is an open object in 2025-06-18 (`{}` in the spec's TypeScript).
    expect(validateStrict("ClientCapabilities", { elicitation: { form: {} } }).ok).toBe(true);
  });

  it("refuses an elicitation request with a mode, and a client identity with icons", () => {
    const form = { message: "City?", requestedSchema: { type: "object", properties: { city: { type: "string" } } } };
    const request = { jsonrpc: "2.0", id: 1, method: "elicitation/create", params: form };
    expect(validateStrict("ElicitRequest", request).ok).toBe(true);
    expect(refused("ElicitRequest", { ...request, params: { ...form, mode: "form" } })).toEqual([
      { path: "/params", message: "must NOT have additional properties: 'mode'" },
    ]);
    expect(later.Implementation?.properties).toHaveProperty("icons");
    expect(refused("Implementation", { name: "c", version: "1", icons: [] })).toEqual([
      { path: "", message: "must NOT have additional properties: 'icons'" },
    ]);
  });

  it("reads a method's definition as the whole message: jsonrpc and id pass, a task or another member does not", () => {
    const call = { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "forecast", arguments: { city: "Lisbon" } } };
    expect(validateStrict("CallToolRequest", call).ok).toBe(true);
    expect(validateStrict("CallToolRequest", { ...call, id: null }).ok).toBe(false);
    expect(refused("CallToolRequest", { ...call, params: { ...call.params, task: { ttl: 1000 } } })).toEqual([
      { path: "/params", message: "must NOT have additional properties: 'task'" },
    ]);
    expect(refused("CallToolRequest", { ...call, session: "s" })).toEqual([
      { path: "", message: "must NOT have additional properties: 'session'" },
    ]);
  });

  it("accepts structuredContent, which 2025-06-18 introduced", () => {
    expect(validateStrict("CallToolResult", { content: [], structuredContent: { high: 24 } }).ok).toBe(true);
  });
});
