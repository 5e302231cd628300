/**
 * Hand-written fixtures (test/fixtures/{valid,invalid}/<Type>/*.json; the
 * spec publishes no example messages for 2025-11-25): each valid one
 * validates against its definition and type-checks as its type, small
 * mutations of each valid one are refused, and each invalid one is refused
 * for the reason its file name gives.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type DefinitionName, validate } from "../src/index.js";
import { definitionNames, type Fixture, generatedDir, loadFixtures, resolveDefinition, type Schema, schema } from "./helpers.js";

const valid = loadFixtures("valid");
const invalid = loadFixtures("invalid");

/**
 * Why each invalid fixture must be refused: a problem at `path` whose message
 * contains `message`; and whether TypeScript refuses it too (`typeError`), or
 * only the validator does (formats, ranges, integers are not types).
 */
const expectedInvalid: Record<string, { path: string; message: string; typeError: boolean }> = {
  "CallToolRequest/arguments-not-object.json": { path: "/params/arguments", message: "must be object", typeError: true },
  "CallToolRequest/name-not-string.json": { path: "/params/name", message: "must be string", typeError: true },
  "CallToolRequest/ttl-not-number.json": { path: "/params/task/ttl", message: "must be integer", typeError: true },
  "CallToolResult/image-data-not-base64.json": { path: "/content/0/data", message: 'must match format "byte"', typeError: false },
  "CallToolResult/missing-content.json": { path: "", message: "must have required property 'content'", typeError: true },
  "CallToolResult/priority-out-of-range.json": { path: "/content/0/annotations/priority", message: "must be <= 1", typeError: false },
  "CallToolResult/unknown-content-type.json": { path: "/content/0", message: "must match a schema in anyOf", typeError: true },
  "CreateTaskResult/unknown-status.json": { path: "/task/status", message: 'allowed values: "cancelled", "completed"', typeError: true },
  "InitializeRequest/clientInfo-without-version.json": {
    path: "/params/clientInfo",
    message: "required property 'version'",
    typeError: true,
  },
  "InitializeRequest/missing-protocolVersion.json": { path: "/params", message: "required property 'protocolVersion'", typeError: true },
  "InitializeRequest/website-not-a-uri.json": {
    path: "/params/clientInfo/websiteUrl",
    message: 'must match format "uri"',
    typeError: false,
  },
  "InitializeResult/capabilities-not-object.json": { path: "/capabilities", message: "must be object", typeError: true },
  "InitializeResult/missing-serverInfo.json": { path: "", message: "required property 'serverInfo'", typeError: true },
  "JSONRPCErrorResponse/code-not-integer.json": { path: "/error/code", message: "must be integer", typeError: false },
  "JSONRPCErrorResponse/jsonrpc-1.0.json": { path: "/jsonrpc", message: 'must be equal to constant "2.0"', typeError: true },
  "JSONRPCErrorResponse/missing-message.json": { path: "/error", message: "required property 'message'", typeError: true },
  "ListToolsResult/inputSchema-not-object-type.json": { path: "/tools/0/inputSchema/type", message: 'constant "object"', typeError: true },
  "ListToolsResult/tool-without-inputSchema.json": { path: "/tools/0", message: "required property 'inputSchema'", typeError: true },
  "ListToolsResult/unknown-taskSupport.json": {
    path: "/tools/0/execution/taskSupport",
    message: '"forbidden", "optional", "required"',
    typeError: true,
  },
  "PingRequest/missing-id.json": { path: "", message: "required property 'id'", typeError: true },
  "PingRequest/null-id.json": { path: "/id", message: "must be string,integer", typeError: true },
  "PingRequest/wrong-method.json": { path: "/method", message: 'constant "ping"', typeError: true },
  "SetLevelRequest/unknown-level.json": { path: "/params/level", message: "allowed values", typeError: true },
  "URLElicitationRequiredError/wrong-code.json": { path: "/error/code", message: "constant -32042", typeError: true },
};

/**
 * Type-checks every fixture as `const x: <Type> = <fixture>` in one strict
 * program against the generated types, and returns the diagnostics of each.
 */
function typeCheck(fixtures: Fixture[]): Map<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-v2511-fixtures-"));
  try {
    const typesPath = join(generatedDir, "types.js").replaceAll("\\", "/");
    let text = `import type * as T from ${JSON.stringify(typesPath)};\n\n`;
    // The 0-based line where each fixture starts, to name it in a diagnostic.
    const startLine: { line: number; name: string }[] = [];
    fixtures.forEach((fixture, i) => {
      startLine.push({ line: text.split("\n").length - 1, name: fixture.name });
      text += `export const fixture${i}: T.${fixture.type} = ${JSON.stringify(fixture.value, null, 2)};\n\n`;
    });
    const file = join(dir, "fixtures.mts");
    writeFileSync(file, text);
    const program = ts.createProgram([file], {
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: false,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    });
    const out = new Map<string, string[]>(fixtures.map((f) => [f.name, []]));
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
      let owner = "(program)";
      if (d.file && d.start !== undefined) {
        const { line } = d.file.getLineAndCharacterOfPosition(d.start);
        owner = d.file.fileName === file ? ([...startLine].reverse().find((s) => s.line <= line)?.name ?? "(header)") : d.file.fileName;
      }
      out.set(owner, [...(out.get(owner) ?? []), message]);
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("fixtures", () => {
  it("are filed under definitions of the schema, and cover the messages the brief names", () => {
    expect(valid.length).toBeGreaterThanOrEqual(20);
    expect(invalid.length).toBeGreaterThanOrEqual(20);
    const unknown = [...valid, ...invalid].filter((f) => !definitionNames.includes(f.type)).map((f) => f.name);
    expect(unknown).toEqual([]);
    const covered = (list: Fixture[]) => new Set(list.map((f) => f.type));
    for (const type of [
      "InitializeRequest",
      "InitializeResult",
      "CallToolRequest",
      "CallToolResult",
      "ListToolsResult",
      "JSONRPCErrorResponse",
      "PingRequest",
    ]) {
      expect(covered(valid)).toContain(type);
      expect(covered(invalid)).toContain(type);
    }
  });

  it("every invalid fixture has an expected reason, and every reason a fixture", () => {
    expect(invalid.map((f) => f.name).sort()).toEqual(Object.keys(expectedInvalid).sort());
  });
});

describe("valid fixtures", () => {
  it.each(valid.map((f) => [f.name, f] as const))("%s validates against its definition", (_name, fixture) => {
    const result = validate(fixture.type as DefinitionName, fixture.value);
    expect(result.ok ? [] : result.problems).toEqual([]);
    expect(result.ok && result.value).toBe(fixture.value);
  });

  it("type-check as their types (tsc, strict)", () => {
    const diagnostics = typeCheck(valid);
    const found = [...diagnostics].filter(([, list]) => list.length > 0);
    expect(found).toEqual([]);
    expect(diagnostics.size).toBe(valid.length);
  });
});

describe("invalid fixtures", () => {
  it.each(invalid.map((f) => [f.name, f] as const))("%s is refused, for the reason its name gives", (name, fixture) => {
    const result = validate(fixture.type as DefinitionName, fixture.value);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const expected = expectedInvalid[name]!;
    expect(result.problems.filter((p) => p.path === expected.path && p.message.includes(expected.message))).not.toEqual([]);
  });

  it("are refused by the type checker exactly when the defect is a type error", () => {
    const diagnostics = typeCheck(invalid);
    const refusedByTsc = invalid.filter((f) => (diagnostics.get(f.name) ?? []).length > 0).map((f) => f.name);
    const typeErrors = invalid.filter((f) => expectedInvalid[f.name]?.typeError).map((f) => f.name);
    expect(refusedByTsc).toEqual(typeErrors);
    // Formats, number ranges and integer-ness are checked only at run time.
    expect(invalid.length - typeErrors.length).toBe(4);
    expect(diagnostics.get("(program)") ?? []).toEqual([]);
    expect(diagnostics.get("(header)") ?? []).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// Mutations of the valid fixtures

/** Top-level `properties` and `required` of a definition, through `$ref` and `allOf`. */
function topLevel(definition: Schema): { properties: Record<string, Schema>; required: string[] } {
  const s = resolveDefinition(definition);
  const properties: Record<string, Schema> = { ...(s.properties ?? {}) };
  const required: string[] = [...(s.required ?? [])];
  for (const part of s.allOf ?? []) {
    const inner = topLevel(part);
    Object.assign(properties, inner.properties);
    required.push(...inner.required);
  }
  return { properties, required };
}

/**
 * A value of a JSON type the property schema does not allow; undefined when
 * it allows any type, null when every candidate is allowed.
 */
function wrongTypeFor(property: Schema): unknown {
  const s = resolveDefinition(property);
  if (s.type === undefined) return undefined;
  const allowed = new Set<string>(Array.isArray(s.type) ? s.type : [s.type]);
  if (allowed.has("integer")) allowed.add("number");
  const candidates: [string, unknown][] = [
    ["string", 12345],
    ["object", "not an object"],
    ["array", { not: "an array" }],
    ["number", "not a number"],
    ["boolean", "not a boolean"],
    ["null", "not null"],
  ];
  for (const [type, value] of candidates) {
    if (!allowed.has(type)) continue;
    const valueType = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
    if (!allowed.has(valueType)) return value;
  }
  return null;
}

/** A value of the same JSON type as `value` but different from it. */
function otherConst(value: unknown): unknown {
  if (typeof value === "number") return value + 1;
  if (typeof value === "boolean") return !value;
  if (typeof value === "string") return `not-${value}`;
  return { not: value };
}

type Mutation = { fixture: Fixture; kind: string; value: unknown; path: string; expect: RegExp };

function mutations(): Mutation[] {
  const out: Mutation[] = [];
  for (const fixture of valid) {
    const value = fixture.value;
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const record = value as Record<string, unknown>;
    const { properties, required } = topLevel(schema.$defs[fixture.type]!);
    for (const key of required) {
      if (!(key in record)) continue;
      const { [key]: _dropped, ...rest } = record;
      const escaped = key.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      out.push({ fixture, kind: `without required '${key}'`, value: rest, path: "", expect: new RegExp(`required property '${escaped}'`) });
    }
    for (const [key, property] of Object.entries(properties)) {
      if (!(key in record)) continue;
      const resolved = resolveDefinition(property);
      const pointer = `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (resolved.const !== undefined) {
        out.push({
          fixture,
          kind: `with a wrong const '${key}'`,
          value: { ...record, [key]: otherConst(resolved.const) },
          path: pointer,
          expect: /constant/,
        });
      }
      const wrong = wrongTypeFor(property);
      if (wrong !== undefined && wrong !== null) {
        out.push({
          fixture,
          kind: `with '${key}' of a wrong type`,
          value: { ...record, [key]: wrong },
          path: pointer,
          expect: /must be|must match/,
        });
      }
    }
    out.push({ fixture, kind: "replaced by a string", value: "not a message", path: "", expect: /must be|must match/ });
  }
  return out;
}

describe("mutated valid fixtures", () => {
  const all = mutations();
  const counts = (kind: string) => all.filter((m) => m.kind.includes(kind)).length;

  it("cover each kind of mutation", () => {
    console.log(
      `mutations: ${counts("without required")} missing required, ${counts("wrong const")} wrong const, ${counts("wrong type")} wrong type, ${counts("replaced")} wrong top-level type`,
    );
    expect(counts("without required")).toBeGreaterThan(30);
    expect(counts("wrong const")).toBeGreaterThan(15);
    expect(counts("wrong type")).toBeGreaterThan(30);
    expect(counts("replaced")).toBe(valid.length);
  });

  const grouped = new Map<string, Mutation[]>();
  for (const m of all) grouped.set(m.fixture.name, [...(grouped.get(m.fixture.name) ?? []), m]);

  it.each([...grouped])("%s: every mutation is refused, with a problem at the mutated place", (_name, list) => {
    const failures: string[] = [];
    for (const mutation of list) {
      const result = validate(mutation.fixture.type as DefinitionName, mutation.value);
      if (result.ok) {
        failures.push(`${mutation.kind}: accepted`);
        continue;
      }
      const here = result.problems.filter((p) => p.path === mutation.path || p.path.startsWith(`${mutation.path}/`));
      if (here.length === 0 || !result.problems.some((p) => mutation.expect.test(p.message))) {
        failures.push(`${mutation.kind}: unexpected problems ${JSON.stringify(result.problems)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
