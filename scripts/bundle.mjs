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
// A literal `require("pkg")` in the source (a CommonJS dependency loaded on
// first use, see requireLazily in @x/jsonrpc) stays a literal `require` in
// dist/, so that the bundler of a program using the package follows it and
// carries the dependency. esbuild writes such a call to an external package
// as `__require("pkg")` in an ES module, which no bundler follows; the
// output is given back its `require` (padded to the same length, so the
// source maps stay right).
//
// ASCII: esbuild escapes every non-ASCII character of the code, but keeps
// some comments as written; an output file with one non-ASCII character is
// held by Node as a two-byte string (twice the memory, slower to decode),
// so such a file fails the build with its line.
//
// Chunks: esbuild puts the code two entries share into a chunk, one chunk
// per set of entries that reach a module. Each entry but the main one
// (dist/index.js) is built as if it imported the main entry first, so that
// every entry reaches all of the main entry's code: importing the main
// entry then loads itself and one chunk (eight files for @x/server before),
// and the other entries use that chunk's classes and state.
//
// CommonJS: for each "exports" entry this script also writes dist/X.cjs and
// dist/X.d.cts, which re-export the ES module dist/X.js (the "require"
// condition of the entry points at them). Node 20.19+ and 22.12+ load an ES
// module from require() synchronously, so a CommonJS program gets the very
// same module instance as an importing one: one build, no dual-package state.
//
//   node ../../scripts/bundle.mjs        (run in a package's directory, after tsc)
//
// Options, for a package without module state (a generated revision package):
//   --standalone    each entry is one file and there are no chunks: an entry
//                   imports another entry's file, and a module two entries
//                   would both carry is an error (import it through an entry).
//                   `@x/mcp-v2607/constants` then reads one file, not three.
//   --split         entries share chunks as esbuild splits them, no entry
//                   built on the main entry's chunk: a module only one
//                   entry reaches stays in that entry's file. For a package
//                   a carrying package inlines (@x/builders): that build
//                   splits per file, so what a subpath entry leaves out
//                   can go into the carrier's chunk loaded on first use.
//   --keep FILE     dist/FILE (e.g. generated/validators.js) is written by
//                   another build step: entries import it instead of carrying
//                   it, and it is not bundled. Needs --standalone.
//   --inline PKG    the built code of dependency PKG (its dist/, through its
//                   "exports") goes into this package's files instead of
//                   staying an import. Only for packages whose copies can
//                   live side by side: no state two copies would split
//                   (a cache is only memory), and every class checked with
//                   `instanceof` branded by brandAcrossCopies (@x/jsonrpc),
//                   so that one copy's instance passes another copy's check
//                   (@x/builders, @x/mcp-v2607, @x/mcp-v2511, @x/jsonrpc,
//                   @x/json-schema). A `#name` import of PKG stays one and
//                   resolves against this package's "imports", which must
//                   map the same names (to entries of this package's own
//                   src/). PKG's run-time requires resolve from this
//                   package's folder then, so each of PKG's dependencies
//                   must be one of this package's too, in the same range
//                   (checked here).
//                   A `require` call or `import()` of PKG (loaded on first
//                   use) stays one too, off the cold path.
//                   Why: each further package a cold import resolves and
//                   each further module it loads costs Node's loader about
//                   a millisecond (bench/README.md, "Cold import"). PKG
//                   stays a dependency: the declarations import its types,
//                   and an `import()` of it (loaded on first use, off the
//                   cold path) stays an import.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import * as esbuild from "esbuild";

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
const args = process.argv.slice(2);
const standalone = args.includes("--standalone");
const split = args.includes("--split");
const valued = (flag) => args.flatMap((arg, i) => (args[i - 1] === flag ? [arg] : []));
const keep = valued("--keep");
const inline = valued("--inline");
for (const [i, arg] of args.entries()) {
  const value = args[i - 1] === "--keep" || args[i - 1] === "--inline";
  if (arg !== "--standalone" && arg !== "--split" && arg !== "--keep" && arg !== "--inline" && !value)
    throw new Error(`bundle: unknown argument ${arg}`);
}
for (const name of inline) {
  if (!(name in (pkg.dependencies ?? {}))) throw new Error(`bundle: --inline ${name}: not a dependency of ${pkg.name}`);
  // A `#name` import in its files stays an import and resolves against this package's "imports":
  // this package must map every such name itself, to files of its own that play the same part.
  const manifest = JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8"));
  for (const key of Object.keys(manifest.imports ?? {})) {
    if (!(key in (pkg.imports ?? {})))
      throw new Error(`bundle: --inline ${name}: it imports "${key}", which ${pkg.name}'s "imports" must map too`);
  }
  // Its code, now in this package's files, loads its dependencies from this package's folder,
  // so they must be this package's too, with the same range (the versions that code was built for).
  for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
    if (!(dependency in pkg.dependencies))
      throw new Error(`bundle: --inline ${name}: its dependency ${dependency} must be one of ${pkg.name}'s too`);
    if (pkg.dependencies[dependency] !== range)
      throw new Error(
        `bundle: --inline ${name}: it depends on ${dependency} ${range}, ${pkg.name} on ${pkg.dependencies[dependency]}: make them the same`,
      );
  }
}
if (keep.length > 0 && !standalone) throw new Error("bundle: --keep needs --standalone");

/**
 * dist/X.js → src/X.ts (or src/X.js), for each "import" target of "exports"
 * and each target of a subpath import ("imports": `#name`, under any
 * condition). A `#name` import stays an import in dist/: the program's
 * runtime or bundler picks its target by the conditions it runs under.
 */
function entries() {
  const targets = new Set();
  const add = (target) => {
    if (typeof target === "string" && target.startsWith("./dist/") && target.endsWith(".js")) targets.add(target);
  };
  for (const value of Object.values(pkg.exports ?? {})) add(importTarget(value));
  for (const target of binTargets()) add(target);
  for (const value of Object.values(pkg.imports ?? {}))
    for (const target of typeof value === "string" ? [value] : Object.values(value)) add(target);
  if (targets.size === 0) throw new Error(`${pkg.name}: no ./dist/*.js entry in package.json "exports"`);
  return [...targets]
    .filter((target) => !keep.includes(target.slice("./dist/".length)))
    .map((target) => {
      const stem = target.slice("./dist/".length, -".js".length);
      const source = [`src/${stem}.ts`, `src/${stem}.js`].find((s) => existsSync(join(dir, s)));
      if (!source) throw new Error(`${pkg.name}: no source for ${target} (looked for src/${stem}.ts and .js)`);
      return { in: source, out: stem };
    });
}

/** The files of package.json "bin" (a string or a map of command names), as `./dist/X.js`. */
function binTargets() {
  const bin = typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin ?? {});
  return bin.map((target) => (target.startsWith("./") ? target : `./${target}`));
}

/**
 * A "bin" entry is run, never imported: it keeps its source's `#!` line (so
 * it is built as itself, not through withMain, which would drop it) and is
 * made executable.
 * @throws Error when a bin's source has no `#!` line.
 */
function finishBins() {
  for (const target of binTargets()) {
    const file = resolve(dir, target);
    if (!readFileSync(file, "utf8").startsWith("#!")) throw new Error(`bundle: ${target} (a "bin") must start with a #! line`);
    chmodSync(file, 0o755);
  }
}

/** The JavaScript file an "exports" value gives `import`: a string, `{ import: "…" }` or `{ import: { default: "…" } }`. */
function importTarget(value) {
  if (typeof value === "string") return value;
  const target = value?.import;
  return typeof target === "string" ? target : target?.default;
}

/**
 * Writes dist/X.cjs and dist/X.d.cts beside each entry's dist/X.js and
 * dist/X.d.ts, and checks that the entry's "require" condition names them,
 * so that a CommonJS program (and a CommonJS TypeScript project) resolves
 * every entry. Returns the .cjs files written.
 */
function writeCommonJsTwins() {
  const written = [];
  for (const [subpath, value] of Object.entries(pkg.exports ?? {})) {
    const target = importTarget(value);
    if (typeof target !== "string" || !target.startsWith("./dist/") || !target.endsWith(".js")) continue;
    const stem = target.slice(0, -".js".length);
    const base = stem.slice(stem.lastIndexOf("/") + 1);
    const expected = { types: `${stem}.d.cts`, default: `${stem}.cjs` };
    const given = typeof value === "object" ? value.require : undefined;
    if (given?.types !== expected.types || given?.default !== expected.default) {
      throw new Error(`bundle: ${pkg.name} exports["${subpath}"].require must be ${JSON.stringify(expected)}`);
    }
    // TypeScript's older `moduleResolution: node` reads no "exports": "main"/"types" and "typesVersions" say the same.
    const legacy = subpath === "." ? [pkg.main, pkg.types] : [expected.default, pkg.typesVersions?.["*"]?.[subpath.slice(2)]?.[0]];
    if (legacy[0] !== expected.default || legacy[1] !== expected.types) {
      const where = subpath === "." ? `"main" and "types"` : `typesVersions["*"]["${subpath.slice(2)}"]`;
      throw new Error(`bundle: ${pkg.name} ${where} must name ${expected.default} and ${expected.types}`);
    }
    const js = resolve(dir, `${stem}.cjs`);
    writeFileSync(
      js,
      `"use strict";\n// The ES module itself: Node 20.19+ and 22.12+ require() it synchronously.\nmodule.exports = require("./${base}.js");\n`,
    );
    writeFileSync(resolve(dir, `${stem}.d.cts`), `export * from "./${base}.js";\n`);
    written.push(js);
  }
  return written;
}

/** The bare specifier's package name: `@scope/name` or `name`. */
const packageOf = (specifier) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/**
 * Every import that is not relative stays external (as `packages: "external"`
 * does), except those of the packages named: esbuild resolves those through
 * their "exports" and bundles their built files.
 */
function externalExcept(names) {
  return {
    name: "external-except",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        // A package loaded lazily (`import()`, or a `require` call on first use) is not on the cold path: it stays one.
        if (
          args.path.startsWith("#") ||
          args.kind === "dynamic-import" ||
          args.kind === "require-call" ||
          !names.includes(packageOf(args.path))
        )
          return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}

const common = {
  absWorkingDir: dir,
  outdir: "dist",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  ...(inline.length === 0 ? { packages: "external", external: ["#*"] } : { plugins: [externalExcept(inline)] }),
  // Shorter spellings of the same syntax (merged declarations, folded
  // constants) for Node to parse on a cold import: about 1.6% fewer
  // instructions for @x/server (bench/README.md, "Cold import (issue 43)").
  // Not minifyWhitespace: it would also drop the `/* @__PURE__ */` marks a
  // program's bundler needs to leave out what it does not use. Names stay as
  // written (a class's `name`, stack traces).
  minifySyntax: true,
  sourcemap: true,
  metafile: true,
  write: false,
  logLevel: "warning",
  // See withMain: the bare import of the main entry is meant to be left out.
  logOverride: { "ignored-bare-import": "silent" },
};

/** esbuild's spelling of a `require` it left to the program, and the literal call it stands for. */
const WRAPPED_REQUIRE = /\b__require\((?=["'])/g;

/**
 * A bare import of a file of this build (`import "./chunks/chunk-X.js";`):
 * esbuild writes one to keep the order in which chunks run, and the
 * main-entry import of withMain adds one to each entry and each module
 * loaded on first use. In a package that declares "sideEffects": false
 * they run nothing (the main entry has no top-level effects but its
 * definitions), and a program's bundler warns on each ("Ignoring this import
 * because ... was marked as having no side effects"): each is taken out,
 * its line kept empty so that the source map stays right.
 */
const BARE_LOCAL_IMPORT = /^import "\.\.?\/[^"\n]+";$/gm;

/** A character esbuild's ASCII output left as it is: in a comment it kept (in an object literal or a class body) or a regular expression. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Writes a build's output files, each `__require("…")` given back as a
 * literal `require  ("…")` of the same length.
 * @throws Error naming the file and line when a .js output is not ASCII:
 *   Node then holds the whole module's source as a two-byte string (twice
 *   the memory, for as long as the program runs) and decodes it at half the
 *   speed on every cold import.
 */
function writeOutputs(result) {
  for (const file of result.outputFiles) {
    if (file.path.endsWith(".js") && NON_ASCII.test(file.text)) {
      const lines = file.text.split("\n");
      const at = lines.findIndex((line) => NON_ASCII.test(line));
      throw new Error(
        `bundle: ${relative(dir, file.path)}:${at + 1} is not ASCII (a comment esbuild keeps, or a regular expression): ` +
          `write it in ASCII or with a \\u escape: ${lines[at].trim().slice(0, 120)}`,
      );
    }
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(
      file.path,
      file.path.endsWith(".js") ? withoutBareImports(file.text.replace(WRAPPED_REQUIRE, "require  (")) : file.contents,
    );
  }
}

/**
 * `text` without its bare imports of this build's files (see
 * BARE_LOCAL_IMPORT) when the package declares "sideEffects": false; a
 * package that does not keeps them (they may be needed there, and a
 * program's bundler keeps them without a warning).
 */
function withoutBareImports(text) {
  if (pkg.sideEffects === false) return text.replace(BARE_LOCAL_IMPORT, "");
  return text;
}

/**
 * With --standalone: an import of another entry's source (or of a --keep
 * file) stays an import of that entry's file in dist/, written relative to
 * `outFile`, the output of the entry being built.
 */
function linkEntries(entry, all) {
  const outFile = resolve(dir, "dist", `${entry.out}.js`);
  const targets = new Map(keep.map((file) => [resolve(dir, "src", file), resolve(dir, "dist", file)]));
  for (const other of all) if (other !== entry) targets.set(resolve(dir, other.in), resolve(dir, "dist", `${other.out}.js`));
  return {
    name: "link-entries",
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        const source = resolve(args.resolveDir, args.path);
        const target = targets.get(source) ?? targets.get(source.replace(/\.js$/, ".ts"));
        if (!target) return undefined;
        const path = relative(dirname(outFile), target).replaceAll("\\", "/");
        return { path: path.startsWith(".") ? path : `./${path}`, external: true };
      });
    },
  };
}

/** Whether a source file has a default export (`export default …`, or `… as default` in an export list). */
function hasDefaultExport(file) {
  return /\bexport\s+default\b|\bas\s+default\b/.test(readFileSync(file, "utf8"));
}

/**
 * Each entry but the main one (`dist/index.js`) is built as if it imported
 * the main entry's source first. Entries share code through chunks, one
 * chunk per set of entries that reach a module; with every entry reaching
 * all of the main entry's modules, those sets collapse, and importing the
 * package's main entry loads two files (itself and one chunk) instead of one
 * per combination of entries (eight for @x/server). Nothing runs twice:
 * the main entry has no top-level effects but its definitions.
 */
function withMain(main) {
  return {
    name: "with-main",
    setup(build) {
      if (main === undefined) return;
      build.onResolve({ filter: /^with-main:/ }, (args) => ({ path: args.path.slice("with-main:".length), namespace: "with-main" }));
      // A module of this package loaded on first use (`import()`) reaches the main entry too: the
      // code it shares with the main entry then stays on the main entry's chunk (which is loaded
      // already when it runs) instead of going into a chunk of its own that the main entry imports.
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind !== "dynamic-import" || args.namespace !== "file") return undefined;
        const source = resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
        const inSrc = source.startsWith(`${join(dir, "src")}/`) && existsSync(source);
        return inSrc ? { path: relative(dir, source), namespace: "with-main" } : undefined;
      });
      // The main entry itself. Under package.json's "sideEffects": false esbuild leaves this bare
      // import out of the output (its "ignored-bare-import" warning is silenced below), but the
      // import still makes the entry reach the main entry's modules when esbuild assigns modules to
      // chunks, which is all it is here for. The cold-path tests of @x/server and @x/client fail if
      // that stops holding (more chunks on the main entry's path, entries off its chunk).
      build.onResolve({ filter: /^main-entry:$/ }, () => ({ path: resolve(dir, main.in) }));
      build.onLoad({ filter: /.*/, namespace: "with-main" }, (args) => ({
        // `export *` leaves out `default`: an entry's default export is re-exported by name.
        contents: `import "main-entry:";\nexport * from ${JSON.stringify(resolve(dir, args.path))};\n${
          hasDefaultExport(resolve(dir, args.path)) ? `export { default } from ${JSON.stringify(resolve(dir, args.path))};\n` : ""
        }`,
        resolveDir: dir,
        loader: "js",
      }));
    },
  };
}

const outputs = [];
if (standalone) {
  const all = entries();
  const owner = new Map(); // source file -> the entry that carries it
  for (const entry of all) {
    const result = await esbuild.build({ ...common, entryPoints: [entry], plugins: [...(common.plugins ?? []), linkEntries(entry, all)] });
    writeOutputs(result);
    outputs.push(...Object.keys(result.metafile.outputs));
    // A module two entries carry would be two copies with two states: import it through an entry instead.
    for (const input of Object.keys(result.metafile.inputs)) {
      if (owner.has(input)) throw new Error(`bundle: ${input} is in both ${owner.get(input)} and ${entry.in}; import it through one entry`);
      owner.set(input, entry.in);
    }
  }
} else {
  const all = entries();
  const main = split ? undefined : all.find((e) => e.out === "index");
  const bins = new Set(binTargets().map((target) => target.slice("./dist/".length, -".js".length)));
  const result = await esbuild.build({
    ...common,
    entryPoints: all.map((e) => (main === undefined || e === main || bins.has(e.out) ? e : { in: `with-main:${e.in}`, out: e.out })),
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    plugins: [withMain(main), ...(common.plugins ?? [])],
  });
  writeOutputs(result);
  outputs.push(...Object.keys(result.metafile.outputs));
}

finishBins();

// Remove JavaScript this build did not write (per-file output of older builds).
const written = new Set(outputs.map((f) => resolve(dir, f)));
for (const file of writeCommonJsTwins()) written.add(file);
const files = [...written].filter((f) => f.endsWith(".js")).map((f) => relative(dir, f));
for (const file of keep) written.add(resolve(dir, "dist", file));
function sweep(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) sweep(path);
    else if (/\.c?js(\.map)?$/.test(entry.name) && !written.has(path)) rmSync(path);
  }
}
sweep(join(dir, "dist"));
const kept = keep.length > 0 ? `; kept as built: ${keep.map((f) => `dist/${f}`).join(", ")}` : "";
process.stdout.write(`bundle: ${pkg.name} -> ${files.length} files (${files.join(", ")})${kept}\n`);
