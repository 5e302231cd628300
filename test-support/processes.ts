/**
 * Child processes of the multi-process tests: a free loopback port, a
 * fixture server that announces `listening on <url>` on stderr, and
 * stopping a process by its PID with a bounded wait.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** A fixture server process and what it wrote on stderr so far. */
export interface Listening {
  child: ChildProcess;
  /** The URL it printed (`listening on <url>`). */
  url: string;
  /** Everything it wrote on stderr (and on stdout, when started with a `ready` pattern) since it started. */
  stderr(): string;
}

/**
 * Runs `node <script>` with `env` added, and resolves once it printed
 * `listening on <url>` on stderr (within `timeoutMs`).
 * @throws (rejects) when it exits first or does not listen in time, with what it printed.
 */
export function startListening(script: string, env: Record<string, string>, timeoutMs = 20_000): Promise<Listening> {
  return startCommandListening(process.execPath, [script], { env, timeoutMs });
}

/**
 * Runs `command args` (another runtime's binary, for instance) in `cwd` with
 * `env` added, and resolves once it printed `listening on <url>` on stderr
 * (within `timeoutMs`, default 20 s). A program that announces itself
 * otherwise (a framework's own server) is given `ready`: a pattern matched
 * on stdout and stderr together, whose first group is the URL.
 * @throws (rejects) when it cannot start, exits first or does not listen in time, with what it printed.
 */
export function startCommandListening(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number; ready?: RegExp } = {},
): Promise<Listening> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const ready = options.ready ?? /listening on (\S+)/;
  const script = [command, ...args].join(" ");
  const stdout = options.ready ? "pipe" : "ignore";
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", stdout, "pipe"] });
  let seen = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    seen += chunk;
  });
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    seen += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${script} did not listen within ${timeoutMs} ms: ${seen}`));
    }, timeoutMs);
    const onData = () => {
      const m = ready.exec(seen);
      if (!m) return;
      clearTimeout(timer);
      child.stderr!.off("data", onData);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      resolve({ child, url: m[1]!, stderr: () => seen });
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it listened: ${seen}`));
    };
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${script} could not start: ${error.message}`));
    });
    child.stderr!.on("data", onData);
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
}

/**
 * Stops `child` by its PID with `signal` and waits for it to exit; a
 * process still alive after `graceMs` gets SIGKILL.
 */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM", graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(child.pid, signal);
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGKILL");
  }, graceMs);
  await exited;
  clearTimeout(timer);
}
