/**
 * The process `x-mcp dev` runs under `tsx watch`: imports the server file
 * (X_MCP_DEV_FILE), serves its default export over Streamable HTTP on
 * 127.0.0.1:X_MCP_DEV_PORT with @x/server's `listen`, and announces the URL.
 * A restart is a new process: `tsx watch` ends this one first.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as Server from "@x/server";
import { readyLine } from "./commands/dev-ready.js";

/** The two formats a package of this repository ships: its ES module, and its CommonJS build. */
type Format = "import" | "require";

/**
 * `name` in `format`, resolved from `file`'s folder (then from this
 * package's, when `fallback`). The page must come in the format of the
 * server it reads: an ES module's `McpServer` is another class than the
 * CommonJS one, and its private fields are not the other's.
 */
async function load(file: string, name: string, format: Format, fallback = false): Promise<unknown> {
  const requires = [createRequire(file), ...(fallback ? [createRequire(import.meta.url)] : [])];
  for (const require of requires) {
    let manifest: string;
    try {
      manifest = require.resolve(`${name}/package.json`);
    } catch {
      continue;
    }
    if (format === "require") return require(name);
    const exports = JSON.parse(readFileSync(manifest, "utf8")).exports["."];
    const entry: string = typeof exports.import === "string" ? exports.import : exports.import.default;
    return import(pathToFileURL(join(dirname(manifest), entry)).href);
  }
  return undefined;
}

/**
 * The copies of @x/server the server file may hold, resolved from its folder:
 * the ES module, and the one `require` gives (tsx compiles a file without
 * `"type": "module"` to CommonJS, and its own require hook makes that copy).
 */
async function serverPackages(file: string): Promise<{ format: Format; copy: typeof Server }[]> {
  const formats: Format[] = ["import", "require"];
  const copies = await Promise.all(formats.map((format) => load(file, "@x/server", format)));
  if (copies.includes(undefined)) throw new Error(`@x/server is not installed where ${file} is (npm install @x/server)`);
  return formats.map((format, i) => ({ format, copy: copies[i] as typeof Server }));
}

/**
 * The module's default export: a file tsx compiles to CommonJS (no
 * `"type": "module"` in its package.json) arrives as `{ default: exports }`.
 */
function defaultExport(module: { default?: unknown }): unknown {
  const value = module.default;
  const commonJs = typeof value === "object" && value !== null && "__esModule" in value && "default" in value;
  return commonJs ? (value as { default: unknown }).default : value;
}

/**
 * Under `x-mcp dev --devtools`: attaches @x/devtools (resolved from the server
 * file's folder, else from this package's), in the server's `format`, on the
 * port and token the parent chose; returns the page's URL. Without the flag:
 * `undefined`.
 * @throws Error when @x/devtools is not installed.
 */
async function attachPage(file: string, server: unknown, format: Format): Promise<string | undefined> {
  const port = process.env.X_MCP_DEV_DEVTOOLS_PORT;
  const token = process.env.X_MCP_DEV_DEVTOOLS_TOKEN;
  if (!port || !token) return undefined;
  const devtools = (await load(file, "@x/devtools", format, true)) as Devtools | undefined;
  if (!devtools) throw new Error(`--devtools needs @x/devtools installed where ${file} is (npm install -D @x/devtools)`);
  const page = await devtools.attachDevtools(server, { port: Number(port), token, print: false });
  return page.url;
}

/** What this runner uses of @x/devtools (loaded only under `--devtools`). */
interface Devtools {
  attachDevtools(server: unknown, options: { port: number; token: string; print: false }): Promise<{ url: string }>;
}

async function serve(): Promise<void> {
  const file = process.env.X_MCP_DEV_FILE;
  const port = Number(process.env.X_MCP_DEV_PORT);
  if (!file || !Number.isInteger(port)) throw new Error("run by x-mcp dev only (X_MCP_DEV_FILE, X_MCP_DEV_PORT)");
  const exported = defaultExport(await import(pathToFileURL(file).href));
  const server: unknown = typeof exported === "function" ? await exported() : exported;
  // Served by the copy its McpServer class comes from: another copy's `listen` would not know it.
  const own = (await serverPackages(file)).find(({ copy }) => server instanceof copy.McpServer);
  if (!own) throw new TypeError(`${file} must default-export an McpServer, or a function returning one`);
  const running = await own.copy.listen(server as Server.McpServer, { host: "127.0.0.1", port });
  // No grace on a restart or Ctrl-C: the next version should bind the port at once.
  const stop = () => void running.close(0).finally(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  const devtools = await attachPage(file, server, own.format);
  process.stdout.write(`${readyLine({ url: running.url, pid: process.pid, devtools })}\n`);
}

serve().catch((error: unknown) => {
  process.stderr.write(`x-mcp dev: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
