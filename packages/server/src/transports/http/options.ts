/**
 * The options of the Streamable HTTP transport (`createFetchHandler`,
 * `createNodeHandler`, `listen`): the ladder's bounds and checks, CORS, the
 * `assigns` hook, OAuth. The options of the `initialize` era's sessions come
 * with them, read by that era's framing (and by nothing on a server without it).
 */
import type { JsonObject } from "../../objects.js";
import { type McpServer, partsOf } from "../../server.js";
import type { LegacyHttpOptions } from "../../revisions/initialize/http/options.js";
import type { AuthOptions } from "./auth.js";

/** CORS for browser clients (off unless configured). */
export interface CorsOptions {
  /** Origins (`scheme://host[:port]`) allowed to call from a browser; they also pass the `Origin` check. */
  origins: readonly string[];
  /** How long a browser may cache a preflight answer, in seconds. Default 600. */
  maxAgeSeconds?: number;
}

/** Options of the Streamable HTTP transport. */
export interface HttpTransportOptions extends LegacyHttpOptions {
  /**
   * Host names (without port) accepted in the `Host` header. Default: the
   * loopback names `localhost`, `127.0.0.1` and `[::1]`, the right rule for a
   * server bound to loopback. A server on any other address must list its names.
   */
  allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host[:port]`) accepted in the `Origin` header. A request
   * without `Origin` is always accepted. Default: any origin whose host name is
   * a loopback name.
   */
  allowedOrigins?: readonly string[];
  /**
   * Check `Origin` and `Host` (DNS-rebinding protection). Default true. Turning
   * it off is only allowed on a loopback address (see `listen`).
   */
  dnsRebindingProtection?: boolean;
  /** CORS for browser clients; off by default. */
  cors?: CorsOptions;
  /** Largest accepted body, in bytes. Default 4 MiB (4 194 304). */
  maxBodyBytes?: number;
  /**
   * Most bytes of request bodies held at once while they are read, across all
   * requests, in bytes. A request whose `Content-Length` would pass it is
   * refused before its body is read, one without `Content-Length` as soon as
   * its bytes would: 503 with `Retry-After: 1` and -32000. A body's bytes
   * count from its first byte (or its declared length) until it is read, fails
   * or its connection closes. Default 16 × `maxBodyBytes` (64 MiB with the
   * default `maxBodyBytes`).
   */
  maxBodyBytesInFlight?: number;
  /** Deepest accepted JSON nesting (objects and arrays). Default 64. */
  maxJsonDepth?: number;
  /**
   * Most time to receive a request's body once the handler starts reading
   * it, in milliseconds; past it the answer is 408 with -32600 (on HTTP/1.1
   * through `createNodeHandler`, with `Connection: close`, as the rest of the
   * body may still come), and the bytes read so far are let go. It bounds a
   * body that never arrives whatever the timeouts of the server the handler
   * is mounted in (Node's own allow five minutes, Fastify's none). A body a
   * framework already read is not timed. Default 30 000; 0 (or a negative
   * number) turns it off. Through `createNodeHandler` the deadlines are
   * swept by one timer, so a late body is let go within two sweeps after it
   * (a sweep: a quarter of this, at most 1 s).
   */
  bodyTimeoutMs?: number;
  /**
   * Most requests answered at once: a request counts while its client waits
   * on an open connection (a JSON answer not yet sent, an SSE answer open, a
   * `subscriptions/listen` stream, an initialize-era stream resumed with
   * `Last-Event-ID`), and an aborted one while its handler still runs with
   * nothing else to bound it (a 2026-07-28 request whose client went away,
   * one of an ended initialize-era session). Past it, a request is answered
   * 503 with `Retry-After: 1` and -32000 before its body is read. An
   * initialize-era request whose client went away runs on without counting
   * here (its session's `maxRequestsPerSession` bounds it), nor does a
   * session's GET stream (`maxSessions` bounds those). Default 1024.
   */
  maxConcurrentRequests?: number;
  /**
   * Most text one SSE response may hold unsent (a client that reads slower
   * than the server notifies), in bytes. Past it the stream is closed and the
   * request aborted. Default 8 MiB.
   */
  maxBufferedBytes?: number;
  /** Interval of the keep-alive comment on open SSE streams, in milliseconds. Default 15 000; 0 turns it off. */
  keepAliveMs?: number;
  /**
   * Per-request data for handlers (`ctx.assigns`), computed from the HTTP
   * request, for example after verifying a bearer token. Called once per request.
   * A hook that throws gets the request answered with HTTP 500 and -32603
   * (the hook's error text is not sent); to refuse a request, throw from a
   * handler or override `McpServer.execute` instead.
   */
  assigns?: (headers: (name: string) => string | undefined) => JsonObject | undefined;
  /**
   * Makes the server an OAuth resource server (spec: basic/authorization):
   * every request, of both eras, needs `Authorization: Bearer <token>` that
   * `auth.verifyAccessToken` accepts; handlers see what it found in
   * `ctx.auth`. The protected resource metadata is served at
   * `/.well-known/oauth-protected-resource` plus the path of
   * `auth.resourceMetadata.resource` (and at the bare well-known path). Off by default.
   * @throws TypeError (when the transport is made) for an unusable {@link AuthOptions}.
   */
  auth?: AuthOptions;
}

/**
 * Every member of {@link HttpTransportOptions} but those a revision's framing
 * reads (`LegacyHttpOptions`, which its plug-in names): a member added there
 * must be added here to compile.
 */
const HTTP_OPTIONS: Record<Exclude<keyof HttpTransportOptions, keyof LegacyHttpOptions>, true> = {
  allowedHosts: true,
  allowedOrigins: true,
  dnsRebindingProtection: true,
  cors: true,
  maxBodyBytes: true,
  maxBodyBytesInFlight: true,
  maxJsonDepth: true,
  bodyTimeoutMs: true,
  maxConcurrentRequests: true,
  maxBufferedBytes: true,
  keepAliveMs: true,
  assigns: true,
  auth: true,
};
const HTTP_OPTION_NAMES: readonly string[] = Object.keys(HTTP_OPTIONS);

/**
 * The option names a maker of the Streamable HTTP transport for `server`
 * accepts: the transport's own, those its revisions' framings read (the
 * sessions of the `initialize` era, when the server has that era), and `own`.
 */
export function httpOptionNames(server: McpServer, own: readonly string[] = []): readonly string[] {
  return [...HTTP_OPTION_NAMES, ...partsOf(server).plugged.flatMap((p) => p.httpOptions ?? []), ...own];
}

/** {@link HttpTransportOptions.bodyTimeoutMs} as a number of milliseconds, 0 when off. */
export function bodyTimeoutOf(options: HttpTransportOptions): number {
  const ms = options.bodyTimeoutMs ?? 30_000;
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}
