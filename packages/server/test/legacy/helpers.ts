// Shared by the initialize-era HTTP tests: a node:http server on 127.0.0.1,
// sessions opened with initialize, POSTs, and SSE read event by event.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { stringifyJson } from "@x/jsonrpc";
import { expect } from "vitest";
import { createNodeHandler, type McpServer, type NodeHandler, type NodeHandlerOptions, serveStdio } from "../../src/index.js";
import type { LegacyHttp } from "../../src/revisions/initialize/http/framing.js";
import type { Core } from "../../src/transports/http/core.js";

export type Message = Record<string, any>;

/**
 * A node:http server for `mcp` on a free loopback port; `stop` closes it.
 * `untilGone(n)` resolves once `n` responses were closed by their client
 * before they ended, each after the handler heard of it.
 */
export async function start(mcp: McpServer, options: NodeHandlerOptions = {}) {
  const handler: NodeHandler = createNodeHandler(mcp, { keepAliveMs: 0, ...options });
  const gone = counter();
  const http: Server = createServer((req, res) => {
    handler(req, res);
    // Added after the handler's own listener, so it runs after it.
    res.on("close", () => {
      if (!res.writableFinished) gone.add();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
  const core = handler.core as Core;
  const legacy = core.framing as LegacyHttp;
  const stop = async () => {
    mcp.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url, legacy, core, stop, untilGone: gone.until };
}

/** A count that can be waited on: `until(n)` resolves once `add` was called `n` times in all. */
export function counter() {
  let count = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  return {
    get count() {
      return count;
    },
    add() {
      count++;
      for (const w of waiters.filter((w) => w.n <= count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    until(n: number): Promise<void> {
      if (count >= n) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ n, resolve }));
    },
  };
}

let nextId = 1;
export const JSON_AND_SSE = "application/json, text/event-stream";

export async function post(url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: JSON_AND_SSE, ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

export function initializeBody(protocolVersion = "2025-11-25", capabilities: Message = {}) {
  return {
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: { protocolVersion, capabilities, clientInfo: { name: "raw", version: "1" } },
  };
}

/**
 * Initializes a session (and sends notifications/initialized); returns its id and the headers of later
 * requests (`extra` included: headers every request of the session carries).
 */
export async function open(url: string, capabilities: Message = {}, version = "2025-11-25", extra: Record<string, string> = {}) {
  const res = await post(url, initializeBody(version, capabilities), extra);
  expect(res.status).toBe(200);
  const id = res.headers.get("mcp-session-id")!;
  const result = (await res.json()).result;
  const headers: Record<string, string> & { "mcp-session-id": string; "mcp-protocol-version": string } = {
    ...extra,
    "mcp-session-id": id,
    "mcp-protocol-version": result.protocolVersion,
  };
  expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
  return { id, headers, result };
}

/** Reads SSE events off a response body one at a time. */
export function sse(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next(): Promise<{ id?: string; retry?: string; data: string } | undefined> {
      for (let i = 0; i < 10_000; i++) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: { id?: string; retry?: string; data: string } = { data: "" };
          let lines = 0;
          for (const line of block.split("\n")) {
            if (line.startsWith("id: ")) event.id = line.slice(4);
            else if (line.startsWith("retry: ")) event.retry = line.slice(7);
            else if (line.startsWith("data: ")) event.data = line.slice(6);
            else continue;
            lines++;
          }
          if (lines > 0) return event;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
      return undefined;
    },
    /** The next event with a JSON message, parsed. */
    async message(): Promise<Message | undefined> {
      for (let i = 0; i < 1000; i++) {
        const event = await this.next();
        if (!event) return undefined;
        if (event.data.trim() !== "") return { ...JSON.parse(event.data), __eventId: event.id };
      }
      return undefined;
    },
    cancel: () => reader.cancel(),
  };
}

/** The JSON-RPC response of a POST, whether JSON or SSE. */
export async function answerOf(res: Response): Promise<Message> {
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const events = sse(res);
    for (let i = 0; i < 1000; i++) {
      const m = await events.message();
      if (!m || "result" in m || "error" in m) return m!;
    }
  }
  return res.json();
}

export const rq = (method: string, params: Message = {}) => ({ jsonrpc: "2.0", id: nextId++, method, params });

/** A stdio connection to `server` driven line by line (an initialize-era client speaking over in-memory pipes). */
export function stdioConnect(server: McpServer) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const lines: Message[] = [];
  let wake: (() => void) | undefined;
  let buffer = "";
  stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      lines.push(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
    wake?.();
  });
  const done = serveStdio(server, { input: stdin, output: stdout, errors: stderr });
  let id = 0;
  return {
    send(message: Message) {
      // A bigint is written as its digits, as a client of this SDK writes it.
      stdin.write(`${stringifyJson(message)}\n`);
    },
    /** Sends a request and returns its id. */
    request(method: string, params: Message = {}) {
      const rid = ++id;
      this.send({ jsonrpc: "2.0", id: rid, method, params });
      return rid;
    },
    /** The next line written. */
    async next(): Promise<Message> {
      for (let i = 0; i < 1000 && lines.length === 0; i++) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      return lines.shift()!;
    },
    /** The response to request `rid` (lines before it are returned in `before`). */
    async answer(rid: number): Promise<{ response: Message; before: Message[] }> {
      const before: Message[] = [];
      for (let i = 0; i < 1000; i++) {
        const line = await this.next();
        if (line.id === rid && ("result" in line || "error" in line)) return { response: line, before };
        before.push(line);
      }
      throw new Error("no answer");
    },
    /** Opens the session with `initialize` (`version`, default 2025-06-18) and `notifications/initialized`; the answer to `initialize`. */
    async initialize(capabilities: Message = {}, version = "2025-06-18") {
      const rid = this.request("initialize", { protocolVersion: version, capabilities, clientInfo: { name: "c", version: "1" } });
      const { response } = await this.answer(rid);
      this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      return response;
    },
    async end() {
      stdin.end();
      await done;
    },
  };
}
