/**
 * Running `x-mcp` as a user does: the built bin in a child process, against
 * the example server (examples/src/server.ts through tsx) over stdio or HTTP.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
export const EXAMPLE_SERVER = fileURLToPath(new URL("../../../examples/src/server.ts", import.meta.url));
/** tsx's loader: the example server runs from its TypeScript source. */
export const TSX = import.meta.resolve("tsx");

/** The example server's command line over stdio, after `--`. */
export const STDIO = ["--", process.execPath, "--import", TSX, EXAMPLE_SERVER, "--stdio"];

/** Fails clearly when the bin has not been built (`turbo run test` builds it first). */
export function assertBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build @x/cli first (turbo run build --filter=@x/cli...)`);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `x-mcp args` to its end, with `input` on stdin (then closed) and `env` added. */
export function x(args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...options.env } });
  return finished(child, options.input);
}

/** What `child` printed, once it has exited. */
export function finished(child: ChildProcess, input?: string): Promise<Run> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin?.end(input ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Resolves with the first match of `pattern` in what `child` writes on stderr. */
export function stderrMatch(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = pattern.exec(seen);
      if (match) {
        child.stderr?.off("data", onData);
        resolve(match);
      }
    };
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited (${code}) before ${pattern}: ${seen}`)));
  });
}

/** The example server over HTTP on a free loopback port: its URL, and a stop by PID. */
export async function startExampleHttp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ["--import", TSX, EXAMPLE_SERVER, "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const [, url] = await stderrMatch(child, /listening on (http:\/\/\S+)/);
  return {
    url: url!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        process.kill(child.pid!, "SIGTERM");
      }),
  };
}
