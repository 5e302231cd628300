import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { coldPath } from "../../../test-support/cold-path.js";

// What `import "@x/client"` reads before it returns (see the server's
// cold-path test and bench/README.md, "Cold import").
describe("the cold path of the built main entry", () => {
  const root = resolve(".");
  const built = existsSync(resolve(root, "dist/index.js"));

  it("is built (pnpm build runs before the tests)", () => {
    expect(built).toBe(true);
  });

  it.runIf(built)("reads four files of @x/client and imports no other package of the workspace", () => {
    const { files, specifiers } = coldPath(root, "dist/index.js");
    expect(files[0]).toBe("dist/index.js");
    // The entry, the main chunk, and the default validator's `#default-validator` file with the ajv loader's chunk.
    expect(files.length).toBeLessThanOrEqual(4);
    expect(files).toContain("dist/default-validator.js");
    expect(specifiers.filter((s) => s.startsWith("@x/"))).toEqual([]);
  });
});
