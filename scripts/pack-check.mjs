#!/usr/bin/env node
// `pnpm pack:check`: what a user gets from the registry, checked before it is
// published. For every non-private package under packages/:
//   1. `pnpm pack` into a temporary folder (so `workspace:` ranges are rewritten
//      and the pack hooks run as they would on publish);
//   2. publint on the tarball (errors and warnings fail; suggestions are shown);
//   3. @arethetypeswrong/cli on the tarball, default profile: every problem fails
//      unless scripts/pack-check/attw-allow.json lists it with a reason (an entry
//      there that no longer matches fails too, so the list stays true);
//   4. a fresh consumer project outside the repository installs all tarballs
//      together with npm, then: an ES module imports every entry of every
//      package's `exports` map and a CommonJS script requires each (same values
//      as import); both make a real call (an @x/server tool over HTTP on
//      127.0.0.1, called by @x/client); CommonJS TypeScript projects (module
//      node16 and nodenext) and an ES module one (nodenext) type-check
//      (scripts/pack-check/consumer/ holds these files).
// Prints one summary line per package: packed and unpacked size, file count,
// publint and attw results. Every step runs even after a failure; the exit code
// is 1 if any failed.
//
// `pnpm pack:check:lowest` (--lowest): the same pack and install, but every
// runtime dependency at the lowest version its range admits (npm `overrides`),
// then the imports and the calls; prints the versions used. publint, attw and
// tsc are skipped there (the tarballs are the same).
//
// Flags: --lowest, --no-build (the packages are already built, as in
// `pnpm test`), --keep (leave the temporary folder for a look, and say where).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { readTarball } from "./lib/tarball.mjs";
import { pnpmCommand, publishablePackages } from "./lib/workspace.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const here = join(root, "scripts", "pack-check");
const bin = (name) => join(root, "node_modules", ".bin", name);
const lowest = process.argv.includes("--lowest");
const noBuild = process.argv.includes("--no-build");
const keep = process.argv.includes("--keep");

// Bounds of every wait, in milliseconds.
const BUILD_MS = 600_000;
const PACK_MS = 120_000;
const ATTW_MS = 120_000;
const INSTALL_MS = 300_000;
const VIEW_MS = 60_000;
const RUN_MS = 60_000;
const TSC_MS = 180_000;

// The environment of commands run in the consumer: without the npm_* and pnpm_*
// variables `pnpm run` sets (npm would read npm_config_overrides and the
// workspace's other settings from them), but with the registry and CA file.
const consumerEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm|pnpm)_/i.test(key) || ["npm_config_registry", "npm_config_cafile"].includes(key.toLowerCase()),
  ),
);
consumerEnv.npm_config_update_notifier = "false";
consumerEnv.npm_config_fund = "false";
consumerEnv.npm_config_audit = "false";

const children = new Set();

/**
 * Runs a command to completion or `timeoutMs`, whichever is first (then it is
 * killed): `{ status, stdout, stderr, timedOut, ms }`. Never rejects.
 */
function run(command, args, { cwd, timeoutMs, env = process.env }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    const done = (status) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({
        status,
        stdout,
        stderr: timedOut ? `${stderr}\n(killed after ${timeoutMs} ms)` : stderr,
        timedOut,
        ms: Date.now() - started,
      });
    };
    child.on("error", (error) => {
      stderr += String(error);
      done(-1);
    });
    child.on("close", (code) => done(code ?? -1));
  });
}

/** Runs `tasks` (functions returning promises) at most `limit` at a time, in order of results. */
async function pool(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

const failures = [];
function fail(what, detail = "") {
  failures.push(what);
  console.log(`FAIL ${what}${detail ? `\n${indent(detail)}` : ""}`);
}
const indent = (text) =>
  text
    .trim()
    .split("\n")
    .map((line) => `     ${line}`)
    .join("\n");
const kb = (bytes) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(2)} MB` : `${(bytes / 1000).toFixed(1)} kB`);

/** The allow-list: `{ "<package>": { "<entry or *>": { "<problem kind>": "<reason>" } } }`. */
function loadAllowList() {
  const path = join(here, "attw-allow.json");
  const allow = JSON.parse(readFileSync(path, "utf8"));
  for (const [name, entries] of Object.entries(allow)) {
    for (const [entry, kinds] of Object.entries(entries)) {
      for (const [kind, reason] of Object.entries(kinds)) {
        if (typeof reason !== "string" || reason.trim().length < 10) {
          throw new Error(`${path}: ${name} ${entry} ${kind} needs a reason (a sentence)`);
        }
      }
    }
  }
  return allow;
}

/** publint on the tarball's bytes: `{ errors, warnings, suggestions }`, each a list of formatted messages. */
async function runPublint(tarballPath) {
  const { publint } = await import("publint");
  const { formatMessage } = await import("publint/utils");
  const bytes = readFileSync(tarballPath);
  const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball }, level: "suggestion" });
  const of = (type) => messages.filter((m) => m.type === type).map((m) => `${m.code}: ${formatMessage(m, pkg) ?? m.code}`);
  return { errors: of("error"), warnings: of("warning"), suggestions: of("suggestion") };
}

/**
 * attw on the tarball (default profile): `{ problems, unexpected, allowed }`,
 * where `unexpected` are the problems the allow-list does not name, or
 * `{ error }` when attw itself failed.
 */
async function runAttw(name, tarballPath, allow) {
  const result = await run(bin("attw"), ["--format", "json", tarballPath], { cwd: dirname(tarballPath), timeoutMs: ATTW_MS });
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    return { error: `attw exited ${result.status}: ${(result.stderr || result.stdout).slice(0, 2000)}` };
  }
  const problems = report.analysis?.problems ?? [];
  const allowed = allow[name] ?? {};
  const used = new Set();
  const unexpected = [];
  for (const problem of problems) {
    const entry = problem.entrypoint ?? "*";
    const key = [entry, "*"].find((candidate) => allowed[candidate]?.[problem.kind]);
    if (key) used.add(`${key} ${problem.kind}`);
    else unexpected.push(problem);
  }
  const stale = [];
  for (const [entry, kinds] of Object.entries(allowed)) {
    for (const kind of Object.keys(kinds)) if (!used.has(`${entry} ${kind}`)) stale.push(`${entry} ${kind}`);
  }
  return { problems, unexpected, stale };
}

/** One line per attw problem: its kind, then every other field it has (entrypoint, resolution kind, file names, ...). */
const describeProblem = (p) =>
  [
    p.kind,
    ...Object.entries(p)
      .filter(([key, value]) => key !== "kind" && (typeof value === "string" || typeof value === "number"))
      .map(([key, value]) => (key === "entrypoint" || key === "resolutionKind" ? String(value) : `${key}=${value}`)),
  ].join(" ");
function countKinds(problems) {
  const counts = new Map();
  for (const problem of problems) counts.set(problem.kind, (counts.get(problem.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${kind}×${count}`).join(", ");
}

/**
 * The lowest version of each runtime dependency (dependencies and peer
 * dependencies of the packed manifests, not our own packages) that every range
 * naming it admits: `{ name: { version, ranges } }`.
 */
async function lowestVersions(manifests, ours) {
  const ranges = new Map();
  for (const manifest of manifests) {
    for (const field of ["dependencies", "peerDependencies"]) {
      for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
        if (ours.has(dep)) continue;
        if (!ranges.has(dep)) ranges.set(dep, []);
        ranges.get(dep).push({ range, by: `${manifest.name}${field === "peerDependencies" ? " (peer)" : ""}` });
      }
    }
  }
  const chosen = {};
  const tasks = [...ranges].map(([dep, named]) => async () => {
    const view = await run("npm", ["view", dep, "versions", "--json"], { cwd: tmpdir(), timeoutMs: VIEW_MS, env: consumerEnv });
    if (view.status !== 0) throw new Error(`npm view ${dep} versions failed: ${view.stderr.slice(0, 500)}`);
    const versions = [].concat(JSON.parse(view.stdout));
    const version = semver.minSatisfying(
      versions.filter((v) => named.every(({ range }) => semver.satisfies(v, range))),
      "*",
    );
    const byRange = new Map();
    for (const { range, by } of named) byRange.set(range, [...(byRange.get(range) ?? []), by]);
    const described = [...byRange].map(([range, by]) => `${range} in ${by.join(", ")}`).join("; ");
    if (!version) throw new Error(`no published version of ${dep} satisfies all of ${described}`);
    chosen[dep] = { version, ranges: described };
  });
  await pool(tasks, 4);
  return Object.fromEntries(Object.entries(chosen).sort(([a], [b]) => a.localeCompare(b)));
}

async function main() {
  const packages = publishablePackages(root);
  const ours = new Set(packages.map(({ manifest }) => manifest.name));
  const allow = lowest ? {} : loadAllowList();
  for (const name of Object.keys(allow)) if (!ours.has(name)) fail(`attw-allow.json names ${name}, which is not a published package`);

  const tmp = mkdtempSync(join(tmpdir(), "x-pack-check-"));
  const cleanup = () => {
    for (const child of children) child.kill("SIGKILL");
    if (keep) console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      cleanup();
      process.exit(130);
    });
  }

  try {
    console.log(
      `pack check${lowest ? " (lowest versions of every runtime dependency)" : ""}: ${packages.length} packages, node ${process.version}`,
    );
    if (!noBuild) {
      const filters = packages.map(({ manifest }) => `--filter=${manifest.name}`);
      const build = await run(bin("turbo"), ["run", "build", ...filters, "--output-logs=errors-only"], {
        cwd: root,
        timeoutMs: BUILD_MS,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
      });
      if (build.status !== 0) {
        fail("build", build.stdout + build.stderr);
        return;
      }
    }

    // 1. Pack, two at a time (the machine has two cores).
    const tarballs = join(tmp, "tarballs");
    mkdirSync(tarballs);
    const packed = await pool(
      packages.map(({ dir, manifest }) => async () => {
        const [pnpm, pnpmArgs] = pnpmCommand();
        const result = await run(pnpm, [...pnpmArgs, "pack", "--json", "--pack-destination", tarballs], { cwd: dir, timeoutMs: PACK_MS });
        if (result.status !== 0) return { manifest, error: result.stdout + result.stderr };
        const info = JSON.parse(result.stdout.slice(result.stdout.indexOf("{")));
        const path = info.filename.startsWith("/") ? info.filename : join(tarballs, basename(info.filename));
        const { packedBytes, files } = readTarball(path);
        const packedManifest = JSON.parse(files.find((file) => file.path === "package.json").data.toString("utf8"));
        return { manifest, path, packedBytes, files, packedManifest };
      }),
      2,
    );
    const good = packed.filter((p) => !p.error);
    for (const p of packed) if (p.error) fail(`pnpm pack ${p.manifest.name}`, p.error);

    // 2, 3. publint and attw.
    if (!lowest) {
      await pool(
        good.map((p) => async () => {
          try {
            p.publint = await runPublint(p.path);
          } catch (error) {
            p.publint = { error: String(error.stack) };
          }
          p.attw = await runAttw(p.manifest.name, p.path, allow);
        }),
        2,
      );
    }

    // 4. The consumer project.
    const consumer = join(tmp, "consumer");
    mkdirSync(consumer);
    const consumerManifest = { name: "x-pack-check-consumer", version: "0.0.0", private: true, dependencies: {}, devDependencies: {} };
    for (const p of good) consumerManifest.dependencies[p.manifest.name] = `file:${p.path}`;
    let chosen;
    if (lowest) {
      try {
        chosen = await lowestVersions(
          good.map((p) => p.packedManifest),
          ours,
        );
        // Overrides apply to every copy in the tree, peer dependencies included.
        consumerManifest.overrides = Object.fromEntries(Object.entries(chosen).map(([dep, { version }]) => [dep, version]));
      } catch (error) {
        fail("lowest versions", String(error.message));
      }
    } else {
      const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
      consumerManifest.devDependencies["@types/node"] = rootManifest.devDependencies["@types/node"];
    }
    writeFileSync(join(consumer, "package.json"), `${JSON.stringify(consumerManifest, null, 2)}\n`);
    for (const file of ["entries.cjs", "import-all.mjs", "require-all.cjs", "call.mjs", "call.cjs"]) {
      copyFileSync(join(here, "consumer", file), join(consumer, file));
    }
    const install = await run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: consumer,
      timeoutMs: INSTALL_MS,
      env: consumerEnv,
    });
    console.log(
      `npm install of ${good.length} tarballs into a fresh project: ${install.status === 0 ? "ok" : "FAILED"} in ${(install.ms / 1000).toFixed(1)} s`,
    );
    if (install.status !== 0) {
      fail("npm install in the consumer", install.stdout + install.stderr);
    } else {
      if (chosen) {
        console.log("lowest versions used:");
        for (const [dep, { version, ranges }] of Object.entries(chosen)) {
          const installed = installedVersions(join(consumer, "node_modules"), dep);
          const wrong = installed.filter((v) => v !== version);
          const mark =
            installed.length === 0 ? "  FAIL: not installed" : wrong.length ? `  FAIL: also installed at ${wrong.join(", ")}` : "";
          if (mark) failures.push(`${dep} not installed at ${version} alone`);
          console.log(`  ${`${dep}@${version}`.padEnd(32)} lowest of ${ranges}${mark}`);
        }
      }
      for (const [label, script] of [
        ["import of every entry (ESM)", "import-all.mjs"],
        ["require of every entry (CJS)", "require-all.cjs"],
        ["call (ESM)", "call.mjs"],
        ["call (CJS)", "call.cjs"],
      ]) {
        const result = await run(process.execPath, [script], { cwd: consumer, timeoutMs: RUN_MS, env: consumerEnv });
        const lines = result.stdout.trim().split("\n").filter(Boolean);
        const failed = lines.filter((line) => line.startsWith("FAIL"));
        const entries = lines.filter((line) => /^(ok|FAIL) +(import|require) /.test(line)).length;
        if (result.status === 0) {
          console.log(entries ? `ok   ${label}: ${entries} entries` : (lines.at(-1) ?? `ok   ${label}`));
        } else {
          fail(label, [...failed, failed.length === 0 ? result.stderr.slice(0, 3000) : ""].join("\n"));
        }
      }
      // Each package's commands ("bin"), as npm linked them: each must start and print its usage.
      for (const p of good) {
        const bins = typeof p.manifest.bin === "string" ? { [p.manifest.name.split("/").pop()]: p.manifest.bin } : (p.manifest.bin ?? {});
        for (const name of Object.keys(bins)) {
          const result = await run(join(consumer, "node_modules", ".bin", name), ["--help"], {
            cwd: consumer,
            timeoutMs: RUN_MS,
            env: consumerEnv,
          });
          if (result.status === 0 && /^usage:/i.test(result.stdout)) console.log(`ok   ${name} --help`);
          else fail(`${name} --help`, `exit ${result.status}\n${result.stdout.slice(0, 500)}${result.stderr.slice(0, 2000)}`);
        }
      }
      if (!lowest) await typeCheck(consumer);
    }

    // Summary, one line per package.
    console.log("\npackage            packed     unpacked  files  publint             attw");
    for (const p of packed) {
      if (p.error) {
        console.log(`${p.manifest.name.padEnd(18)} pack failed`);
        continue;
      }
      const unpacked = p.files.reduce((sum, file) => sum + file.size, 0);
      let publintText = "skipped";
      let attwText = "skipped";
      if (p.publint) {
        if (p.publint.error) {
          publintText = "error";
          fail(`publint ${p.manifest.name}`, p.publint.error);
        } else {
          const { errors, warnings, suggestions } = p.publint;
          publintText = errors.length + warnings.length === 0 ? "ok" : `${errors.length} errors, ${warnings.length} warnings`;
          if (suggestions.length) publintText += ` (${suggestions.length} suggestions)`;
          if (errors.length + warnings.length > 0) failures.push(`publint ${p.manifest.name}`);
        }
      }
      if (p.attw) {
        if (p.attw.error) {
          attwText = "error";
          failures.push(`attw ${p.manifest.name}`);
        } else {
          const { problems, unexpected, stale } = p.attw;
          const allowedCount = problems.length - unexpected.length;
          attwText = unexpected.length === 0 ? "ok" : `${unexpected.length} problems (${countKinds(unexpected)})`;
          if (allowedCount) attwText += `, ${allowedCount} allowed`;
          if (stale.length) attwText += `, ${stale.length} stale allow-list entries`;
          if (unexpected.length || stale.length) failures.push(`attw ${p.manifest.name}`);
        }
      }
      console.log(
        `${p.manifest.name.padEnd(18)} ${kb(p.packedBytes).padStart(9)}  ${kb(unpacked).padStart(9)}  ${String(p.files.length).padStart(5)}  ${publintText.padEnd(18)}  ${attwText}`,
      );
    }
    // Details after the table: what the bytes are, every publint message and attw problem not allowed.
    for (const p of good) {
      const lines = [`contents: ${contents(p.files)}`];
      if (p.publint && !p.publint.error) {
        for (const type of ["errors", "warnings", "suggestions"])
          for (const message of p.publint[type]) lines.push(`publint ${type.slice(0, -1)}: ${message}`);
      }
      if (p.attw?.error) lines.push(`attw: ${p.attw.error}`);
      for (const problem of p.attw?.unexpected ?? []) lines.push(`attw: ${describeProblem(problem)}`);
      for (const entry of p.attw?.stale ?? []) lines.push(`attw-allow.json: ${entry} is listed but attw no longer reports it: remove it`);
      if (lines.length) console.log(`\n${p.manifest.name}:\n${indent(lines.join("\n"))}`);
    }
  } finally {
    cleanup();
  }
}

/**
 * What a tarball's bytes are: unpacked size and file count per top-level
 * folder, and the files whose content another file repeats (shipped twice).
 */
function contents(files) {
  const groups = new Map();
  for (const file of files) {
    const top = file.path.includes("/") ? `${file.path.slice(0, file.path.indexOf("/"))}/` : "(root files)";
    const group = groups.get(top) ?? { bytes: 0, count: 0 };
    group.bytes += file.size;
    group.count += 1;
    groups.set(top, group);
  }
  const total = files.reduce((sum, file) => sum + file.size, 0) || 1;
  const parts = [...groups]
    .sort(([, a], [, b]) => b.bytes - a.bytes)
    .map(([top, { bytes, count }]) => `${top} ${kb(bytes)} in ${count} files (${Math.round((bytes / total) * 100)}%)`);
  const seen = new Map();
  let repeatedBytes = 0;
  const repeated = [];
  for (const file of files) {
    if (file.size < 1024) continue;
    const hash = createHash("sha256").update(file.data).digest("hex");
    if (seen.has(hash)) {
      repeatedBytes += file.size;
      repeated.push(`${file.path} = ${seen.get(hash)}`);
    } else seen.set(hash, file.path);
  }
  const twice = repeated.length
    ? `; shipped twice (${kb(repeatedBytes)}): ${repeated.slice(0, 4).join(", ")}${repeated.length > 4 ? ", ..." : ""}`
    : "";
  return parts.join(", ") + twice;
}

/** The versions of every installed copy of `name` under `nodeModules` (nested copies included). */
function installedVersions(nodeModules, name, depth = 0) {
  const versions = [];
  if (depth > 8 || !existsSync(nodeModules)) return versions;
  const own = join(nodeModules, name, "package.json");
  if (existsSync(own)) versions.push(JSON.parse(readFileSync(own, "utf8")).version);
  for (const entry of readdirSync(nodeModules)) {
    const scoped = entry.startsWith("@") ? readdirSync(join(nodeModules, entry)).map((sub) => `${entry}/${sub}`) : [entry];
    for (const pkg of scoped) versions.push(...installedVersions(join(nodeModules, pkg, "node_modules"), name, depth + 1));
  }
  return [...new Set(versions)];
}

/** Type-checks scripts/pack-check/consumer/ts/usage.ts and every entry in two CommonJS TypeScript projects and an ES module one. */
async function typeCheck(consumer) {
  const installed = JSON.parse(readFileSync(join(consumer, "package.json"), "utf8")).dependencies;
  const { listEntries } = await import(join(here, "consumer", "entries.cjs"));
  const entries = listEntries(consumer).filter(({ name }) => name in installed);
  // Every entry as a namespace import, so a new entry is type-checked too.
  const entriesTs = [
    "// Generated by scripts/pack-check.mjs: every entry of every package.",
    ...entries.map(({ specifier }, i) => `import * as entry${i} from "${specifier}";`),
    `export const entries = [${entries.map((_, i) => `entry${i}`).join(", ")}];`,
    "",
  ].join("\n");
  // A CommonJS project under node16 rules (what attw's node16-cjs column models:
  // a require() must reach CommonJS declarations) and under nodenext (TypeScript's
  // model of a Node that can require() an ES module), and an ES module project.
  // Under node16 the .d.cts files, which re-export the ES module declarations,
  // are themselves an error TypeScript reports inside the package (TS1479);
  // skipLibCheck, the usual setting, hides that and the types still resolve
  // (usage.ts's @ts-expect-error lines fail if they were `any`). The other two
  // projects check the packages' declarations too.
  const projects = [
    ["TypeScript CommonJS project (module node16, skipLibCheck)", "ts-cjs-node16", { name: "ts-cjs", private: true }, "node16", true],
    ["TypeScript CommonJS project (module nodenext)", "ts-cjs-nodenext", { name: "ts-cjs", private: true }, "nodenext", false],
    ["TypeScript ES module project (module nodenext)", "ts-esm", { name: "ts-esm", private: true, type: "module" }, "nodenext", false],
  ];
  await pool(
    projects.map(([label, folder, manifest, module, skipLibCheck]) => async () => {
      const dir = join(consumer, folder);
      mkdirSync(dir);
      writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
      const tsconfig = JSON.parse(readFileSync(join(here, "consumer", "ts", "tsconfig.json"), "utf8"));
      Object.assign(tsconfig.compilerOptions, { module, moduleResolution: module, skipLibCheck });
      writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
      copyFileSync(join(here, "consumer", "ts", "usage.ts"), join(dir, "usage.ts"));
      writeFileSync(join(dir, "entries.ts"), entriesTs);
      const result = await run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], {
        cwd: dir,
        timeoutMs: TSC_MS,
      });
      if (result.status === 0) console.log(`ok   ${label}: tsc --noEmit, ${entries.length} entries`);
      else {
        const errors = result.stdout.split("\n").filter((line) => /error TS\d+/.test(line));
        fail(
          `${label}: tsc --noEmit (${errors.length} errors)`,
          errors.slice(0, 20).join("\n") + (errors.length > 20 ? `\n... ${errors.length - 20} more` : "") || result.stderr,
        );
      }
    }),
    2,
  );
}

if (!existsSync(join(root, "node_modules", ".bin", "attw"))) {
  console.error("pack-check: run pnpm install first (attw, publint and semver are devDependencies)");
  process.exit(1);
}
await main();
const unique = [...new Set(failures)];
console.log(
  `\npack check${lowest ? " (lowest)" : ""}: ${unique.length === 0 ? "all passed" : `${unique.length} failed: ${unique.join("; ")}`}`,
);
process.exit(unique.length === 0 ? 0 : 1);
