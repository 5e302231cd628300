/**
 * The files a cold `import` of a built entry reads: its static imports,
 * followed through the package's own files (dynamic `import()` and lazy
 * `require` calls are not followed: they run on first use). Bare specifiers
 * are not followed but recorded, so a test can say which packages the cold
 * path reaches (packages/{server,client}/test/cold-path.test.ts). A subpath
 * import (`#name`) is followed to the target the package's "imports" give
 * Node by default (the first of its `node`, `import` and `default` targets).
 */
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";

/** A static `import … from "x"`, `import "x"` or `export … from "x"` at the start of a line of built output. */
const STATIC_IMPORT = /^(?:import|export)\s(?:[^"';]*?\sfrom\s)?["']([^"']+)["'];?$/gms;

/** The package's own files the entry loads (paths relative to `root`, in load order) and the bare specifiers it imports. */
export function coldPath(root: string, entry: string): { files: string[]; specifiers: string[] } {
  const files: string[] = [];
  const specifiers = new Set<string>();
  const imports = (JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as { imports?: Record<string, unknown> }).imports ?? {};
  const nodeTarget = (name: string): string => {
    const value = imports[name];
    if (typeof value === "string") return value;
    const target = Object.entries((value ?? {}) as Record<string, unknown>).find(([condition]) =>
      ["node", "import", "default"].includes(condition),
    )?.[1];
    if (typeof target !== "string") throw new Error(`coldPath: package.json "imports" gives Node no file for ${name}`);
    return target;
  };
  const visit = (file: string) => {
    const name = relative(root, file);
    if (files.includes(name)) return;
    files.push(name);
    for (const match of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      const specifier = match[1]!;
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
      else if (specifier.startsWith("#")) visit(resolve(root, nodeTarget(specifier)));
      else specifiers.add(specifier);
    }
  };
  visit(resolve(root, entry));
  return { files, specifiers: [...specifiers].sort() };
}
