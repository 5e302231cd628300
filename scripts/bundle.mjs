#!/usr/bin/env node
// Bundles a package's JavaScript: one ES module per entry of its package.json
// "exports" (plus the chunks they share and the modules they load lazily),
// built by esbuild from src/, instead of one dist file per source file.
//
// Why: Node's ES module loader pays about 0.7 ms per file on a cold start;
// @x/server as ~45 files cost ~33 ms to import, bundled ~13 ms (see
// bench/README.md). TypeScript still writes the declarations (.d.ts) into
// dist/ (tsconfig.build.json: emitDeclarationOnly); this script writes the
// .js and .js.map files and removes any other .js left in dist/ by an
// earlier build. Dependencies (other packages, node:*) stay external.
//
//   node ../../scripts/bundle.mjs        (run in a package's directory, after tsc)
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import * as esbuild from "esbuild";

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));

/** dist/X.js → src/X.ts (or src/X.js), for each "import" target of "exports". */
function entries() {
  const targets = [];
  for (const value of Object.values(pkg.exports ?? {})) {
    const target = typeof value === "string" ? value : value.import;
    if (typeof target === "string" && target.startsWith("./dist/") && target.endsWith(".js")) targets.push(target);
  }
  if (targets.length === 0) throw new Error(`${pkg.name}: no ./dist/*.js entry in package.json "exports"`);
  return targets.map((target) => {
    const stem = target.slice("./dist/".length, -".js".length);
    const source = [`src/${stem}.ts`, `src/${stem}.js`].find((s) => existsSync(join(dir, s)));
    if (!source) throw new Error(`${pkg.name}: no source for ${target} (looked for src/${stem}.ts and .js)`);
    return { in: source, out: stem };
  });
}

const result = await esbuild.build({
  absWorkingDir: dir,
  entryPoints: entries(),
  outdir: "dist",
  bundle: true,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});

// Remove JavaScript this build did not write (per-file output of older builds).
const written = new Set(Object.keys(result.metafile.outputs).map((f) => resolve(dir, f)));
function sweep(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) sweep(path);
    else if (/\.js(\.map)?$/.test(entry.name) && !written.has(path)) rmSync(path);
  }
}
sweep(join(dir, "dist"));
const files = [...written].filter((f) => f.endsWith(".js")).map((f) => relative(dir, f));
process.stdout.write(`bundle: ${pkg.name} -> ${files.length} files (${files.join(", ")})\n`);
