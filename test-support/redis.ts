/**
 * redis-server for the tests that need Redis: Debian's redis-server
 * (installed when missing, see debian.ts), on a free loopback port, with
 * no persistence (`--save '' --appendonly no`), in the foreground, in its
 * own temporary folder; stopped, killed and started again by its PID, on
 * the same port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { debianBinary } from "./debian.js";
import { freePort, stopProcess } from "./processes.js";

/** A redis-server of a test. */
export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** The running process, or `undefined` while it is stopped. */
  readonly child: ChildProcess | undefined;
  /** Kills it (SIGKILL, as a crash) and waits for it to be gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved) and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it (SIGTERM, bounded) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a redis-server and resolves once it accepts connections (within about 10 s).
 * @throws (rejects) when redis-server is missing and cannot be installed, or does not start.
 */
export async function startRedis(): Promise<RedisServer> {
  const binary = debianBinary("redis-server", "redis-server");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "x-mcp-redis-"));
  let child: ChildProcess | undefined;
  const launch = (): Promise<void> => {
    const process_ = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", dir],
      { stdio: ["ignore", "pipe", "pipe"], cwd: dir },
    );
    child = process_;
    let seen = "";
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        process_.kill("SIGKILL");
        reject(new Error(`redis-server did not start on port ${port} within 10 s: ${seen}`));
      }, 10_000);
      const onData = (chunk: Buffer) => {
        seen += String(chunk);
        if (!seen.includes("Ready to accept connections")) return;
        clearTimeout(timer);
        process_.stdout!.off("data", onData);
        process_.off("exit", onExit);
        resolve();
      };
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code} before it was ready: ${seen}`));
      };
      process_.stdout!.on("data", onData);
      process_.stderr!.on("data", (chunk: Buffer) => {
        seen += String(chunk);
      });
      process_.once("exit", onExit);
    });
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get child() {
      return child;
    },
    async kill() {
      if (child) await stopProcess(child, "SIGKILL");
      child = undefined;
    },
    async start() {
      if (child) throw new Error("redis-server is already running");
      // The port was just released by the killed process; a bounded retry covers a slow release.
      for (let attempt = 1; ; attempt++) {
        try {
          await launch();
          return;
        } catch (error) {
          child = undefined;
          if (attempt >= 5) throw error;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    },
    async stop() {
      if (child) await stopProcess(child);
      child = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
