#!/usr/bin/env node
// The API reference in docs/api/: typedoc (with typedoc-plugin-markdown) over
// the entry points every published package declares in its package.json
// `exports`, as Markdown (reviewable in a diff, rendered by GitHub).
//
//   node scripts/api-docs.mjs           regenerate docs/api/
//   node scripts/api-docs.mjs --check   regenerate into a temporary folder and fail when
//                                       docs/api/ differs from it (the `pnpm test` step)
//
// Both fail on any typedoc warning: an exported declaration, or a method,
// accessor or constructor of an exported class or interface, without a doc
// comment (`validation.notDocumented`; properties are described by their
// type's comment in this code base, and are not required), a `{@link}` that
// resolves to nothing, a type in a public signature that is not exported
// (unless listed, with its reason, in INTENTIONALLY_NOT_EXPORTED below), and
// an entry module not named as it is imported (a `@module @x/<package>/<entry>`
// tag in the first doc comment of its file). The options are in typedoc.json
// at the root. Both also type-check the code of the guides (docs/server.md,
// docs/client.md, docs/migration.md): the `ts` blocks of each, in order, as
// one module (scripts/lib/guides.mjs; a ```ts not-compiled block is left out).
//
// A new entry in a package's `exports` is picked up by itself; a new package
// under packages/ is added to ORDER below.
//
// One TypeScript program covers every package's src/: each `@x/...`
// specifier maps to the source file behind its `exports` entry (`paths`), so
// nothing has to be built first and a type re-exported by another package
// links to the one page of the package that defines it. Output carries no
// source links, dates or revisions: the same sources give the same bytes.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  Application,
  ContainerReflection,
  DeclarationReflection,
  makeRecursiveVisitor,
  OptionDefaults,
  ParameterReflection,
  SignatureReflection,
  TypeParameterReflection,
} from "typedoc";
import ts from "typescript";
import { GUIDES, guideCode } from "./lib/guides.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const committed = join(root, "docs", "api");
const check = process.argv.includes("--check");

// The order decides which package a type re-exported by several belongs to:
// a definition's own package comes before every package that re-exports it.
const ORDER = [
  "mcp-v2607",
  "mcp-v2511",
  "mcp-v2506",
  "mcp-v2503",
  "mcp-v2411",
  "jsonrpc",
  "json-schema",
  "builders",
  "server",
  "client",
  "redis",
  "otel",
  "devtools",
  "create-x-mcp",
  "cli",
];

/**
 * Types that public signatures name but no entry exports, each accepted for
 * the reason given (every other such type fails the run).
 */
const INTENTIONALLY_NOT_EXPORTED = {
  // Local aliases of `Record<string, unknown>`; the page shows the name, its meaning is plain.
  "@x/server/src/objects.ts:JsonObject": "alias",
  "@x/client/src/options.ts:Result": "alias",
  // A mapped helper (params without `_meta`); the exported name is `RequestArguments`.
  "@x/client/src/options.ts:WithoutMeta": "helper",
  // `"elicit" | "sample" | "roots"`, read by the server only.
  "@x/server/src/mrtr/asks.ts:Kind": "internal",
  // `typeof JsonRpcErrorCode.ParseError` and the like: members of exported constants, to which typedoc cannot link.
  "@x/jsonrpc/src/index.ts:ParseError": "member",
  "@x/jsonrpc/src/index.ts:InvalidRequest": "member",
  "@x/mcp-v2607/src/constants.ts:InvalidParams": "member",
  // The HTTP transport's core on `NodeHandler.core`, and the writer a `LegacySession` is made with: internal to the server.
  "@x/server/src/transports/http/core.ts:HttpCore": "internal",
  "@x/server/src/revisions/initialize/session.ts:SessionLink": "internal",
  // What a transport hands `McpServer.inspect` with a bound message (a `LegacySession`): read only by its revision.
  "@x/server/src/revisions/revision.ts:Binding": "internal",
  // `Parameters<EventBus["publish"]>[1]`: the message type of `@x/server`'s `EventBus`.
  "@x/redis/src/bus.ts:Message": "alias",
};

function fail(message) {
  console.error(`api-docs: ${message}`);
  process.exit(1);
}

/** The `types` target of one `exports` entry, wherever the conditions put it. */
function typesOf(target) {
  if (typeof target === "string") return target.endsWith(".ts") ? target : undefined;
  if (target === null || typeof target !== "object") return undefined;
  if (typeof target.types === "string") return target.types;
  for (const value of Object.values(target)) {
    const found = typesOf(value);
    if (found) return found;
  }
  return undefined;
}

/** The source behind a declaration path of dist/: src/x.ts, or src/x.d.ts for a generated declaration file. */
function sourceOf(packageDir, declaration) {
  const base = declaration.replace(/^\.\/dist\//, "src/").replace(/\.d\.[cm]?ts$/, "");
  for (const candidate of [`${base}.ts`, `${base}.d.ts`]) {
    if (existsSync(join(packageDir, candidate))) return join(packageDir, candidate);
  }
  fail(`${relative(root, packageDir)}: no source for ${declaration} (looked for ${base}.ts and ${base}.d.ts)`);
}

/** Every published package and its entries: `[{ name, specifier, file }]`. */
function entries() {
  const dirs = readdirSync(join(root, "packages")).filter((dir) => existsSync(join(root, "packages", dir, "package.json")));
  const unknown = dirs.filter((dir) => !ORDER.includes(dir));
  if (unknown.length > 0) fail(`packages/${unknown.join(", packages/")} not in ORDER of scripts/api-docs.mjs: add it`);
  const result = [];
  for (const dir of ORDER.filter((d) => dirs.includes(d))) {
    const packageDir = join(root, "packages", dir);
    const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (subpath.includes("*") || subpath === "./package.json") continue;
      const declaration = typesOf(target);
      if (!declaration) fail(`${manifest.name}: exports["${subpath}"] has no types`);
      const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, "")}`;
      result.push({ name: manifest.name, specifier, file: sourceOf(packageDir, declaration) });
    }
  }
  return result;
}

/**
 * Types that a documented declaration refers to but no entry exports, in one
 * of `packages` (typedoc's own `notExported` check only looks at the
 * project's package, which here is the monorepo root): a user meets them in
 * a signature and cannot import them. `intentional` lists the accepted ones
 * as `<package>/<path>:<Name>`.
 */
function unexportedTypes(project, packages, intentional) {
  const found = new Map();
  const used = new Set();
  let owner = project;
  const visitor = makeRecursiveVisitor({
    reference(type) {
      const id = type.symbolId;
      if (type.reflection || type.externalUrl || type.isIntentionallyBroken() || !id || !packages.has(id.packageName)) return;
      const where = `${id.packageName}/${id.packagePath}:${type.qualifiedName}`;
      if (intentional.includes(where)) used.add(where);
      else if (!found.has(where)) found.set(where, owner.getFriendlyFullName());
    },
    reflection(type) {
      queue.push(type.declaration);
    },
  });
  const queue = [];
  const seen = new Set();
  const add = (items) => queue.push(...(items ?? []));
  for (; owner !== undefined; owner = queue.shift()) {
    if (seen.has(owner)) continue;
    seen.add(owner);
    if (owner instanceof ContainerReflection) add(owner.children);
    if (owner instanceof DeclarationReflection) {
      owner.type?.visit(visitor);
      add(owner.typeParameters);
      add(owner.signatures);
      add(owner.indexSignatures);
      add([owner.getSignature, owner.setSignature].filter(Boolean));
      for (const type of owner.implementedTypes ?? []) type.visit(visitor);
    }
    if (owner instanceof SignatureReflection) {
      add(owner.parameters);
      add(owner.typeParameters);
      owner.type?.visit(visitor);
    }
    if (owner instanceof ParameterReflection) owner.type?.visit(visitor);
    if (owner instanceof TypeParameterReflection) {
      owner.type?.visit(visitor);
      owner.default?.visit(visitor);
    }
  }
  const problems = [...found].map(([where, by]) => `${where}, referenced by ${by}, is not exported`);
  for (const entry of intentional) if (!used.has(entry)) problems.push(`intentionallyNotExported lists ${entry}, which nothing references`);
  return problems;
}

/**
 * Type-checks the `ts` blocks of each guide, concatenated in order as one ES
 * module, against the packages' sources (the same `paths` as the
 * reference); returns the problems as `docs/<guide>.md:<line>: <message>`.
 */
function checkGuides(work, paths) {
  const files = [];
  const lines = new Map(); // file -> guide line of each generated line
  for (const guide of GUIDES) {
    const { code, from } = guideCode(readFileSync(join(root, guide), "utf8"));
    if (code === "") return [`${guide}: no \`ts\` code block`];
    const file = join(work, `${guide.replace(/\W+/g, "-")}.mts`);
    writeFileSync(file, code);
    files.push(file);
    lines.set(file, { guide, from });
  }
  const config = join(work, "tsconfig.guides.json");
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(root, "tsconfig.base.json"),
      compilerOptions: { noEmit: true, typeRoots: [join(root, "node_modules", "@types")], paths },
      files,
    }),
  );
  const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const problems = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    const { guide, from } = lines.get(file);
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      problems.push(`${guide}:${from[line] ?? "?"}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    }
  }
  return problems;
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/**
 * Checks the relative links of each guide: the file must exist (in `docs/api`
 * as just generated, at `out`, for links into the reference) and a `#anchor`
 * must name a heading of it; returns the problems.
 */
function checkGuideLinks(out) {
  const problems = [];
  for (const guide of GUIDES) {
    const text = readFileSync(join(root, guide), "utf8");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split("#");
      const absolute = path === "" ? join(root, guide) : resolve(dirname(join(root, guide)), path);
      const file = absolute.startsWith(`${committed}/`) || absolute === committed ? join(out, relative(committed, absolute)) : absolute;
      if (!existsSync(file)) {
        problems.push(`${guide}: ${target}: no such file`);
        continue;
      }
      if (anchor === undefined || statSync(file).isDirectory()) continue;
      const headings = [...readFileSync(file, "utf8").matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]));
      if (!headings.includes(anchor)) problems.push(`${guide}: ${target}: no heading with that anchor`);
    }
  }
  return problems;
}

/** Relative path to bytes of every file under `dir`. */
function readTree(dir) {
  const files = new Map();
  const walk = (at) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path));
    }
  };
  if (existsSync(dir)) walk(dir);
  return files;
}

async function main() {
  const started = Date.now();
  const list = entries();
  const work = mkdtempSync(join(tmpdir(), "x-api-docs-"));
  try {
    const out = check ? join(work, "api") : committed;
    const paths = Object.fromEntries(list.map((e) => [e.specifier, [e.file]]));
    const guideProblems = checkGuides(work, paths);
    if (guideProblems.length > 0) fail(`the guides' code does not type-check:\n  ${guideProblems.join("\n  ")}`);
    const tsconfig = join(work, "tsconfig.json");
    writeFileSync(
      tsconfig,
      JSON.stringify({
        extends: join(root, "tsconfig.base.json"),
        compilerOptions: { noEmit: true, typeRoots: [join(root, "node_modules", "@types")], paths },
        files: list.map((e) => e.file),
      }),
    );
    const app = await Application.bootstrapWithPlugins({
      options: join(root, "typedoc.json"),
      tsconfig,
      entryPoints: list.map((e) => e.file),
      packagesRequiringDocumentation: [...new Set(list.map((e) => e.name))],
      // json-schema-to-typescript writes the array bounds of a schema as these tags in the generated types.
      blockTags: [...OptionDefaults.blockTags, "@minItems", "@maxItems"],
      out,
      logLevel: "Warn",
    });
    const project = await app.convert();
    if (!project) fail("typedoc could not convert the sources (see above)");
    const modules = new Map((project.children ?? []).map((child) => [child.name, child]));
    const misnamed = list.filter((e) => !modules.has(e.specifier));
    if (misnamed.length > 0) {
      fail(
        `entry modules not named as they are imported; add the tag to the first doc comment of each file:\n${misnamed
          .map((e) => `  ${relative(root, e.file)}: @module ${e.specifier}`)
          .join("\n")}`,
      );
    }
    app.validate(project);
    if (app.logger.hasErrors() || app.logger.hasWarnings()) fail("typedoc reported the problems above");
    const hidden = unexportedTypes(project, new Set(list.map((e) => e.name)), Object.keys(INTENTIONALLY_NOT_EXPORTED));
    if (hidden.length > 0) {
      fail(
        `types in public signatures that no entry exports (export them, or list them with a reason in INTENTIONALLY_NOT_EXPORTED of scripts/api-docs.mjs):\n  ${hidden.join("\n  ")}`,
      );
    }
    if (!check) rmSync(committed, { recursive: true, force: true });
    await app.generateOutputs(project);
    if (app.logger.hasErrors() || app.logger.hasWarnings()) fail("typedoc reported the problems above");
    const linkProblems = checkGuideLinks(out);
    if (linkProblems.length > 0) fail(`the guides link to what is not there:\n  ${linkProblems.join("\n  ")}`);

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (!check) {
      console.log(`api-docs: ${list.length} entry points of ${new Set(list.map((e) => e.name)).size} packages -> docs/api (${seconds}s)`);
      return;
    }
    const want = readTree(out);
    const have = readTree(committed);
    const differ = [...new Set([...want.keys(), ...have.keys()])]
      .sort()
      .filter((path) => !want.has(path) || !have.has(path) || !want.get(path).equals(have.get(path)))
      .map((path) => `  ${path}${want.has(path) ? (have.has(path) ? "" : " (missing)") : " (stale)"}`);
    if (differ.length > 0) {
      fail(
        `docs/api is out of date in ${differ.length} file(s); run \`node scripts/api-docs.mjs\` and commit:\n${differ.slice(0, 20).join("\n")}`,
      );
    }
    console.log(`api-docs: docs/api up to date (${want.size} files, ${list.length} entry points, ${seconds}s)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => fail(error.stack ?? String(error)));
