/**
 * The live `initialize`-era sessions of one transport core, and the rule for
 * which one ends when an `initialize` finds no room. The spec lets a server
 * end a session at any time; its id then gets 404 and the client initializes
 * again (2025-11-25: basic/transports, "Session Management", 3 and 4), so a
 * full table ends a session rather than refusing newcomers.
 *
 * A session is idle when it has no request in flight, no open stream and no
 * request to the client waiting for an answer. A session that is not idle
 * but has no request held by a live connection (only a GET stream, requests
 * to the client waiting, or requests whose client went away: a dropped POST
 * does not cancel its request in this era) is *unheld*. Sessions are kept in
 * three lists in order of their last activity, oldest first: idle sessions
 * that never sent `notifications/initialized`, the other idle ones, and the
 * unheld ones. Each list is a `Set`, whose order is that of insertion:
 * activity deletes a session and adds it again at the end, so the oldest is
 * always the first, found in O(1) however many sessions there are. The same
 * lists per principal find a principal's own oldest; the idle sweep reads
 * the idle lists from their oldest end.
 *
 * A full table ends the least recently active session that no live
 * connection waits on, idle or unheld alike (the older of the two lists'
 * first); one with a request held by a live connection never. Idle ones are
 * not ended first: a table full of unheld sessions (GET streams held open,
 * say) would then end every newcomer between its requests. An idle session
 * that never completed the handshake goes first, but only once half of
 * `maxSessions` sessions were opened after it; before that it goes last, as
 * it may be a client between its `initialize` and its
 * `notifications/initialized`, which a flood of other sessions must not cut
 * off every time. Counted in sessions opened, not in time, so that it holds
 * at any flood rate.
 */
import type { LegacySession } from "../session.js";
import type { JsonObject } from "../../../objects.js";
import type { Call } from "../../../transports/call.js";
import type { FramedSession } from "../../../transports/http/framing.js";
import type { ChunkQueue } from "../../../transports/sse.js";

/**
 * Default most `initialize`-era sessions open at once (`maxSessions`): 1000.
 * An `initialize` past it ends an idle session, else one with no request
 * held by a live connection, chosen as `maxSessions` says, whose id then
 * gets 404 (spec 2025-11-25: basic/transports, "Session Management"); with
 * none it gets 503 with `Retry-After`.
 */
export const DEFAULT_MAX_SESSIONS = 1000;
/**
 * Default most `initialize`-era sessions one principal (the subject and
 * client of an access token, with the `auth` option) has open at once
 * (`maxSessionsPerPrincipal`): 100. Its `initialize` past it ends one of its
 * own sessions, by the order of `maxSessions`, never another principal's;
 * with none that may end it gets 429 with `Retry-After`.
 */
export const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 100;
/**
 * Default most requests one `initialize`-era session has in flight at once
 * (`maxRequestsPerSession`): 16, whether their clients still wait on them or
 * went away. A request past it is answered 429 with `Retry-After: 1` and
 * -32000 at once, without running.
 */
export const DEFAULT_MAX_REQUESTS_PER_SESSION = 16;
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
  /** True while its POST waits for a JSON answer on an open connection (an SSE answer is tracked as an attached stream). */
  waiting: boolean;
  /** True while a live connection waits on it (its POST, or its stream resumed): it then counts in `maxConcurrentRequests`. */
  held: boolean;
  send(message: JsonObject): boolean;
  /** Its POST's client went away (`ClientWatcher`): the request runs on, unheld. */
  clientGone(): void;
}

/** The live parts of one session in this process: its streams and its requests in flight. */
export class HttpSession implements FramedSession {
  readonly session: LegacySession;
  /** The same session, as the ladder reads a message of it (`FramedSession`). */
  readonly binding: LegacySession;
  /** Live SSE connections by stream id (`get` for the GET stream, `p<n>` for a POST response). */
  readonly attached = new Map<string, ChunkQueue>();
  /** Requests in flight, by id (a Map tells 1 from "1"). */
  readonly calls = new Map<unknown, LegacyCall>();
  streams = 0;
  /** Requests of {@link HttpSession.calls} held by a live connection ({@link LegacyCall.held}). */
  held = 0;
  /**
   * The principal (`principalOf`) of the token that opened the session
   * (`auth` option only): a request on it with another principal's token is
   * answered as for an unknown session.
   */
  readonly principal: string | undefined;
  /** The list of the table holding the session, if any. */
  listedIn: keyof SessionLists | undefined = undefined;
  /** Which session of the table this was, counting from 1 (the table's count of sessions opened when it was added). */
  opened = 0;
  /** The table's count of activities at this session's last one: orders sessions of different lists. */
  activity = 0;
  constructor(session: LegacySession, principal: string | undefined) {
    this.session = session;
    this.binding = session;
    this.principal = principal;
  }

  /** No request in flight, no open stream, no request to the client waiting. */
  get idle(): boolean {
    return this.calls.size === 0 && this.attached.size === 0 && this.session.pending === 0;
  }
}

/** Sessions that may be ended for a newcomer, each list in order of last activity. */
class SessionLists {
  /** Idle, and never sent `notifications/initialized`. */
  readonly uninitialized = new Set<HttpSession>();
  /** Idle. */
  readonly initialized = new Set<HttpSession>();
  /** Not idle, but no request held by a live connection. */
  readonly unheld = new Set<HttpSession>();
}

function first(set: Set<HttpSession>): HttpSession | undefined {
  return set.values().next().value;
}

/** What an `initialize` may not have: a principal past its share, or a full table, with none that may end. */
export type NoRoom = "principal" | "full";

/** The live sessions of one transport core, by id, with the lists of those that may end. */
export class SessionTable {
  readonly #byId = new Map<string, HttpSession>();
  readonly #lists = new SessionLists();
  /** Per principal (`auth` only): its sessions, held or not, and its lists. */
  readonly #principals = new Map<string, { count: number; lists: SessionLists }>();
  /** Sessions added so far. */
  #opened = 0;
  /** Activities recorded so far (`touch`). */
  #activities = 0;
  /** Sessions opened after one still in its handshake before it goes first: half of `max`. */
  readonly #handshakeGrace: number;
  /** Most sessions at once (`maxSessions`). */
  readonly max: number;
  /** Most sessions of one principal at once (`maxSessionsPerPrincipal`). */
  readonly perPrincipal: number;
  /** Most requests in flight on one session (`maxRequestsPerSession`). */
  readonly requestsPerSession: number;

  /** @throws RangeError naming the option when one of the bounds is not an integer of at least 1. */
  constructor(
    max = DEFAULT_MAX_SESSIONS,
    perPrincipal = DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
    requestsPerSession = DEFAULT_MAX_REQUESTS_PER_SESSION,
  ) {
    this.max = atLeastOne("maxSessions", max);
    this.perPrincipal = atLeastOne("maxSessionsPerPrincipal", perPrincipal);
    this.requestsPerSession = atLeastOne("maxRequestsPerSession", requestsPerSession);
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
      else this.#principals.set(live.principal, { count: 1, lists: new SessionLists() });
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
   * connection gone, a request to the client sent or settled, the handshake
   * completed): its `lastSeen` becomes `now`, and it moves to the end of its
   * list, or leaves the lists while a live connection holds one of its requests.
   */
  touch(live: HttpSession, now = Date.now()): void {
    live.session.lastSeen = now;
    live.activity = ++this.#activities;
    this.#unlist(live);
    if (live.session.closed || this.#byId.get(live.session.id) !== live) return;
    const list = !live.idle ? (live.held === 0 ? "unheld" : undefined) : live.session.initialized ? "initialized" : "uninitialized";
    if (list === undefined) return;
    this.#lists[list].add(live);
    live.listedIn = list;
    if (live.principal !== undefined) this.#principals.get(live.principal)!.lists[list].add(live);
  }

  /**
   * What must end for an `initialize` of `principal` to get a session: nothing
   * (`undefined`); past the principal's share, its own session chosen as
   * below (never another's); on a full table, the least recently active
   * session no live connection waits on (one whose handshake is overdue
   * first). `NoRoom` when there is none to end: every candidate has a
   * request held by a live connection.
   * @param stored sessions in the session store (shared stores count other instances' too)
   */
  reclaim(principal: string | undefined, stored: number): HttpSession | NoRoom | undefined {
    const mine = principal === undefined ? undefined : this.#principals.get(principal);
    if (mine && mine.count >= this.perPrincipal) return this.#oldest(mine.lists) ?? "principal";
    if (this.#byId.size < this.max && stored < this.max) return undefined;
    // A shared store holding more than the limit: ending one session here would not make room.
    if (stored > this.max) return "full";
    return this.#oldest(this.#lists) ?? "full";
  }

  /**
   * The session to end first: an idle one whose handshake is overdue, else
   * the least recently active idle or unheld one, else one still in its handshake.
   */
  #oldest(lists: SessionLists): HttpSession | undefined {
    const waiting = first(lists.uninitialized);
    if (waiting && this.#opened - waiting.opened >= this.#handshakeGrace) return waiting;
    const idle = first(lists.initialized);
    const unheld = first(lists.unheld);
    if (idle && unheld) return idle.activity < unheld.activity ? idle : unheld;
    return idle ?? unheld ?? waiting;
  }

  /**
   * The idle sessions whose last activity is at least `idleMs` old
   * (`uninitializedMs` for those that never sent `notifications/initialized`),
   * oldest first; each list is read only up to its first session not yet due.
   */
  expired(now: number, idleMs: number, uninitializedMs: number): HttpSession[] {
    const due: HttpSession[] = [];
    for (const [list, limit] of [
      [this.#lists.uninitialized, uninitializedMs],
      [this.#lists.initialized, idleMs],
    ] as const) {
      for (const live of list) {
        if (now - live.session.lastSeen < limit) break;
        due.push(live);
      }
    }
    return due;
  }

  #unlist(live: HttpSession): void {
    const list = live.listedIn;
    if (list === undefined) return;
    live.listedIn = undefined;
    this.#lists[list].delete(live);
    if (live.principal !== undefined) this.#principals.get(live.principal)?.lists[list].delete(live);
  }
}

/**
 * A bound of the table: an integer of at least 1. With 0 or NaN every
 * `initialize` (or request) would find no room; Infinity would be no bound.
 * @throws RangeError naming `option` otherwise.
 */
function atLeastOne(option: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${option} must be an integer >= 1, got ${String(value)}`);
  return value;
}
