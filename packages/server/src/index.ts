/**
 * `@x/server`: an MCP server for protocol revision 2026-07-28 and the
 * versions of the `initialize` handshake (2025-11-25, 2025-06-18,
 * 2025-03-26, 2024-11-05). The public names, and only those: the server and
 * its options, the handler types of each feature, the request context,
 * Multi Round-Trip asks, errors, the transports, and the sessions of the
 * `initialize` era (their stores and bounds). `@x/server/v2607` has the
 * same without that era. Action tools are on `@x/server/actions`, the tasks
 * plug-in on `@x/server/tasks`, token
 * verifiers on `@x/server/auth`, diagnostics channels on
 * `@x/server/telemetry`, test helpers on `@x/server/testing`.
 *
 * @module @x/server
 */
// Everything of the 2026-07-28 entry; its McpServer gives way to this entry's own, which serves both eras.
export * from "./v2607.js";
export { McpServer } from "./two-eras.js";
export { DEFAULT_SSE_RETRY_MS, type LegacyHttpOptions } from "./revisions/initialize/http/options.js";
export {
  DEFAULT_MAX_REQUESTS_PER_SESSION,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
  DEFAULT_SESSION_IDLE_MS,
} from "./revisions/initialize/http/session-table.js";
export {
  DEFAULT_MAX_EVENTS_PER_SESSION,
  type EventStore,
  MAX_SESSION_RECORD_CHARS,
  MemoryEventStore,
  MemorySessionStore,
  type Replay,
  type SessionRecord,
  SessionRecordError,
  type SessionSignal,
  type SessionStore,
  type StoredEvent,
} from "./revisions/initialize/http/sessions.js";
export {
  DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
  LegacySession,
  MAX_PENDING_CLIENT_REQUESTS,
} from "./revisions/initialize/session.js";
export { MAX_BATCH_MESSAGES } from "./revisions/initialize/batch.js";
export { MAX_EARLY_MESSAGES } from "./revisions/initialize/stdio.js";
