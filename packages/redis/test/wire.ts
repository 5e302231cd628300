/**
 * The 2026-07-28 wire as the multi-process tests speak it: a POSTed
 * JSON-RPC request with the request `_meta` and the standard headers (the
 * server tests' `meta` and `headersFor`), the client declaring the tasks
 * extension (and elicitation, for the task that asks); and `subscriptions/listen` streams read as SSE.
 */
import { META_CLIENT_CAPABILITIES } from "@x/mcp-v2607";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { createParser } from "eventsource-parser";
import { headersFor, meta } from "../../server/test/helpers.js";

/** A JSON-RPC message as parsed (the tests read into it freely). */
export type Json = any;

let nextId = 1;

/** A request whose `_meta` declares the tasks extension. */
export function requestOf(method: string, params: Record<string, unknown> = {}) {
  return {
    jsonrpc: "2.0" as const,
    id: nextId++,
    method,
    params: { ...params, _meta: meta({ [META_CLIENT_CAPABILITIES]: { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } } }) },
  };
}

/** The JSON-RPC messages of an SSE body. */
function sseMessages(text: string): Json[] {
  const out: Json[] = [];
  const parser = createParser({ onEvent: (e) => e.data && out.push(JSON.parse(e.data)) });
  parser.feed(text);
  return out;
}

/**
 * POSTs one request to `url` and answers its JSON-RPC response (read from a
 * JSON or an SSE body), with the HTTP status. Bounded: 15 s.
 */
export async function rpc(url: string, method: string, params: Record<string, unknown> = {}): Promise<Json & { status: number }> {
  const body = requestOf(method, params);
  const response = await fetch(url, {
    method: "POST",
    headers: headersFor(body),
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const messages = type.startsWith("text/event-stream") ? sseMessages(text) : [JSON.parse(text)];
  const answer = messages.find((m) => m.id === body.id) ?? { error: { code: 0, message: `no response in: ${text.slice(0, 300)}` } };
  return { ...answer, status: response.status };
}

/** `tools/call` of `name`. */
export function callTool(url: string, name: string, args: Record<string, unknown> = {}) {
  return rpc(url, "tools/call", { name, arguments: args });
}

/** An open `subscriptions/listen` stream: what it received, with the time each arrived. */
export interface ListenStream {
  received: { at: number; message: Json }[];
  /** Resolves with the first message (arrived or arriving) that satisfies `match`, within `ms`; rejects after. */
  next(match: (message: Json) => boolean, ms?: number): Promise<{ at: number; message: Json }>;
  close(): void;
}

/**
 * Opens `subscriptions/listen` on `url` with `notifications` and resolves
 * once the server acknowledged it (`notifications/subscriptions/acknowledged`).
 */
export async function listen(url: string, notifications: Record<string, unknown>, ms = 10_000): Promise<ListenStream> {
  const body = requestOf("subscriptions/listen", { notifications });
  const controller = new AbortController();
  const received: { at: number; message: Json }[] = [];
  const waiters = new Set<() => void>();
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headersFor(body), accept: "text/event-stream, application/json" },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!response.ok || !response.body) throw new Error(`subscriptions/listen answered ${response.status}: ${await response.text()}`);
  const parser = createParser({
    onEvent: (e) => {
      if (!e.data) return;
      received.push({ at: performance.now(), message: JSON.parse(e.data) });
      for (const wake of [...waiters]) wake();
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // closed
    }
  })();
  const stream: ListenStream = {
    received,
    next(match, wait = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find((r) => match(r.message));
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(found);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(`no matching message within ${wait} ms; received: ${JSON.stringify(received.map((r) => r.message)).slice(0, 1000)}`),
          );
        }, wait);
        if (!check()) waiters.add(wake);
      });
    },
    close: () => controller.abort(),
  };
  await stream.next((m) => m.method === "notifications/subscriptions/acknowledged", ms);
  return stream;
}
