/**
 * Storage of the `initialize` era's Streamable HTTP sessions and of the SSE
 * events a client may resume (spec 2025-11-25: basic/transports, "Session
 * Management" and "Resumability and Redelivery"), each behind an interface
 * with an in-memory default.
 *
 * A session is data ({@link SessionRecord}: what `initialize` negotiated,
 * the handshake, the log level, the subscriptions) plus live parts (its open
 * streams, the server-to-client requests awaiting answers), which stay in the
 * process that holds them. With the in-memory default, a session is served
 * only by the process that minted it, so several instances need sticky
 * routing by `Mcp-Session-Id`. A shared store ({@link SessionStore.shared},
 * e.g. `RedisSessionStore` of `@x/redis`) lets any instance serve any
 * session: an instance that does not hold it rebuilds it from its record on
 * the request that names it, and the instances tell each other, through the
 * store's {@link SessionSignal}s, what only the holder of a live part can
 * act on (an answer to its request, an event for its stream, the end of the
 * session, a change of its state). An instance that dies loses only its live
 * parts: its open streams and the requests it was waiting on.
 */
import type { ClientCapabilities, Implementation, LoggingLevel } from "@x/mcp-v2607";
import type { JsonObject } from "../../../objects.js";

/**
 * The most JSON characters of a {@link SessionRecord}: the `initialize`
 * params a session keeps (at most `MAX_INITIALIZE_PARAMS_CHARS`, 64 KiB),
 * its subscriptions (at most `MAX_SUBSCRIPTION_CHARS`, 256 KiB) and 64 KiB
 * for the rest (id, principal, log level, member names). A shared store may
 * refuse a longer stored text before parsing it ({@link SessionRecordError});
 * the server refuses a longer record however it was read.
 */
export const MAX_SESSION_RECORD_CHARS = 393_216;

/**
 * A session record that cannot be a session: thrown (rejected) by
 * {@link SessionStore.load} for what it found under the key but cannot read
 * (not JSON, too long, a key of another type), and by the server for a
 * record that fails its checks. The server answers the request as it
 * answers an unknown session (404) and reports the error once per session
 * id through `onError`: damage is not an outage (503 is for a store that
 * cannot be reached).
 */
export class SessionRecordError extends Error {
  /** The session id whose record is damaged. */
  readonly session: string;
  /**
   * The error of a damaged record of `session`.
   * @param session the id the record was read for
   * @param reason what is wrong with it, for the report
   */
  constructor(session: string, reason: string, options?: { cause?: unknown }) {
    super(`session record ${session} is damaged: ${reason}`, options);
    this.name = "SessionRecordError";
    this.session = session;
  }
}

/** What any instance needs to serve a session: everything of it that is not a live stream or a waiting request. */
export interface SessionRecord {
  /** The `Mcp-Session-Id`. */
  id: string;
  /** The negotiated protocol version. */
  protocolVersion: string;
  /** What the client declared in `initialize`. */
  clientCapabilities: ClientCapabilities;
  /** The client's `clientInfo` from `initialize`. */
  clientInfo: Implementation | undefined;
  /** The principal of the token that opened it (`auth` option only); another principal's request is answered 404. */
  principal?: string;
  /** True once `notifications/initialized` arrived. */
  initialized: boolean;
  /** The level set by `logging/setLevel`, if any. */
  logLevel?: LoggingLevel;
  /** The URIs of `resources/subscribe`. */
  subscriptions: string[];
}

/**
 * What one instance tells the others sharing its store, about a session
 * (`session`, its id): an answer to a server-to-client request waiting on
 * another instance; an event for a stream another instance holds the
 * connection of; the session ended (DELETE); its record changed.
 */
export type SessionSignal =
  | { kind: "answer"; session: string; message: JsonObject }
  | { kind: "event"; session: string; stream: string; id: string | undefined; message: JsonObject }
  | { kind: "end"; session: string }
  | { kind: "update"; session: string; record: SessionRecord };

/**
 * Where a transport keeps its sessions' records. The in-memory default
 * answers at once; a shared store may answer with promises (the transport
 * only waits for it when the session is not held in this process, or its
 * record changed).
 */
export interface SessionStore {
  /**
   * True when other instances read the same records: the transport then
   * reads the record on every request naming a session (to learn of an end
   * or a change made elsewhere), rebuilds a session it does not hold, and
   * signals the others; false or absent: records are this process's only.
   */
  readonly shared?: boolean;
  /** A name of this instance unique among those sharing the store (in request and stream ids). Shared stores only. */
  readonly instance?: string;
  /**
   * The record of `id` (a shared store may also extend its lifetime), or
   * `undefined` when unknown or ended. A shared store may hand back what it
   * read as it is: the server checks every record it loads (the id is `id`,
   * a version it serves, members of their types within their bounds, at
   * most {@link MAX_SESSION_RECORD_CHARS}). Rejects with
   * {@link SessionRecordError} for a stored value it cannot read as one,
   * with any other error when the store cannot be reached (503).
   */
  load(id: string): SessionRecord | undefined | Promise<SessionRecord | undefined>;
  /** Stores a record (a new session, or a change of one). */
  save(record: SessionRecord): void | Promise<void>;
  /** Forgets a session (it ended). */
  delete(id: string): void | Promise<void>;
  /**
   * Records this process holds: an unshared store's count, which
   * `maxSessions` bounds with the sessions held live; a shared store may
   * answer 0 (each instance then bounds the sessions it holds).
   */
  readonly size: number;
  /** Shared stores: tells every other instance of `signal`. Never throws; a failure is the store's to report. */
  signal?(signal: SessionSignal): void;
  /** Shared stores: calls `listener` with the signals of the other instances until the returned function is called. */
  listen?(listener: (signal: SessionSignal) => void): () => void;
}

/** The default {@link SessionStore}: the records in a `Map` of this process. */
export class MemorySessionStore implements SessionStore {
  readonly #records = new Map<string, SessionRecord>();
  /** The record of `id`, at once; `undefined` when unknown or ended. */
  load(id: string): SessionRecord | undefined {
    return this.#records.get(id);
  }
  /** Keeps `record` by its id. */
  save(record: SessionRecord): void {
    this.#records.set(record.id, record);
  }
  /** Forgets the record of `id`. */
  delete(id: string): void {
    this.#records.delete(id);
  }
  /** Records held. */
  get size(): number {
    return this.#records.size;
  }
}

/** One stored SSE event: its id, the stream it went on, and the message (`undefined` for a priming event). */
export interface StoredEvent {
  id: string;
  streamId: string;
  message: JsonObject | undefined;
}

/** What {@link EventStore.replay} finds: the stream of the id resumed after, and its events after that id. */
export interface Replay {
  streamId: string;
  events: StoredEvent[];
}

/**
 * Where the SSE events of sessions are kept for replay after `Last-Event-ID`.
 * Event ids are the store's to choose; they must be unique within a session
 * and name their stream (the spec's rule: a replay carries only the events of
 * the stream that was cut).
 */
export interface EventStore {
  /**
   * Stores an event of `streamId` in session `sessionId`; returns its id at
   * once (a shared store chooses it and writes the event after, in order).
   */
  append(sessionId: string, streamId: string, message: JsonObject | undefined): string;
  /**
   * The events after `lastEventId` on the same stream, and that stream's id;
   * `undefined` when the id is unknown to this session (evicted, or never
   * sent). A shared store may answer with a promise.
   */
  replay(sessionId: string, lastEventId: string): Replay | undefined | Promise<Replay | undefined>;
  /** Forgets every event of a session (it ended). */
  forget(sessionId: string): void;
}

/** Default bound of {@link MemoryEventStore}: 1000 events per session. */
export const DEFAULT_MAX_EVENTS_PER_SESSION = 1000;

/**
 * The default {@link EventStore}: in this process, at most `maxEventsPerSession`
 * events per session (default {@link DEFAULT_MAX_EVENTS_PER_SESSION}), the
 * oldest dropped first. A client resuming after a dropped event gets a
 * fresh stream without replay. Event ids are `<streamId>.<n>`.
 */
export class MemoryEventStore implements EventStore {
  readonly #max: number;
  /** Per session: the events from `start` on are kept (the slots before it are dropped ones, cleared). */
  readonly #sessions = new Map<string, { next: number; start: number; events: (StoredEvent | undefined)[] }>();

  /**
   * An empty store.
   * @param maxEventsPerSession how many events each session keeps for replay, the oldest dropped first
   * @throws RangeError when it is not an integer of at least 1.
   */
  constructor(maxEventsPerSession = DEFAULT_MAX_EVENTS_PER_SESSION) {
    if (!Number.isSafeInteger(maxEventsPerSession) || maxEventsPerSession < 1) {
      throw new RangeError(`maxEventsPerSession must be an integer >= 1, got ${maxEventsPerSession}`);
    }
    this.#max = maxEventsPerSession;
  }

  append(sessionId: string, streamId: string, message: JsonObject | undefined): string {
    let log = this.#sessions.get(sessionId);
    if (!log) {
      log = { next: 0, start: 0, events: [] };
      this.#sessions.set(sessionId, log);
    }
    const id = `${streamId}.${++log.next}`;
    log.events.push({ id, streamId, message });
    // The oldest is dropped by moving `start`, and the array compacted once per `max` drops:
    // a splice per event moved all the others, O(max) for every event of a busy session.
    if (log.events.length - log.start > this.#max) {
      log.events[log.start++] = undefined;
      if (log.start >= this.#max) {
        log.events = log.events.slice(log.start);
        log.start = 0;
      }
    }
    return id;
  }

  replay(sessionId: string, lastEventId: string): { streamId: string; events: StoredEvent[] } | undefined {
    const log = this.#sessions.get(sessionId);
    if (!log) return undefined;
    const kept = log.events.slice(log.start) as StoredEvent[];
    const at = kept.findIndex((e) => e.id === lastEventId);
    if (at < 0) return undefined;
    const streamId = kept[at]!.streamId;
    return { streamId, events: kept.slice(at + 1).filter((e) => e.streamId === streamId) };
  }

  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** Sessions with stored events (for tests and memory checks). */
  get sessions(): number {
    return this.#sessions.size;
  }
}
