/**
 * Storage of the `initialize` era's Streamable HTTP sessions and of the SSE
 * events a client may resume (spec 2025-11-25: basic/transports, "Session
 * Management" and "Resumability and Redelivery"), each behind an interface
 * with an in-memory default.
 *
 * Several instances: a session's live parts (its open streams, the
 * server-to-client requests awaiting answers) live in the instance that
 * minted it, so a load balancer must route by `Mcp-Session-Id` (sticky
 * sessions). A shared {@link SessionStore} or {@link EventStore} lets an
 * instance recognise a session or replay events it did not mint; it does
 * not move the live parts.
 */
import type { LegacySession } from "../session.js";
import type { JsonObject } from "../../../objects.js";

/** Where a transport keeps its sessions by id. */
export interface SessionStore {
  /** The session with `id`, or `undefined` when unknown or ended. */
  get(id: string): LegacySession | undefined;
  /** Adds a session (its id is new). */
  set(session: LegacySession): void;
  /** Forgets a session; false when it was not there. */
  delete(id: string): boolean;
  /** Sessions held. */
  readonly size: number;
  /** Every session held (for the idle sweep and the server's close). */
  values(): Iterable<LegacySession>;
}

/** The default {@link SessionStore}: a `Map` in this process. */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, LegacySession>();
  get(id: string): LegacySession | undefined {
    return this.#sessions.get(id);
  }
  set(session: LegacySession): void {
    this.#sessions.set(session.id, session);
  }
  delete(id: string): boolean {
    return this.#sessions.delete(id);
  }
  get size(): number {
    return this.#sessions.size;
  }
  values(): Iterable<LegacySession> {
    return this.#sessions.values();
  }
}

/** One stored SSE event: its id, the stream it went on, and the message (`undefined` for a priming event). */
export interface StoredEvent {
  id: string;
  streamId: string;
  message: JsonObject | undefined;
}

/**
 * Where the SSE events of sessions are kept for replay after `Last-Event-ID`.
 * Event ids are the store's to choose; they must be unique within a session
 * and name their stream (the spec's rule: a replay carries only the events of
 * the stream that was cut).
 */
export interface EventStore {
  /** Stores an event of `streamId` in session `sessionId`; returns its id. */
  append(sessionId: string, streamId: string, message: JsonObject | undefined): string;
  /**
   * The events after `lastEventId` on the same stream, and that stream's id;
   * `undefined` when the id is unknown to this session (evicted, or never sent).
   */
  replay(sessionId: string, lastEventId: string): { streamId: string; events: StoredEvent[] } | undefined;
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
