/**
 * The project's rule on file size: no hand-written source file over about
 * 500 lines. A file that grows past it is split by what its parts are for,
 * not cut at a line number. Generated code (`generated/` folders) is left out.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Most lines a hand-written source file may have. */
export const MAX_SOURCE_LINES = 500;

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

/** The .ts files under `src` and their line counts: how many there are, and those over {@link MAX_SOURCE_LINES} (paths relative to `src`, with `/`). */
export function sourceSizes(src: string): { count: number; over: { file: string; lines: number }[] } {
  const files = sources(src);
  const over = files
    .map((file) => ({ file: relative(src, file).split("\\").join("/"), lines: readFileSync(file, "utf8").split("\n").length - 1 }))
    .filter(({ lines }) => lines > MAX_SOURCE_LINES);
  return { count: files.length, over };
}
