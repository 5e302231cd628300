/**
 * The messages a client POSTs on an `initialize`-era session over
 * Streamable HTTP (spec 2025-11-25: basic/transports): requests, answered as
 * JSON or on an SSE stream of their own, and notifications and responses,
 * acted on and answered 202. The session's life (its opening, its GET
 * stream, its end) is `framing.ts`'s.
 */
import { stringifyJson } from "@x/jsonrpc";
import { ErrorCode, Method } from "@x/mcp-v2511/constants";
import { Header } from "@x/mcp-v2511/wire";
import { type InboundRequest, internalErrorOutcome, type Outcome } from "../../../dispatch.js";
import type { JsonObject } from "../../../objects.js";
import { answerNow } from "../../../server.js";
import { Call } from "../../../transports/call.js";
import { errorAnswer, SSE_HEADERS, settleAnswer } from "../../../transports/http/answers.js";
import type { Core } from "../../../transports/http/core.js";
import type { Exchange, HttpAnswer } from "../../../transports/http/exchange.js";
import { legacyValidators } from "../era.js";
import { endedStream, type SessionStreams } from "./session-streams.js";
import type { HttpSession, LegacyCall, SessionTable } from "./session-table.js";
import type { SharedSessions } from "./shared.js";

/** What the messages of a session need of the framing of one transport core. */
export interface SessionParts {
  readonly core: Core;
  /** This process's sessions. */
  readonly live: SessionTable;
  readonly streams: SessionStreams;
  /** With a store other instances share: its part of the framing. */
  readonly shared: SharedSessions | undefined;
  /** This instance's part of stream ids ("" unshared). */
  readonly instance: string;
}

/**
 * The status of an answer on a session: 200 for every JSON-RPC answer, as
 * the era's clients read 404 as "session ended" and 400 as a transport
 * refusal, so a method error must not borrow them (an `execute` override may
 * still ask for a status).
 */
function sessionStatus(outcome: Outcome): number {
  return outcome.status ?? 200;
}

/** A notification or response (or a batch of responses) POSTed on a session: 202, after acting on it. */
export function receivedOnSession(on: SessionParts, ex: Exchange): HttpAnswer | Promise<HttpAnswer> {
  const live = ex.session as HttpSession;
  const inbound = ex.inbound!;
  // With a shared store, an answer to a request waiting on another instance goes there.
  const settle = (r: JsonObject) => (on.shared ? on.shared.settle(live, r) : live.session.settle(r));
  if (inbound.kind === "response") {
    settle(inbound as unknown as JsonObject);
  } else if (inbound.kind === "responses") {
    for (const response of inbound.responses) settle(response as unknown as JsonObject);
  } else if (inbound.kind === "notification") {
    const { method, params } = inbound;
    if (method === Method.NotificationsInitialized) live.session.markInitialized();
    else if (
      method === Method.NotificationsCancelled &&
      live.session.initialized &&
      legacyValidators().CancelledNotificationParams(params)
    ) {
      live.calls.get(params.requestId)?.call.abort();
    }
    // Any other notification (and one before initialized) is dropped: it has no answer.
  }
  on.live.touch(live); // the handshake may have completed
  const answer = { status: 202, headers: { ...ex.cors }, body: "" };
  return on.shared ? on.shared.saved(live, answer) : answer;
}

/**
 * A request on a session: answered as JSON, or as an SSE stream when the
 * handler sends something first, or, for a method that may ask the client
 * (`tools/call`, `prompts/get`, `resources/read`) when the client accepts
 * SSE, as soon as the handler does not answer at once. The stream opens
 * with a priming event (an id, empty data, `retry`). The connection going away does not cancel the request
 * (spec 2025-11-25: only `notifications/cancelled` does): its events are
 * stored for a `Last-Event-ID` resume, and it no longer counts in
 * `maxConcurrentRequests`, only in the session's `maxRequestsPerSession`.
 */
export function callOnSession(on: SessionParts, ex: Exchange, inbound: InboundRequest): HttpAnswer | Promise<HttpAnswer> {
  const core = on.core;
  const live = ex.session as HttpSession;
  const refused = refusal(on, ex, live, inbound);
  if (refused) return refused;
  const accepts = ex.accepts;
  const cors = ex.cors;
  const sessionHeader = { [Header.sessionId]: live.session.id };
  const call = new Call("http");
  if (ex.assigns) call.assigns = ex.assigns;
  if (ex.auth) call.auth = ex.auth;
  call.status = sessionStatus;
  const streamId = `p${on.instance}${++live.streams}`;
  let streamAnswer: HttpAnswer | undefined;
  let resolveAnswer: ((a: HttpAnswer) => void) | undefined;
  const start = () => {
    // A client gone already reads nothing: the events are only stored, for a resume.
    const queue = entry.waiting ? on.streams.attach(live, streamId, entry) : endedStream();
    // From here the stream's attachment says whether a connection waits on the call.
    entry.waiting = false;
    on.streams.emit(live, streamId, undefined);
    streamAnswer = { status: 200, headers: { ...SSE_HEADERS, ...cors, ...sessionHeader }, stream: queue };
    resolveAnswer?.(streamAnswer);
  };
  const entry: LegacyCall = {
    streamId,
    call,
    done: false,
    waiting: true,
    held: false,
    send: (message) => {
      if (entry.done) return false;
      if (!accepts.sse) return on.streams.emit(live, "get", message);
      if (!streamAnswer) start();
      return on.streams.emit(live, streamId, message);
    },
    clientGone: () => {
      entry.waiting = false;
      on.streams.hold(live, entry);
    },
  };
  live.calls.set(inbound.id, entry);
  on.streams.hold(live, entry);
  ex.watch(entry);
  call.notify = (note) => entry.send(note as unknown as JsonObject);
  const finish = (outcome: Outcome): HttpAnswer | undefined => {
    entry.done = true;
    call.done = true;
    ex.unwatch();
    if (live.calls.get(inbound.id) === entry) live.calls.delete(inbound.id);
    if (streamAnswer) {
      if (!call.aborted && outcome.response) on.streams.emit(live, streamId, outcome.response as unknown as JsonObject);
      on.streams.detach(live, streamId, true);
    }
    on.streams.hold(live, entry);
    on.live.touch(live);
    if (streamAnswer) return undefined;
    return {
      status: sessionStatus(outcome),
      headers: { "content-type": "application/json", ...cors, ...sessionHeader },
      body: stringifyJson(outcome.response),
    };
  };
  let outcome: Outcome | Promise<Outcome>;
  try {
    outcome = answerNow(core.server, inbound, call);
  } catch {
    outcome = internalErrorOutcome(inbound.id);
  }
  // A method that may ask the client gets its SSE stream (and its priming event, for a resume
  // after a dropped connection) as soon as it is known to run on; one answered at once gets
  // JSON, as there is nothing to resume.
  if (outcome instanceof Promise && !streamAnswer && accepts.sse && inbound.entry?.asks === true) start();
  const answer = settleAnswer(
    outcome,
    inbound,
    finish,
    () => streamAnswer,
    (resolve) => {
      resolveAnswer = resolve;
    },
  );
  const shared = on.shared;
  if (!shared) return answer;
  // A request that changed the session (logging/setLevel, resources/subscribe) is answered once the store has it.
  return answer instanceof Promise ? answer.then((a) => shared.saved(live, a)) : shared.saved(live, answer);
}

/**
 * Why a request on `live` is not run, if it is not: its session has
 * `maxRequestsPerSession` in flight (429), or one with its id (400: ids
 * are unique among a session's requests, and a second one would slip past
 * that count).
 */
function refusal(on: SessionParts, ex: Exchange, live: HttpSession, inbound: InboundRequest): HttpAnswer | undefined {
  if (live.calls.has(inbound.id)) {
    const message = `Invalid Request: request id ${stringifyJson(inbound.id)} is already in flight on this session`;
    return errorAnswer(400, ErrorCode.InvalidRequest, message, inbound.id, ex.cors, inbound.method);
  }
  if (live.calls.size < on.live.requestsPerSession) return undefined;
  const message = `Too many requests: ${on.live.requestsPerSession} in flight on this session (maxRequestsPerSession)`;
  return errorAnswer(429, -32000, message, inbound.id, { "retry-after": "1", ...ex.cors }, inbound.method);
}
