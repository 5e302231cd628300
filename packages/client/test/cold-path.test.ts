import { execFileSync } from "node:child_process";
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

  // OAuth, SSE parsing and the loopback receiver are imported on first use
  // (bench/README.md, "Cold import"); node:crypto not at all (the
  // Authorization digest is Web Crypto's).
  it.runIf(built)("imports oauth4webapi, eventsource-parser and node:http only on first use, node:crypto never", () => {
    const { specifiers } = coldPath(root, "dist/index.js");
    for (const lazy of ["oauth4webapi", "eventsource-parser", "node:http", "node:crypto"]) expect(specifiers).not.toContain(lazy);
    // What Node itself loaded for a fresh `import "@x/client"`.
    const loaded = JSON.parse(
      execFileSync(
        process.execPath,
        ["--input-type=module", "-e", 'await import("./dist/index.js"); process.stdout.write(JSON.stringify(process.moduleLoadList))'],
        { cwd: root, encoding: "utf8" },
      ),
    ) as string[];
    expect(loaded).toContain("NativeModule fs"); // the list is Node's, and read
    for (const builtin of ["http", "_http_server", "crypto", "internal/crypto/hash"])
      expect(loaded).not.toContain(`NativeModule ${builtin}`);
  });
});
