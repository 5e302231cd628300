/**
 * The options of the `initialize` era's sessions on Streamable HTTP (part of
 * `HttpTransportOptions`, which every transport core takes; read by this
 * era's framing, `framing.ts`, and by nothing on a server without the era).
 */
import type { DEFAULT_SESSION_IDLE_MS } from "./session-table.js";
import type { EventStore, MemoryEventStore, MemorySessionStore, SessionStore } from "./sessions.js";

/** Default `retry` sent on SSE streams: how long a client waits before reconnecting, 1000 ms. */
export const DEFAULT_SSE_RETRY_MS = 1000;

/**
 * Options of the `initialize` era on Streamable HTTP (part of
 * `HttpTransportOptions`). A server without that era (the `McpServer` of
 * `@x/server/v2607`) reads none of them.
 */
export interface LegacyHttpOptions {
  /**
   * Most sessions open at once. An `initialize` on a full table ends one
   * session, the first of: an idle one (no request in flight, no open
   * stream, no request to the client waiting) that never sent
   * `notifications/initialized` although half of `maxSessions` sessions were
   * opened after it; the idle one least recently active; the one least
   * recently active among those with no request held by a live connection
   * (only a GET stream, requests to the client waiting, or requests whose
   * client went away). It ends as on DELETE; its id then gets 404, and its
   * client initializes again (spec 2025-11-25: basic/transports, "Session
   * Management"). When every session has a request held by a live
   * connection, the `initialize` is answered 503 with `Retry-After: 1` and
   * -32000. Default 1000 (`DEFAULT_MAX_SESSIONS`).
   * @throws RangeError (when the transport is made) unless an integer of at least 1.
   */
  maxSessions?: number;
  /**
   * With the `auth` option: most sessions one principal (the subject and
   * client of its token) has open at once. Its `initialize` past it ends one
   * of its own sessions chosen as for `maxSessions`, never another
   * principal's; when each of its own has a request held by a live
   * connection it is answered 429 with `Retry-After: 1` and -32000. Default
   * 100 (`DEFAULT_MAX_SESSIONS_PER_PRINCIPAL`); a value of `maxSessions` or
   * more lets one principal fill the table.
   * @throws RangeError (when the transport is made) unless an integer of at least 1.
   */
  maxSessionsPerPrincipal?: number;
  /**
   * Most requests one session has in flight at once, whether their client
   * still waits on the connection or went away (a dropped POST does not
   * cancel its request in this era: spec 2025-11-25, basic/transports). A
   * request past it is answered at once, without running: 429 with
   * `Retry-After: 1` and -32000. With `maxSessionsPerPrincipal` it bounds
   * the requests one principal has running. Default 16
   * (`DEFAULT_MAX_REQUESTS_PER_SESSION`).
   * @throws RangeError (when the transport is made) unless an integer of at least 1.
   */
  maxRequestsPerSession?: number;
  /**
   * How long a session may stay idle (no request in flight, no open stream,
   * no request to the client waiting), in ms, before it ends (later requests
   * with its id get 404). Default
   * {@link DEFAULT_SESSION_IDLE_MS}; 0 turns the timeout off.
   */
  sessionIdleTimeoutMs?: number;
  /** Where sessions are kept. Default: a {@link MemorySessionStore}. */
  sessionStore?: SessionStore;
  /**
   * Where SSE events are kept for `Last-Event-ID` replay; `false` turns
   * resumability off (no event ids). Default: a {@link MemoryEventStore} of
   * 1000 events per session.
   */
  eventStore?: EventStore | false;
  /** The `retry` (ms) sent on each SSE stream of a session. Default {@link DEFAULT_SSE_RETRY_MS}. */
  sseRetryMs?: number;
}

/**
 * Every member of {@link LegacyHttpOptions}: the transport options this
 * framing reads, which the HTTP makers then accept. A plain object, so that a
 * bundle without the plug-in leaves it out.
 */
export const LEGACY_HTTP_OPTIONS: Record<keyof LegacyHttpOptions, true> = {
  maxSessions: true,
  maxSessionsPerPrincipal: true,
  maxRequestsPerSession: true,
  sessionIdleTimeoutMs: true,
  sessionStore: true,
  eventStore: true,
  sseRetryMs: true,
};
