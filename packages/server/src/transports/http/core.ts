/**
 * The Streamable HTTP transport core, whatever the HTTP library: the
 * settings of one handler, read once from its options, and the requests in
 * flight; each exchange climbs the check ladder (`ladder.ts`), then the call
 * itself (`run.ts`). The adapters are `fetch.ts` (web `Request`/`Response`),
 * `node.ts` (`node:http`) and `listen.ts` (a ready `node:http` server).
 *
 * The first stage that answers ends the climb; a request that passes every
 * stage is handed to the dispatcher, which checks the protocol version
 * (10: 400, -32022) and the method (11: 404, -32601), then runs it. A
 * response is JSON unless the handler sends a notification before it
 * returns: the first one switches that response to an SSE stream
 * (`X-Accel-Buffering: no`) that carries the notifications and ends with the
 * response. Closing the stream (or the connection) aborts the handler's
 * `signal`. HTTP statuses of outcomes come from `status.ts` alone.
 *
 * A revision whose requests come on sessions shares the endpoint through its
 * framing (`framing.ts`), which the server's revision plug-in provides: the
 * ladder asks it about verbs other than POST, about the session a message
 * names, and hands it the opening request and the messages of its sessions.
 * Every other message is served per request. A server without such a
 * revision (or not serving its versions) answers GET and DELETE with 405.
 */
import type { McpServer } from "../../server.js";
import { partsOf } from "../../server.js";
import { SERVER_BUSY } from "../../errors.js";
import { type Call, CallList } from "../call.js";
import { KeepAlive } from "../sse.js";
import { errorAnswer } from "./answers.js";
import { authSettings, type AuthSettings } from "./auth.js";
import { ANY, type Accepts, type Exchange, type HttpAnswer, type HttpExchange, NO_CORS, SignalExchange } from "./exchange.js";
import type { HttpFraming } from "./framing.js";
import { isLoopbackOrigin, LOOPBACK_HOSTS } from "./header-rules.js";
import { climb } from "./ladder.js";
import { bodyTimeoutOf, type HttpTransportOptions } from "./options.js";

/** The transport core: answers exchanges and tracks the ones in flight. */
export interface HttpCore {
  /** Answers one exchange. Never rejects. */
  answer(exchange: HttpExchange): Promise<HttpAnswer>;
  /** Requests in flight on open connections (listen streams included; see `maxConcurrentRequests`). */
  readonly active: number;
  /** Resolves once no request is in flight, or after `deadlineMs`, when the rest are aborted. */
  drain(deadlineMs: number): Promise<void>;
}

/**
 * The transport core: answers one HTTP exchange for `server`, whatever the
 * HTTP library. Never throws and never rejects; every failure is an answer.
 */
export function createHttpCore(server: McpServer, options: HttpTransportOptions = {}): HttpCore {
  return new Core(server, options);
}

/**
 * The core of one handler (internal): its settings, read once from the
 * options, and the requests in flight. The `node:http` adapter calls
 * {@link Core.serve} directly, with its own {@link Exchange}.
 */
export class Core implements HttpCore {
  readonly server: McpServer;
  readonly options: HttpTransportOptions;
  readonly protect: boolean;
  readonly allowedHosts: readonly string[];
  readonly corsOrigins: readonly string[];
  readonly maxBody: number;
  readonly maxBodiesInFlight: number;
  /** Bytes of the bodies being read now, as counted by {@link Core.admit}. */
  bodyBytes = 0;
  readonly maxDepth: number;
  /** {@link HttpTransportOptions.bodyTimeoutMs}, 0 when off. */
  readonly bodyTimeoutMs: number;
  readonly maxActive: number;
  readonly keepAliveMs: number;
  /** The one keep-alive timer of this core's SSE answers; `undefined` when `keepAliveMs` is 0. */
  readonly keepAlive: KeepAlive | undefined;
  readonly inFlight = new CallList();
  readonly #idleWaiters = new Set<() => void>();
  // Clients send the same Accept header again and again: remember the last one read.
  lastAccept: string | undefined = undefined;
  lastAccepts: Accepts = ANY;
  // Likewise the last Host header that passed.
  lastHost: string | undefined = undefined;
  /** The framing of the server's revision with sessions, if it has one: its sessions and streams on this endpoint. */
  readonly framing: HttpFraming | undefined;
  /** The methods the endpoint serves, as an `Allow` value (the 405s and the preflight both say it, so they cannot disagree). */
  readonly allow: string;
  /** The request headers a preflight admits. */
  readonly requestHeaders: string;
  /** The response headers a cross-origin page may read. */
  readonly exposedHeaders: string;
  /** The `auth` option, read once; `undefined` when off. */
  readonly auth: AuthSettings | undefined;

  constructor(server: McpServer, options: HttpTransportOptions) {
    this.server = server;
    this.options = options;
    this.protect = options.dnsRebindingProtection !== false;
    this.allowedHosts = (options.allowedHosts ?? LOOPBACK_HOSTS).map((h) => h.toLowerCase());
    this.corsOrigins = options.cors?.origins ?? [];
    this.maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.maxBodiesInFlight = options.maxBodyBytesInFlight ?? 16 * this.maxBody;
    this.maxDepth = options.maxJsonDepth ?? 64;
    this.bodyTimeoutMs = bodyTimeoutOf(options);
    this.maxActive = options.maxConcurrentRequests ?? 1024;
    this.keepAliveMs = options.keepAliveMs ?? 15_000;
    this.keepAlive = this.keepAliveMs > 0 ? new KeepAlive(this.keepAliveMs) : undefined;
    this.auth = options.auth ? authSettings(options.auth) : undefined;
    this.framing = framingOf(this);
    const framing = this.framing;
    const methods = ["POST", ...(framing?.methods ?? []), ...(options.cors ? ["OPTIONS"] : [])];
    this.allow = methods.sort((x, y) => HTTP_METHODS.indexOf(x) - HTTP_METHODS.indexOf(y)).join(", ");
    this.requestHeaders = [...REQUEST_HEADERS, ...(framing?.requestHeaders ?? [])].join(", ");
    this.exposedHeaders = [...EXPOSED_HEADERS, ...(framing?.exposedHeaders ?? [])].sort().join(", ");
  }

  answer(exchange: HttpExchange): Promise<HttpAnswer> {
    return this.serve(new SignalExchange(exchange));
  }

  /** Climbs the ladder for one exchange; rejects only on a fault of the core itself. */
  serve(ex: Exchange): Promise<HttpAnswer> {
    try {
      const answer = climb(this, ex, 0);
      return answer instanceof Promise ? answer : Promise.resolve(answer);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get active(): number {
    return this.inFlight.size;
  }

  drain(deadlineMs: number): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(deadline);
        this.#idleWaiters.delete(wake);
        resolve();
      };
      const deadline = setTimeout(() => {
        for (const c of this.inFlight.toArray()) c.abort();
        wake();
      }, deadlineMs);
      this.#idleWaiters.add(wake);
    });
  }

  /**
   * 503 with `Retry-After` when `maxConcurrentRequests` calls hold a
   * connection already, else `undefined`: the `load` stage, and a
   * framing's stream resumed for a running call.
   */
  busy(ex: Exchange): HttpAnswer | undefined {
    if (this.inFlight.size < this.maxActive) return undefined;
    return errorAnswer(503, SERVER_BUSY, `Server busy: ${this.maxActive} requests in flight`, undefined, {
      "retry-after": "1",
      ...ex.cors,
    });
  }

  /** A call ended, or no longer holds a connection: it leaves the in-flight set, and `drain` wakes once none is left. */
  finished(call: Call): void {
    this.inFlight.delete(call);
    // Checked first: copying the (empty) set of waiters on every request that empties the set was 0.4 µs of 24 per request.
    if (this.inFlight.size === 0 && this.#idleWaiters.size > 0) for (const wake of [...this.#idleWaiters]) wake();
  }

  /**
   * Counts `size` bytes of `ex`'s body (read or declared) in the in-flight
   * total. False when the body passes `maxBodyBytes`, or when the total would
   * pass the cap (then `ex.overBudget` is set and nothing is counted).
   */
  admit(ex: Exchange, size: number): boolean {
    if (size > this.maxBody) return false;
    if (size <= ex.reserved) return true;
    if (this.bodyBytes + size - ex.reserved > this.maxBodiesInFlight) {
      ex.overBudget = true;
      return false;
    }
    this.bodyBytes += size - ex.reserved;
    ex.reserved = size;
    return true;
  }

  /** Takes `ex`'s body out of the in-flight total (read, refused, failed or abandoned). */
  release(ex: Exchange): void {
    this.bodyBytes -= ex.reserved;
    ex.reserved = 0;
  }

  /** True for an origin CORS or `allowedOrigins` lets in (by default: a loopback one). */
  originAllowed(origin: string): boolean {
    return (
      this.corsOrigins.includes(origin) ||
      (this.options.allowedOrigins ? this.options.allowedOrigins.includes(origin) : isLoopbackOrigin(origin))
    );
  }

  /** The CORS headers of the answers to `origin` ({@link NO_CORS} unless CORS admits it). */
  corsHeaders(origin: string | undefined): Readonly<Record<string, string>> {
    return origin !== undefined && this.corsOrigins.includes(origin)
      ? {
          "access-control-allow-origin": origin,
          vary: "Origin",
          "access-control-expose-headers": this.exposedHeaders,
        }
      : NO_CORS;
  }
}

/**
 * The framing of the server's revision with sessions, if it has one.
 * @throws TypeError when two revisions of the server would frame HTTP: the ladder asks one.
 */
function framingOf(core: Core): HttpFraming | undefined {
  const framed = partsOf(core.server).plugged.filter((p) => p.http !== undefined);
  if (framed.length > 1) throw new TypeError("a server may have one revision with sessions on Streamable HTTP");
  return framed[0]?.http?.(core);
}

/** HTTP methods in the order RFC 9110 (section 9.3) defines them, the order `Allow` lists them in. */
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE"];

/** The request headers of 2026-07-28 a preflight admits; a framing adds its own. */
const REQUEST_HEADERS = ["content-type", "accept", "authorization", "mcp-protocol-version", "mcp-method", "mcp-name", "mcp-param-*"];

/** The response headers a cross-origin page may read; a framing adds its own. */
const EXPOSED_HEADERS = ["content-type", "mcp-protocol-version", "www-authenticate"];
