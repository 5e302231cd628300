import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runBundleAlone } from "../../../test-support/bundle.js";
import { loadAjv, loadAjvDraft07, MissingDependencyError, requireAtRunTime, runTimeRequire } from "../src/index.js";

const here = dirname(fileURLToPath(import.meta.url));

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

  it("importing the package loads no ajv", () => {
    const entry = pathToFileURL(join(here, "..", "dist", "index.js")).href;
    const out = execFileSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { createRequire } from "node:module"; await import(${JSON.stringify(entry)}); console.log(Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes("ajv")));`,
      ],
      { encoding: "utf8" },
    );
    expect(out.trim()).toBe("false");
  });

  it("a bundle without ajv beside it throws MissingDependencyError on the first compile", async () => {
    const out = await runBundleAlone(
      `import { compileSchema } from ${JSON.stringify(join(here, "..", "dist", "index.js"))};
try { compileSchema({ type: "object" }); console.log("compiled"); }
catch (e) { console.log(e.name + ": " + e.dependency); }`,
      here,
    );
    expect(out).toBe("MissingDependencyError: ajv");
  });
});
