#!/usr/bin/env node
// The bundle rows of `pnpm bench`: each shape of server (an entry under
// minimal/) bundled by esbuild, minified, ES modules for Node 20 with code
// splitting, and the gzip size of what it loads when it runs: the entry's
// file and every chunk it imports statically (each file gzipped on its own,
// summed). A chunk reached only by an `import()` (code a package loads on
// first use, such as the checks of a handler's asks) is counted apart, as
// `lazy`: the shape's program never loads it (bench/README.md, "Bundle
// rows"); the one-file size, everything inside, is printed too. Each is built alone
// in an empty temporary folder that holds only the entry and links to the
// packages it imports, so nothing else on this machine (a hoisted package, a
// folder above) can leak into it; the link is to the package as installed
// for the bench (the workspace package itself for @x), and its own
// dependencies resolve from where it really lives, as for a user who
// installed it.
//
//   node bench/bundles.mjs        (the rows alone, printed; exit 1 when a shape carries a package it must not,
//                                 or esbuild prints a warning while bundling it)
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));

/** The packages a bundle carries when it carries ajv (the validator, its formats, its URI parser) or the meta-schema checks. */
const AJV = ["ajv", "ajv-formats", "ajv-draft-04", "fast-uri", "@x/json-schema (meta-schema checks)"];
/** The packages of any JSON Schema validator. */
const ANY_VALIDATOR = [...AJV, "@cfworker/json-schema"];

/**
 * The shapes, one line each. `entry`: the file under minimal/ (none yet:
 * `pending` says which phase makes the shape buildable; give it an entry to
 * measure it). `conditions`: esbuild's extra package.json conditions.
 * `without`: packages the bundle must not carry (checked on its bytes per
 * package). `target`: issue 39's bound, KB gzip, either on the bundle
 * (`kb`) or on what it adds to another shape (`kb` over `base`).
 */
export const SHAPES = [
  { key: "x", label: "@x, both eras, ajv (the Node default, named)", entry: "x.mjs", target: { kb: 60 } },
  { key: "xCfworker", label: "@x, both eras, cfworkerValidator", entry: "x-cfworker.mjs", without: AJV },
  {
    key: "xCfworkerTasks",
    label: "@x, both eras, cfworkerValidator, with tasks",
    entry: "x-cfworker-tasks.mjs",
    without: AJV,
    target: { kb: 10, base: "xCfworker" },
  },
  {
    key: "xStandard",
    label: "@x, both eras, a Standard Schema tool (valibot), no JSON Schema validator",
    entry: "x-standard.mjs",
    without: ANY_VALIDATOR,
  },
  {
    key: "xWorker",
    label: "@x, both eras, worker condition (the cfworker default)",
    entry: "x-worker.mjs",
    conditions: ["worker"],
    without: AJV,
  },
  { key: "x2607", label: "@x, 2026-07-28 only, cfworkerValidator", entry: "x2607.mjs", without: AJV, target: { kb: 32 } },
  {
    key: "x2607Standard",
    label: "@x, 2026-07-28 only, a Standard Schema tool, no JSON Schema validator",
    entry: "x2607-standard.mjs",
    without: ANY_VALIDATOR,
    target: { kb: 28 },
  },
  {
    key: "x2607Tasks",
    label: "@x, 2026-07-28 only, cfworkerValidator, with tasks",
    entry: "x2607-tasks.mjs",
    without: AJV,
    target: { kb: 10, base: "x2607" },
  },
  { key: "official", label: "official", entry: "official.mjs" },
  { key: "tmcp", label: "tmcp", entry: "tmcp.mjs" },
  { key: "bare", label: "bare", entry: "bare.mjs" },
];

/** The packages an entry imports by name (`from "x"`, `import "x"`), as package names. */
function importedPackages(source) {
  const names = new Set();
  for (const [, specifier] of source.matchAll(/(?:from|import)\s*["']([^"'./][^"']*)["']/g)) {
    if (specifier.startsWith("node:")) continue;
    const parts = specifier.split("/");
    names.add(parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]);
  }
  return [...names];
}

/** The name of the package a file belongs to (its nearest package.json with a name), looked up once per folder. */
function packageNamer() {
  const byFolder = new Map();
  const nameOf = (folder) => {
    if (byFolder.has(folder)) return byFolder.get(folder);
    let name;
    try {
      name = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).name;
    } catch {
      name = undefined;
    }
    const parent = dirname(folder);
    if (name === undefined) name = parent === folder ? "(entry)" : nameOf(parent);
    byFolder.set(folder, name);
    return name;
  };
  return (file) => {
    const name = nameOf(dirname(file));
    // @x/json-schema's precompiled meta-schema checks, which come with ajv, apart from the rest of it.
    return name === "@x/json-schema" && file.includes("/dist/meta/") ? "@x/json-schema (meta-schema checks)" : name;
  };
}

/** Bytes of the output files `paths` (absolute) per package, largest first. */
function bytesByPackage(metafile, dir, paths) {
  const nameOf = packageNamer();
  const byPackage = {};
  for (const [out, output] of Object.entries(metafile.outputs)) {
    if (!paths.has(resolve(dir, out))) continue;
    for (const [file, info] of Object.entries(output.inputs)) {
      const name = nameOf(resolve(dir, file));
      byPackage[name] = (byPackage[name] ?? 0) + info.bytesInOutput;
    }
  }
  return Object.fromEntries(Object.entries(byPackage).sort((a, b) => b[1] - a[1]));
}

/**
 * The output files of a split build: `eager`, the entry's file and the
 * chunks it reaches by static imports (what running it loads), and `lazy`,
 * the others (reached only through an `import()`).
 */
function loadedFiles(result, dir) {
  const outputs = result.metafile.outputs;
  const entry = Object.keys(outputs).find((out) => outputs[out].entryPoint !== undefined);
  const reached = new Set();
  const stack = [entry];
  while (stack.length > 0) {
    const out = stack.pop();
    if (reached.has(out)) continue;
    reached.add(out);
    for (const i of outputs[out].imports) if (i.kind === "import-statement" && i.path in outputs) stack.push(i.path);
  }
  const eager = [];
  const lazy = [];
  for (const file of result.outputFiles) {
    if (!file.path.endsWith(".js")) continue;
    const out = Object.keys(outputs).find((o) => resolve(dir, o) === file.path);
    (reached.has(out) ? eager : lazy).push(file);
  }
  return { eager, lazy };
}

/**
 * One shape bundled alone: a fresh folder with the entry and, in its
 * node_modules, a link to each package the entry imports (as installed for
 * the bench); esbuild reads nothing else.
 */
async function bundleAlone(esbuild, shape) {
  const dir = mkdtempSync(join(tmpdir(), "x-bench-bundle-"));
  try {
    const source = readFileSync(join(here, "minimal", shape.entry), "utf8");
    writeFileSync(join(dir, "entry.mjs"), source);
    for (const name of importedPackages(source)) {
      const link = join(dir, "node_modules", name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(here, "node_modules", name)), link, "dir");
    }
    const options = {
      absWorkingDir: dir,
      entryPoints: ["entry.mjs"],
      bundle: true,
      minify: true,
      platform: "node",
      format: "esm",
      target: "node20",
      conditions: shape.conditions ?? [],
      nodePaths: [],
      metafile: true,
      write: false,
      // Warnings are collected, not printed: each one fails the shape's check (a user's bundle must build clean).
      logLevel: "silent",
    };
    const result = await esbuild.build({ ...options, splitting: true, outdir: join(dir, "out") });
    const single = await esbuild.build(options);
    const warnings = [...result.warnings, ...single.warnings].map((w) => `${w.location?.file ?? "?"}: ${w.text}`);
    const { eager, lazy } = loadedFiles(result, dir);
    const gzip = (files) => files.reduce((sum, f) => sum + gzipSync(f.contents).length, 0);
    const minified = (files) => files.reduce((sum, f) => sum + f.contents.length, 0);
    // The one-file build, as earlier rows were measured: everything, lazy chunks included.
    const byPackage = bytesByPackage(result.metafile, dir, new Set(eager.map((f) => f.path)));
    const lazyByPackage = bytesByPackage(result.metafile, dir, new Set(lazy.map((f) => f.path)));
    const carried = (shape.without ?? []).filter((name) => name in byPackage || name in lazyByPackage);
    return {
      label: shape.label,
      entry: `minimal/${shape.entry}`,
      conditions: shape.conditions ?? [],
      minifiedBytes: minified(eager),
      gzipBytes: gzip(eager),
      files: eager.length,
      lazyGzipBytes: gzip(lazy),
      lazyByPackage,
      singleFileGzipBytes: gzipSync(single.outputFiles[0].contents).length,
      byPackage,
      check:
        carried.length === 0 && warnings.length === 0
          ? "ok"
          : [
              ...(carried.length === 0
                ? []
                : [
                    `carries ${carried.map((name) => `${name} (${(((byPackage[name] ?? 0) + (lazyByPackage[name] ?? 0)) / 1024).toFixed(1)} KB minified)`).join(", ")}`,
                  ]),
              ...(warnings.length === 0 ? [] : [`esbuild warns: ${[...new Set(warnings)].join("; ")}`]),
            ].join("; "),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every shape's bundle (a pending one as `{ label, pending }`), keyed as
 * {@link SHAPES}: `gzipBytes` and `minifiedBytes` of what it loads when it
 * runs (`files` files), `byPackage` (bytes of that minified output per
 * package, largest first), `lazyGzipBytes` and `lazyByPackage` (the chunks
 * only an `import()` reaches), `singleFileGzipBytes` (one file, everything
 * inside) and `check` (`"ok"`, or the packages it carries, loaded or lazy,
 * though it must not, and the warnings esbuild gave while bundling it).
 */
export async function bundleSizes() {
  const esbuild = await import("esbuild");
  const out = {};
  for (const shape of SHAPES) {
    out[shape.key] = shape.entry === undefined ? { label: shape.label, pending: shape.pending } : await bundleAlone(esbuild, shape);
  }
  return out;
}

/**
 * Issue 39's targets on the shapes that have one: `{ key, label, targetKB,
 * valueKB, met }`, the value over its base shape for a target on what a
 * shape adds; `met` undefined while a shape (or its base) is pending.
 */
export function bundleTargets(bundles) {
  const kb = (b) => (b && b.gzipBytes !== undefined ? b.gzipBytes / 1024 : undefined);
  return SHAPES.filter((s) => s.target).map((shape) => {
    const own = kb(bundles[shape.key]);
    const base = shape.target.base === undefined ? 0 : kb(bundles[shape.target.base]);
    const value = own === undefined || base === undefined ? undefined : own - base;
    return {
      key: shape.key,
      label: shape.label,
      over: shape.target.base,
      targetKB: shape.target.kb,
      valueKB: value,
      met: value === undefined ? undefined : value <= shape.target.kb,
      pending: bundles[shape.key]?.pending,
    };
  });
}

/** The five largest packages of a bundle, KB minified. */
export function largestParts(bundle) {
  return Object.entries(bundle.byPackage)
    .slice(0, 5)
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)}`)
    .join(", ");
}

/** The bundle rows as text: one line per shape, then issue 39's targets. */
export function bundleReport(bundles) {
  const lines = [];
  for (const shape of SHAPES) {
    const b = bundles[shape.key];
    if (b.pending) {
      lines.push(`${shape.label}: pending (${b.pending})`);
      continue;
    }
    lines.push(
      `${shape.label}: ${(b.gzipBytes / 1024).toFixed(1)} KB gzip, ${(b.minifiedBytes / 1024).toFixed(1)} KB minified in ${b.files} file(s), lazy chunks ${(b.lazyGzipBytes / 1024).toFixed(1)} KB gzip more (one file: ${(b.singleFileGzipBytes / 1024).toFixed(1)}); ${b.check}; largest parts (KB minified): ${largestParts(b)}`,
    );
  }
  for (const t of bundleTargets(bundles)) {
    const value = t.valueKB === undefined ? "not measured" : `${t.valueKB.toFixed(1)} KB`;
    const mark = t.met === undefined ? "pending" : t.met ? "met" : "NOT met";
    lines.push(`  [${mark}] ${t.label}${t.over ? ` (over ${t.over})` : ""} <= ${t.targetKB} KB gzip: ${value}`);
  }
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const bundles = await bundleSizes();
  process.stdout.write(`${bundleReport(bundles)}\n`);
  if (Object.values(bundles).some((b) => b.check !== undefined && b.check !== "ok")) process.exitCode = 1;
}
