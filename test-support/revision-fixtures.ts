/**
 * The fixture tests of a generated revision package whose spec publishes no
 * example messages (2025-11-25 and earlier): hand-written fixtures under
 * test/fixtures/{valid,invalid}/<Type>/*.json. Each valid one validates
 * against its definition, strictly too (it holds only members its revision
 * defines), and type-checks as its type; an unknown member added to one is
 * refused by the strict check only; small mutations of each are refused;
 * and each invalid one is refused for the reason its file name gives.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type Fixture, type RevisionPackage, resolveDefinition, type Schema } from "./revision-package.js";

type Problems = { ok: true; value: unknown } | { ok: false; problems: { path: string; message: string }[] };
type Check = (definition: never, value: unknown) => Problems;

/** Why an invalid fixture must be refused: a problem at `path` whose message contains `message`; `typeError` when TypeScript refuses it too. */
export type ExpectedInvalid = Record<string, { path: string; message: string; typeError: boolean }>;

export interface FixtureSuite {
  pkg: RevisionPackage;
  validate: Check;
  validateStrict: Check;
  expectedInvalid: ExpectedInvalid;
  /** Definitions that must have both valid and invalid fixtures. */
  covered: string[];
}

/**
 * Type-checks every fixture as `const x: <Type> = <fixture>` in one strict
 * program against the generated types, and returns the diagnostics of each.
 */
function typeCheck(generatedDir: string, fixtures: Fixture[]): Map<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-fixtures-"));
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

/** Top-level `properties` and `required` of a definition, through `$ref` and `allOf`. */
function topLevel(schema: RevisionPackage["schema"], definition: Schema): { properties: Record<string, Schema>; required: string[] } {
  const s = resolveDefinition(schema, definition);
  const properties: Record<string, Schema> = { ...(s.properties ?? {}) };
  const required: string[] = [...(s.required ?? [])];
  for (const part of s.allOf ?? []) {
    const inner = topLevel(schema, part);
    Object.assign(properties, inner.properties);
    required.push(...inner.required);
  }
  return { properties, required };
}

/** A value of a JSON type the property schema does not allow; undefined when it allows any type, null when every candidate is allowed. */
function wrongTypeFor(schema: RevisionPackage["schema"], property: Schema): unknown {
  const s = resolveDefinition(schema, property);
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

function mutations(schema: RevisionPackage["schema"], valid: Fixture[]): Mutation[] {
  const out: Mutation[] = [];
  for (const fixture of valid) {
    const value = fixture.value;
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const record = value as Record<string, unknown>;
    const { properties, required } = topLevel(schema, schema.$defs[fixture.type]!);
    for (const key of required) {
      if (!(key in record)) continue;
      const { [key]: _dropped, ...rest } = record;
      const escaped = key.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      out.push({ fixture, kind: `without required '${key}'`, value: rest, path: "", expect: new RegExp(`required property '${escaped}'`) });
    }
    for (const [key, property] of Object.entries(properties)) {
      if (!(key in record)) continue;
      const resolved = resolveDefinition(schema, property);
      const pointer = `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (resolved.const !== undefined) {
        const mutated = { ...record, [key]: otherConst(resolved.const) };
        out.push({ fixture, kind: `with a wrong const '${key}'`, value: mutated, path: pointer, expect: /constant/ });
      }
      const wrong = wrongTypeFor(schema, property);
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

/** Declares the fixture tests of one revision package. */
export function describeFixtures({ pkg, validate, validateStrict, expectedInvalid, covered }: FixtureSuite): void {
  const valid = pkg.loadFixtures("valid");
  const invalid = pkg.loadFixtures("invalid");
  const check = (definition: string, value: unknown) => validate(definition as never, value);
  const checkStrict = (definition: string, value: unknown) => validateStrict(definition as never, value);

  describe("fixtures", () => {
    it("are filed under definitions of the schema, and cover the messages named", () => {
      expect(valid.length).toBeGreaterThanOrEqual(15);
      expect(invalid.length).toBeGreaterThanOrEqual(15);
      expect([...valid, ...invalid].filter((f) => !pkg.definitionNames.includes(f.type)).map((f) => f.name)).toEqual([]);
      for (const type of covered) {
        expect(new Set(valid.map((f) => f.type))).toContain(type);
        expect(new Set(invalid.map((f) => f.type))).toContain(type);
      }
    });

    it("every invalid fixture has an expected reason, and every reason a fixture", () => {
      expect(invalid.map((f) => f.name).sort()).toEqual(Object.keys(expectedInvalid).sort());
    });
  });

  describe("valid fixtures", () => {
    it.each(valid.map((f) => [f.name, f] as const))("%s validates against its definition, strictly too", (_name, fixture) => {
      const result = check(fixture.type, fixture.value);
      expect(result.ok ? [] : result.problems).toEqual([]);
      expect(result.ok && result.value).toBe(fixture.value);
      const strict = checkStrict(fixture.type, fixture.value);
      expect(strict.ok ? [] : strict.problems).toEqual([]);
    });

    it("with an unknown member at the top are refused by the strict check only, naming the member", () => {
      let refused = 0;
      for (const fixture of valid) {
        const value = fixture.value;
        if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
        const extra = { ...(value as object), xUnknownMember: 1 };
        expect(check(fixture.type, extra).ok, fixture.name).toBe(true);
        const strict = checkStrict(fixture.type, extra);
        // An open object (the base Result, a ping's params) takes any member, strictly too.
        if (strict.ok) continue;
        expect(strict.problems, fixture.name).toContainEqual({
          path: "",
          message: "must NOT have additional properties: 'xUnknownMember'",
        });
        refused++;
      }
      expect(refused).toBeGreaterThan(valid.length / 2);
    });

    it("type-check as their types (tsc, strict)", () => {
      const diagnostics = typeCheck(pkg.generatedDir, valid);
      expect([...diagnostics].filter(([, list]) => list.length > 0)).toEqual([]);
      expect(diagnostics.size).toBe(valid.length);
    });
  });

  describe("invalid fixtures", () => {
    it.each(invalid.map((f) => [f.name, f] as const))("%s is refused, for the reason its name gives", (name, fixture) => {
      const result = check(fixture.type, fixture.value);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      const expected = expectedInvalid[name]!;
      expect(result.problems.filter((p) => p.path === expected.path && p.message.includes(expected.message))).not.toEqual([]);
      expect(checkStrict(fixture.type, fixture.value).ok).toBe(false);
    });

    it("are refused by the type checker exactly when the defect is a type error", () => {
      const diagnostics = typeCheck(pkg.generatedDir, invalid);
      const refusedByTsc = invalid.filter((f) => (diagnostics.get(f.name) ?? []).length > 0).map((f) => f.name);
      expect(refusedByTsc).toEqual(invalid.filter((f) => expectedInvalid[f.name]?.typeError).map((f) => f.name));
      expect(diagnostics.get("(program)") ?? []).toEqual([]);
      expect(diagnostics.get("(header)") ?? []).toEqual([]);
    });
  });

  describe("mutated valid fixtures", () => {
    const all = mutations(pkg.schema, valid);
    const grouped = new Map<string, Mutation[]>();
    for (const m of all) grouped.set(m.fixture.name, [...(grouped.get(m.fixture.name) ?? []), m]);

    it("cover each kind of mutation", () => {
      const counts = (kind: string) => all.filter((m) => m.kind.includes(kind)).length;
      expect(counts("without required")).toBeGreaterThan(20);
      expect(counts("wrong const")).toBeGreaterThan(10);
      expect(counts("wrong type")).toBeGreaterThan(20);
      const objects = valid.filter((f) => f.value !== null && typeof f.value === "object" && !Array.isArray(f.value));
      expect(counts("replaced")).toBe(objects.length);
    });

    it.each([...grouped])("%s: every mutation is refused, with a problem at the mutated place", (_name, list) => {
      const failures: string[] = [];
      for (const mutation of list) {
        const result = check(mutation.fixture.type, mutation.value);
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
}
