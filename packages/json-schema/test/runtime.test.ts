import { execFileSync, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { bundle, runBundleAlone } from "../../../test-support/bundle.js";
import { loadAjv, loadAjvDraft07 } from "../src/ajv.js";
import { MissingDependencyError, requireAtRunTime, runTimeRequire } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, "..", "dist", "index.js");
/** A program that compiles one schema with the default validator and prints which validator and what it found. */
const program = `import { compileSchema, defaultValidator } from ${JSON.stringify(entry)};
const check = compileSchema({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, { validator: defaultValidator() });
console.log(defaultValidator().name + " " + JSON.stringify(check({ n: "x" })));`;
const found = JSON.stringify([{ path: "/n", message: "must be integer" }]);

describe("packages loaded at run time", () => {
  it("names a missing package in a MissingDependencyError", () => {
    let thrown: unknown;
    try {
      requireAtRunTime("x-mcp-no-such-package/sub.js", "x-mcp-no-such-package");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MissingDependencyError);
    expect((thrown as MissingDependencyError).dependency).toBe("x-mcp-no-such-package");
    expect((thrown as Error).message).toMatch(/needs the package "x-mcp-no-such-package" at run time/);
    expect((thrown as Error).cause).toMatchObject({ code: "MODULE_NOT_FOUND" });
  });

  it("resolves from the location it is given", () => {
    // ajv is a dependency of this package, so it resolves from here; from the temp folder it does not.
    expect(runTimeRequire(import.meta.url)("ajv", "ajv")).toBeTypeOf("function");
    const elsewhere = runTimeRequire(pathToFileURL(join(tmpdir(), "x.mjs")));
    expect(() => elsewhere("ajv", "ajv")).toThrow(MissingDependencyError);
  });

  it("loads ajv's classes and ajv-formats once, on first use", () => {
    const first = loadAjv();
    expect(loadAjv()).toBe(first);
    expect(first.Ajv2020).toBeTypeOf("function");
    expect(first.addFormats).toBeTypeOf("function");
    expect(loadAjvDraft07()).toBeTypeOf("function");
  });

  it("importing the package loads no validator library", () => {
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { createRequire } from "node:module"; await import(${JSON.stringify(pathToFileURL(entry).href)}); console.log(Object.keys(createRequire(import.meta.url).cache).some((k) => /ajv|cfworker/.test(k)));`,
      ],
      { encoding: "utf8" },
    );
    expect(out.trim()).toBe("false");
  });
});

describe("the default validator", () => {
  it("is ajv on Node, and a bundle carries it: it compiles with nothing beside it", async () => {
    expect(await runBundleAlone(program, here)).toBe(`ajv ${found}`);
    const text = await bundle(program, here);
    expect(text).toContain("ajv/dist/2020.js");
    expect(text).toContain("@cfworker/json-schema");
  });

  it("is the cfworker one under the worker condition, and such a bundle carries no ajv", async () => {
    for (const conditions of [["worker"], ["workerd", "worker"], ["browser"]]) {
      const text = await bundle(program, here, { conditions });
      // No ajv module (doc comments may still name it).
      expect(text, conditions.join()).not.toMatch(/node_modules\/(\.pnpm\/)?ajv|require\("ajv/);
      expect(text).toContain("@cfworker/json-schema");
    }
    expect(await runBundleAlone(program, here, { conditions: ["worker"] })).toBe(`cfworker ${found}`);
  });

  it("is the cfworker one where code generation is forbidden, bundled or not", async () => {
    const args = ["--disallow-code-generation-from-strings"];
    expect(await runBundleAlone(program, here, {}, args)).toBe(`cfworker ${found}`);
    const out = execFileSync(process.execPath, [...args, "--input-type=module", "-e", program], { encoding: "utf8" });
    expect(out.trim()).toBe(`cfworker ${found}`);
  });

  it("ajv chosen by option where code generation is forbidden: the compile error says why, and nothing else reaches stderr", () => {
    const ajvEntry = join(here, "..", "dist", "ajv.js");
    const forced = `import { compileSchema } from ${JSON.stringify(entry)}; import { ajvValidator } from ${JSON.stringify(ajvEntry)};
try { compileSchema({ type: "object", properties: { a: { type: "string" } } }, { validator: ajvValidator }); console.log("compiled"); }
catch (e) { console.log(e.message); }`;
    const run = spawnSync(process.execPath, ["--disallow-code-generation-from-strings", "--input-type=module", "-e", forced], {
      encoding: "utf8",
    });
    expect(run.stdout.trim()).toMatch(/Code generation from strings disallowed/);
    expect(run.stderr).toBe("");
  });

  it("a bundle built with ajv left out names it on the first compile (MissingDependencyError)", async () => {
    const out = await runBundleAlone(
      `import { compileSchema, defaultValidator } from ${JSON.stringify(entry)};
try { compileSchema({ type: "object" }, { validator: defaultValidator() }); console.log("compiled"); }
catch (e) { console.log(e.name + ": " + e.dependency); }`,
      here,
      { external: ["ajv", "ajv-formats"] },
    );
    expect(out).toBe("MissingDependencyError: ajv");
  });
});
