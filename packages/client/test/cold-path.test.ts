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

  it.runIf(built)("reads two files of @x/client and imports only @x/jsonrpc and @x/json-schema of the workspace", () => {
    const { files, specifiers } = coldPath(root, "dist/index.js");
    expect(files[0]).toBe("dist/index.js");
    expect(files.length).toBeLessThanOrEqual(2);
    expect(specifiers.filter((s) => s.startsWith("@x/"))).toEqual(["@x/json-schema", "@x/jsonrpc"]);
  });
});
