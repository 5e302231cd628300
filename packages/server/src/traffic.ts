/**
 * Traffic: every message the server reads from a client or writes to one,
 * published on the diagnostics channel `x-mcp:traffic` (a devtools page, a
 * request log, a recorder subscribes to it). As with the other channels
 * (`telemetry.ts`), nothing is built unless someone subscribes: a server with
 * no subscriber pays one `hasSubscribers` read per request.
 *
 * | `kind` | published when |
 * | --- | --- |
 * | `"request"` | a request from a client reached the dispatcher (`phase: "start"`), and again when it is answered (`phase: "end"`, the same object with `response`, `status` and `durationMs` set) |
 * | `"message"` | a notification or a response read from a client, a notification or a request written to one |
 * | `"stream"` | a stream of server messages opened or closed (an `initialize`-era GET stream, a `subscriptions/listen` stream) |
 * | `"task"` | a task was made or changed status (the tasks plug-in) |
 *
 * Events carry the principal as its subject and client id only: never a
 * token, a key, a cookie or a header. The message members (`params`,
 * `response`, `message`) are the server's own objects, not copies: a
 * subscriber reads them (or writes them out) at once and never changes them.
 */
import { channel } from "node:diagnostics_channel";
import type { Implementation, RequestId } from "@x/mcp-v2607";
import type { AuthInfo } from "./authorization.js";
import type { TransportInfo } from "./context.js";
import { type Inbound, type InboundRequest, type JSONRPCResponse, type Outcome, rejected } from "./dispatch.js";
import { isObject, type JsonObject } from "./objects.js";
import type { Binding } from "./revisions/revision.js";
import { CHANNELS, rejectionsObserved } from "./telemetry.js";

/** The name of the traffic channel. */
export const TRAFFIC_CHANNEL = CHANNELS.traffic;

/**
 * What carried a message: Streamable HTTP (and the deprecated HTTP+SSE
 * binding), stdio, or `"direct"`: `McpServer.handle`/`execute` called by
 * code, with no transport of this package.
 */
export type TrafficTransport = "http" | "stdio" | "direct";

/** Whom a request came from, as its verified token says (never the token itself). */
export interface TrafficPrincipal {
  /** The token's subject (`sub`), when it names one. */
  readonly subject: string | undefined;
  /** The OAuth client the token was issued to, when it names one. */
  readonly clientId: string | undefined;
}

/** What every traffic event says. */
export interface TrafficBase {
  /** Increases by one per event in this process (a request's start and end share theirs). */
  readonly seq: number;
  /** `Date.now()` when the event was made, in milliseconds since the epoch. */
  readonly time: number;
  /** What carried it. */
  readonly transport: TrafficTransport;
  /** The revision that serves it, by its diagnostics name (`"2026-07-28"`, `"initialize"`); `undefined` where none was picked yet. */
  readonly era: string | undefined;
  /** The protocol version it is served in, when known. */
  readonly protocolVersion: string | undefined;
  /** The `initialize`-era session's `Mcp-Session-Id` over HTTP; `undefined` in 2026-07-28 and over stdio (one connection, one session). */
  readonly sessionId: string | undefined;
  /** The principal of the request's bearer token; `undefined` without one. */
  readonly principal: TrafficPrincipal | undefined;
  /** The client's `clientInfo` (the request's `_meta` in 2026-07-28, the session's `initialize` before), when known. */
  readonly clientInfo: Implementation | undefined;
}

/** A request from a client: published at `"start"`, then (the same object) at `"end"`. */
export interface RequestTraffic extends TrafficBase {
  readonly kind: "request";
  /** `"start"` when the dispatcher took it, `"end"` once it is answered. */
  phase: "start" | "end";
  /** The JSON-RPC id. */
  readonly requestId: RequestId;
  /** The method. */
  readonly method: string;
  /** The params as read (`_meta`, `inputResponses` and `requestState` included). */
  readonly params: JsonObject;
  /** Set at end: milliseconds from start to end. */
  durationMs: number | undefined;
  /** Set at end: the JSON-RPC response sent (a result, or an error). */
  response: JSONRPCResponse | undefined;
  /** Set at end: the HTTP status the response went out with; `undefined` over stdio and `"direct"`. */
  status: number | undefined;
}

/** One other message read from or written to a client. */
export interface MessageTraffic extends TrafficBase {
  readonly kind: "message";
  /** `"in"`: from the client; `"out"`: to it. */
  readonly direction: "in" | "out";
  /** The JSON-RPC message: a notification, a response, or (out, `initialize` era) a request to the client. */
  readonly message: JsonObject;
  /** The client request it belongs to (a progress notification, an elicitation asked inside a call), when known. */
  readonly relatedRequestId: RequestId | undefined;
}

/** A stream of server messages opened or closed. */
export interface StreamTraffic extends TrafficBase {
  readonly kind: "stream";
  /** `"open"` or `"close"`. */
  readonly event: "open" | "close";
  /** `"get"`: an `initialize`-era standalone GET stream; `"listen"`: a 2026-07-28 `subscriptions/listen` stream. */
  readonly stream: "get" | "listen";
  /** The stream's id where the transport names one (an SSE stream id). */
  readonly streamId: string | undefined;
}

/** A task made or changed (the tasks plug-in). */
export interface TaskTraffic extends TrafficBase {
  readonly kind: "task";
  /** The task's id. */
  readonly taskId: string;
  /** Its status now (`"working"`, `"input_required"`, `"completed"`, `"failed"`, `"cancelled"`). */
  readonly status: string;
  /** Its status message, when it has one. */
  readonly statusMessage: string | undefined;
  /** The request that made it (a task-augmented `tools/call`), when known. */
  readonly relatedRequestId: RequestId | undefined;
}

/** Every event published on `x-mcp:traffic`. */
export type TrafficEvent = RequestTraffic | MessageTraffic | StreamTraffic | TaskTraffic;

const traffic = channel(TRAFFIC_CHANNEL);
let seq = 0;

/** True when `x-mcp:traffic` has a subscriber (then events are built and published). */
export function trafficObserved(): boolean {
  return traffic.hasSubscribers;
}

/** Publishes `event` on `x-mcp:traffic` (when there is a subscriber). */
export function publishTraffic(event: TrafficEvent): void {
  if (traffic.hasSubscribers) traffic.publish(event);
}

/** The next event number. */
export function nextSeq(): number {
  return ++seq;
}

/** The principal of a verified token, as traffic shows it: its subject and client id, nothing else. */
export function trafficPrincipal(auth: AuthInfo | undefined): TrafficPrincipal | undefined {
  return auth === undefined ? undefined : { subject: auth.subject || undefined, clientId: auth.clientId || undefined };
}

/** What carried a request, by what its transport set (`TransportInfo.via`). */
export function transportOf(transport: TransportInfo): TrafficTransport {
  return transport.via ?? "direct";
}

/** The fields every event of a message on `binding` (or on none) shares. */
export function trafficBase(
  transport: TrafficTransport,
  binding: Binding | undefined,
  protocolVersion: string | undefined,
  auth: AuthInfo | undefined,
  clientInfo: Implementation | undefined,
): TrafficBase {
  return {
    seq: nextSeq(),
    time: Date.now(),
    transport,
    era: binding?.revision.name,
    protocolVersion: protocolVersion ?? binding?.protocolVersion,
    sessionId: binding?.id || undefined,
    // A session's message carries no token of its own: the one that opened the session stands.
    principal: auth === undefined ? binding?.principal : trafficPrincipal(auth),
    clientInfo: clientInfo ?? binding?.clientInfo,
  };
}

/** True when answering a request must be watched: someone subscribes to `x-mcp:traffic` or `x-mcp:request:rejected`. */
export function answersObserved(): boolean {
  return traffic.hasSubscribers || rejectionsObserved();
}

/**
 * Answers `request` through `answer`, publishing its traffic (start and end)
 * and its rejection (`x-mcp:request:rejected`) to whoever subscribes.
 * Called only when {@link answersObserved}.
 */
export function observeAnswer(
  request: InboundRequest,
  transport: TransportInfo,
  answer: () => Outcome | Promise<Outcome>,
): Outcome | Promise<Outcome> {
  const status = transport.status;
  let event: RequestTraffic | undefined;
  if (traffic.hasSubscribers) {
    const envelope = request.envelope;
    event = {
      ...trafficBase(transportOf(transport), request.binding, envelope.protocolVersion, transport.auth, envelope.clientInfo),
      // A request built by hand names no revision: its era is then not known here.
      era: (request.binding?.revision ?? request.revision)?.name,
      kind: "request",
      phase: "start",
      requestId: request.id,
      method: request.method,
      params: request.params,
      durationMs: undefined,
      response: undefined,
      status: undefined,
    };
    traffic.publish(event);
    watchNotifications(event, transport);
  }
  const started = event === undefined ? 0 : performance.now();
  const done = (outcome: Outcome): Outcome => {
    if (event !== undefined) {
      event.phase = "end";
      event.durationMs = performance.now() - started;
      event.response = outcome.response;
      event.status = status?.(outcome);
      publishTraffic(event);
    }
    return rejectionsObserved() ? rejected(outcome, request.method, status) : outcome;
  };
  const outcome = answer();
  return outcome instanceof Promise ? outcome.then(done) : done(outcome);
}

/**
 * Publishes a message read from a client that is not a request: a
 * notification, a response (to a request of an `initialize`-era session), or
 * a message refused as it was read. Requests are the dispatcher's
 * ({@link observeAnswer}) and `initialize` the session framings'
 * (`revisions/initialize/opening.ts`): each is published once, as a request.
 */
export function publishInbound(inbound: Inbound, message: unknown, binding: Binding | undefined, via: TrafficTransport): void {
  if (inbound.kind === "request" || inbound.kind === "initialize" || !isObject(message)) return;
  publishTraffic({
    ...trafficBase(via, binding, undefined, undefined, undefined),
    kind: "message",
    direction: "in",
    message,
    relatedRequestId: undefined,
  });
}

/**
 * Publishes each notification a request's handler sends on its own stream
 * (progress, log messages, what a `subscriptions/listen` stream carries) as
 * `"out"`, related to the request: `transport.notify` is wrapped, only while
 * someone subscribes when the request starts.
 */
function watchNotifications(event: RequestTraffic, transport: TransportInfo): void {
  const send = transport.notify;
  if (send === undefined) return;
  transport.notify = (notification) => {
    const sent = send(notification);
    if (sent && traffic.hasSubscribers) {
      const message = notification as unknown as JsonObject;
      const base = { ...baseOf(event), seq: nextSeq(), time: Date.now() };
      traffic.publish({ ...base, kind: "message", direction: "out", message, relatedRequestId: event.requestId });
    }
    return sent;
  };
}

/** The shared fields of `event`, nothing of its kind. */
function baseOf(event: TrafficBase): TrafficBase {
  const { seq, time, transport, era, protocolVersion, sessionId, principal, clientInfo } = event;
  return { seq, time, transport, era, protocolVersion, sessionId, principal, clientInfo };
}

/** Publishes `message`, written to the client of `binding` (a session), as `"out"`. Called only when {@link trafficObserved}. */
export function publishOutbound(
  via: TrafficTransport,
  binding: Binding,
  message: JsonObject,
  relatedRequestId: RequestId | undefined,
): void {
  traffic.publish({
    ...trafficBase(via, binding, undefined, undefined, undefined),
    kind: "message",
    direction: "out",
    message,
    relatedRequestId,
  });
}

/** Publishes a stream of server messages opened or closed; `base`: a fresh {@link trafficBase}. Called only when {@link trafficObserved}. */
export function publishStream(base: TrafficBase, event: "open" | "close", stream: "get" | "listen", streamId: string | undefined): void {
  traffic.publish({ ...base, kind: "stream", event, stream, streamId });
}
