// scripts/bundle.mjs on a package of its own (written here into a temporary
// folder): the other entries are built on the main entry's chunk, keep their
// default exports, and share the main entry's classes and state.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { coldPath } from "../../../test-support/cold-path.js";

const script = resolve("../../scripts/bundle.mjs");
const dir = mkdtempSync(join(tmpdir(), "x-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (name: string) => ({
  import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
  require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
});
writeFileSync(
  join(dir, "package.json"),
  JSON.stringify({
    name: "fixture",
    version: "1.0.0",
    type: "module",
    sideEffects: false,
    main: "./dist/index.cjs",
    types: "./dist/index.d.cts",
    typesVersions: { "*": { extra: ["./dist/extra.d.cts"], other: ["./dist/other.d.cts"], lone: ["./dist/lone.d.cts"] } },
    exports: { ".": entry("index"), "./extra": entry("extra"), "./other": entry("other"), "./lone": entry("lone") },
  }),
);
mkdirSync(join(dir, "src"));
mkdirSync(join(dir, "dist"));
writeFileSync(join(dir, "src/thing.js"), "export class Thing {}\nexport const registry = new Map();\n");
writeFileSync(join(dir, "src/index.js"), 'export { Thing, registry } from "./thing.js";\nexport const own = 1;\n');
writeFileSync(
  join(dir, "src/extra.js"),
  'import { Thing, registry } from "./thing.js";\nexport default function make() { registry.set("made", true); return new Thing(); }\nexport const named = 2;\n',
);
writeFileSync(
  join(dir, "src/other.js"),
  'import { registry } from "./thing.js";\nexport const seen = () => registry.get("made") === true;\n',
);
// An entry that uses nothing of the main entry (as @x/server's default-none): built on the main entry's chunk all the same.
writeFileSync(join(dir, "src/lone.js"), "export const lone = undefined;\n");

describe("scripts/bundle.mjs", () => {
  const out = execFileSync(process.execPath, [script], { cwd: dir, encoding: "utf8" });

  it("keeps a default export of an entry other than the main one", async () => {
    expect(out).toMatch(/^bundle: fixture -> /);
    const extra = await import(pathToFileURL(join(dir, "dist/extra.js")).href);
    expect(Object.keys(extra).sort()).toEqual(["default", "named"]);
    expect(typeof extra.default).toBe("function");
  });

  it("gives every entry the main entry's classes and state", async () => {
    const main = await import(pathToFileURL(join(dir, "dist/index.js")).href);
    const extra = await import(pathToFileURL(join(dir, "dist/extra.js")).href);
    const other = await import(pathToFileURL(join(dir, "dist/other.js")).href);
    expect(extra.default()).toBeInstanceOf(main.Thing);
    expect(main.registry.get("made")).toBe(true);
    expect(other.seen()).toBe(true);
  });

  it("loads the main entry from itself and one chunk", () => {
    expect(coldPath(dir, "dist/index.js").files.length).toBeLessThanOrEqual(2);
  });

  it("leaves no bare import of its own files, so a program's bundler builds it without a warning", async () => {
    const built = readdirSync(join(dir, "dist"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
    for (const file of built) expect(readFileSync(join(dir, "dist", file), "utf8"), file).not.toMatch(/^import "\./m);
    const app = mkdtempSync(join(tmpdir(), "x-bundle-app-"));
    try {
      mkdirSync(join(app, "node_modules"));
      symlinkSync(dir, join(app, "node_modules", "fixture"), "dir");
      writeFileSync(
        join(app, "app.mjs"),
        'import { lone } from "fixture/lone";\nimport make from "fixture/extra";\nimport { seen } from "fixture/other";\nconsole.log(lone, make(), seen());\n',
      );
      const result = await esbuild.build({
        absWorkingDir: app,
        entryPoints: ["app.mjs"],
        bundle: true,
        minify: true,
        platform: "node",
        format: "esm",
        write: false,
        logLevel: "silent",
      });
      expect(result.warnings.map((w) => w.text)).toEqual([]);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });

  it("refuses to inline a package whose dependency this package has in another range", () => {
    const carrier = mkdtempSync(join(tmpdir(), "x-bundle-inline-"));
    try {
      const inlined = join(carrier, "node_modules", "inlined");
      mkdirSync(join(inlined, "dist"), { recursive: true });
      writeFileSync(
        join(inlined, "package.json"),
        JSON.stringify({
          name: "inlined",
          version: "1.0.0",
          type: "module",
          exports: { ".": "./dist/index.js" },
          dependencies: { shared: "^1.0.0" },
        }),
      );
      writeFileSync(join(inlined, "dist/index.js"), "export const one = 1;\n");
      const manifest = (range: string) => ({
        name: "carrier",
        version: "1.0.0",
        type: "module",
        main: "./dist/index.cjs",
        types: "./dist/index.d.cts",
        exports: { ".": entry("index") },
        dependencies: { inlined: "1.0.0", shared: range },
      });
      mkdirSync(join(carrier, "src"));
      writeFileSync(join(carrier, "src/index.js"), 'export { one } from "inlined";\n');
      const build = () =>
        execFileSync(process.execPath, [script, "--inline", "inlined"], { cwd: carrier, encoding: "utf8", stdio: "pipe" });
      writeFileSync(join(carrier, "package.json"), JSON.stringify(manifest("^2.0.0")));
      expect(build).toThrow(/it depends on shared \^1\.0\.0, carrier on \^2\.0\.0/);
      writeFileSync(join(carrier, "package.json"), JSON.stringify(manifest("^1.0.0")));
      expect(build()).toMatch(/^bundle: carrier -> /);
      expect(readFileSync(join(carrier, "dist/index.js"), "utf8")).not.toContain('from "inlined"');
    } finally {
      rmSync(carrier, { recursive: true, force: true });
    }
  });

  it("writes ASCII only, and refuses a kept comment that is not (Node would hold the module as a two-byte string)", () => {
    const built = coldPath(dir, "dist/index.js").files.map((file) => readFileSync(join(dir, file), "utf8"));
    for (const text of built) expect(/[\u0080-\uffff]/.test(text)).toBe(false);
    const bad = mkdtempSync(join(tmpdir(), "x-bundle-ascii-"));
    try {
      writeFileSync(
        join(bad, "package.json"),
        JSON.stringify({ name: "ascii", version: "1.0.0", type: "module", exports: { ".": "./dist/index.js" } }),
      );
      mkdirSync(join(bad, "src"));
      // esbuild escapes the string, and keeps the comment inside the object literal as written.
      writeFileSync(join(bad, "src/index.js"), 'export const table = {\n  // left \u2192 right\n  arrow: "\u2192",\n};\n');
      let failure = "";
      try {
        execFileSync(process.execPath, [script], { cwd: bad, encoding: "utf8", stdio: "pipe" });
      } catch (error) {
        failure = String((error as { stderr?: string }).stderr);
      }
      expect(failure).toContain("dist/index.js:3 is not ASCII");
      expect(failure).toContain("left \u2192 right");
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
