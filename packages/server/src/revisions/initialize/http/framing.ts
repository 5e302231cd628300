/**
 * The `initialize` era on Streamable HTTP (spec 2025-11-25:
 * basic/transports): sessions minted on `initialize` (`Mcp-Session-Id`),
 * required afterwards, ended by DELETE or an idle timeout; the GET stream
 * for messages of the session as a whole; POST responses as JSON or SSE;
 * server-to-client requests on the stream of the request they serve (or the
 * GET stream), their answers POSTed back; SSE event ids, `retry`, and replay
 * after `Last-Event-ID` from an {@link EventStore}.
 *
 * The transport core asks it as its {@link HttpFraming} (the seam of
 * `transports/http/framing.ts`) at four rungs of its ladder: `verb` (GET and
 * DELETE), `claim` (the session and `MCP-Protocol-Version` checks, once the
 * body is decoded: a request carrying the 2026-07-28 envelope is not of this
 * era, whatever session it names), the opening (`initialize`) and the call
 * or message on a session (those two are `session-messages.ts`'s).
 */
import { parseJson, stringifyJson } from "@x/jsonrpc";
import { ErrorCode, Method } from "@x/mcp-v2511/constants";
import { Header, isInitializeEraVersion, isValidSessionId, VERSION_WITHOUT_HEADER } from "@x/mcp-v2511/wire";
import type { RequestId } from "@x/mcp-v2607";
import { principalOf } from "../../../authorization.js";
import { errorOutcome, type InboundRequest, internalErrorOutcome } from "../../../dispatch.js";
import { isProtocolError } from "../../../errors.js";
import type { JsonObject } from "../../../objects.js";
import { partsOf } from "../../../server.js";
import { errorAnswer, SSE_HEADERS } from "../../../transports/http/answers.js";
import type { Core } from "../../../transports/http/core.js";
import type { Exchange, HttpAnswer } from "../../../transports/http/exchange.js";
import type { HttpFraming } from "../../../transports/http/framing.js";
import { statusOf } from "../../../transports/http/status.js";
import { ChunkQueue } from "../../../transports/sse.js";
import { trafficObserved, trafficPrincipal } from "../../../traffic.js";
import { openingEnded, openingStarted } from "../opening.js";
import { initializeRefused } from "../../2026-07-28/index.js";
import { readInitialize, selectsLaterEra } from "../era.js";
import type { LegacyChange, LegacyParts } from "../parts.js";
import { LegacySession } from "../session.js";
import { answerBatch } from "./legacy-batch.js";
import { callOnSession, receivedOnSession, type SessionParts } from "./session-messages.js";
import { DEFAULT_SSE_RETRY_MS, type LegacyHttpOptions } from "./options.js";
import { SessionStreams } from "./session-streams.js";
import { DEFAULT_SESSION_IDLE_MS, HttpSession, SessionTable, UNINITIALIZED_SESSION_IDLE_MS } from "./session-table.js";
import { type EventStore, MemoryEventStore, MemorySessionStore, type SessionSignal, type SessionStore } from "./sessions.js";
import { recordOf, SharedSessions, stateOf, unavailable } from "./shared.js";

/** The `initialize` era of one transport core. */
export class LegacyHttp implements HttpFraming {
  readonly #core: Core;
  readonly #parts: LegacyParts;
  readonly #store: SessionStore;
  readonly #events: EventStore | undefined;
  readonly #live: SessionTable;
  readonly #streams: SessionStreams;
  readonly #idleMs: number;
  #sweep: ReturnType<typeof setInterval> | undefined;
  /** With a store other instances share (`SessionStore.shared`): its part of the framing. */
  readonly #shared: SharedSessions | undefined;
  /** This instance's part of request and stream ids ("" unshared). */
  readonly #instance: string;
  #unlisten: (() => void) | undefined;

  /** What the messages on a session (`session-messages.ts`) use of this framing. */
  readonly #on: SessionParts;

  /** GET (a session's stream) and DELETE (its end), while the era is served. */
  readonly methods: readonly string[];
  readonly requestHeaders: readonly string[] = ["last-event-id", "mcp-session-id"];
  readonly exposedHeaders: readonly string[] = ["mcp-session-id"];

  /** @throws RangeError naming the option when a session bound of `options` is not an integer of at least 1. */
  constructor(core: Core, parts: LegacyParts, options: LegacyHttpOptions) {
    this.#core = core;
    this.#parts = parts;
    this.#store = options.sessionStore ?? new MemorySessionStore();
    this.#events = options.eventStore === false ? undefined : (options.eventStore ?? new MemoryEventStore());
    const store = this.#store;
    const shared = store.shared === true;
    this.#instance = shared ? `${store.instance ?? globalThis.crypto.randomUUID().slice(0, 8)}-` : "";
    this.#live = new SessionTable(options.maxSessions, options.maxSessionsPerPrincipal, options.maxRequestsPerSession);
    const relay = shared ? (signal: SessionSignal) => store.signal?.(signal) : undefined;
    this.#streams = new SessionStreams(core, this.#live, this.#events, options.sseRetryMs ?? DEFAULT_SSE_RETRY_MS, relay);
    this.#shared = shared
      ? new SharedSessions(store, this.#live, this.#streams, {
          hold: (record) => this.#hold(record.id, record, record.principal),
          end: (live) => this.end(live, false),
          versions: parts.versions,
          report: (error) => partsOf(core.server).report(error, "reading a session record"),
        })
      : undefined;
    this.#idleMs = options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#on = { core, live: this.#live, streams: this.#streams, shared: this.#shared, instance: this.#instance };
    this.methods = this.served ? ["GET", "DELETE"] : [];
  }

  // The server knows this core only while it has sessions: a handler with none leaves nothing registered.
  readonly #watch = (change: LegacyChange) => this.#changed(change);
  readonly #close = () => this.closeAll();

  /** True when the server serves the era (its `protocolVersions` list one of its versions). */
  get served(): boolean {
    return this.#parts.versions.length > 0;
  }

  /** A body may be a batch wherever the era is served; `batch` refuses one not on a session of 2025-03-26. */
  get batches(): boolean {
    return this.served;
  }

  batch(ex: Exchange, climb: (member: Exchange) => HttpAnswer | Promise<HttpAnswer>): HttpAnswer | Promise<HttpAnswer> {
    return answerBatch(ex, climb);
  }

  /** Sessions open in this process. */
  get size(): number {
    return this.#live.size;
  }

  /** The open session with `id` (for tests and diagnostics), or `undefined`. */
  session(id: string): LegacySession | undefined {
    return this.#live.get(id)?.session;
  }

  /**
   * GET (the session's stream, or a resumed one) and DELETE (ends the
   * session); without `Mcp-Session-Id`, 405 saying one is needed;
   * `undefined` for any other method, or when the era is not served.
   */
  verb(ex: Exchange, allow: string): HttpAnswer | Promise<HttpAnswer> | undefined {
    if (!this.served || (ex.method !== "GET" && ex.method !== "DELETE")) return undefined;
    const id = ex.header(Header.sessionId);
    if (id === undefined) {
      const why = `${ex.method} needs the Mcp-Session-Id of an initialize-era session; send requests with POST`;
      return errorAnswer(405, ErrorCode.InvalidRequest, `Method not allowed: ${why}`, undefined, { allow, ...ex.cors });
    }
    const found = this.#find(ex, id);
    if (found instanceof Promise) return found.then((f) => this.#verbOn(ex, f));
    return this.#verbOn(ex, found);
  }

  #verbOn(ex: Exchange, found: HttpSession | HttpAnswer): HttpAnswer | Promise<HttpAnswer> {
    if (!(found instanceof HttpSession)) return found;
    this.#live.touch(found);
    if (ex.method === "DELETE") {
      this.end(found);
      return { status: 200, headers: { ...ex.cors }, body: "" };
    }
    const accept = ex.header("accept") ?? "";
    if (!/text\/event-stream|text\/\*|\*\/\*/i.test(accept)) {
      return errorAnswer(
        406,
        ErrorCode.InvalidRequest,
        "Not acceptable: the GET stream needs Accept: text/event-stream",
        undefined,
        ex.cors,
      );
    }
    return this.#streams.openGet(ex, found);
  }

  /**
   * The POST rung after the body is decoded (`ex.decoded`): with
   * `Mcp-Session-Id`, the session must be known (404) and
   * `MCP-Protocol-Version`, when sent, a version of the era (400), unless the
   * message is a request carrying the 2026-07-28 envelope: that one ignores
   * the header ({@link selectsLaterEra}). Without it, remembers whether the
   * version header names the era (then a message other than a request
   * lacks its session: 400).
   */
  claim(ex: Exchange): HttpAnswer | undefined | Promise<HttpAnswer | undefined> {
    if (!this.served) return undefined;
    const id = ex.header(Header.sessionId);
    const version = ex.header(Header.protocolVersion);
    if (id === undefined) {
      ex.expectsSession = version !== undefined && isInitializeEraVersion(version);
      return undefined;
    }
    if (selectsLaterEra(ex.decoded?.value)) return undefined;
    const found = this.#find(ex, id);
    if (found instanceof Promise) return found.then((f) => this.#claimed(ex, f));
    return this.#claimed(ex, found);
  }

  #claimed(ex: Exchange, found: HttpSession | HttpAnswer): HttpAnswer | undefined {
    if (!(found instanceof HttpSession)) return found;
    ex.session = found;
    this.#live.touch(found);
    return undefined;
  }

  /** The session a request names: from this process's table, or with a shared store from its record (`SharedSessions.find`). */
  #find(ex: Exchange, id: string): HttpSession | HttpAnswer | Promise<HttpSession | HttpAnswer> {
    if (!isValidSessionId(id))
      return errorAnswer(400, ErrorCode.InvalidRequest, "Bad Request: malformed Mcp-Session-Id", undefined, ex.cors);
    if (this.#shared)
      return this.#shared.find(ex, id).then((found) => (found instanceof HttpSession || !found ? this.#admit(ex, found) : found));
    return this.#admit(ex, this.#live.get(id));
  }

  #admit(ex: Exchange, live: HttpSession | undefined): HttpSession | HttpAnswer {
    // Another principal's session is not told apart from an unknown one: its id reveals nothing.
    if (!live || live.session.closed || live.principal !== principalOf(ex.auth)) {
      return errorAnswer(404, -32001, "Session not found: it ended or never existed; send initialize again", undefined, ex.cors);
    }
    const version = ex.header(Header.protocolVersion) ?? VERSION_WITHOUT_HEADER;
    if (!this.#parts.versions.includes(version)) {
      return errorAnswer(
        400,
        ErrorCode.InvalidRequest,
        `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${this.#parts.versions.join(", ")})`,
        undefined,
        ex.cors,
      );
    }
    return live;
  }

  /** The answer when a request other than `initialize` came without a session while the version header names the era. */
  missingSession(ex: Exchange): HttpAnswer {
    return errorAnswer(
      400,
      ErrorCode.InvalidRequest,
      "Bad Request: Mcp-Session-Id header is required (send initialize first)",
      undefined,
      ex.cors,
    );
  }

  /** `initialize`: negotiates, mints the session, answers with its id (and publishes it on `x-mcp:traffic`). */
  open(ex: Exchange, id: RequestId, params: JsonObject): Promise<HttpAnswer> {
    if (!trafficObserved()) return this.#open(ex, id, params, undefined);
    const opening = openingStarted("http", id, params, ex.auth);
    const sent: { response?: unknown } = {};
    return this.#open(ex, id, params, sent).then((answer) => {
      const sessionId = answer.headers[Header.sessionId];
      const session = sessionId === undefined ? undefined : this.#live.get(sessionId)?.session;
      const response = sent.response ?? ("body" in answer ? parseJson(answer.body) : undefined);
      openingEnded(opening, response, answer.status, session);
      return answer;
    });
  }

  /** {@link LegacyHttp.open}; `sent.response` gets the response of a session opened (when traffic is watched). */
  async #open(ex: Exchange, id: RequestId, params: JsonObject, sent: { response?: unknown } | undefined): Promise<HttpAnswer> {
    const headers = (extra: Record<string, string> = {}) => ({ "content-type": "application/json", ...ex.cors, ...extra });
    if (!this.served) {
      const outcome = initializeRefused(id, params, this.#core.server.supportedVersions);
      return { status: statusOf(outcome), headers: headers(), body: stringifyJson(outcome.response) };
    }
    let info: Awaited<ReturnType<typeof readInitialize>>;
    try {
      info = await readInitialize(params, this.#parts.versions);
    } catch (error) {
      const outcome = isProtocolError(error)
        ? errorOutcome(id, error.code, error.message, error.data, "message")
        : internalErrorOutcome(id);
      return { status: statusOf(outcome), headers: headers(), body: stringifyJson(outcome.response) };
    }
    const principal = principalOf(ex.auth);
    const reclaimed = this.#live.reclaim(principal, this.#shared ? this.#live.size : this.#store.size);
    if (reclaimed === "principal") {
      const message = `Too many sessions: ${this.#live.perPrincipal} open for this principal, none idle`;
      return errorAnswer(429, -32000, message, id, { "retry-after": "1", ...ex.cors });
    }
    if (reclaimed === "full") {
      return errorAnswer(503, -32000, `Server busy: ${this.#live.max} sessions open, none idle`, id, { "retry-after": "1", ...ex.cors });
    }
    // The same end as DELETE or the idle timeout: nothing of the session is kept, and its id gets 404.
    // (Shared: only this process's copy goes; the session lives on in the store.)
    if (reclaimed) this.end(reclaimed, !this.#shared);
    // Web Crypto, not node:crypto: the fetch adapter also runs on hosts without Node modules.
    const sessionId = globalThis.crypto.randomUUID();
    const live = this.#hold(sessionId, info, principal);
    live.session.principal = trafficPrincipal(ex.auth);
    live.saved = stateOf(live.session);
    try {
      await this.#store.save(recordOf(live));
    } catch {
      this.end(live, false);
      return unavailable(ex, "Service unavailable: the session store cannot be written now", id);
    }
    const opening = { id, info, transport: { auth: ex.auth, assigns: ex.assigns } };
    const response = { jsonrpc: "2.0", id, result: this.#parts.initializeResult(info.protocolVersion, opening) };
    if (sent) sent.response = response;
    const body = stringifyJson(response);
    if (!ex.accepts.json) {
      const queue = new ChunkQueue();
      queue.push(`event: message\ndata: ${body}\n\n`);
      queue.end();
      return { status: 200, headers: { ...SSE_HEADERS, ...ex.cors, [Header.sessionId]: sessionId }, stream: queue };
    }
    return { status: 200, headers: headers({ [Header.sessionId]: sessionId }), body };
  }

  /**
   * Makes a session of this process and holds it in its table, its messages
   * routed to its streams (the server then tells this core of changes and of its close).
   */
  #hold(id: string, info: ConstructorParameters<typeof LegacySession>[1], principal: string | undefined): HttpSession {
    let live: HttpSession | undefined;
    const session = new LegacySession(
      id,
      info,
      (message, related) => (live ? this.#streams.route(live, message, related) : false),
      this.#parts.requestTimeoutMs,
      `x-mcp-${this.#instance}`,
      "http",
    );
    const held = new HttpSession(session, principal);
    live = held;
    session.onPendingChange = () => this.#live.touch(held);
    this.#live.add(held);
    if (this.#live.size === 1) {
      this.#parts.watchers.add(this.#watch);
      this.#parts.closers.add(this.#close);
      const shared = this.#shared;
      if (shared) this.#unlisten = this.#store.listen?.((signal) => shared.signalled(signal));
      this.#startSweep();
    }
    return held;
  }

  /** A notification or response (or a batch of responses) POSTed on a session: 202, after acting on it. */
  received(ex: Exchange): HttpAnswer | Promise<HttpAnswer> {
    return receivedOnSession(this.#on, ex);
  }

  /** A request on a session: JSON, or an SSE stream of its own (see `callOnSession`). */
  call(ex: Exchange, inbound: InboundRequest): HttpAnswer | Promise<HttpAnswer> {
    return callOnSession(this.#on, ex, inbound);
  }

  /**
   * Ends a session: its streams close, its requests are aborted, its
   * requests to the client fail, its events are forgotten. With a shared
   * store and `everywhere` false, only this process's copy ends (its live
   * parts); the session lives on in the store for the other instances.
   */
  end(live: HttpSession, everywhere = true): void {
    const id = live.session.id;
    live.session.close();
    const calls = [...live.calls.values()];
    live.calls.clear();
    for (const entry of calls) entry.call.abort();
    for (const streamId of [...live.attached.keys()]) this.#streams.detach(live, streamId, true);
    // Aborted, but a handler may run on: until it returns, its call takes a place in maxConcurrentRequests.
    for (const entry of calls) this.#streams.hold(live, entry);
    this.#live.delete(live);
    if (!this.#shared || everywhere) {
      this.#events?.forget(id);
      // A shared store's failure to forget leaves the record to its expiry.
      Promise.resolve(this.#store.delete(id)).catch(() => {});
      if (this.#shared) this.#store.signal?.({ kind: "end", session: id });
    }
    if (this.#live.size === 0) {
      this.#stopSweep();
      this.#parts.watchers.delete(this.#watch);
      this.#parts.closers.delete(this.#close);
      this.#unlisten?.();
      this.#unlisten = undefined;
    }
  }

  /** Ends every session (the server is closing); with a shared store, only this process's copies, the other instances serve on. */
  closeAll(): void {
    for (const live of [...this.#live.values()]) this.end(live, !this.#shared);
  }

  /** A change the server announced: to every initialized session that should hear it, on its GET stream. */
  #changed(change: LegacyChange): void {
    for (const live of this.#live.values()) {
      const session = live.session;
      // Shared: each instance hears every change, so only the one holding the GET stream tells the session.
      if (!session.initialized || (this.#shared && !live.attached.has("get"))) continue;
      if (change.kind === "list") session.notify(`notifications/${change.list}/list_changed`, {});
      else if (session.subscriptions.has(change.uri)) session.notify(Method.NotificationsResourcesUpdated, { uri: change.uri });
    }
  }

  #startSweep(): void {
    if (this.#sweep || this.#idleMs <= 0) return;
    const every = Math.min(this.#idleMs, UNINITIALIZED_SESSION_IDLE_MS) / 2;
    this.#sweep = setInterval(() => this.sweep(Date.now()), Math.max(10, every));
    this.#sweep.unref?.();
  }

  #stopSweep(): void {
    if (this.#sweep) clearInterval(this.#sweep);
    this.#sweep = undefined;
  }

  /**
   * Ends the sessions idle (no request in flight, no open stream, no request
   * to the client waiting) since before `now - sessionIdleTimeoutMs`, and
   * those that never sent `notifications/initialized` after
   * {@link UNINITIALIZED_SESSION_IDLE_MS}.
   */
  sweep(now: number): void {
    if (this.#idleMs <= 0) return;
    const uninitialized = Math.min(this.#idleMs, UNINITIALIZED_SESSION_IDLE_MS);
    // Shared: an idle copy is let go of here; the session itself expires in the store.
    for (const live of this.#live.expired(now, this.#idleMs, uninitialized)) this.end(live, !this.#shared);
  }
}
