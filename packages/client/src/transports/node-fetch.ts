/**
 * The HTTP transport's requests on Node, made with `node:http`/`node:https`
 * instead of the global `fetch`. Node's `fetch` (undici) spent 0.8 to 1.1 ms
 * of CPU per request on the bench machine where `node:http` behind the same
 * `Response` spent 0.3 (bench/README.md, "Client rows"), and a client
 * calling tools over HTTP pays that on every call.
 *
 * Only what the transport sends takes this path: a string or byte body, its
 * headers, an `AbortSignal`, redirects followed (by fetch's rules). Anything
 * else (another body type, `redirect: "manual"`, a `Request`, other init
 * fields, another protocol) goes to the global `fetch`, whose semantics
 * this mirrors: a network failure rejects with `TypeError("fetch failed")`
 * (its `cause` the socket's error), an abort with the signal's reason, and
 * the body is a stream read with backpressure (nothing is buffered whole).
 * Sockets are kept alive, an idle one at most 4 s (a server's
 * `Keep-Alive: timeout=` hint, when shorter, wins): under the 5 s Node's
 * own HTTP server keeps one, so a reused socket is rarely one the server is
 * closing. A GET, HEAD or DELETE whose reused socket was reset before an
 * answer is sent once more on a new one; a POST is not (the server may have
 * acted on it), it fails as `fetch` fails.
 *
 * The global `fetch` sends instead when the program set it up to send its
 * own way: undici's global dispatcher set to anything but a plain `Agent`
 * (a proxy, a `MockAgent`), `NODE_USE_ENV_PROXY`, or `globalThis.fetch`
 * replaced after this module loaded. Not seen: a plain `Agent` with options
 * of its own (a CA, say) and a `fetch` replaced before; pass the
 * transport's `fetch` option then.
 */
import { nodeBuiltin } from "@x/jsonrpc";
import type { ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import type { Readable } from "node:stream";

type NodeHttp = typeof import("node:http");
type NodeZlib = typeof import("node:zlib");

/** The init fields this path handles; any other field sends the request to the global `fetch`. */
const HANDLED = new Set(["method", "headers", "body", "signal", "redirect"]);
/** Statuses whose response has no body (a `Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);
const IDEMPOTENT = new Set(["GET", "HEAD", "DELETE"]);
/** The headers fetch drops when a redirect leaves the origin. */
const CROSS_ORIGIN_DROPPED = ["authorization", "proxy-authorization", "cookie", "host"];
/** How long an idle kept-alive socket is kept (ms). */
const IDLE_SOCKET_MS = 4000;
/** One keep-alive agent per protocol, made on first use. */
const agents = new Map<string, import("node:http").Agent>();

function agentFor(http: NodeHttp, protocol: string): import("node:http").Agent {
  let agent = agents.get(protocol);
  if (agent === undefined) {
    agent = new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS });
    agents.set(protocol, agent);
  }
  return agent;
}

/**
 * Whether this runtime is Node itself (not Bun or Deno, whose `fetch` is
 * their own), so that {@link nodeFetch} is worth using. False when
 * `process.getBuiltinModule` is missing (Node before 20.16).
 */
export function isNode(): boolean {
  const g = globalThis as { Bun?: unknown; Deno?: unknown; process?: { release?: { name?: string }; getBuiltinModule?: unknown } };
  return (
    g.Bun === undefined && g.Deno === undefined && g.process?.release?.name === "node" && typeof g.process.getBuiltinModule === "function"
  );
}

/** The global `fetch` when this module was loaded: one put in its place later (a test's stub, say) is used instead of `node:http`. */
const original = globalThis.fetch;
const current = (): typeof fetch => globalThis.fetch;

/**
 * The global `fetch`, made with `node:http`/`node:https` for what the
 * transport sends (see above) while the global `fetch` is still the one
 * Node started with; anything else is given to the global `fetch`.
 * @returns a function with `fetch`'s signature; it rejects as `fetch` does
 *   (`TypeError` for a network failure, the signal's reason on abort).
 */
export const nodeFetch: typeof fetch = (input, init) => {
  const url = typeof input === "string" ? safeUrl(input) : input instanceof URL ? input : undefined;
  if (url === undefined || globalThis.fetch !== original || fetchConfigured() || !handles(url, init)) return current()(input, init);
  return send(url, init ?? {}, current, true);
};

/** Where undici (Node's fetch, and undici from npm) keeps the dispatcher `setGlobalDispatcher` set. */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/**
 * Whether the global `fetch` was set up to send differently: a global
 * dispatcher that is not a plain `Agent` (a `ProxyAgent`, `MockAgent`,
 * `EnvHttpProxyAgent`, ...), or Node's proxy variables turned on
 * (`NODE_USE_ENV_PROXY`). Then `fetch` sends, as the program asked.
 */
function fetchConfigured(): boolean {
  const dispatcher = (globalThis as Record<symbol, unknown>)[GLOBAL_DISPATCHER] as { constructor?: { name?: string } } | undefined;
  if (dispatcher !== undefined && dispatcher?.constructor?.name !== "Agent") return true;
  const flag = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_USE_ENV_PROXY;
  return flag !== undefined && flag !== "" && flag !== "0";
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function handles(url: URL, init: RequestInit | undefined): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (url.username !== "" || url.password !== "") return false;
  if (init === undefined) return true;
  for (const key of Object.keys(init)) if (HANDLED.has(key) ? false : (init as Record<string, unknown>)[key] !== undefined) return false;
  if (init.redirect !== undefined && init.redirect !== "follow") return false;
  const body = init.body;
  return body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
}

/**
 * The request again at `location`, by fetch's rules: 303 (and 301/302 of a
 * POST) becomes a GET without body, credentials are dropped when the
 * origin changes, only to http(s), at most 20 redirects.
 */
function redirected(
  from: URL,
  init: RequestInit,
  status: number,
  location: string,
  fallback: () => typeof fetch,
  redirects: number,
): Promise<Response> {
  let to: URL;
  try {
    to = new URL(location, from);
  } catch (error) {
    return Promise.reject(new TypeError("fetch failed", { cause: error }));
  }
  if (redirects >= 20) return Promise.reject(new TypeError("fetch failed", { cause: new Error("redirect count exceeded") }));
  if (to.protocol !== "http:" && to.protocol !== "https:") {
    return Promise.reject(new TypeError("fetch failed", { cause: new Error(`redirect to a ${to.protocol} URL`) }));
  }
  const method = (init.method ?? "GET").toUpperCase();
  const headers = new Headers(init.headers);
  const next: RequestInit = { ...init, headers };
  if ((status === 303 && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
    next.method = "GET";
    next.body = undefined;
    for (const name of ["content-type", "content-encoding", "content-language", "content-location"]) headers.delete(name);
  }
  if (to.origin !== from.origin) for (const name of CROSS_ORIGIN_DROPPED) headers.delete(name);
  return send(to, next, fallback, true, redirects + 1);
}

function send(url: URL, init: RequestInit, fallback: () => typeof fetch, mayRetry: boolean, redirects = 0): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const http = nodeBuiltin<NodeHttp>(url.protocol === "https:" ? "node:https" : "node:http");
  const method = (init.method ?? "GET").toUpperCase();
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  // handles() let through only a string or bytes.
  const body = init.body === null || init.body === undefined ? undefined : (init.body as string | Uint8Array);
  if (body !== undefined) headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  headers.accept ??= "*/*";
  const options: RequestOptions = { method, headers, agent: agentFor(http, url.protocol) };

  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let req: ClientRequest | undefined;
    const onAbort = () => {
      req?.destroy();
      if (!settled) {
        settled = true;
        reject(signal?.reason);
      }
    };
    const done = () => signal?.removeEventListener("abort", onAbort);
    const fail = (cause: unknown) => {
      if (settled) return;
      settled = true;
      done();
      reject(new TypeError("fetch failed", { cause }));
    };
    try {
      req = http.request(url, options, (res) => {
        if (settled) {
          res.destroy();
          return;
        }
        const status = res.statusCode ?? 0;
        if (REDIRECT.has(status) && res.headers.location !== undefined) {
          settled = true;
          res.resume();
          done();
          resolve(redirected(url, init, status, res.headers.location, fallback, redirects));
          return;
        }
        let response: Response;
        try {
          response = toResponse(res, method, status, signal, done);
        } catch (error) {
          // A status a Response cannot hold (under 200 or over 599): no answer fetch would give either.
          res.destroy();
          fail(error);
          return;
        }
        settled = true;
        resolve(response);
      });
    } catch (error) {
      // Node refused the request itself (a header value with a control character, say).
      fail(error);
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    // A 101 to a request that asked for no upgrade: nothing to read, as fetch sees it.
    req.on("upgrade", (_res, socket) => {
      socket.destroy();
      fail(new Error("unexpected upgrade"));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      done();
      // A kept-alive socket the server closed just as it was reused: a request that may be repeated is sent once more.
      if (mayRetry && IDEMPOTENT.has(method) && req?.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE")) {
        resolve(send(url, init, fallback, false, redirects));
        return;
      }
      reject(signal?.aborted ? signal.reason : new TypeError("fetch failed", { cause: error }));
    });
    // Bytes, not a string: Node writes the header block with a string first chunk in its encoding (UTF-8), and fetch writes header values as Latin-1.
    req.end(typeof body === "string" ? Buffer.from(body) : body);
  });
}

/** The response as a `Response` whose body streams `res` (paused while the reader is behind). */
function toResponse(res: IncomingMessage, method: string, status: number, signal: AbortSignal | undefined, done: () => void): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value the Fetch API refuses is left out, as fetch leaves it out.
    }
  }
  const statusText = res.statusMessage ?? "";
  // A reason phrase the Fetch API refuses (a control character) is left out.
  const init = { status, statusText: /^[\t\x20-\x7e\x80-\xff]*$/.test(statusText) ? statusText : "", headers };
  if (NULL_BODY.has(status) || method === "HEAD") {
    res.resume();
    res.once("end", done);
    return new Response(null, init);
  }
  const source = decoded(res, headers.get("content-encoding"));
  let onAbort: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      // Each call is guarded: the stream may be cancelled or errored already (by an abort) when the socket reports.
      source.on("data", (chunk: Buffer) => {
        try {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) source.pause();
        } catch {
          res.destroy();
        }
      });
      source.once("end", () => {
        done();
        try {
          controller.close();
        } catch {}
      });
      source.once("error", (error: Error) => {
        done();
        res.destroy();
        controller.error(signal?.aborted ? signal.reason : new TypeError("terminated", { cause: error }));
      });
      // A body cancelled by its reader ends with neither 'end' nor 'error'.
      source.once("close", done);
      if (signal) {
        onAbort = () => {
          controller.error(signal.reason);
          res.destroy();
        };
        signal.addEventListener("abort", onAbort, { once: true });
        source.once("close", () => signal.removeEventListener("abort", onAbort!));
      }
    },
    pull() {
      source.resume();
    },
    cancel() {
      res.destroy();
      if (source !== res) source.destroy();
    },
  });
  return new Response(stream, init);
}

/** `res` decoded as fetch decodes it (gzip, deflate, br), or itself. */
function decoded(res: IncomingMessage, encoding: string | null): Readable {
  const name = encoding?.trim().toLowerCase();
  if (name === undefined || name === "" || name === "identity") return res;
  const zlib = nodeBuiltin<NodeZlib>("node:zlib");
  // As fetch: a body cut short after whole blocks still gives what was decoded.
  const flush = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const decoder =
    name === "gzip" || name === "x-gzip"
      ? zlib.createGunzip(flush)
      : name === "deflate"
        ? zlib.createInflate(flush)
        : name === "br"
          ? zlib.createBrotliDecompress({
              flush: zlib.constants.BROTLI_OPERATION_FLUSH,
              finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
            })
          : undefined;
  if (decoder === undefined) return res;
  res.on("error", (error) => decoder.destroy(error));
  return res.pipe(decoder);
}
