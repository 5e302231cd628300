/**
 * The framing's part with a shared {@link SessionStore} (internal): a
 * session as data (the record the store keeps of a live session, and the
 * way back), so that an instance that does not hold a session serves it
 * from its record (spec 2025-11-25: basic/transports, "Session Management":
 * the id is all a request carries), and the signals the instances exchange
 * about the live parts only one of them holds.
 */
import type { RequestId } from "@x/jsonrpc";
import type { JsonObject } from "../../../objects.js";
import { errorAnswer } from "../../../transports/http/answers.js";
import type { Exchange, HttpAnswer } from "../../../transports/http/exchange.js";
import { loadEra } from "../era.js";
import type { LegacySession } from "../session.js";
import type { SessionStreams } from "./session-streams.js";
import { HttpSession, type SessionTable } from "./session-table.js";
import { readRecord } from "./record.js";
import { type SessionRecord, SessionRecordError, type SessionSignal, type SessionStore } from "./sessions.js";

/**
 * What the framing does for {@link SharedSessions}: hold a copy of a session,
 * let go of one (only here); the era's versions it serves (a record of
 * another is damaged); and where a damaged record is reported (`onError`).
 */
export interface SharedHost {
  hold(record: SessionRecord): HttpSession;
  end(live: HttpSession): void;
  readonly versions: readonly string[];
  report(error: SessionRecordError): void;
}

/** How many session ids a process remembers having reported a damaged record of (then it forgets them all). */
const REPORTED_IDS = 1024;

/** 503 with `Retry-After: 1`: the store cannot be reached, or no session may be let go of to make room. */
export const unavailable = (ex: Exchange, message: string, id?: RequestId): HttpAnswer =>
  errorAnswer(503, -32000, message, id, { "retry-after": "1", ...ex.cors });

/** The sessions of one transport core kept in a shared store. */
export class SharedSessions {
  readonly #store: SessionStore;
  readonly #table: SessionTable;
  readonly #streams: SessionStreams;
  readonly #host: SharedHost;
  /** Ids whose damaged record was reported: a client retrying does not report it again. */
  readonly #reported = new Set<string>();

  constructor(store: SessionStore, table: SessionTable, streams: SessionStreams, host: SharedHost) {
    this.#store = store;
    this.#table = table;
    this.#streams = streams;
    this.#host = host;
  }

  /**
   * The session `id` names, its copy here brought in line with its record
   * (read on every request: an end or a change made elsewhere is seen), or
   * rebuilt from it; `undefined` when it has no record or a damaged one
   * (its copy here, if any, ends; the damage is reported once); 503 when the
   * store cannot be read or the table is full of sessions that may not be
   * let go of.
   */
  async find(ex: Exchange, id: string): Promise<HttpSession | HttpAnswer | undefined> {
    let record: SessionRecord | undefined;
    try {
      const value = await this.#store.load(id);
      // A session this process never saw opened: what its initialize would have loaded, it loads now.
      await loadEra();
      record = value === undefined ? undefined : readRecord(value, id, this.#host.versions);
    } catch (error) {
      if (!(error instanceof SessionRecordError)) return unavailable(ex, "Service unavailable: the session store cannot be read now");
      this.#damaged(error);
      record = undefined;
    }
    // Bounded: each turn lets go of one copy held here.
    for (let turn = 0; turn <= this.#table.max; turn++) {
      const live = this.#table.get(id);
      if (record === undefined) {
        if (live) this.#host.end(live);
        return undefined;
      }
      if (live && !live.session.closed) {
        applyRecord(live.session, record);
        live.saved = stateOf(live.session);
        return live;
      }
      if (!this.#table.full) {
        const held = this.#host.hold(record);
        applyRecord(held.session, record);
        held.saved = stateOf(held.session);
        return held;
      }
      const room = this.#table.reclaim(undefined, this.#table.size);
      if (!(room instanceof HttpSession)) break;
      this.#host.end(room);
    }
    return unavailable(ex, `Server busy: ${this.#table.max} sessions open, none idle`);
  }

  /**
   * `answer`, once a change of the session's state (the handshake, the log
   * level, the subscriptions) is in the store and told to the other
   * instances; at once when nothing changed.
   */
  saved(live: HttpSession, answer: HttpAnswer): HttpAnswer | Promise<HttpAnswer> {
    if (live.session.closed) return answer;
    const state = stateOf(live.session);
    if (state === live.saved) return answer;
    live.saved = state;
    const record = recordOf(live);
    return Promise.resolve(this.#store.save(record)).then(
      () => {
        this.#store.signal?.({ kind: "update", session: record.id, record });
        return answer;
      },
      () => {
        // Not saved: the next request that changes the session tries again.
        live.saved = "";
        return answer;
      },
    );
  }

  /** A response POSTed on `live`: settles its request when it waits here, else goes to the instance where it does. */
  settle(live: HttpSession, response: JsonObject): void {
    if (live.session.waitsFor(response.id)) live.session.settle(response);
    else this.#store.signal?.({ kind: "answer", session: live.session.id, message: response });
  }

  /** What another instance tells of a session this process may hold. */
  signalled(signal: SessionSignal): void {
    const live = this.#table.get(signal.session);
    if (!live || live.session.closed) return;
    if (signal.kind === "answer") {
      if (live.session.waitsFor(signal.message.id)) live.session.settle(signal.message);
    } else if (signal.kind === "event") this.#streams.deliver(live, signal.stream, signal.id, signal.message);
    else if (signal.kind === "end") this.#host.end(live);
    else {
      let record: SessionRecord;
      try {
        record = readRecord(signal.record, live.session.id, this.#host.versions);
      } catch (error) {
        // A damaged update is ignored: the next request reads the record itself.
        if (error instanceof SessionRecordError) this.#damaged(error);
        return;
      }
      applyRecord(live.session, record);
      live.saved = stateOf(live.session);
    }
  }

  /** Reports a damaged record, once per session id (bounded: the ids are forgotten past {@link REPORTED_IDS}). */
  #damaged(error: SessionRecordError): void {
    if (this.#reported.has(error.session)) return;
    if (this.#reported.size >= REPORTED_IDS) this.#reported.clear();
    this.#reported.add(error.session);
    this.#host.report(error);
  }
}

/** The record of a live session. */
export function recordOf(live: HttpSession): SessionRecord {
  const session = live.session;
  const record: SessionRecord = {
    id: session.id,
    protocolVersion: session.protocolVersion,
    clientCapabilities: session.clientCapabilities,
    clientInfo: session.clientInfo,
    initialized: session.initialized,
    subscriptions: [...session.subscriptions],
  };
  if (live.principal !== undefined) record.principal = live.principal;
  if (session.logLevel !== undefined) record.logLevel = session.logLevel;
  return record;
}

/** What of a session its requests may change (the handshake, the log level, the subscriptions), as one string to compare. */
export function stateOf(session: LegacySession): string {
  return `${session.initialized ? 1 : 0} ${session.logLevel ?? ""} ${[...session.subscriptions].join(" ")}`;
}

/** Brings a live session in line with a record another instance saved (a request there changed it). */
export function applyRecord(session: LegacySession, record: SessionRecord): void {
  if (record.initialized) session.markInitialized();
  session.logLevel = record.logLevel;
  if (session.subscriptions.size !== record.subscriptions.length || record.subscriptions.some((uri) => !session.subscriptions.has(uri))) {
    session.subscriptions.clear();
    for (const uri of record.subscriptions) session.subscriptions.add(uri);
  }
}
