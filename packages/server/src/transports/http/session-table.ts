/**
 * The live `initialize`-era sessions of one transport core, and the rule for
 * which one ends when an `initialize` finds no room. The spec lets a server
 * end a session at any time; its id then gets 404 and the client initializes
 * again (2025-11-25: basic/transports, "Session Management", 3 and 4), so a
 * full table ends an idle session rather than refusing newcomers.
 *
 * A session is idle when it has no request in flight, no open stream and no
 * request to the client waiting for an answer. Idle sessions are kept in two
 * lists in order of their last activity, oldest first: those that never sent
 * `notifications/initialized`, and the others. Each list is a `Set`, whose
 * order is that of insertion: activity deletes a session and adds it again at
 * the end, so the oldest is always the first, found in O(1) however many
 * sessions there are. The same two lists per principal find a principal's own
 * oldest idle session; the idle sweep reads the lists from their oldest end.
 *
 * A session that never completed the handshake goes first, but only once
 * half of `maxSessions` sessions were opened after it: before that it may be
 * a client between its `initialize` and its `notifications/initialized`,
 * which a flood of other sessions must not cut off every time. Counted in
 * sessions opened, not in time, so that it holds at any flood rate.
 */
import type { LegacySession } from "../../legacy/session.js";
import type { JsonObject } from "../../objects.js";
import type { Call } from "../call.js";
import type { ChunkQueue } from "../sse.js";

/**
 * Default most `initialize`-era sessions open at once (`maxSessions`): 1000.
 * An `initialize` past it ends an idle session, chosen as `maxSessions`
 * says, whose id then gets 404 (spec 2025-11-25: basic/transports, "Session
 * Management"); with none idle it gets 503 with `Retry-After`.
 */
export const DEFAULT_MAX_SESSIONS = 1000;
/**
 * Default most `initialize`-era sessions one principal (the subject and
 * client of an access token, with the `auth` option) has open at once
 * (`maxSessionsPerPrincipal`): 100. Its `initialize` past it ends one of its
 * own idle sessions, never another principal's; with none idle it gets 429
 * with `Retry-After`.
 */
export const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 100;
/** Default idle time after which a session ends: 30 minutes. Its id then gets 404 and the client initializes again. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000;
/**
 * Idle time after which a session that never sent `notifications/initialized`
 * ends (or the idle timeout, when shorter): 60 s, so that bare `initialize`
 * calls cannot hold every session slot for the whole idle timeout.
 */
export const UNINITIALIZED_SESSION_IDLE_MS = 60_000;

/** A request in flight on a session. */
export interface LegacyCall {
  readonly streamId: string;
  readonly call: Call;
  done: boolean;
  send(message: JsonObject): boolean;
}

/** The live parts of one session in this process: its streams and its requests in flight. */
export class HttpSession {
  readonly session: LegacySession;
  /** Live SSE connections by stream id (`get` for the GET stream, `p<n>` for a POST response). */
  readonly attached = new Map<string, ChunkQueue>();
  /** Requests in flight, by id (a Map tells 1 from "1"). */
  readonly calls = new Map<unknown, LegacyCall>();
  streams = 0;
  /**
   * The principal (`principalOf`) of the token that opened the session
   * (`auth` option only): a request on it with another principal's token is
   * answered as for an unknown session.
   */
  readonly principal: string | undefined;
  /** The idle list holding the session (the table's), if any. */
  idleIn: Set<HttpSession> | undefined = undefined;
  /** Which session of the table this was, counting from 1 (the table's count of sessions opened when it was added). */
  opened = 0;
  constructor(session: LegacySession, principal: string | undefined) {
    this.session = session;
    this.principal = principal;
  }

  /** No request in flight, no open stream, no request to the client waiting: the session may be ended. */
  get idle(): boolean {
    return this.calls.size === 0 && this.attached.size === 0 && this.session.pending === 0;
  }
}

/** Idle sessions in order of last activity, those that never completed the handshake apart. */
class IdleLists {
  readonly uninitialized = new Set<HttpSession>();
  readonly initialized = new Set<HttpSession>();
}

function first(set: Set<HttpSession>): HttpSession | undefined {
  return set.values().next().value;
}

/** What an `initialize` may not have: a principal past its share with none idle, or a full table with none idle. */
export type NoRoom = "principal" | "full";

/** The live sessions of one transport core, by id, with their idle lists. */
export class SessionTable {
  readonly #byId = new Map<string, HttpSession>();
  readonly #idle = new IdleLists();
  /** Per principal (`auth` only): its sessions, idle or not, and its idle lists. */
  readonly #principals = new Map<string, { count: number; idle: IdleLists }>();
  /** Sessions added so far. */
  #opened = 0;
  /** Sessions opened after one still in its handshake before it goes first: half of `max`. */
  readonly #handshakeGrace: number;
  /** Most sessions at once (`maxSessions`). */
  readonly max: number;
  /** Most sessions of one principal at once (`maxSessionsPerPrincipal`). */
  readonly perPrincipal: number;

  /** @throws RangeError naming the option when `max` or `perPrincipal` is not an integer of at least 1. */
  constructor(max = DEFAULT_MAX_SESSIONS, perPrincipal = DEFAULT_MAX_SESSIONS_PER_PRINCIPAL) {
    this.max = sessionCount("maxSessions", max);
    this.perPrincipal = sessionCount("maxSessionsPerPrincipal", perPrincipal);
    this.#handshakeGrace = Math.max(1, Math.floor(max / 2));
  }

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): HttpSession | undefined {
    return this.#byId.get(id);
  }

  values(): IterableIterator<HttpSession> {
    return this.#byId.values();
  }

  /** Adds a session just minted (idle, not yet initialized). */
  add(live: HttpSession): void {
    live.opened = ++this.#opened;
    this.#byId.set(live.session.id, live);
    if (live.principal !== undefined) {
      const mine = this.#principals.get(live.principal);
      if (mine) mine.count++;
      else this.#principals.set(live.principal, { count: 1, idle: new IdleLists() });
    }
    this.touch(live);
  }

  /** Forgets a session that ended. */
  delete(live: HttpSession): void {
    if (this.#byId.get(live.session.id) !== live) return;
    this.#byId.delete(live.session.id);
    this.#unlist(live);
    if (live.principal === undefined) return;
    const mine = this.#principals.get(live.principal)!;
    if (--mine.count === 0) this.#principals.delete(live.principal);
  }

  /**
   * Records activity on a session (a request, a stream opened or closed, a
   * request to the client sent or settled, the handshake completed): its
   * `lastSeen` becomes `now`, and it moves to the end of its idle list, or
   * leaves the lists while it is busy.
   */
  touch(live: HttpSession, now = Date.now()): void {
    live.session.lastSeen = now;
    this.#unlist(live);
    if (live.session.closed || !live.idle || this.#byId.get(live.session.id) !== live) return;
    const list = live.session.initialized ? "initialized" : "uninitialized";
    this.#idle[list].add(live);
    live.idleIn = this.#idle[list];
    if (live.principal !== undefined) this.#principals.get(live.principal)!.idle[list].add(live);
  }

  /**
   * What must end for an `initialize` of `principal` to get a session: nothing
   * (`undefined`); past the principal's share, its own oldest idle session
   * (never another's); on a full table, the oldest idle session, one that
   * never completed the handshake first. `NoRoom` when there is none to end.
   * @param stored sessions in the session store (shared stores count other instances' too)
   */
  reclaim(principal: string | undefined, stored: number): HttpSession | NoRoom | undefined {
    const mine = principal === undefined ? undefined : this.#principals.get(principal);
    if (mine && mine.count >= this.perPrincipal) return this.#oldest(mine.idle) ?? "principal";
    if (this.#byId.size < this.max && stored < this.max) return undefined;
    // A shared store holding more than the limit: ending one session here would not make room.
    if (stored > this.max) return "full";
    return this.#oldest(this.#idle) ?? "full";
  }

  /** The idle session to end first: one whose handshake is overdue, else the least recently active. */
  #oldest(lists: IdleLists): HttpSession | undefined {
    const waiting = first(lists.uninitialized);
    if (waiting && this.#opened - waiting.opened >= this.#handshakeGrace) return waiting;
    return first(lists.initialized) ?? waiting;
  }

  /**
   * The idle sessions whose last activity is at least `idleMs` old
   * (`uninitializedMs` for those that never sent `notifications/initialized`),
   * oldest first; each list is read only up to its first session not yet due.
   */
  expired(now: number, idleMs: number, uninitializedMs: number): HttpSession[] {
    const due: HttpSession[] = [];
    for (const [list, limit] of [
      [this.#idle.uninitialized, uninitializedMs],
      [this.#idle.initialized, idleMs],
    ] as const) {
      for (const live of list) {
        if (now - live.session.lastSeen < limit) break;
        due.push(live);
      }
    }
    return due;
  }

  #unlist(live: HttpSession): void {
    if (live.idleIn === undefined) return;
    live.idleIn.delete(live);
    live.idleIn = undefined;
    if (live.principal === undefined) return;
    const mine = this.#principals.get(live.principal)?.idle;
    mine?.uninitialized.delete(live);
    mine?.initialized.delete(live);
  }
}

/**
 * A bound on sessions: an integer of at least 1. With 0 or NaN every
 * `initialize` would find the table full; Infinity would be no bound.
 * @throws RangeError naming `option` otherwise.
 */
function sessionCount(option: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${option} must be an integer >= 1, got ${String(value)}`);
  return value;
}
