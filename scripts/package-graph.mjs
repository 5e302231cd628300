#!/usr/bin/env node
// The package graph of docs/architecture.md, drawn from the real imports:
// every `@x/*` specifier in a workspace package's src/ (an `import`, an
// `export ... from` or an `import("...")`) is an arrow from that package to
// the one it names; an arrow whose every import is type-only is dotted (it
// costs nothing at run time). The block between the two markers in
// docs/architecture.md is rewritten in place.
//
//   node scripts/package-graph.mjs           rewrite the block
//   node scripts/package-graph.mjs --check   exit 1 when the block differs from the imports
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const doc = join(root, "docs", "architecture.md");
const START = "<!-- package-graph:start (scripts/package-graph.mjs writes this block) -->";
const END = "<!-- package-graph:end -->";

/** Every .ts file under `dir`. */
function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** The `@x/*` packages a source text imports, each with whether every import of it is type-only. */
function importsOf(text) {
  const found = new Map();
  const note = (spec, typeOnly) => {
    const name = spec.split("/").slice(0, 2).join("/");
    found.set(name, (found.get(name) ?? true) && typeOnly);
  };
  // Static imports and re-exports, their clause included, to tell a type-only one.
  const statement = /\b(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*["'](@x\/[^"']+)["']/g;
  for (const match of text.matchAll(statement)) {
    const clause = match[3].trim();
    const braces = /^\{([^}]*)\}$/.exec(clause);
    const parts = braces ? braces[1].split(",").map((part) => part.trim()) : [];
    const allTypes = braces !== null && parts.filter(Boolean).every((part) => part.startsWith("type "));
    note(match[4], match[2] !== undefined || allTypes);
  }
  for (const match of text.matchAll(/\bimport\s*["'](@x\/[^"']+)["']/g)) note(match[1], false);
  for (const match of text.matchAll(/\bimport\(\s*["'](@x\/[^"']+)["']\s*\)/g)) note(match[1], false);
  return found;
}

const packagesDir = join(root, "packages");
const nodes = [];
const edges = [];
for (const folder of readdirSync(packagesDir).sort()) {
  const manifest = join(packagesDir, folder, "package.json");
  let name;
  try {
    name = JSON.parse(readFileSync(manifest, "utf8")).name;
  } catch {
    continue;
  }
  nodes.push(name);
  const merged = new Map();
  const src = join(packagesDir, folder, "src");
  try {
    statSync(src);
  } catch {
    continue;
  }
  for (const file of sources(src)) {
    for (const [target, typeOnly] of importsOf(readFileSync(file, "utf8"))) {
      if (target === name) continue;
      merged.set(target, (merged.get(target) ?? true) && typeOnly);
    }
  }
  for (const [target, typeOnly] of [...merged].sort(([a], [b]) => a.localeCompare(b))) {
    edges.push({ from: name, to: target, typeOnly });
  }
}

const id = (name) => name.replace(/^@x\//, "").replace(/[^a-z0-9]/gi, "");
const lines = ["```mermaid", "graph TD"];
for (const name of nodes) lines.push(`  ${id(name)}["${name}"]`);
for (const edge of edges) lines.push(`  ${id(edge.from)} ${edge.typeOnly ? "-.->" : "-->"} ${id(edge.to)}`);
lines.push("```");
const block = `${START}\n${lines.join("\n")}\n${END}`;

const text = readFileSync(doc, "utf8");
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start) {
  console.error(`docs/architecture.md lacks the markers of the package graph (${START} ... ${END})`);
  process.exit(1);
}
const next = text.slice(0, start) + block + text.slice(end + END.length);
if (process.argv.includes("--check")) {
  if (next !== text) {
    console.error("docs/architecture.md: the package graph differs from the imports; run node scripts/package-graph.mjs");
    process.exit(1);
  }
  console.log(`package graph: ${nodes.length} packages, ${edges.length} arrows, as imported`);
} else {
  writeFileSync(doc, next);
  console.log(`package graph written: ${nodes.length} packages, ${edges.length} arrows`);
}
