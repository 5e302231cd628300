/**
 * The spec's example messages (schema/<revision>/examples/<Type>/*.json):
 * each one validates against its definition and type-checks as its type, and
 * small mutations of each are refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { type DefinitionName, validate } from "../src/index.js";
import { definitionNames, type Example, generatedDir, loadExamples, resolveDefinition, type Schema, schema } from "./helpers.js";

const examples = loadExamples();
const validated = new Set<string>();

describe("spec examples", () => {
  afterAll(() => {
    console.log(`validated ${validated.size} example files (${new Set(examples.map((e) => e.type)).size} definitions)`);
  });

  it("are filed under definitions of the schema", () => {
    expect(examples.length).toBeGreaterThan(0);
    const unknown = examples.filter((e) => !definitionNames.includes(e.type)).map((e) => e.name);
    expect(unknown).toEqual([]);
  });

  it.each(examples.map((e) => [e.name, e] as const))("%s validates against its definition", (_name, example) => {
    const result = validate(example.type as DefinitionName, example.value);
    expect(result.ok ? [] : result.problems).toEqual([]);
    expect(result.ok && result.value).toBe(example.value);
    validated.add(example.name);
  });

  it("type-check as their types (tsc, strict)", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-examples-"));
    try {
      const typesPath = join(generatedDir, "types.js").replaceAll("\\", "/");
      let text = `import type * as T from ${JSON.stringify(typesPath)};\n\n`;
      // The 0-based line where each example starts, to name it in a diagnostic.
      const startLine: { line: number; name: string }[] = [];
      examples.forEach((example, i) => {
        startLine.push({ line: text.split("\n").length - 1, name: example.name });
        text += `export const example${i}: T.${example.type} = ${JSON.stringify(example.value, null, 2)};\n\n`;
      });
      const file = join(dir, "examples.mts");
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
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
        const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
        if (!d.file || d.start === undefined) return message;
        const { line } = d.file.getLineAndCharacterOfPosition(d.start);
        const owner = d.file.fileName === file ? [...startLine].reverse().find((s) => s.line <= line)?.name : d.file.fileName;
        return `${owner}: ${message}`;
      });
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------
// Mutations

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

/** A value of a JSON type the property schema does not allow, or undefined when it allows any. */
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
  ];
  for (const [type, value] of candidates) {
    if (allowed.has(type)) {
      const valueType = Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
      const accepted = allowed.has(valueType === "number" ? "number" : valueType);
      if (!accepted) return value;
    }
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

type Mutation = { example: Example; kind: string; value: unknown; path: string; expect: RegExp };

function mutations(): Mutation[] {
  const out: Mutation[] = [];
  for (const example of examples) {
    const value = example.value;
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const record = value as Record<string, unknown>;
    const { properties, required } = topLevel(schema.$defs[example.type]!);
    for (const key of required) {
      if (!(key in record)) continue;
      const { [key]: _dropped, ...rest } = record;
      out.push({
        example,
        kind: `without required '${key}'`,
        value: rest,
        path: "",
        expect: new RegExp(`required property '${key.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}'`),
      });
    }
    for (const [key, property] of Object.entries(properties)) {
      if (!(key in record)) continue;
      const resolved = resolveDefinition(property);
      const pointer = `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (resolved.const !== undefined) {
        out.push({
          example,
          kind: `with a wrong const '${key}'`,
          value: { ...record, [key]: otherConst(resolved.const) },
          path: pointer,
          expect: /constant/,
        });
      }
      const wrong = wrongTypeFor(property);
      if (wrong !== undefined && wrong !== null) {
        out.push({
          example,
          kind: `with '${key}' of a wrong type`,
          value: { ...record, [key]: wrong },
          path: pointer,
          expect: /must be|must match/,
        });
      }
    }
    out.push({ example, kind: "replaced by a string", value: "not a message", path: "", expect: /must be|must match/ });
  }
  return out;
}

describe("mutated spec examples", () => {
  const all = mutations();
  const counts = (kind: string) => all.filter((m) => m.kind.includes(kind)).length;

  it("cover each kind of mutation", () => {
    console.log(
      `mutations: ${counts("without required")} missing required, ${counts("wrong const")} wrong const, ${counts("wrong type")} wrong type, ${counts("replaced")} wrong top-level type`,
    );
    expect(counts("without required")).toBeGreaterThan(50);
    expect(counts("wrong const")).toBeGreaterThan(20);
    expect(counts("wrong type")).toBeGreaterThan(50);
  });

  const grouped = new Map<string, Mutation[]>();
  for (const m of all) grouped.set(m.example.name, [...(grouped.get(m.example.name) ?? []), m]);
  const byExample = [...grouped];

  it.each(byExample)("%s: every mutation is refused, with a problem at the mutated place", (_name, list) => {
    const failures: string[] = [];
    for (const mutation of list) {
      const result = validate(mutation.example.type as DefinitionName, mutation.value);
      if (result.ok) {
        failures.push(`${mutation.kind}: accepted`);
        continue;
      }
      // Some problem sits at the mutated place (or below it, inside an anyOf)
      // and says what is wrong.
      const here = result.problems.filter((p) => p.path === mutation.path || p.path.startsWith(`${mutation.path}/`));
      if (here.length === 0 || !result.problems.some((p) => mutation.expect.test(p.message))) {
        failures.push(`${mutation.kind}: unexpected problems ${JSON.stringify(result.problems)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
