/**
 * The fixture server as a child process: started with --expose-gc and an IPC
 * channel (for memory questions), on 127.0.0.1 with a free port or on stdio,
 * and stopped by its PID.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { LIMITS, type Transport } from "./config.js";

/** The built fixture (this module runs from src/ under vitest and from dist/ otherwise). */
export const FIXTURE = fileURLToPath(new URL("../dist/fixture.js", import.meta.url));

/** The server's own view of its memory, in bytes. */
export interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** True when a GC ran just before. */
  gced: boolean;
}

/** A running fixture process. */
export class FixtureProcess {
  readonly child: ChildProcess;
  readonly transport: Transport;
  /** The endpoint URL (HTTP only). */
  url = "";
  /** The listening port (HTTP only). */
  port = 0;
  /** stdio only: the loopback port where the fixture serves fresh stdio connections (`fixture.ts`); 0 until announced. */
  sidePort = 0;
  #sideReady: (() => void) | undefined;
  /** Set once the process has exited, with its code or signal. */
  exited: string | undefined;
  #stderr = "";
  #seq = 0;
  #memoryWaiters = new Map<number, (m: Memory) => void>();

  private constructor(child: ChildProcess, transport: Transport) {
    this.child = child;
    this.transport = transport;
    child.on("exit", (code, signal) => {
      this.exited = signal ?? String(code);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      // A bounded tail, for the report when the server dies.
      this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-4000);
    });
    child.on("message", (message: { type?: string; seq?: number; usage?: NodeJS.MemoryUsage; gced?: boolean; port?: number }) => {
      if (message?.type === "side" && typeof message.port === "number") {
        this.sidePort = message.port;
        this.#sideReady?.();
        return;
      }
      if (message?.type !== "memory" || message.seq === undefined || !message.usage) return;
      this.#memoryWaiters.get(message.seq)?.({ ...message.usage, gced: Boolean(message.gced) });
      this.#memoryWaiters.delete(message.seq);
    });
  }

  /** Starts the fixture for `transport`; resolves once it serves (HTTP: once it printed its URL). */
  static async start(transport: Transport, extraArgs: string[] = []): Promise<FixtureProcess> {
    const args = ["--expose-gc", FIXTURE, ...(transport === "stdio" ? ["--stdio"] : []), ...extraArgs];
    const child = spawn(process.execPath, args, {
      stdio: [transport === "stdio" ? "pipe" : "ignore", "pipe", "pipe", "ipc"],
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    const fixture = new FixtureProcess(child, transport);
    if (transport === "stdio") {
      // The side port is announced before stdin is served; a memory round trip then proves the process answers.
      const side = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the fixture announced no side port within ${LIMITS.startTimeoutMs} ms`)),
          LIMITS.startTimeoutMs,
        );
        fixture.#sideReady = () => {
          clearTimeout(timer);
          resolve();
        };
        if (fixture.sidePort !== 0) fixture.#sideReady();
      });
      await side;
      await fixture.memory(false);
      return fixture;
    }
    await new Promise<void>((resolve, reject) => {
      let text = "";
      const timer = setTimeout(
        () => reject(new Error(`the fixture did not start within ${LIMITS.startTimeoutMs} ms`)),
        LIMITS.startTimeoutMs,
      );
      const onData = (chunk: Buffer) => {
        text += chunk.toString("utf8");
        const nl = text.indexOf("\n");
        if (nl === -1) return;
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        const url = new URL((JSON.parse(text.slice(0, nl)) as { url: string }).url);
        fixture.url = url.href;
        fixture.port = Number(url.port);
        resolve();
      };
      child.stdout?.on("data", onData);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`the fixture exited with ${code} before it listened: ${fixture.stderrTail}`));
      });
    });
    return fixture;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.exited === undefined;
  }

  /** The last few KiB the server wrote on stderr. */
  get stderrTail(): string {
    return this.#stderr;
  }

  /** The server's memory, after two forced GCs when `gc` is set. */
  memory(gc: boolean): Promise<Memory> {
    if (!this.alive) return Promise.reject(new Error("the fixture is not running"));
    const seq = ++this.#seq;
    return new Promise<Memory>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#memoryWaiters.delete(seq);
        reject(new Error(`no memory answer within ${LIMITS.memoryTimeoutMs} ms`));
      }, LIMITS.memoryTimeoutMs);
      this.#memoryWaiters.set(seq, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      this.child.send({ type: "memory", gc, seq });
    });
  }

  /** RSS as the kernel counts it, in bytes (undefined where /proc is missing). */
  kernelRss(): number | undefined {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.pid}/status`, "utf8"))?.[1]);
      return Number.isFinite(kb) ? kb * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stops the process by its PID: SIGTERM (stdio: end of input first), then SIGKILL after two seconds. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    if (this.transport === "stdio") this.child.stdin?.end();
    else process.kill(this.pid, "SIGTERM");
    const term = setTimeout(() => {
      if (this.alive) process.kill(this.pid, "SIGTERM");
    }, 1000);
    const kill = setTimeout(() => {
      if (this.alive) process.kill(this.pid, "SIGKILL");
    }, 3000);
    await exited;
    clearTimeout(term);
    clearTimeout(kill);
  }
}
