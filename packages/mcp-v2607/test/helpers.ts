/** Shared test helpers: where the synced schema of this package's revision lives, and its examples. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = resolve(packageDir, "../..");
export const generatedDir = join(packageDir, "src/generated");

type Pins = {
  revisions: Record<
    string,
    { package: string; sha256: string; examples?: string; schemaGroups?: Record<string, string[]>; errata?: unknown[] }
  >;
};
const pins = JSON.parse(readFileSync(join(repoRoot, "schema/revisions.json"), "utf8")) as Pins;
const packageName = packageDir.split(/[\\/]/).pop()!;
const found = Object.entries(pins.revisions).find(([, pin]) => pin.package === packageName);
if (!found) throw new Error(`schema/revisions.json has no revision for package ${packageName}`);

/** The revision this package is generated from, e.g. "2026-07-28". */
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

export interface Example {
  /** The definition the example is filed under (its folder name). */
  type: string;
  /** `<Type>/<file>.json`. */
  name: string;
  value: unknown;
}

/** Every example file under schema/<revision>/examples/<Type>/, sorted by path. */
export function loadExamples(): Example[] {
  const dir = join(schemaDir, "examples");
  if (!existsSync(dir)) {
    throw new Error(`${dir} is missing: run \`pnpm sync-schema\` with ../shared/spec beside the repository`);
  }
  const out: Example[] = [];
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
