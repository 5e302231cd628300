#!/usr/bin/env node
// Fails when the committed generated sources differ from what the generator
// makes now: for every revision in schema/revisions.json whose package
// exists under packages/, regenerates src/generated/ in memory and compares
// it byte for byte with the files on disk. Then checks that the generated
// comparison of those revisions in docs/revisions.md is current
// (scripts/compare-revisions.mjs in check mode, fed the same generator
// output).
//
//   node scripts/check-generated.mjs
//
// Needs the schemas (`pnpm sync-schema`). Fix a failure with
// `pnpm generate <revision>` or `node scripts/compare-revisions.mjs`, and
// commit the result.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkDoc, DOC } from "./compare-revisions.mjs";
import { generate } from "./generate.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pins = JSON.parse(readFileSync(join(root, "schema/revisions.json"), "utf8"));

/** First differing line of two texts, for the message, shown around the first differing column. */
function firstDifference(expected, actual) {
  const a = expected.split("\n");
  const b = actual.split("\n");
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      let column = 0;
      while (a[i] !== undefined && b[i] !== undefined && a[i][column] === b[i][column]) column++;
      const from = Math.max(0, column - 60);
      const clip = (s) => {
        if (s === undefined) return "(end of file)";
        const window = s.slice(from, from + 160);
        return `${from > 0 ? "…" : ""}${window}${from + 160 < s.length ? "…" : ""}`;
      };
      return `line ${i + 1}, column ${column + 1}\n      generated: ${clip(a[i])}\n      on disk:   ${clip(b[i])}`;
    }
  }
  return "same lines, different bytes";
}

let checked = 0;
const problems = [];
/** types.ts of each revision, as just generated, for the comparison. */
const typesByRevision = {};
for (const [revision, pin] of Object.entries(pins.revisions)) {
  const packageDir = join(root, "packages", pin.package);
  if (!existsSync(join(packageDir, "package.json"))) continue;
  checked++;
  let result;
  try {
    result = await generate(revision);
  } catch (error) {
    problems.push(`${revision}: the generator failed: ${error.message}`);
    continue;
  }
  typesByRevision[revision] = result.files["types.ts"];
  const dir = result.defaultOut;
  for (const [name, text] of Object.entries(result.files)) {
    const file = join(dir, name);
    const shown = relative(root, file);
    if (!existsSync(file)) {
      problems.push(`${shown}: missing`);
      continue;
    }
    const onDisk = readFileSync(file, "utf8");
    if (onDisk !== text) problems.push(`${shown}: differs from the generator's output at ${firstDifference(text, onDisk)}`);
  }
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    if (!(name in result.files)) problems.push(`${relative(root, join(dir, name))}: not made by the generator`);
  }
}

const docProblems = await checkDoc(typesByRevision);

if (problems.length > 0 || docProblems.length > 0) {
  console.error(`check-generated: generated files are out of date:\n  ${[...problems, ...docProblems].join("\n  ")}`);
  if (problems.length > 0) console.error("Run `pnpm generate <revision>` and commit the result; never edit src/generated/ by hand.");
  if (docProblems.length > 0)
    console.error(`Run \`node scripts/compare-revisions.mjs\` and commit ${DOC}; edit only the text outside its markers.`);
  process.exit(1);
}
console.log(`check-generated: ${checked} package(s) up to date; ${DOC} up to date`);
