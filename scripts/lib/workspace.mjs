// The workspace's packages, read from pnpm-workspace.yaml and each folder's
// package.json: used by the pack check and the release script to know which
// packages are published (every non-private one under packages/).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The globs of pnpm-workspace.yaml's `packages:` list. Only the two forms this
 * repository uses are understood: a folder (`examples`) and a folder's
 * children (`packages/*`); anything else is refused rather than misread.
 */
export function workspaceGlobs(root) {
  const text = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const globs = [];
  let inPackages = false;
  for (const line of text.split("\n")) {
    if (/^packages:\s*$/.test(line)) {
      inPackages = true;
      continue;
    }
    if (!inPackages) continue;
    const item = /^\s+-\s+["']?([^"'#\s]+)["']?\s*(#.*)?$/.exec(line);
    if (item) {
      globs.push(item[1]);
    } else if (/^\S/.test(line)) {
      inPackages = false;
    }
  }
  for (const glob of globs) {
    if (!/^[\w.-]+(\/[\w.-]+)*(\/\*)?$/.test(glob)) throw new Error(`pnpm-workspace.yaml: glob ${glob} is not a folder or folder/*`);
  }
  return globs;
}

/** Every workspace package: `{ dir, manifest }`, `dir` absolute, sorted by name. */
export function workspacePackages(root) {
  const dirs = [];
  for (const glob of workspaceGlobs(root)) {
    if (glob.endsWith("/*")) {
      const parent = join(root, glob.slice(0, -2));
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) dirs.push(join(parent, entry.name));
      }
    } else {
      dirs.push(join(root, glob));
    }
  }
  return dirs
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** The packages that are published: not `private`, under packages/. */
export function publishablePackages(root) {
  const under = join(root, "packages");
  return workspacePackages(root).filter(({ dir, manifest }) => !manifest.private && dir.startsWith(`${under}/`));
}

/**
 * How to run pnpm from a script: through the pnpm that runs us when there is
 * one (`pnpm test` sets npm_execpath; CI runs pnpm through npx, so it may not
 * be on PATH), else `pnpm` from PATH. Returns `[command, leadingArgs]`.
 */
export function pnpmCommand() {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by root scripts, which no turbo task runs
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm(\.c?js)?$/.test(execPath)) return [process.execPath, [execPath]];
  return ["pnpm", []];
}
