/**
 * One session of the `initialize` era (spec 2025-11-25: basic/lifecycle,
 * basic/transports "Session Management"), whatever carries it: what the
 * client declared in `initialize`, the log level it set, the resources it
 * subscribed to, and the server-to-client requests awaiting its answer.
 *
 * A transport makes one {@link LegacySession} per Streamable HTTP session (or
 * per stdio connection) and gives it a way to send a message
 * ({@link SessionLink}); the session never writes bytes itself.
 */
import type { RequestId } from "@x/mcp-v2511";
import { ErrorCode, Method } from "@x/mcp-v2511/constants";
import type { ClientCapabilities, Implementation, LoggingLevel } from "@x/mcp-v2607";
import { McpError } from "../../errors.js";
import { isObject, type JsonObject } from "../../objects.js";
import { errorCodeOf, publishMessageIgnored } from "../../telemetry.js";
import { publishOutbound, type TrafficPrincipal, trafficObserved } from "../../traffic.js";
import type { Binding, Revision } from "../revision.js";
import { revision2511 } from "./index.js";
import { type VersionTable, versionTable } from "./versions/index.js";

/** Default time a server-to-client request waits for the client's answer: 60 000 ms. */
export const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 60_000;

/** Most server-to-client requests one session may have waiting at once; past it an ask fails at once. */
export const MAX_PENDING_CLIENT_REQUESTS = 64;

/**
 * How a session's messages leave: `related` is the id of the client request
 * the message belongs to (its response stream, when it has one), `undefined`
 * for a message of the session as a whole (the GET stream over HTTP). Returns
 * false when the message could not be delivered nor stored for a later replay.
 */
export type SessionLink = (message: JsonObject, related: RequestId | undefined) => boolean;

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

import { ClientRequestError } from "../../errors.js";

export { ClientRequestError };

/** The JSON-RPC code a server-to-client request that timed out fails with (as the official SDKs use). */
export const REQUEST_TIMEOUT = -32001;

/** One session of the `initialize` era. */
export class LegacySession implements Binding {
  /**
   * The revision that reads and answers its requests.
   * @internal
   */
  readonly revision: Revision = revision2511;
  /** The session id (`Mcp-Session-Id`); the empty string on stdio, which has none. */
  readonly id: string;
  /** The negotiated protocol version (one of INITIALIZE_ERA_VERSIONS). */
  readonly protocolVersion: string;
  /**
   * What that version defines (`versions/`): every message the session sends is reduced to it.
   * @internal
   */
  readonly table: VersionTable;
  /** What the client declared in `initialize`. */
  readonly clientCapabilities: ClientCapabilities;
  /** The client's `clientInfo` from `initialize`. */
  readonly clientInfo: Implementation | undefined;
  #initialized = false;
  /** Requests of the server held until `notifications/initialized` arrives (the spec asks the server to wait for it). */
  readonly #held: (() => void)[] = [];
  /** The level set by `logging/setLevel`; `undefined`: the client did not ask for log messages. */
  logLevel: LoggingLevel | undefined = undefined;
  /** URIs the client subscribed to with `resources/subscribe`. */
  readonly subscriptions = new Set<string>();
  /** True once the session ended (DELETE, idle timeout, server closed, stdio input ended). */
  closed = false;
  /**
   * When the session last saw activity, in ms since the epoch: a message from
   * its client, or (over HTTP) a stream opened or closed, a request to the
   * client sent or settled. Idle timeouts count from it.
   */
  lastSeen = Date.now();
  /** How long a server-to-client request waits for its answer, in ms. */
  readonly requestTimeoutMs: number;
  /**
   * Called when a server-to-client request starts or stops waiting for its
   * answer (see {@link LegacySession.pending}): the HTTP transport does not
   * end a session whose client still owes it an answer.
   */
  onPendingChange: (() => void) | undefined = undefined;
  /**
   * Who opened the session (its token's subject and client id), for
   * `x-mcp:traffic`; set by the HTTP transport with the `auth` option.
   * @internal
   */
  principal: TrafficPrincipal | undefined = undefined;
  /**
   * What carries it, for `x-mcp:traffic`.
   * @internal
   */
  readonly via: "http" | "stdio";
  #link: SessionLink;
  readonly #pending = new Map<string, Pending>();
  #nextId = 0;
  readonly #idPrefix: string;

  /**
   * Made by the server's transports when `initialize` succeeds; handlers
   * never make one.
   * @param id the `Mcp-Session-Id`, or `""` on stdio
   * @param init what `initialize` negotiated
   * @param link how the session's messages reach the client (its stream, or stdout)
   * @param requestTimeoutMs how long a request to the client waits for its answer
   * @param requestIdPrefix what the ids of its requests to the client start with (instances sharing sessions each use their own)
   * @param via what carries it (`x-mcp:traffic` says so)
   */
  constructor(
    id: string,
    init: { protocolVersion: string; clientCapabilities: ClientCapabilities; clientInfo: Implementation | undefined },
    link: SessionLink,
    requestTimeoutMs = DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
    requestIdPrefix = "x-mcp-",
    via: "http" | "stdio" = "stdio",
  ) {
    this.via = via;
    this.#idPrefix = requestIdPrefix;
    this.id = id;
    this.protocolVersion = init.protocolVersion;
    this.table = versionTable(init.protocolVersion);
    this.clientCapabilities = init.clientCapabilities;
    this.clientInfo = init.clientInfo;
    // Every message of the session leaves through its link: traffic sees each there, once.
    this.#link = (message, related) => {
      const sent = link(message, related);
      if (sent && trafficObserved()) publishOutbound(via, this, message, related);
      return sent;
    };
    this.requestTimeoutMs = requestTimeoutMs;
  }

  /** True once `notifications/initialized` arrived. */
  get initialized(): boolean {
    return this.#initialized;
  }

  /**
   * Records `notifications/initialized` and sends the requests held until it
   * (spec 2025-11-25: basic/lifecycle, "Initialization": the server should
   * send nothing but pings and logging before it). Idempotent.
   */
  markInitialized(): void {
    if (this.#initialized) return;
    this.#initialized = true;
    for (const send of this.#held.splice(0)) send();
  }

  /** True when `id` is that of a request of this session waiting for its answer here. */
  waitsFor(id: unknown): boolean {
    return typeof id === "string" && this.#pending.has(id);
  }

  /** Server-to-client requests awaiting an answer. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Sends a notification, reduced to the session's version; false when it
   * could not be delivered, or when the version has no such notification
   * (then nothing is sent).
   */
  notify(method: string, params: JsonObject, related?: RequestId): boolean {
    if (this.closed) return false;
    const reduced = this.table.notification(method, params);
    if (reduced === undefined) return false;
    return this.#link({ jsonrpc: "2.0", method, params: reduced }, related);
  }

  /**
   * Sends a server-to-client request (`elicitation/create`,
   * `sampling/createMessage`, `roots/list`) and resolves with the client's
   * result; before `notifications/initialized` the request is held, and sent
   * when it arrives. Aborting `signal` sends `notifications/cancelled` and rejects.
   * The params are sent as the session's version carries them.
   * @throws ClientRequestError (rejects) with -32601 when the version cannot
   *   carry the request (no such method, or params it cannot express: a
   *   handler's ask checks that first, with {@link LegacySession.carries}),
   *   when the client answers with an error
   *   (its code), does not answer within {@link LegacySession.requestTimeoutMs}
   *   (-32001, its message naming the method, the elicitation's message or the
   *   request's id, and the limit), the session ends, or the request cannot be
   *   delivered (-32000).
   */
  request(method: string, params: JsonObject, related: RequestId | undefined, signal?: AbortSignal): Promise<unknown> {
    if (this.closed) return Promise.reject(new ClientRequestError(-32000, `${method}: the session has ended`));
    const carried = this.table.request(method, params);
    if (carried === undefined) {
      return Promise.reject(
        new ClientRequestError(ErrorCode.MethodNotFound, `${method}: protocol version ${this.protocolVersion} cannot carry this request`),
      );
    }
    params = carried;
    if (signal?.aborted) return Promise.reject(new ClientRequestError(-32000, `${method}: the request was cancelled`));
    if (this.#pending.size >= MAX_PENDING_CLIENT_REQUESTS) {
      return Promise.reject(
        new ClientRequestError(-32000, `${method}: ${MAX_PENDING_CLIENT_REQUESTS} requests to the client are already waiting`),
      );
    }
    // A string id of our own: it never collides with the client's ids, which live in the other direction.
    const id = `${this.#idPrefix}${++this.#nextId}`;
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let sent = false;
      const done = () => {
        if (this.#pending.delete(id)) this.onPendingChange?.();
        if (timer) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        done();
        if (sent) this.notify(Method.NotificationsCancelled, { requestId: id, reason: "the server's request was cancelled" }, related);
        reject(new ClientRequestError(-32000, `${method}: the request was cancelled`));
      };
      this.#pending.set(id, {
        resolve: (result) => {
          done();
          resolve(result);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      this.onPendingChange?.();
      signal?.addEventListener("abort", onAbort, { once: true });
      if (this.requestTimeoutMs > 0) {
        timer = setTimeout(() => {
          done();
          if (sent) this.notify(Method.NotificationsCancelled, { requestId: id, reason: "timed out" }, related);
          reject(
            new ClientRequestError(
              REQUEST_TIMEOUT,
              `${question(method, params, id)}: the client did not answer within ${this.requestTimeoutMs} ms (clientRequestTimeoutMs)`,
            ),
          );
        }, this.requestTimeoutMs);
        timer.unref?.();
      }
      const send = () => {
        if (!this.#pending.has(id)) return; // timed out or cancelled while held
        sent = true;
        if (!this.#link({ jsonrpc: "2.0", id, method, params }, related)) {
          done();
          reject(new ClientRequestError(-32000, `${method}: the request could not be sent to the client (no open stream)`));
        }
      };
      // Held (within the same timeout) until the client said it is initialized.
      if (this.#initialized) send();
      else this.#held.push(send);
    });
  }

  /** True when the session's version can carry request `method` with `params` (see {@link LegacySession.request}). */
  carries(method: string, params: JsonObject): boolean {
    return this.table.request(method, params) !== undefined;
  }

  /**
   * A notification related to one of the client's requests (progress, a log
   * message), as the session's version carries it; `undefined` when the
   * version has no such notification.
   */
  outbound(notification: JsonObject): JsonObject | undefined {
    const method = notification.method;
    if (typeof method !== "string") return undefined;
    const params = this.table.notification(method, isObject(notification.params) ? notification.params : undefined);
    return params === undefined ? undefined : { jsonrpc: "2.0", method, params };
  }

  /**
   * Settles the server-to-client request a JSON-RPC response answers. Returns
   * false when the response answers no request waiting here (then it is dropped).
   */
  settle(response: JsonObject): boolean {
    const id = response.id;
    const pending = typeof id === "string" ? this.#pending.get(id) : undefined;
    if (!pending) {
      publishMessageIgnored({ reason: "unsolicited-response", requestId: id as RequestId | undefined, code: errorCodeOf(response) });
      return false;
    }
    if (isObject(response.error)) {
      const code = Number.isInteger(response.error.code) ? (response.error.code as number) : ErrorCode.InternalError;
      const message = typeof response.error.message === "string" ? response.error.message : "error";
      pending.reject(new ClientRequestError(code, `the client answered with error ${code}: ${message}`));
    } else pending.resolve(response.result);
    return true;
  }

  /** Ends the session: every waiting request fails, nothing more is sent. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const pending of [...this.#pending.values()]) pending.reject(new ClientRequestError(-32000, "the session has ended"));
    this.#pending.clear();
    this.#held.length = 0;
    this.subscriptions.clear();
    this.#link = () => false;
  }
}

/**
 * A server-to-client request as a person reading a log knows it: its method,
 * the question it put (an elicitation's `message`, at most 100 characters)
 * and its id, e.g. `elicitation/create "Your name?" (request x-mcp-3)`.
 */
function question(method: string, params: JsonObject, id: string): string {
  const message = params.message;
  if (typeof message !== "string") return `${method} (request ${id})`;
  const shown = message.length > 100 ? `${message.slice(0, 100)}...` : message;
  return `${method} ${JSON.stringify(shown)} (request ${id})`;
}

/** Refuses a method the era does not have, or one sent before the session is initialized. */
export function notInitialized(method: string): McpError {
  return new McpError(ErrorCode.InvalidRequest, `Invalid request: ${method} before notifications/initialized`);
}
