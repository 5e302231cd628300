import { existsSync, readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { coldPath } from "../../../test-support/cold-path.js";

// What `import "@x/server"` reads before it returns: Node's loader pays about
// a millisecond per further file and package (bench/README.md, "Cold
// import"), so the build keeps the main entry to a few files and inlines the
// workspace packages it uses (scripts/bundle.mjs, --inline).
describe("the cold path of the built main entry", () => {
  const root = resolve(".");
  const built = existsSync(resolve(root, "dist/index.js"));

  it("is built (pnpm build runs before the tests)", () => {
    expect(built).toBe(true);
  });

  it.runIf(built)("reads three files of @x/server and imports no other package of the workspace", () => {
    const { files, specifiers } = coldPath(root, "dist/index.js");
    expect(files[0]).toBe("dist/index.js");
    // The entry, the main chunk and the `#default-validator` file (on Node: none imported).
    expect(files.length).toBeLessThanOrEqual(3);
    expect(files).toContain("dist/default-none.js");
    expect(specifiers.filter((s) => s.startsWith("@x/"))).toEqual([]);
    // Everything else on it is Node's own: the validator, jose and the rest load on first use.
    expect(specifiers.filter((s) => !s.startsWith("@x/") && !s.startsWith("node:"))).toEqual([]);
  });

  it("has no module of a plug-in in the main entry's graph (lazy imports included): action tools and tasks are on their own entries", async () => {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: ["src/index.ts"],
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      packages: "external",
      external: ["#default-validator"],
      logLevel: "silent",
    });
    const modules = Object.keys(result.metafile.inputs);
    expect(modules).toContain("src/server.ts");
    expect(modules.filter((m) => /^src\/(actions|tasks)\//.test(m))).toEqual([]);
  });

  it.runIf(built)("keeps the other entries on the main entry's chunk, so their state is the main entry's", () => {
    const main = coldPath(root, "dist/index.js").files.find((f) => f.startsWith("dist/chunks/") && f !== "dist/index.js");
    for (const entry of [
      "dist/actions/index.js",
      "dist/auth/index.js",
      "dist/express.js",
      "dist/tasks/index.js",
      "dist/testing.js",
      "dist/telemetry-entry.js",
      "dist/v2607.js",
    ]) {
      expect(coldPath(root, entry).files, entry).toContain(main);
    }
  });

  it.runIf(built)(
    "carries the request builders of @x/builders (the checks of a handler's asks) only in a chunk loaded on the first ask",
    () => {
      // Which sources each built file holds, from its source map.
      const sources = (file: string) =>
        (JSON.parse(readFileSync(resolve(root, `${file}.map`), "utf8")) as { sources: string[] }).sources.map((s) =>
          s.replace(/^(\.\.\/)+/, ""),
        );
      const loaded = coldPath(root, "dist/index.js").files.flatMap(sources);
      expect(loaded).toContain("builders/src/cache.ts");
      expect(loaded.filter((s) => /^builders\/src\/(mrtr|blocks|members|primitive|snapshot)\.ts$/.test(s))).toEqual([]);
      const lazy = readdirSync(resolve(root, "dist/chunks"))
        .filter((f) => f.endsWith(".js"))
        .flatMap((f) => sources(`dist/chunks/${f}`));
      expect(lazy).toContain("builders/src/mrtr.ts");
    },
  );
});
