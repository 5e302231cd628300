// `create-x-mcp [dir] [--template http|stdio|client] [--local-tarballs <dir>]`:
// copies a template into a new folder and names the project after it.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { packageNameOf } from "./tarball.js";

/** The templates, each a folder of templates/, with the line the prompt and the help show. */
export const TEMPLATES = {
  http: "an MCP server over Streamable HTTP on 127.0.0.1 (@x/server), one tool, a test",
  stdio: "an MCP server over stdio that a client starts as a process (@x/server), one tool, a test",
  client: "an MCP client (@x/client) that lists and calls a server's tools, a test",
} as const;
export type TemplateName = keyof typeof TEMPLATES;

/** Exit codes: 0 created; 1 refused (the folder is not empty, a tarball is missing); 2 a usage error. */
export const EXIT = { ok: 0, refused: 1, usage: 2 } as const;

export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
}

const USAGE = `Usage: npm create x-mcp@latest [dir] -- [--template http|stdio|client]
       create-x-mcp [dir] [--template http|stdio|client] [--local-tarballs <dir>]

Templates:
${Object.entries(TEMPLATES)
  .map(([name, line]) => `  ${name.padEnd(7)} ${line}`)
  .join("\n")}

Without --template or dir, asks for them when stdin is a terminal.
--local-tarballs <dir>  take every @x package from the tarballs in <dir> (npm pack or
                        pnpm pack output) instead of the registry: for testing unreleased code.
Exit codes: 0 created, 1 refused (folder not empty, tarball missing), 2 usage error.
`;

const here = fileURLToPath(new URL(".", import.meta.url));
const templatesDir = join(here, "..", "templates");
// Template depth is two folders; the bound only guards against a link loop.
const MAX_DEPTH = 8;

/** Runs the command on `argv` (without node and the script); resolves to the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`create-x-mcp: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (positionals.length > 1) {
    io.stderr.write(`create-x-mcp: one folder at most, got ${positionals.join(" ")}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const interactive = io.stdin.isTTY === true;
  let template = values.template;
  let dir = positionals[0];
  if ((template === undefined || dir === undefined) && !interactive) {
    io.stderr.write(`create-x-mcp: give the folder and --template when stdin is not a terminal\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (template === undefined || dir === undefined) {
    const asked = await ask(io, template, dir);
    template = asked.template;
    dir = asked.dir;
  }
  if (!isTemplate(template)) {
    io.stderr.write(`create-x-mcp: no template "${template}": one of ${Object.keys(TEMPLATES).join(", ")}\n`);
    return EXIT.usage;
  }
  const target = resolve(io.cwd, dir);
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    io.stderr.write(`create-x-mcp: ${target} exists and is not an empty folder; choose a new one\n`);
    return EXIT.refused;
  }
  let tarballs: Map<string, string> | undefined;
  if (values["local-tarballs"] !== undefined) {
    try {
      tarballs = readTarballs(resolve(io.cwd, values["local-tarballs"]));
    } catch (error) {
      io.stderr.write(`create-x-mcp: --local-tarballs: ${(error as Error).message}\n`);
      return EXIT.refused;
    }
  }
  const manifestPath = join(templatesDir, template, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  try {
    pinOurPackages(manifest, tarballs);
  } catch (error) {
    io.stderr.write(`create-x-mcp: ${(error as Error).message}\n`);
    return EXIT.refused;
  }
  manifest.name = projectName(target);
  copyTree(join(templatesDir, template), target, 0);
  writeFileSync(join(target, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const shown = dir.includes(" ") ? JSON.stringify(dir) : dir;
  io.stdout.write(
    `Created ${target} (${template}: ${TEMPLATES[template]}).\n\nNext:\n  cd ${shown}\n  npm install\n  npm test\n  npm start\n`,
  );
  return EXIT.ok;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      template: { type: "string", short: "t" },
      "local-tarballs": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

const isTemplate = (name: string): name is TemplateName => Object.hasOwn(TEMPLATES, name);

async function ask(io: Io, template: string | undefined, dir: string | undefined): Promise<{ template: string; dir: string }> {
  const rl = createInterface({ input: io.stdin, output: io.stdout });
  try {
    const names = Object.keys(TEMPLATES) as TemplateName[];
    if (template === undefined) {
      io.stdout.write(`Templates:\n${names.map((name, i) => `  ${i + 1}. ${name.padEnd(7)} ${TEMPLATES[name]}`).join("\n")}\n`);
      // A wrong answer is asked again; the bound keeps a stream of bad answers from looping forever.
      for (let tries = 0; tries < 5 && template === undefined; tries++) {
        const answer = (await rl.question(`Template [1-${names.length} or name, default http]: `)).trim();
        const chosen = answer === "" ? "http" : (names[Number(answer) - 1] ?? answer);
        if (isTemplate(chosen)) template = chosen;
        else io.stdout.write(`No template "${answer}".\n`);
      }
      template ??= "";
    }
    if (dir === undefined) {
      const fallback = `my-mcp-${template || "app"}`;
      dir = (await rl.question(`Folder [${fallback}]: `)).trim() || fallback;
    }
    return { template, dir };
  } finally {
    rl.close();
  }
}

interface Manifest {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
}

/**
 * Gives every `@x/*` dependency of a template its range: `^` and the version
 * of that package when this one was built (dist/versions.json), or a `file:`
 * tarball; with tarballs, npm `overrides` send every other `@x/*` package
 * the tree reaches to its tarball too.
 */
function pinOurPackages(manifest: Manifest, tarballs: Map<string, string> | undefined): void {
  const versions = JSON.parse(readFileSync(join(here, "versions.json"), "utf8")) as Record<string, string>;
  for (const field of ["dependencies", "devDependencies"] as const) {
    const deps = manifest[field] ?? {};
    for (const name of Object.keys(deps)) {
      if (!name.startsWith("@x/")) continue;
      const spec = tarballs ? tarballs.get(name) && `file:${tarballs.get(name)}` : versions[name];
      if (!spec) throw new Error(tarballs ? `no tarball of ${name} among --local-tarballs` : `no version of ${name} in this build`);
      deps[name] = spec;
    }
  }
  // npm accepts an override of a direct dependency only when both are the same spec, as here.
  if (tarballs) manifest.overrides = Object.fromEntries([...tarballs].map(([name, path]) => [name, `file:${path}`]));
}

/** `@x/*` package name -> absolute path of its tarball, for every .tgz in `dir`. */
function readTarballs(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith(".tgz")) continue;
    const name = packageNameOf(join(dir, file));
    if (!name.startsWith("@x/")) continue;
    if (found.has(name)) throw new Error(`two tarballs of ${name} in ${dir}`);
    found.set(name, join(dir, file));
  }
  if (found.size === 0) throw new Error(`no @x/* tarball in ${dir}`);
  return found;
}

/** A valid npm package name from the folder's name. */
function projectName(target: string): string {
  const name = basename(target)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+/, "");
  return name || "mcp-project";
}

/** Copies a template folder; `_gitignore` becomes `.gitignore` (npm leaves a .gitignore out of a package). */
function copyTree(from: string, to: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new Error(`${from}: templates nest at most ${MAX_DEPTH} folders`);
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const dest = join(to, entry.name === "_gitignore" ? ".gitignore" : entry.name);
    if (entry.isDirectory()) copyTree(source, dest, depth + 1);
    else if (entry.isFile()) writeFileSync(dest, readFileSync(source));
  }
}
