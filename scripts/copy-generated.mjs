#!/usr/bin/env node
// Build step of a generated package (run from the package folder, after tsc):
// copies the files tsc does not emit, the generated JavaScript and its
// declarations (validators.js, strict-validators.js, schemas.js and each
// schema group's schemas-<group>.js), from src/generated/ to dist/generated/.
//
//   node ../../scripts/copy-generated.mjs

import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

const from = join(process.cwd(), "src/generated");
const to = join(process.cwd(), "dist/generated");
const groups = existsSync(from) ? readdirSync(from).filter((f) => /^schemas-[a-z0-9-]+\.(js|d\.ts)$/.test(f)) : [];
const FILES = [
  "validators.js",
  "validators.d.ts",
  "strict-validators.js",
  "strict-validators.d.ts",
  "schemas.js",
  "schemas.d.ts",
  ...groups.sort(),
];

mkdirSync(to, { recursive: true });
for (const file of FILES) {
  const source = join(from, file);
  if (!existsSync(source)) {
    console.error(`copy-generated: ${source} is missing; run \`pnpm generate <revision>\` at the repository root`);
    process.exit(1);
  }
  copyFileSync(source, join(to, file));
}
