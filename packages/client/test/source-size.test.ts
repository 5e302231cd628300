import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The project's rule: no hand-written source file over about 500 lines. A
// file that grows past it is split by what its parts are for (the client's
// features, its revisions, the tasks' options and reads), not cut at a line
// number.
const MAX_LINES = 500;
const src = resolve("src");

/** Every .ts file under `dir`, generated code left out. */
function sources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "generated") found.push(...sources(path));
    } else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found;
}

describe("the client's source files", () => {
  it(`are each at most ${MAX_LINES} lines`, () => {
    const files = sources(src);
    expect(files.length).toBeGreaterThan(0);
    const over = files
      .map((file) => ({ file: relative(src, file).split("\\").join("/"), lines: readFileSync(file, "utf8").split("\n").length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
