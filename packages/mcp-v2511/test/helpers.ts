/** Shared test helpers: where the synced schema of this package's revision lives, and the hand-written fixtures. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = resolve(packageDir, "../..");
export const generatedDir = join(packageDir, "src/generated");
export const fixturesDir = join(packageDir, "test/fixtures");

type Pins = { revisions: Record<string, { package: string; sha256: string; examples?: string }> };
/** schema/revisions.json: every pinned revision and the package generated from it. */
export const pins = JSON.parse(readFileSync(join(repoRoot, "schema/revisions.json"), "utf8")) as Pins;
const packageName = packageDir.split(/[\\/]/).pop()!;
const found = Object.entries(pins.revisions).find(([, pin]) => pin.package === packageName);
if (!found) throw new Error(`schema/revisions.json has no revision for package ${packageName}`);

/** The revision this package is generated from, e.g. "2025-11-25". */
export const revision = found[0];
export const pin = found[1];
export const schemaDir = join(repoRoot, "schema", revision);
const schemaFile = join(schemaDir, "schema.json");
if (!existsSync(schemaFile)) {
  throw new Error(`${schemaFile} is missing: run \`pnpm sync-schema\` at the repository root before the tests`);
}

/** A JSON Schema, loosely typed for walking. */
export type Schema = { [key: string]: any };
export const schema = JSON.parse(readFileSync(schemaFile, "utf8")) as { $defs: Record<string, Schema> };
export const definitionNames = Object.keys(schema.$defs);

export interface Fixture {
  /** The definition the fixture is filed under (its folder name). */
  type: string;
  /** `<Type>/<file>.json`. */
  name: string;
  value: unknown;
}

/**
 * Every fixture file under test/fixtures/<kind>/<Type>/, sorted by path.
 * The spec publishes no example messages for this revision, so these are
 * written by hand: `valid/` ones must match their definition, `invalid/` ones
 * must not.
 */
export function loadFixtures(kind: "valid" | "invalid"): Fixture[] {
  const dir = join(fixturesDir, kind);
  const out: Fixture[] = [];
  for (const type of readdirSync(dir).sort()) {
    for (const file of readdirSync(join(dir, type)).sort()) {
      if (!file.endsWith(".json")) continue;
      out.push({ type, name: `${type}/${file}`, value: JSON.parse(readFileSync(join(dir, type, file), "utf8")) });
    }
  }
  return out;
}

/** Follows a definition's top-level `$ref` chain (`EmptyResult` → `Result`). */
export function resolveDefinition(s: Schema): Schema {
  let current = s;
  for (let i = 0; i < 20 && typeof current.$ref === "string"; i++) {
    current = schema.$defs[current.$ref.replace("#/$defs/", "")]!;
  }
  return current;
}
