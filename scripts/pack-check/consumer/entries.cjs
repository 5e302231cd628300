// The entries the consumer checks: every subpath of every installed @x
// package's `exports` map, read from the packed package.json in
// node_modules, so a new entry is covered without editing this file.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

/** Subpaths of an `exports` value: `.` for a string or a conditions object; patterns and ./package.json skipped. */
function subpaths(exportsField) {
  if (exportsField === undefined) return ["."];
  if (typeof exportsField === "string" || Array.isArray(exportsField)) return ["."];
  const keys = Object.keys(exportsField);
  if (!keys.some((key) => key.startsWith("."))) return ["."];
  return keys.filter((key) => key !== "./package.json" && !key.includes("*"));
}

/** The first `types` target in a conditions value (depth-first), or undefined. */
function typesTarget(value) {
  if (typeof value !== "object" || value === null) return undefined;
  if (typeof value.types === "string") return value.types;
  for (const nested of Object.values(value)) {
    const found = typesTarget(nested);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether an entry that loads with no values is a types-only entry by design
 * (its declarations export types and nothing else), rather than a broken one:
 * then the consumer accepts the empty namespace.
 */
function isTypesOnly(dir, name, specifier) {
  const root = join(dir, "node_modules", name);
  const installed = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const subpath = specifier === name ? "." : `./${specifier.slice(name.length + 1)}`;
  const value = typeof installed.exports === "object" && subpath in installed.exports ? installed.exports[subpath] : installed.exports;
  const types = typesTarget(value);
  if (!types) return false;
  try {
    const exports = readFileSync(join(root, types), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("export ") && !/^export \{\s*\};?\s*$/.test(line));
    // Every export a type (`export type`, `export interface`, their `declare` forms): nothing to load.
    return exports.length > 0 && exports.every((line) => /^export (declare )?(type|interface)\b/.test(line));
  } catch {
    return false;
  }
}

/** `[{ name, specifier }]` for every package the consumer's package.json installs from a tarball. */
function listEntries(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const entries = [];
  for (const [name, spec] of Object.entries(manifest.dependencies ?? {})) {
    if (!String(spec).startsWith("file:")) continue;
    const installed = JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8"));
    for (const subpath of subpaths(installed.exports)) {
      entries.push({ name, specifier: subpath === "." ? name : `${name}/${subpath.slice(2)}` });
    }
  }
  return entries;
}

module.exports = { isTypesOnly, listEntries, subpaths };
