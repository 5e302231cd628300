/**
 * The stdio client transport (spec 2026-07-28, basic/transports/stdio): the
 * client starts the server as a child process and exchanges newline-delimited
 * JSON-RPC messages over its stdin and stdout.
 */
import type * as ChildProcesses from "node:child_process";
import type { ChildProcess } from "node:child_process";

/**
 * `node:child_process`, loaded when the first server is spawned: importing
 * `@x/client` must not need it, since runtimes without processes (workerd)
 * have none, and a browser bundle must not name it.
 */
function childProcesses(): typeof ChildProcesses {
  return nodeBuiltin<typeof ChildProcesses>("node:child_process");
}
import { nodeBuiltin, stringifyJson } from "@x/jsonrpc";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, RequestId } from "@x/mcp-v2607";
import { META_SUBSCRIPTION_ID, Method } from "@x/mcp-v2607/constants";
import { clip, type McpClientError, transportError } from "../errors.js";
import { rejectUnknown } from "../auth/options.js";
import { readMessage } from "../numbers.js";
import { isNotification, isRequest, isResponse, utf8Length } from "./jsonrpc.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type SendOptions, type SessionFramings, type Transport } from "./transport.js";
import type { StdioFraming } from "./stdio-framing.js";

/** Options of {@link StdioTransport}. */
export interface StdioOptions {
  /** The program to run, e.g. `process.execPath` or `"npx"`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /** Its environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Its working directory. */
  cwd?: string;
  /**
   * What to do with the server's stderr: `"inherit"` (default) copies it to
   * this process's stderr, `"ignore"` drops it, a function receives each
   * chunk as text. In every case the last few KiB are kept and quoted when
   * the process dies.
   */
  stderr?: "inherit" | "ignore" | ((text: string) => void);
  /** Largest message, in bytes, written or read (one line). Default 4 MiB. */
  maxMessageBytes?: number;
  /** Milliseconds `close()` waits after closing stdin before SIGTERM, and again before SIGKILL. Default 2000. */
  closeTimeout?: number;
  /**
   * Called with a description of each stdout line that is dropped (default:
   * ignored): one that is not a JSON-RPC message, or a response to no request
   * in flight (one cancelled or timed out, or never sent).
   */
  onInvalidLine?: (description: string) => void;
}

/** Every member of {@link StdioOptions}, to refuse a misspelt one. */
const STDIO_OPTIONS: Record<keyof StdioOptions, true> = {
  command: true,
  args: true,
  env: true,
  cwd: true,
  stderr: true,
  maxMessageBytes: true,
  closeTimeout: true,
  onInvalidLine: true,
};

interface Pending {
  resolve(response: JSONRPCResponse): void;
  reject(error: unknown): void;
  onNotification(notification: JSONRPCNotification): void;
}

const STDERR_TAIL = 4096;

/**
 * stdio: spawns the server, writes each request as one line of JSON to its
 * stdin, and reads its stdout split on `\n` only (a `\r` before it is JSON
 * whitespace). Responses are matched by `id`; a notification carrying
 * `_meta["io.modelcontextprotocol/subscriptionId"]` goes to that
 * `subscriptions/listen` request, any other to every request in flight (the
 * channel is shared, spec: stdio "Receiving Messages").
 *
 * Cancelling a request writes `notifications/cancelled` with its id. The
 * server's stderr is passed through by default.
 *
 * A revision with sessions frames it through its seam
 * (`stdio-framing.ts`, {@link StdioTransport.frame}): the same process then
 * carries the session, its requests answered on stdin, every notification
 * also reaching it.
 *
 * Failures reject with `McpClientError` -32000 and `data.reason`:
 * `"process_exited"` (the process could not start, or exited while requests
 * waited; `data.exitCode`, `data.signal`, `data.stderr` hold the last stderr
 * text), `"message_too_large"` (a request, or a stdout line, over
 * `maxMessageBytes`: every waiting request fails, since the line's id cannot
 * be read, and the rest of that line is skipped), `"closed"`. Lines are read
 * with `readMessage` (README "Numbers": an integer beyond ±(2^53 − 1) is
 * `JSON.parse`'s double, but a `bigint` in a request id or a progress
 * token).
 */
export class StdioTransport implements Transport {
  readonly kind = "stdio";
  readonly mirrorsHeaders = false;
  private readonly options: StdioOptions;
  private readonly maxBytes: number;
  private child: ChildProcess | undefined;
  private readonly pending = new Map<RequestId, Pending>();
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private skipping = false;
  private stderrTail = "";
  private exited: McpClientError | undefined;
  private exitPromise: Promise<void> | undefined;
  private closing = false;
  private framing: StdioFraming | undefined;

  /** @throws TypeError when an option is one `StdioOptions` does not name, `command` is empty or `maxMessageBytes` is not a positive integer. */
  constructor(options: StdioOptions) {
    rejectUnknown("StdioTransport", options, Object.keys(STDIO_OPTIONS));
    if (typeof options?.command !== "string" || options.command === "") throw new TypeError("StdioTransport needs a command to run");
    const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new TypeError(`maxMessageBytes must be a positive integer, got ${max}`);
    this.options = options;
    this.maxBytes = max;
  }

  /** The child's process id once started, else `undefined`. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Spawns the server process (once). */
  async start(): Promise<void> {
    if (this.child || this.exited) return;
    const stderrMode = this.options.stderr ?? "inherit";
    const child = childProcesses().spawn(this.options.command, [...(this.options.args ?? [])], {
      cwd: this.options.cwd,
      env: this.options.env ?? process.env,
      stdio: ["pipe", "pipe", stderrMode === "ignore" ? "ignore" : "pipe"],
    });
    this.child = child;
    child.stdout?.on("data", (chunk: Buffer) => this.onData(chunk));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
      if (typeof stderrMode === "function") stderrMode(text);
      else process.stderr.write(text);
    });
    // A write to a process that has gone gives EPIPE; the exit handler reports it.
    child.stdin?.on("error", () => {});
    this.exitPromise = new Promise((resolve) => {
      child.once("error", (error) => {
        this.fail(
          transportError(
            "process_exited",
            `The server process ${this.options.command} could not run: ${error.message}`,
            { command: this.options.command },
            error,
          ),
        );
        resolve();
      });
      child.once("close", (code, signal) => {
        const detail = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const tail = this.stderrTail.trim();
        this.fail(
          transportError(
            this.closing ? "closed" : "process_exited",
            this.closing
              ? "The stdio transport was closed"
              : `The server process ${detail} before answering${tail ? `; its last stderr output: ${clip(tail, 500)}` : ""}`,
            { exitCode: code, signal, stderr: tail },
          ),
        );
        resolve();
      });
    });
    await new Promise<void>((resolve) => {
      child.once("spawn", () => resolve());
      child.once("error", () => resolve());
    });
  }

  /** Writes the request and waits for the response with the same id. */
  async send(message: JSONRPCRequest, options: SendOptions): Promise<JSONRPCResponse> {
    if (!this.child) await this.start();
    if (this.exited) throw this.exited;
    const line = `${stringifyJson(message)}\n`;
    const size = utf8Length(line) - 1;
    if (size > this.maxBytes) {
      throw transportError(
        "message_too_large",
        `The ${message.method} request is ${size} bytes, over the limit of ${this.maxBytes} bytes`,
        { bytes: size, limit: this.maxBytes },
      );
    }
    if (options.signal.aborted) throw options.signal.reason;
    return new Promise<JSONRPCResponse>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(message.id);
        this.write({
          jsonrpc: "2.0",
          method: Method.NotificationsCancelled,
          params: { requestId: message.id, reason: "The client cancelled the request" },
        });
        reject(options.signal.reason);
      };
      options.signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(message.id, {
        resolve: (response) => {
          options.signal.removeEventListener("abort", onAbort);
          resolve(response);
        },
        reject: (error) => {
          options.signal.removeEventListener("abort", onAbort);
          reject(error);
        },
        onNotification: options.onNotification,
      });
      this.write(message);
    });
  }

  /** Installs a session framing (see {@link Transport.frame}): the process then carries that session. */
  frame(framings: SessionFramings): boolean {
    this.framing = framings.stdio?.({
      write: async (message) => {
        if (!this.child) await this.start();
        if (this.exited) throw this.exited;
        this.write(message);
      },
    });
    return this.framing !== undefined;
  }

  /**
   * Shuts the server down the way the spec asks: closes its stdin, waits
   * `closeTimeout` ms for it to exit, then SIGTERM, then SIGKILL. Requests
   * still waiting fail with reason `"closed"`.
   */
  async close(): Promise<void> {
    const child = this.child;
    this.closing = true;
    if (!child || this.exited) {
      this.fail(transportError("closed", "The stdio transport was closed"));
      return;
    }
    const wait = this.options.closeTimeout ?? 2000;
    const exited = this.exitPromise ?? Promise.resolve();
    const within = (ms: number) =>
      Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
    child.stdin?.end();
    if (await within(wait)) return;
    child.kill("SIGTERM");
    if (await within(wait)) return;
    child.kill("SIGKILL");
    await exited;
  }

  private write(message: unknown): void {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) return;
    stdin.write(`${stringifyJson(message)}\n`);
  }

  private fail(error: McpClientError): void {
    this.exited ??= error;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(error);
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) break;
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        this.buffered = [];
        this.bufferedBytes = 0;
        continue;
      }
      const line = this.bufferedBytes === 0 ? piece : Buffer.concat([...this.buffered, piece]);
      this.buffered = [];
      this.bufferedBytes = 0;
      if (line.byteLength > this.maxBytes) this.overflow(line.byteLength);
      else this.onLine(line.toString("utf8"));
    }
    if (start < chunk.byteLength && !this.skipping) {
      const rest = chunk.subarray(start);
      this.buffered.push(rest);
      this.bufferedBytes += rest.byteLength;
      if (this.bufferedBytes > this.maxBytes) {
        this.overflow(this.bufferedBytes);
        this.skipping = true;
        this.buffered = [];
        this.bufferedBytes = 0;
      }
    }
  }

  private overflow(bytes: number): void {
    const error = transportError(
      "message_too_large",
      `The server wrote a message of ${bytes}+ bytes, over the limit of ${this.maxBytes} bytes; it was dropped, and the requests waiting for it fail`,
      { bytes, limit: this.maxBytes },
    );
    this.rejectWaiting(error);
  }

  private rejectWaiting(error: unknown): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(error);
  }

  private onLine(line: string): void {
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = readMessage(line);
    } catch {
      this.options.onInvalidLine?.(`not JSON: ${clip(line)}`);
      return;
    }
    if (isResponse(message)) {
      const id = message.id;
      const waiting = id === undefined || id === null ? undefined : this.pending.get(id);
      if (waiting) {
        this.pending.delete(id as RequestId);
        waiting.resolve(message as JSONRPCResponse);
      } else if ("error" in message && (id === undefined || id === null) && this.pending.size === 1) {
        // An error the server could not tie to a request: with one request waiting, it is that one's.
        const [[only, p]] = [...this.pending.entries()] as [[RequestId, Pending]];
        this.pending.delete(only);
        p.resolve({ ...message, id: only } as JSONRPCResponse);
      } else {
        // Dropped: it answers no request waiting here (one cancelled, timed out or never sent).
        this.options.onInvalidLine?.(`a response to no request in flight (id ${clip(JSON.stringify(id ?? null))}): ${clip(line)}`);
      }
      return;
    }
    if (isRequest(message)) {
      if (!this.framing?.request(message)) this.options.onInvalidLine?.(`a server-to-client request outside a session: ${clip(line)}`);
      return;
    }
    if (isNotification(message)) {
      this.framing?.notification(message);
      const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      const subscription = meta?.[META_SUBSCRIPTION_ID];
      let targets: Pending[];
      if (subscription === undefined) targets = [...this.pending.values()];
      else {
        const owner = this.pending.get(subscription as RequestId);
        targets = owner ? [owner] : [];
      }
      for (const p of targets) {
        try {
          p.onNotification(message);
        } catch {
          // A listener's fault is not the transport's.
        }
      }
      return;
    }
    this.options.onInvalidLine?.(`not a JSON-RPC response or notification: ${clip(line)}`);
  }
}
