// The three templates as a user gets them: the workspace's @x packages packed
// (pnpm pack, as on publish), create-x-mcp's built bin scaffolding each
// template into a fresh folder outside the repository with
// --local-tarballs, `npm install` from those tarballs, and the template's own
// `npm test`, which starts the real server or client.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..");
const repoRoot = join(packageDir, "..", "..");
const bin = join(packageDir, "dist", "bin.js");

// npm must not read the settings pnpm passes to the scripts it runs (npm_config_*), but keeps the registry and CA.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(npm|pnpm)_/i.test(key) || ["npm_config_registry", "npm_config_cafile"].includes(key.toLowerCase()),
  ),
) as NodeJS.ProcessEnv;
Object.assign(env, { npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" });

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (the suite's hang guard bounds it) and collects its output. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdin.end(options.input ?? "");
    child.on("error", (error) => {
      stderr += String(error);
    });
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** pnpm as the workspace runs it: the pnpm running this test if any, else the version of packageManager through npx. */
function pnpm(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm(\.c?js)?$/.test(execPath)) return [process.execPath, [execPath]];
  const { packageManager } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { packageManager: string };
  return ["npx", ["-y", packageManager]];
}

let tmp: string;
let tarballs: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "create-x-mcp-"));
  tarballs = join(tmp, "tarballs");
  mkdirSync(tarballs);
  const [command, args] = pnpm();
  const packed = await run(
    command,
    [
      ...args,
      "-r",
      "--filter",
      "@x/server...",
      "--filter",
      "@x/client...",
      "--filter",
      "create-x-mcp",
      "pack",
      "--pack-destination",
      tarballs,
    ],
    { cwd: repoRoot, env: process.env },
  );
  expect(packed.status, packed.stderr).toBe(0);
  expect(readdirSync(tarballs)).toEqual(expect.arrayContaining(["x-server-0.1.0.tgz", "x-client-0.1.0.tgz"]));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe.each(["http", "stdio", "client"])("the %s template", (template) => {
  it("installs from the tarballs and passes its own test", async () => {
    const created = await run(process.execPath, [bin, template, "--template", template, "--local-tarballs", tarballs], { cwd: tmp });
    expect(created.status, created.stderr).toBe(0);
    const project = join(tmp, template);
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(manifest.name).toBe(template);
    for (const spec of Object.values({ ...manifest.dependencies, ...manifest.devDependencies })) {
      expect(spec).toMatch(/^file:.*\.tgz$/);
    }
    expect(readdirSync(project)).toContain(".gitignore");

    const install = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project });
    expect(install.status, install.stderr).toBe(0);
    const test = await run("npm", ["test"], { cwd: project });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toMatch(/^# fail 0$/m);
  });
});

describe("the published package", () => {
  it("carries its templates and names the @x versions it was built with", async () => {
    const [packed] = readdirSync(tarballs).filter((name) => name.startsWith("create-x-mcp-"));
    const unpacked = join(tmp, "unpacked");
    mkdirSync(unpacked);
    const untar = await run("tar", ["xzf", join(tarballs, packed!), "-C", unpacked], { cwd: tmp });
    expect(untar.status, untar.stderr).toBe(0);
    const created = await run(process.execPath, [join(unpacked, "package", "dist", "bin.js"), "from-registry", "--template", "client"], {
      cwd: tmp,
    });
    expect(created.status, created.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(tmp, "from-registry", "package.json"), "utf8"));
    const version = (name: string) => JSON.parse(readFileSync(join(repoRoot, "packages", name, "package.json"), "utf8")).version;
    expect(manifest.dependencies).toEqual({ "@x/client": `^${version("client")}` });
    expect(manifest.devDependencies).toEqual({ "@x/server": `^${version("server")}` });
    expect(manifest.overrides).toBeUndefined();
  });
});

describe("on a terminal", () => {
  it("asks for the template (again after a wrong answer) and the folder", async () => {
    // util-linux's `script` gives the command a pseudo-terminal; each answer is written once its question is shown.
    const child = spawn("script", ["-qfec", `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)}`, "/dev/null"], {
      cwd: tmp,
      env,
      stdio: ["pipe", "pipe", "inherit"],
    });
    let output = "";
    const waiters: { text: string; resolve: () => void }[] = [];
    child.stdout.on("data", (chunk) => {
      output += chunk;
      for (const waiter of waiters.splice(0)) {
        if (output.includes(waiter.text)) waiter.resolve();
        else waiters.push(waiter);
      }
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    const shown = (text: string) =>
      output.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ text, resolve }));
    await shown("Template [");
    child.stdin.write("grpc\n");
    await shown('No template "grpc"');
    child.stdin.write("2\n");
    await shown("Folder [my-mcp-stdio]");
    child.stdin.write("asked\n");
    expect(await closed, output).toBe(0);
    expect(output).toContain("Created");
    expect(readFileSync(join(tmp, "asked", "server.js"), "utf8")).toContain("serveStdio");
  });
});

describe("refusals", () => {
  it("refuses a folder that is not empty, and writes nothing there", async () => {
    const dir = join(tmp, "taken");
    mkdirSync(dir);
    writeFileSync(join(dir, "keep.txt"), "mine");
    const result = await run(process.execPath, [bin, dir, "--template", "http"], { cwd: tmp });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("is not an empty folder");
    expect(readdirSync(dir)).toEqual(["keep.txt"]);
  });

  it("refuses an unknown template, an unknown option and a missing --template without a terminal", async () => {
    const unknown = await run(process.execPath, [bin, join(tmp, "a"), "--template", "grpc"], { cwd: tmp });
    expect([unknown.status, unknown.stderr]).toEqual([2, expect.stringContaining('no template "grpc"')]);
    const option = await run(process.execPath, [bin, join(tmp, "b"), "--templte", "http"], { cwd: tmp });
    expect([option.status, option.stderr]).toEqual([2, expect.stringContaining("--templte")]);
    const noTerminal = await run(process.execPath, [bin, join(tmp, "c")], { cwd: tmp });
    expect([noTerminal.status, noTerminal.stderr]).toEqual([2, expect.stringContaining("not a terminal")]);
    expect(readdirSync(tmp).filter((name) => ["a", "b", "c"].includes(name))).toEqual([]);
  });

  it("refuses --local-tarballs without the tarball a template needs", async () => {
    const only = join(tmp, "only-server");
    mkdirSync(only);
    const [server] = readdirSync(tarballs).filter((name) => name.startsWith("x-server-"));
    writeFileSync(join(only, server!), readFileSync(join(tarballs, server!)));
    const result = await run(process.execPath, [bin, join(tmp, "d"), "--template", "client", "--local-tarballs", only], { cwd: tmp });
    expect([result.status, result.stderr]).toEqual([1, expect.stringContaining("no tarball of @x/client")]);
  });
});
