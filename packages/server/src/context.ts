/**
 * The per-request context handed to every handler (spec 2026-07-28,
 * basic/index "Request metadata", basic/patterns/progress,
 * server/utilities/logging).
 */
import {
  type ClientCapabilities,
  type Implementation,
  type JSONRPCNotification,
  type LoggingLevel,
  META_LOG_LEVEL,
  Method,
  type ProgressToken,
  type RequestId,
  type RequestMetaObject,
} from "@x/mcp-v2607";

/**
 * What a transport knows about one incoming request, beyond its body.
 * Transports fill it; user code may add `assigns` (for example the result of
 * an authentication step) through the transport's `assigns` option.
 */
export interface TransportInfo {
  /** Aborted when the client goes away (HTTP connection or SSE stream closed, stdio `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Per-request data from outside the protocol (authentication, tenant, ...). Never persisted between requests. */
  assigns?: Readonly<Record<string, unknown>>;
  /**
   * Delivers a notification related to this request before its response
   * (over HTTP the first one switches the response to an SSE stream).
   * Returns false when it cannot be delivered (no stream, or the response was sent).
   */
  notify?: (notification: JSONRPCNotification) => boolean;
}

/**
 * The context a handler receives for one request. It is built fresh for each
 * request and holds nothing from earlier ones.
 */
export interface RequestContext {
  /** The JSON-RPC id of the request. */
  readonly requestId: RequestId;
  /** The request's method, e.g. `"tools/call"`. */
  readonly method: string;
  /** The request's `params._meta` as sent (protocol version, client capabilities, client info, ...). */
  readonly meta: RequestMetaObject;
  /** The protocol version the client asked for in `_meta`. */
  readonly protocolVersion: string;
  /** The capabilities the client declared for this request in `_meta`. */
  readonly clientCapabilities: ClientCapabilities;
  /** The client's `Implementation`, when it sent one. */
  readonly clientInfo: Implementation | undefined;
  /** Aborted when the request is cancelled; never aborted when the transport cannot tell. */
  readonly signal: AbortSignal;
  /** Per-request data supplied by the transport's caller (see {@link TransportInfo.assigns}); `{}` when none. */
  readonly assigns: Readonly<Record<string, unknown>>;
  /**
   * Reports progress (spec: basic/patterns/progress). Sends
   * `notifications/progress` only when the request's `_meta` carried a
   * `progressToken` (0 is a valid token); otherwise does nothing.
   * `progress` should grow with each call; `total` is optional.
   * @returns true when a notification was sent.
   */
  progress(progress: number, total?: number, message?: string): boolean;
  /**
   * Sends a log message to the client (spec: server/utilities/logging).
   * Sends `notifications/message` only when the server declares logging
   * (`ServerOptions.logging`), the request's `_meta` carried
   * `io.modelcontextprotocol/logLevel`, and `level` is at or above it.
   * @deprecated Logging is deprecated by the 2026-07-28 spec; log to stderr or OpenTelemetry instead.
   * @returns true when a notification was sent.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): boolean;
}

/** The syslog levels in increasing severity. */
export const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** Inputs of {@link createContext}. */
export interface ContextInit {
  requestId: RequestId;
  method: string;
  meta: RequestMetaObject;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  transport: TransportInfo;
  loggingEnabled: boolean;
}

const NEVER_ABORTED = new AbortController().signal;
const EMPTY_ASSIGNS: Readonly<Record<string, unknown>> = Object.freeze({});

/** Builds the context of one request. */
export function createContext(init: ContextInit): RequestContext {
  const { transport, meta } = init;
  const notify = transport.notify;
  const progressToken = meta.progressToken as ProgressToken | undefined;
  const logLevel = meta[META_LOG_LEVEL] as LoggingLevel | undefined;
  const minLevel = logLevel === undefined ? -1 : LOG_LEVELS.indexOf(logLevel);
  return {
    requestId: init.requestId,
    method: init.method,
    meta,
    protocolVersion: init.protocolVersion,
    clientCapabilities: init.clientCapabilities,
    clientInfo: init.clientInfo,
    signal: transport.signal ?? NEVER_ABORTED,
    assigns: transport.assigns ?? EMPTY_ASSIGNS,
    progress(progress, total, message) {
      if (progressToken === undefined || progressToken === null || !notify) return false;
      if (typeof progress !== "number" || !Number.isFinite(progress)) throw new TypeError("progress must be a finite number");
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      return notify({ jsonrpc: "2.0", method: Method.NotificationsProgress, params } as JSONRPCNotification);
    },
    log(level, data, logger) {
      if (!init.loggingEnabled || minLevel < 0 || !notify) return false;
      const rank = LOG_LEVELS.indexOf(level);
      if (rank < 0) throw new TypeError(`log level must be one of ${LOG_LEVELS.join(", ")}`);
      if (rank < minLevel) return false;
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params.logger = logger;
      return notify({ jsonrpc: "2.0", method: Method.NotificationsMessage, params } as JSONRPCNotification);
    },
  };
}
