/**
 * stdio transport (spec 2026-07-28, basic/transports/stdio): one JSON-RPC
 * message per line on stdin and stdout, split only on `\n`; nothing but
 * protocol messages on stdout; diagnostics go to stderr.
 */
import type { Readable, Writable } from "node:stream";
import { ErrorCode, Method } from "@x/mcp-v2607";
import type { McpServer } from "../server.js";

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Where requests come from. Default `process.stdin`. */
  input?: Readable;
  /** Where responses go. Default `process.stdout`. */
  output?: Writable;
  /** Where diagnostics go. Default `process.stderr`. */
  errors?: Writable;
  /** Longest accepted line, in bytes; a longer one is answered with -32600 and dropped. Default 4 MiB. */
  maxLineBytes?: number;
}

/**
 * Serves `server` over stdio until the input ends. Requests are handled
 * concurrently; each response is written as one line as soon as it is ready,
 * after the notifications its handler sent (progress, log, listen).
 * `notifications/cancelled` aborts the named request's `signal`, and nothing
 * more is written for it. When the input ends, open `subscriptions/listen`
 * requests are ended (the server is closed) and the promise resolves once
 * every request has been answered.
 *
 * @returns a promise that resolves when the input has ended and every
 *   request that was read has been answered. It never rejects for bad input:
 *   a line that is not JSON gets a -32700 response, a non-request -32600.
 */
export function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const errors = options.errors ?? process.stderr;
  const maxLine = options.maxLineBytes ?? 4 * 1024 * 1024;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const inFlight = new Map<string, AbortController>();
  const pending = new Set<Promise<void>>();
  let buffered: Buffer[] = [];
  let bufferedSize = 0;
  let discarding = false;

  const write = (message: unknown): void => {
    output.write(`${JSON.stringify(message)}\n`);
  };

  const handleLine = (line: Buffer) => {
    let text: string;
    let message: unknown;
    try {
      text = decoder.decode(line);
      if (text.trim() === "") return;
      message = JSON.parse(text);
    } catch {
      write({ jsonrpc: "2.0", error: { code: ErrorCode.ParseError, message: "Parse error: the line is not UTF-8 JSON" } });
      return;
    }
    if (Array.isArray(message)) {
      write({ jsonrpc: "2.0", error: { code: ErrorCode.InvalidRequest, message: "Invalid request: batches are not supported" } });
      return;
    }
    const inbound = server.inspect(message);
    if (inbound.kind === "error") {
      write(inbound.outcome.response);
      return;
    }
    if (inbound.kind === "notification") {
      if (inbound.method === Method.NotificationsCancelled) {
        const id = inbound.params.requestId;
        inFlight.get(JSON.stringify(id))?.abort();
      }
      return;
    }
    const key = JSON.stringify(inbound.id);
    const controller = new AbortController();
    inFlight.set(key, controller);
    let done = false;
    const notify = (notification: unknown) => {
      if (done || controller.signal.aborted) return false;
      write(notification);
      return true;
    };
    const task = server
      .execute(inbound, { signal: controller.signal, notify })
      .then((outcome) => {
        done = true;
        if (!controller.signal.aborted && outcome.response) write(outcome.response);
      })
      .catch((error: unknown) => {
        errors.write(`mcp stdio: unexpected failure: ${String(error)}\n`);
      })
      .finally(() => {
        if (inFlight.get(key) === controller) inFlight.delete(key);
        pending.delete(task);
      });
    pending.add(task);
  };

  return new Promise<void>((resolve) => {
    input.on("data", (chunk: Buffer | string) => {
      let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      for (;;) {
        const nl = data.indexOf(10);
        if (nl === -1) break;
        const head = data.subarray(0, nl);
        data = data.subarray(nl + 1);
        if (discarding) {
          discarding = false;
        } else {
          const line = buffered.length ? Buffer.concat([...buffered, head]) : head;
          buffered = [];
          bufferedSize = 0;
          handleLine(line);
        }
      }
      if (data.length > 0 && !discarding) {
        bufferedSize += data.length;
        if (bufferedSize > maxLine) {
          buffered = [];
          bufferedSize = 0;
          discarding = true;
          write({ jsonrpc: "2.0", error: { code: ErrorCode.InvalidRequest, message: `Invalid request: line longer than ${maxLine} bytes` } });
        } else {
          buffered.push(Buffer.from(data));
        }
      }
    });
    input.on("end", () => {
      if (buffered.length && !discarding) handleLine(Buffer.concat(buffered));
      buffered = [];
      server.close();
      Promise.allSettled([...pending]).then(() => resolve());
    });
    input.on("error", (error) => {
      errors.write(`mcp stdio: input error: ${String(error)}\n`);
      resolve();
    });
  });
}
