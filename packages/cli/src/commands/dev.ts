/**
 * `x-mcp dev <server file> [--port N]`: serves a TypeScript or JavaScript
 * server file over Streamable HTTP on 127.0.0.1, restarting it whenever it
 * (or a file it imports) changes. The file default-exports an `McpServer`,
 * or a function returning one; `tsx watch` runs `dev-runner` on it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Command, Io } from "../io.js";
import { ExitCode } from "../main.js";
import { parseReady } from "./dev-ready.js";

const USAGE = `usage: x-mcp dev <server file> [--port N] [--devtools]
serves the file's default export (an McpServer, or a function returning one)
over Streamable HTTP on 127.0.0.1 (port 3000 unless --port; 0 picks a free one),
and restarts it when the file or one it imports changes; Ctrl-C stops it.
--devtools also opens the devtools page of @x/devtools on 127.0.0.1 (its URL,
with a random token, is printed once and stays the same across restarts)`;

/** The Inspector, opened on `url` (its web client, Streamable HTTP). */
export const inspectorCommand = (url: string): string => `npx @modelcontextprotocol/inspector --transport http --server-url ${url}`;

interface Options {
  readonly file: string;
  readonly port: number;
  readonly devtools: boolean;
}

/** The file and port from `args`, or the reason they are wrong. */
function parse(args: readonly string[], cwd: string): Options | string {
  let file: string | undefined;
  let port = 3000;
  let devtools = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--devtools") {
      devtools = true;
      continue;
    }
    const value = arg === "--port" ? args[++i] : arg.startsWith("--port=") ? arg.slice(7) : undefined;
    if (arg === "--port" || arg.startsWith("--port=")) {
      if (value === undefined || !/^\d{1,5}$/.test(value) || Number(value) > 65535) {
        return `--port takes a port number (0 to 65535), not ${JSON.stringify(value ?? "")}`;
      }
      port = Number(value);
    } else if (arg.startsWith("-")) {
      return `unknown option ${JSON.stringify(arg)}`;
    } else if (file === undefined) {
      file = resolve(cwd, arg);
    } else {
      return `one server file only (got ${JSON.stringify(arg)} too)`;
    }
  }
  if (file === undefined) return "no server file given";
  if (!existsSync(file) || !statSync(file).isFile()) return `no such file: ${file}`;
  return { file, port, devtools };
}

/** A port free on 127.0.0.1 now, so that every restart binds the same one. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? done(address.port) : fail(new Error("no port"))));
    });
  });
}

/** The runner shipped beside this module: dist/dev-runner.js once built, src/dev-runner.ts in the repository. */
function runnerPath(): string {
  const built = fileURLToPath(new URL("../dev-runner.js", import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL("../dev-runner.ts", import.meta.url));
}

/** Signals `child`'s whole process group (tsx's watcher and the server under it); false once it is gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-child.pid!, signal);
    return true;
  } catch {
    return false;
  }
}

/** Forwards `child`'s output to `io`, turning each announcement of the runner into a line for the user. */
function report(child: ChildProcess, io: Io): void {
  let starts = 0;
  createInterface({ input: child.stdout!, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    const ready = parseReady(line);
    if (!ready) {
      io.stdout.write(`${line}\n`);
    } else if (starts++ === 0) {
      io.stdout.write(
        `x-mcp dev: serving ${ready.url} (pid ${ready.pid})\n` + `x-mcp dev: open the Inspector with: ${inspectorCommand(ready.url)}\n`,
      );
      if (ready.devtools) io.stdout.write(`x-mcp dev: devtools: ${ready.devtools}\n`);
    } else {
      io.stdout.write(`x-mcp dev: restarted (${starts - 1}), serving ${ready.url} (pid ${ready.pid})\n`);
    }
  });
  child.stderr!.pipe(io.stderr, { end: false });
}

export const run: Command = async (args, io) => {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${USAGE}\n`);
    return ExitCode.Ok;
  }
  const options = parse(args, io.cwd);
  if (typeof options === "string") {
    io.stderr.write(`x-mcp dev: ${options}\n${USAGE}\n`);
    return ExitCode.Usage;
  }
  const port = options.port === 0 ? await freePort() : options.port;
  // Chosen once, so that the page's URL outlives every restart (and is printed once).
  const devtools = options.devtools
    ? { X_MCP_DEV_DEVTOOLS_PORT: String(await freePort()), X_MCP_DEV_DEVTOOLS_TOKEN: randomBytes(32).toString("base64url") }
    : {};
  const tsx = createRequire(import.meta.url).resolve("tsx/cli");
  // --include: the file is watched before the first start, so an edit restarts it even when it
  // failed to load (tsx learns of the files the server imports as they load).
  // Its own process group, so that stopping kills the watcher and the server under it together.
  const watch = ["watch", "--clear-screen=false", "--include", options.file, runnerPath()];
  const child = spawn(process.execPath, [tsx, ...watch], {
    cwd: io.cwd,
    env: { ...io.env, X_MCP_DEV: "1", X_MCP_DEV_FILE: options.file, X_MCP_DEV_PORT: String(port), ...devtools },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  report(child, io);
  let stopping = false;
  const stop = () => {
    stopping = true;
    signalGroup(child, "SIGTERM");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    const code = await new Promise<number | null>((done, fail) => {
      child.once("error", fail);
      child.once("exit", (exitCode) => done(exitCode));
    });
    return stopping || code === 0 ? ExitCode.Ok : ExitCode.Refused;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    // tsx waits for its server to exit before it does; anything of the group still there is killed.
    signalGroup(child, "SIGKILL");
  }
};
