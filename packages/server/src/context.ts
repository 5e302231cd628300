/**
 * The per-request context handed to every handler (spec 2026-07-28,
 * basic/index "Request metadata").
 */
import type { ClientCapabilities, Implementation, RequestId, RequestMetaObject } from "@x/mcp-v2607";

/**
 * What a transport knows about one incoming request, beyond its body.
 * Transports fill it; user code may add `assigns` (for example the result of
 * an authentication step) through the transport's `assigns` option.
 */
export interface TransportInfo {
  /** Aborted when the client goes away (HTTP connection closed, stdio `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Per-request data from outside the protocol (authentication, tenant, ...). Never persisted between requests. */
  assigns?: Readonly<Record<string, unknown>>;
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
}
