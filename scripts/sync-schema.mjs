#!/usr/bin/env node
// Brings the pinned MCP spec schemas into schema/<revision>/ (git-ignored).
//
//   node scripts/sync-schema.mjs [revision...]
//
// For each revision listed in schema/revisions.json (or only those named):
// - when ../shared/spec/<revision>/ exists beside the repository, its
//   schema.json and examples/ folder are mirrored into schema/<revision>/;
// - otherwise schema.json is downloaded from the upstream repository at the
//   pinned commit (examples cannot be listed without the GitHub API, so they
//   are reported as unavailable).
// Either way the sha256 of schema.json must equal the pin, or the script
// exits non-zero without touching the existing copy. Files whose content is
// already current are not rewritten, so a second run does nothing.
//
// Environment (for tests and mirrors):
//   MCP_SPEC_DIR       folder holding <revision>/ (default: ../shared/spec)
//   MCP_SCHEMA_RAW_URL base of raw file URLs (default: https://raw.githubusercontent.com)

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const specDir = resolve(root, process.env.MCP_SPEC_DIR ?? "../shared/spec");
const rawBase = (process.env.MCP_SCHEMA_RAW_URL ?? "https://raw.githubusercontent.com").replace(/\/+$/, "");

const pins = JSON.parse(readFileSync(join(root, "schema/revisions.json"), "utf8"));

function fail(message) {
  console.error(`sync-schema: ${message}`);
  process.exit(1);
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** Writes `bytes` to `file` unless it already holds exactly those bytes. Returns true when written. */
function writeIfChanged(file, bytes) {
  if (existsSync(file)) {
    const current = readFileSync(file);
    if (current.equals(bytes)) return false;
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, file);
  return true;
}

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** Makes `dest` hold exactly the files of `src`. Returns {files, written, removed}. */
function mirrorDir(src, dest) {
  const wanted = new Set();
  let written = 0;
  let removed = 0;
  const files = listFiles(src);
  for (const file of files) {
    const rel = relative(src, file);
    wanted.add(rel);
    if (writeIfChanged(join(dest, rel), readFileSync(file))) written++;
  }
  if (existsSync(dest)) {
    for (const file of listFiles(dest)) {
      if (!wanted.has(relative(dest, file))) {
        rmSync(file);
        removed++;
      }
    }
    // Drop folders left empty by the removals.
    const prune = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) prune(join(dir, entry.name));
      }
      if (dir !== dest && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
    };
    prune(dest);
  }
  return { files: files.length, written, removed };
}

function checkSha(rev, bytes, where) {
  const expected = pins.revisions[rev].sha256;
  const actual = sha256(bytes);
  if (actual !== expected) {
    fail(
      `${rev}: sha256 mismatch for ${where}\n  expected ${expected} (schema/revisions.json)\n  actual   ${actual}\n` +
        "Nothing was written. Either the source is not the pinned revision, or the pin in schema/revisions.json needs updating.",
    );
  }
}

async function download(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    fail(`could not download ${url}: ${error.cause?.message ?? error.message}`);
  }
  if (!response.ok) fail(`could not download ${url}: HTTP ${response.status} ${response.statusText}`);
  return Buffer.from(await response.arrayBuffer());
}

async function syncRevision(rev) {
  const pin = pins.revisions[rev];
  const destDir = join(root, "schema", rev);
  const destSchema = join(destDir, "schema.json");
  const localSrc = join(specDir, rev);

  if (existsSync(join(localSrc, "schema.json"))) {
    const bytes = readFileSync(join(localSrc, "schema.json"));
    checkSha(rev, bytes, relative(root, join(localSrc, "schema.json")));
    const wrote = writeIfChanged(destSchema, bytes);
    let note = "";
    const examplesSrc = join(localSrc, "examples");
    const examplesDest = join(destDir, "examples");
    if (existsSync(examplesSrc) && statSync(examplesSrc).isDirectory()) {
      const r = mirrorDir(examplesSrc, examplesDest);
      note = `, ${r.files} example files (${r.written} written, ${r.removed} removed)`;
    } else if (pin.examples) {
      note = `, no examples/ folder in ${relative(root, localSrc)}`;
    }
    console.log(`${rev}: schema.json ${wrote ? "copied" : "up to date"} from ${relative(root, localSrc)} (sha256 ok)${note}`);
    return;
  }

  // No local copy of the spec: use the pinned upstream commit.
  if (existsSync(destSchema) && sha256(readFileSync(destSchema)) === pin.sha256) {
    console.log(`${rev}: schema.json up to date (sha256 ok); ${relative(root, localSrc)} not found, nothing downloaded`);
    return;
  }
  const url = `${rawBase}/${pins.upstream}/${pins.commit}/${pin.path}`;
  const bytes = await download(url);
  checkSha(rev, bytes, url);
  writeIfChanged(destSchema, bytes);
  console.log(`${rev}: schema.json downloaded from ${url} (sha256 ok)`);
  if (pin.examples) {
    console.log(
      `${rev}: examples are unavailable offline from a raw URL (listing ${pin.examples} needs the GitHub tree API); ` +
        `put the spec folder at ${relative(root, localSrc)} to get them`,
    );
  }
}

const wanted = process.argv.slice(2);
const known = Object.keys(pins.revisions);
for (const rev of wanted) {
  if (!known.includes(rev)) fail(`unknown revision ${rev}; schema/revisions.json lists ${known.join(", ")}`);
}
for (const rev of wanted.length > 0 ? wanted : known) {
  await syncRevision(rev);
}
