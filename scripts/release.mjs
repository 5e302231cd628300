#!/usr/bin/env node
// `pnpm release`: build, run the whole of `pnpm test`, then publish every
// published package (non-private, under packages/) whose version is not on the
// registry yet, through `changeset publish` with npm provenance
// (NPM_CONFIG_PROVENANCE=true). See RELEASING.md.
//
// Without --publish it is a dry run: after the build and the tests it runs
// `pnpm publish --dry-run` per package (the same pack as the real publish:
// workspace: ranges rewritten, pack hooks applied) and says which packages it
// would publish and which are already on the registry. --publish is refused
// outside CI (CI=true): provenance needs the CI's OIDC token (id-token: write),
// and a release from a laptop is not what the provenance statement would claim.
//
// Flags: --publish (publish for real, CI only); --no-test (dry run only: skip
// `pnpm test`, to look at what would be published); --tag <dist-tag> (default
// latest).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pnpmCommand, publishablePackages } from "./lib/workspace.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const args = process.argv.slice(2);
const publish = args.includes("--publish");
const noTest = args.includes("--no-test");
const tagIndex = args.indexOf("--tag");
const tag = tagIndex === -1 ? "latest" : args[tagIndex + 1];
const inCi = process.env.CI === "true" || process.env.CI === "1";

// Bounds of every wait, in milliseconds.
const BUILD_MS = 900_000;
const TEST_MS = 3_600_000;
const PUBLISH_MS = 600_000;
const VIEW_MS = 60_000;

function step(name, command, commandArgs, { cwd = root, env = process.env, timeout } = {}) {
  process.stdout.write(`\n=== ${name}\n`);
  const started = Date.now();
  const result = spawnSync(command, commandArgs, { cwd, env, stdio: "inherit", timeout });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stdout.write(`=== ${name} failed after ${seconds}s${result.error ? ` (${result.error.message})` : ""}\n`);
    process.exit(result.status || 1);
  }
  process.stdout.write(`=== ${name} passed in ${seconds}s\n`);
}

/** Whether `name@version` is already on the registry (a 404 means no). */
function published(name, version) {
  const result = spawnSync("npm", ["view", `${name}@${version}`, "version", "--json"], { encoding: "utf8", timeout: VIEW_MS });
  if (result.status === 0) return result.stdout.trim() !== "";
  if (/E404|404 Not Found|is not in this registry/.test(result.stderr)) return false;
  throw new Error(`npm view ${name}@${version} failed: ${result.stderr.slice(0, 500)}`);
}

if (publish && !inCi) {
  console.error("release: --publish runs in CI only (CI=true, with an OIDC id-token for npm provenance); without it this is a dry run");
  process.exit(1);
}
if (publish && noTest) {
  console.error("release: --no-test is for dry runs; a publish always runs pnpm test first");
  process.exit(1);
}
if (!tag || tag.startsWith("--")) {
  console.error("release: --tag needs a dist-tag name");
  process.exit(1);
}

const pending = readdirSync(join(root, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md");
if (pending.length > 0) {
  console.log(
    `release: ${pending.length} changesets in .changeset/ are not versioned yet: run \`pnpm changeset version\` (and merge it) first, or they ship in a later release`,
  );
}

const packages = publishablePackages(root);
console.log(
  `release (${publish ? "publish" : "dry run"}, dist-tag ${tag}): ${packages.map(({ manifest }) => `${manifest.name}@${manifest.version}`).join(", ")}`,
);

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };
step("build", bin("turbo"), ["run", "build", "--output-logs=errors-only"], { env, timeout: BUILD_MS });
if (noTest) console.log("\n=== pnpm test skipped (--no-test, dry run)");
else step("pnpm test", process.execPath, [join(root, "scripts", "test-all.mjs")], { env, timeout: TEST_MS });

if (publish) {
  // changeset publish runs `pnpm publish` per package whose version the registry
  // lacks, then tags each published version in git (pushed by the workflow).
  step("changeset publish (with npm provenance)", bin("changeset"), ["publish", "--tag", tag], {
    env: { ...env, NPM_CONFIG_PROVENANCE: "true" },
    timeout: PUBLISH_MS,
  });
} else {
  const wouldPublish = [];
  const already = [];
  for (const { dir, manifest } of packages) {
    const id = `${manifest.name}@${manifest.version}`;
    if (published(manifest.name, manifest.version)) {
      already.push(id);
      continue;
    }
    const [pnpm, pnpmArgs] = pnpmCommand();
    step(
      `pnpm publish --dry-run ${id}`,
      pnpm,
      [...pnpmArgs, "publish", "--dry-run", "--no-git-checks", "--access", "public", "--tag", tag],
      {
        cwd: dir,
        env: { ...env, NPM_CONFIG_PROVENANCE: "true" },
        timeout: PUBLISH_MS,
      },
    );
    wouldPublish.push(id);
  }
  console.log(
    `\nrelease dry run: would publish ${wouldPublish.length ? wouldPublish.join(", ") : "nothing"} with provenance, dist-tag ${tag}`,
  );
  if (already.length) console.log(`already on the registry (skipped): ${already.join(", ")}`);
  console.log("to publish: run `pnpm release --publish` in CI (see RELEASING.md)");
}
