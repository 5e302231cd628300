/**
 * The SSE streams of `initialize`-era sessions (spec 2025-11-25:
 * basic/transports): each request's stream and the session's GET stream,
 * their events stored for a `Last-Event-ID` resume, and the live connection
 * (at most one per stream) that reads them. Whether a live connection waits
 * on a request decides where it counts: in `maxConcurrentRequests` while one
 * does, only in its session's `maxRequestsPerSession` once its client went
 * away (which does not cancel it in this era), and in `maxConcurrentRequests`
 * again once its session ended while its handler still runs.
 */
import { stringifyJson } from "@x/jsonrpc";
import { ErrorCode } from "@x/mcp-v2511/constants";
import { Header } from "@x/mcp-v2511/wire";
import type { RequestId } from "@x/mcp-v2607";
import type { JsonObject } from "../../../objects.js";
import { ChunkQueue } from "../../../transports/sse.js";
import { errorAnswer, SSE_HEADERS } from "../../../transports/http/answers.js";
import type { Core } from "../../../transports/http/core.js";
import type { Exchange, HttpAnswer } from "../../../transports/http/exchange.js";
import type { HttpSession, LegacyCall, SessionTable } from "./session-table.js";
import type { EventStore, Replay, SessionSignal } from "./sessions.js";
import { publishStream, trafficBase, trafficObserved } from "../../../traffic.js";

/** The streams of one transport core's sessions. */
export class SessionStreams {
  readonly #core: Core;
  readonly #table: SessionTable;
  readonly #events: EventStore | undefined;
  readonly #retryMs: number;
  /** With a shared session store: tells the other instances of an event for a stream held elsewhere. */
  readonly #relay: ((signal: SessionSignal) => void) | undefined;

  constructor(core: Core, table: SessionTable, events: EventStore | undefined, retryMs: number, relay?: (signal: SessionSignal) => void) {
    this.#core = core;
    this.#table = table;
    this.#events = events;
    this.#retryMs = retryMs;
    this.#relay = relay;
  }

  /** Where a message of the session goes: the stream of the request it belongs to, else the GET stream. */
  route(live: HttpSession, message: JsonObject, related: RequestId | undefined): boolean {
    if (related !== undefined) {
      const entry = live.calls.get(related);
      if (entry && !entry.done) return entry.send(message);
    }
    return this.emit(live, "get", message);
  }

  /**
   * Sends one event on a stream: stored (when there is an event store) and
   * pushed to the stream's live connection, if any. `message` undefined: the
   * priming event (an id, empty data, the `retry` time). With a shared
   * session store, a message for a stream whose connection is not here goes
   * to the instance that holds it. False when the event was neither stored
   * nor delivered (nor relayed).
   */
  emit(live: HttpSession, streamId: string, message: JsonObject | undefined): boolean {
    const id = this.#events?.append(live.session.id, streamId, message);
    const queue = live.attached.get(streamId);
    if (!queue && this.#relay && message) {
      this.#relay({ kind: "event", session: live.session.id, stream: streamId, id, message });
      return true;
    }
    const pushed = queue ? queue.push(format(id, message, this.#retryMs)) : false;
    return pushed || id !== undefined;
  }

  /** An event another instance sent for a stream of `live` (stored there already): pushed when its connection is here. */
  deliver(live: HttpSession, streamId: string, id: string | undefined, message: JsonObject): void {
    live.attached.get(streamId)?.push(format(id, message, undefined));
  }

  /**
   * A new live connection for `streamId` (replacing an older one), with its
   * keep-alive; for a request's stream, `entry` is then held by it.
   */
  attach(live: HttpSession, streamId: string, entry?: LegacyCall): ChunkQueue {
    this.detach(live, streamId, true);
    const queue = new ChunkQueue(this.#core.options.maxBufferedBytes);
    const gone = () => {
      if (live.attached.get(streamId) !== queue) return;
      this.detach(live, streamId, false);
      if (entry) this.hold(live, entry);
    };
    queue.onCancel = gone;
    queue.onOverflow = gone;
    live.attached.set(streamId, queue);
    if (streamId === "get" && trafficObserved())
      publishStream(trafficBase("http", live.session, undefined, undefined, undefined), "open", "get", "get");
    if (entry) this.hold(live, entry);
    this.#table.touch(live);
    // One timer for all the handler's streams (a timer per stream was a setInterval and a
    // clearInterval per request on a session).
    this.#core.keepAlive?.add(queue);
    return queue;
  }

  /** The stream's live connection is let go of (and ended, with `endIt`); the events stay stored. */
  detach(live: HttpSession, streamId: string, endIt: boolean): void {
    const queue = live.attached.get(streamId);
    if (!queue) return;
    live.attached.delete(streamId);
    if (streamId === "get" && trafficObserved())
      publishStream(trafficBase("http", live.session, undefined, undefined, undefined), "close", "get", "get");
    this.#core.keepAlive?.delete(queue);
    if (endIt) queue.end();
    this.#table.touch(live);
  }

  /**
   * Brings the request's place in `maxConcurrentRequests` (the core's
   * in-flight list) and its session's count of held requests in line with
   * whether a live connection waits on it: its POST for a JSON answer, or
   * its stream (the POST's SSE answer, or a `Last-Event-ID` resume). A
   * request of an ended session counts there too until its handler returns
   * (it was aborted; most return at once): no session bounds it any more.
   */
  hold(live: HttpSession, entry: LegacyCall): void {
    const held = !entry.done && (entry.waiting || live.session.closed || live.attached.has(entry.streamId));
    if (held === entry.held) return;
    entry.held = held;
    if (held) {
      this.#core.inFlight.add(entry.call);
      live.held++;
    } else {
      this.#core.finished(entry.call);
      live.held--;
    }
    this.#table.touch(live);
  }

  /**
   * GET: with `Last-Event-ID`, the events after it on its stream, then that
   * stream live while its request runs (a finished one's stream then ends;
   * a running one's resume counts in `maxConcurrentRequests`: 503 past it);
   * without, the session's GET stream (one at a time: 409 while one is open).
   */
  openGet(ex: Exchange, live: HttpSession): HttpAnswer | Promise<HttpAnswer> {
    const last = ex.header(Header.lastEventId);
    let replay: ReturnType<EventStore["replay"]> | undefined;
    try {
      replay = last !== undefined && this.#events ? this.#events.replay(live.session.id, last) : undefined;
    } catch {
      replay = undefined;
    }
    if (replay instanceof Promise) {
      // A shared event store: an unreadable one is as an evicted id (a fresh stream).
      return replay.then(
        (found) => this.#open(ex, live, found),
        () => this.#open(ex, live, undefined),
      );
    }
    return this.#open(ex, live, replay);
  }

  #open(ex: Exchange, live: HttpSession, replay: Replay | undefined): HttpAnswer {
    const headers = { ...SSE_HEADERS, ...ex.cors, [Header.sessionId]: live.session.id };
    if (live.session.closed)
      return errorAnswer(404, -32001, "Session not found: it ended while its stream was being resumed", undefined, ex.cors);
    if (replay) {
      // At most maxRequestsPerSession calls to look through.
      let entry: LegacyCall | undefined;
      for (const c of live.calls.values()) if (c.streamId === replay.streamId && !c.done) entry = c;
      const running = replay.streamId === "get" || entry !== undefined;
      const busy = entry && !entry.held ? this.#core.busy(ex) : undefined;
      if (busy) return busy;
      const queue = running ? this.attach(live, replay.streamId, entry) : new ChunkQueue(this.#core.options.maxBufferedBytes);
      queue.push(`retry: ${this.#retryMs}\n\n`);
      for (const event of replay.events) if (event.message) queue.push(format(event.id, event.message, undefined));
      if (!running) queue.end();
      return { status: 200, headers, stream: queue };
    }
    if (live.attached.has("get")) {
      return errorAnswer(409, ErrorCode.InvalidRequest, "Conflict: this session's GET stream is already open", undefined, ex.cors);
    }
    const queue = this.attach(live, "get");
    this.emit(live, "get", undefined);
    return { status: 200, headers, stream: queue };
  }
}

/** A stream that is over before it began: the answer for a client gone already (its events are only stored). */
export function endedStream(): ChunkQueue {
  const queue = new ChunkQueue();
  queue.end();
  return queue;
}

/** One SSE event: its id (when stored), the message (or the priming event's empty data with `retry`). */
function format(id: string | undefined, message: JsonObject | undefined, retryMs: number | undefined): string {
  const head = id === undefined ? "" : `id: ${id}\n`;
  if (message === undefined) return `${head}retry: ${retryMs}\ndata: \n\n`;
  return `${head}event: message\ndata: ${stringifyJson(message)}\n\n`;
}
