/**
 * Where a generated revision package's inputs are, for its tests: the
 * package folder, its revision and pin in schema/revisions.json, the schema
 * as the generator reads it (scripts/lib/revision.mjs: errata applied, a
 * draft-07 file's `definitions` under `$defs`), and its hand-written
 * fixtures (test/fixtures/{valid,invalid}/<Type>/*.json).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A JSON Schema, loosely typed for walking. */
export type Schema = { [key: string]: any };

/** One pin of schema/revisions.json. */
export interface Pin {
  package: string;
  sha256: string;
  examples?: string;
  schemaGroups?: Record<string, string[]>;
  errata?: unknown[];
  strictOpen?: { pointer: string; why: string }[];
}

export interface Fixture {
  /** The definition the fixture is filed under (its folder name). */
  type: string;
  /** `<Type>/<file>.json`. */
  name: string;
  value: unknown;
}

export interface RevisionPackage {
  packageDir: string;
  repoRoot: string;
  generatedDir: string;
  /** The revision the package is generated from, e.g. "2025-06-18". */
  revision: string;
  pin: Pin;
  /** Every pin, by revision. */
  pins: Record<string, Pin>;
  /** The schema as the generator reads it, definitions under `$defs`. */
  schema: { $schema: string; $defs: Record<string, Schema> };
  /** Whether the published file is draft-07 (`definitions`). */
  draft07: boolean;
  definitionNames: string[];
  /** The fixtures under test/fixtures/<kind>/<Type>/, sorted by path. */
  loadFixtures(kind: "valid" | "invalid"): Fixture[];
}

interface RevisionModule {
  loadRevision(revision: string): { schema: RevisionPackage["schema"]; draft07: boolean };
}

/** The package whose test/ folder holds the file at `testFileUrl` (its `import.meta.url`). */
export async function revisionPackage(testFileUrl: string): Promise<RevisionPackage> {
  const packageDir = resolve(dirname(fileURLToPath(testFileUrl)), "..");
  const repoRoot = resolve(packageDir, "../..");
  const pins = (JSON.parse(readFileSync(join(repoRoot, "schema/revisions.json"), "utf8")) as { revisions: Record<string, Pin> }).revisions;
  const packageName = packageDir.split(/[\\/]/).pop();
  const found = Object.entries(pins).find(([, pin]) => pin.package === packageName);
  if (!found) throw new Error(`schema/revisions.json has no revision for package ${packageName}`);
  const [revision, pin] = found;
  if (!existsSync(join(repoRoot, "schema", revision, "schema.json"))) {
    throw new Error(`schema/${revision}/schema.json is missing: run \`pnpm sync-schema\` at the repository root before the tests`);
  }
  const { loadRevision } = (await import(pathToFileURL(join(repoRoot, "scripts/lib/revision.mjs")).href)) as RevisionModule;
  const { schema, draft07 } = loadRevision(revision);
  const fixturesDir = join(packageDir, "test/fixtures");
  return {
    packageDir,
    repoRoot,
    generatedDir: join(packageDir, "src/generated"),
    revision,
    pin,
    pins,
    schema,
    draft07,
    definitionNames: Object.keys(schema.$defs),
    loadFixtures(kind) {
      const dir = join(fixturesDir, kind);
      const out: Fixture[] = [];
      for (const type of readdirSync(dir).sort()) {
        for (const file of readdirSync(join(dir, type)).sort()) {
          if (!file.endsWith(".json")) continue;
          out.push({ type, name: `${type}/${file}`, value: JSON.parse(readFileSync(join(dir, type, file), "utf8")) });
        }
      }
      return out;
    },
  };
}

/** Follows a definition's top-level `$ref` chain (`EmptyResult` → `Result`). */
export function resolveDefinition(schema: RevisionPackage["schema"], s: Schema): Schema {
  let current = s;
  for (let i = 0; i < 20 && typeof current.$ref === "string"; i++) {
    current = schema.$defs[current.$ref.replace("#/$defs/", "")]!;
  }
  return current;
}
