// Build step: writes dist/versions.json, the range of each @x package a
// template names (`^` and the workspace version at build time), which the
// scaffolder writes into a new project. Run by `pnpm build` after tsc.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const packages = join(here, "..");
const versions = {};
for (const folder of readdirSync(packages)) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(packages, folder, "package.json"), "utf8"));
  } catch {
    continue;
  }
  if (manifest.name?.startsWith("@x/") && !manifest.private) versions[manifest.name] = `^${manifest.version}`;
}
mkdirSync(join(here, "dist"), { recursive: true });
writeFileSync(join(here, "dist", "versions.json"), `${JSON.stringify(versions, null, 2)}\n`);
