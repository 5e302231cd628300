#!/usr/bin/env node
// The cold import counted, not timed: the instructions valgrind (cachegrind)
// counts for a fresh `node --single-threaded --predictable` that imports a
// module and exits, less those of one that imports an empty module (Node's
// own loader work, which any package pays). The count of one run repeats to
// within 0.01%, so it compares builds on a busy machine where wall times
// (micro/import-ms.mjs) move by several milliseconds.
//
//   node bench/micro/import-instructions.mjs [ENTRY ...]
//   (default: @x/server and @x/client; an ENTRY is a package specifier,
//   resolved from bench/ as the bench's servers import it, or a file path)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { COUNTER, countedEnv, readCount } from "./ab-builds.mjs";

/** The packages whose cold import issue 43 judges. */
export const PACKAGES = ["@x/server", "@x/client"];

/**
 * The file URL of `entry`: a path that exists (relative to the working
 * directory), else a specifier resolved from bench/ (its node_modules link
 * the workspace's packages).
 */
export function entryUrl(entry) {
  if (existsSync(resolve(entry))) return pathToFileURL(resolve(entry)).href;
  return import.meta.resolve(entry); // from bench/micro/, so through bench/node_modules
}

/**
 * Instructions of a fresh Node, V8 made repeatable, that runs the ES module
 * source `code` and exits. Rejects when valgrind is missing or the run fails.
 */
export function countCode(code) {
  const args = [...COUNTER, process.execPath, "--single-threaded", "--predictable", "--input-type=module", "-e", code];
  return new Promise((done, fail) => {
    const child = spawn("valgrind", args, { stdio: ["ignore", "ignore", "pipe"], env: countedEnv() });
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", fail);
    child.on("exit", (exitCode) => {
      const counted = readCount(err);
      if (exitCode !== 0 || counted === undefined)
        fail(new Error(`valgrind of ${code.slice(0, 80)} failed (${exitCode}): ${err.slice(-400)}`));
      else done(counted);
    });
  });
}

/** Instructions of a fresh Node that imports `url` and exits. */
export const countImport = (url) => countCode(`await import(${JSON.stringify(url)})`);

/**
 * Instructions of a fresh Node importing an empty module (the base every
 * figure is over), in a scratch folder removed afterwards.
 */
export async function countEmpty() {
  const scratch = mkdtempSync(join(tmpdir(), "import-instructions-"));
  try {
    const empty = join(scratch, "empty.mjs");
    writeFileSync(empty, "export {};\n");
    return await countImport(pathToFileURL(empty).href);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Instructions of importing each of `entries` over an empty module:
 * `{ base, rows: [{ entry, url, instructions }] }`, `instructions` the
 * difference.
 */
export async function importInstructions(entries = PACKAGES) {
  const base = await countEmpty();
  const rows = [];
  for (const entry of entries) {
    const url = entryUrl(entry);
    rows.push({ entry, url, instructions: (await countImport(url)) - base });
  }
  return { base, rows };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const entries = process.argv.slice(2);
  const { base, rows } = await importInstructions(entries.length > 0 ? entries : PACKAGES);
  console.log(`an empty module: ${(base / 1e6).toFixed(2)} M instructions`);
  for (const { entry, instructions } of rows)
    console.log(`${entry}: +${(instructions / 1e6).toFixed(2)} M instructions over an empty module`);
}
