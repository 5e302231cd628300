/**
 * The fetch-style adapter of the Streamable HTTP core: a web `Request` in, a
 * web `Response` out, for any runtime or router that speaks them.
 */
import type { McpServer } from "../../server.js";
import { createHttpCore } from "./core.js";
import { BodyTimeout } from "./exchange.js";
import { rejectUnknown } from "@x/jsonrpc";
import { bodyTimeoutOf, type HttpTransportOptions, httpOptionNames } from "./options.js";

/**
 * A fetch-style handler for Streamable HTTP: give it a web `Request`, get
 * the `Response`. Mount it on any router that speaks `Request`/`Response`
 * (Node 20 `fetch` types, Deno, Bun, Hono, Next.js, ...). Never rejects. The
 * `Request`'s `signal`, or cancelling the SSE body, aborts the handler. A
 * body not all read within `bodyTimeoutMs` (30 s by default) is answered
 * 408 with -32600 and its stream cancelled. There is no `path` option: the
 * handler serves whatever path the router gives it.
 *
 * @example
 * const handle = createFetchHandler(server);
 * const response = await handle(new Request("http://localhost/mcp", { method: "POST", body, headers }));
 */
export function createFetchHandler(server: McpServer, options: HttpTransportOptions = {}): (request: Request) => Promise<Response> {
  rejectUnknown("createFetchHandler", options, httpOptionNames(server));
  const core = createHttpCore(server, options);
  const bodyTimeoutMs = bodyTimeoutOf(options);
  return async (request) => {
    const answer = await core.answer({
      method: request.method,
      url: targetOf(request.url),
      header: (name) => request.headers.get(name) ?? (name === "host" ? hostOfUrl(request.url) : undefined),
      body: (admit) => readBody(request, admit, bodyTimeoutMs),
      signal: request.signal,
    });
    if ("stream" in answer) {
      // Gone before its stream could be read: nobody will, and what waits on it must hear so.
      if (request.signal.aborted) answer.stream.abandon();
      const iterator = answer.stream[Symbol.asyncIterator]();
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        },
        async cancel() {
          answer.stream.abandon();
          await iterator.return?.();
        },
      });
      return new Response(body, { status: answer.status, headers: answer.headers });
    }
    return new Response(answer.status === 202 || answer.status === 204 ? null : answer.body, {
      status: answer.status,
      headers: answer.headers,
    });
  };
}

/**
 * Reads `request`'s body, each chunk counted by `admit`: the bytes,
 * `undefined` once `admit` refuses, or a rejection when the request's
 * `signal` aborts first, or ({@link BodyTimeout}) when the body has not
 * ended within `timeoutMs` (0: no bound); a stalled body then lets go of its bytes.
 */
async function readBody(request: Request, admit: (size: number) => boolean, timeoutMs: number): Promise<Uint8Array | undefined> {
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  const signal = request.signal;
  const stop = () => {
    reader.cancel().catch(() => {});
  };
  signal.addEventListener("abort", stop, { once: true });
  let timedOut = false;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          stop();
        }, timeoutMs)
      : undefined;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) throw new BodyTimeout(timeoutMs);
      if (signal.aborted) throw new Error("the request was aborted before its body ended");
      if (done) break;
      size += value.byteLength;
      if (!admit(size)) {
        stop();
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal.removeEventListener("abort", stop);
  }
  return Buffer.concat(chunks);
}

/** The path and query of a request URL. */
function targetOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return undefined;
  }
}

function hostOfUrl(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}
