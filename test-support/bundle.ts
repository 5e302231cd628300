/**
 * Bundling a package's built entry points with esbuild, as a user's bundler
 * would, for the tests that check what a bundle keeps and what it needs at
 * run time (packages/{server,client,json-schema}/test).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";

const OPTIONS = { bundle: true, format: "esm", platform: "node", logLevel: "silent" } as const;

/** What a test may change of the bundle: the conditions it resolves packages by (e.g. `["worker"]`) and what it leaves out. */
export type BundleOptions = Pick<esbuild.BuildOptions, "conditions" | "external">;

/** The bundle of `source` (an ES module whose imports resolve from `resolveDir`), as text. */
export async function bundle(source: string, resolveDir: string, options: BundleOptions = {}): Promise<string> {
  const result = await esbuild.build({ ...OPTIONS, ...options, stdin: { contents: source, resolveDir }, write: false });
  return result.outputFiles[0]!.text;
}

/**
 * Bundles `source` into a fresh temporary folder with nothing beside it (no
 * node_modules), runs it with Node there (with `nodeArgs` before the file)
 * and returns what it printed, trimmed. The folder is removed afterwards.
 */
export async function runBundleAlone(
  source: string,
  resolveDir: string,
  options: BundleOptions = {},
  nodeArgs: string[] = [],
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "x-mcp-bundle-"));
  try {
    const outfile = join(dir, "bundle.mjs");
    await esbuild.build({ ...OPTIONS, ...options, stdin: { contents: source, resolveDir }, outfile });
    // No NODE_PATH (package managers set one for scripts): only what is beside the bundle counts.
    return execFileSync(process.execPath, [...nodeArgs, outfile], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NODE_PATH: "" },
    }).trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
