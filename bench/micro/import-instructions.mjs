#!/usr/bin/env node
// The cold import counted, not timed: the instructions valgrind (callgrind)
// counts for a fresh `node --single-threaded --predictable` that imports a
// module and exits, less those of one that imports an empty module (Node's
// own loader work, which any package pays). The count of one run repeats to
// within 0.01%, so it compares builds on a busy machine where wall times
// (micro/import-ms.mjs) move by several milliseconds.
//
//   node bench/micro/import-instructions.mjs [ENTRY ...]
//   (default: this checkout's packages/server/dist/index.js; each ENTRY a file path)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const entries = process.argv.slice(2).map((path) => resolve(path));
if (entries.length === 0) entries.push(join(here, "..", "..", "packages", "server", "dist", "index.js"));

/** Instructions of a fresh Node that imports `url` and exits. */
function count(url) {
  const args = [
    "--tool=callgrind",
    "--callgrind-out-file=/dev/null",
    process.execPath,
    "--single-threaded",
    "--predictable",
    "--input-type=module",
    "-e",
    `await import(${JSON.stringify(url)})`,
  ];
  return new Promise((done, fail) => {
    const child = spawn("valgrind", args, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", fail);
    child.on("exit", (code) => {
      const m = /Collected\s*:\s*(\d+)/.exec(err);
      if (code !== 0 || !m) fail(new Error(`valgrind of an import of ${url} failed (${code}): ${err.slice(-400)}`));
      else done(Number(m[1]));
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), "import-instructions-"));
try {
  const empty = join(scratch, "empty.mjs");
  writeFileSync(empty, "export {};\n");
  const base = await count(pathToFileURL(empty).href);
  console.log(`an empty module: ${(base / 1e6).toFixed(2)} M instructions`);
  for (const entry of entries) {
    const n = await count(pathToFileURL(entry).href);
    console.log(`${entry}: +${((n - base) / 1e6).toFixed(2)} M instructions over an empty module`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
