/**
 * The `initialize` era's Streamable HTTP sessions in Redis (spec 2025-11-25:
 * basic/transports, "Session Management" and "Resumability and
 * Redelivery"): each session's record, so that any instance serves any
 * session, the signals the instances send each other about the live parts
 * only one of them holds, and the SSE events a client resumes after
 * `Last-Event-ID` on whichever instance its GET lands on.
 */
import { parseJson, stringifyJson } from "@x/jsonrpc";
import {
  DEFAULT_MAX_EVENTS_PER_SESSION,
  DEFAULT_SESSION_IDLE_MS,
  type EventStore,
  MAX_SESSION_RECORD_CHARS,
  type Replay,
  type SessionRecord,
  SessionRecordError,
  type SessionSignal,
  type SessionStore,
  type StoredEvent,
} from "@x/server";
import type { Redis } from "ioredis";
import { createHash } from "node:crypto";
import {
  closeOwned,
  type Connection,
  connectionOf,
  DEFAULT_CONNECT_TIMEOUT_MS,
  OutageWatch,
  OWN_CONNECTION_OPTIONS,
  prefixOf,
  type RedisConnectionOptions,
  reportToStderr,
} from "./connection.js";

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions extends RedisConnectionOptions {
  /**
   * How long a session's record lives after the last request that named it,
   * in ms (each request renews it; DELETE removes it at once). Give it the
   * server's `sessionIdleTimeoutMs` or more. Default `DEFAULT_SESSION_IDLE_MS` (30 minutes).
   */
  ttlMs?: number;
  /**
   * This instance's name among those sharing the Redis (it goes into the ids
   * of the server's requests to clients and of its streams, and tells its own
   * signals apart): letters, digits, `_`, at most 32. Default: random.
   */
  instance?: string;
}

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions extends RedisConnectionOptions {
  /** Most events kept per session, the oldest dropped first. Default `DEFAULT_MAX_EVENTS_PER_SESSION` (1000). */
  maxEventsPerSession?: number;
  /** How long a session's events live after the last one was stored, in ms. Default `DEFAULT_SESSION_IDLE_MS` (30 minutes). */
  ttlMs?: number;
}

/** A positive integer option. @throws RangeError naming it otherwise. */
function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

function randomName(): string {
  return globalThis.crypto.randomUUID().replaceAll("-", "").slice(0, 10);
}

/**
 * KEYS: the record; ARGV: its lifetime in ms, the most bytes read. The
 * record renewed and read, or only its length in bytes when it is longer
 * (a damaged record is not sent across on each request); a key of another
 * type is Redis' WRONGTYPE error.
 */
const LOAD = `local size = redis.call('STRLEN', KEYS[1])
if size > tonumber(ARGV[2]) then return size end
return redis.call('GETEX', KEYS[1], 'PX', ARGV[1])
`;
const LOAD_SHA = createHash("sha1").update(LOAD).digest("hex");

/** The most bytes of a record read: {@link MAX_SESSION_RECORD_CHARS} UTF-16 units take at most 3 bytes each in UTF-8. */
const MAX_RECORD_BYTES = 3 * MAX_SESSION_RECORD_CHARS;

/**
 * A shared {@link SessionStore} in Redis (the `sessionStore` option of the
 * HTTP transport): any instance using the same Redis and prefix serves any
 * session. A record is one string key, `<prefix>session:<id>`, the JSON of
 * the session's {@link SessionRecord}, expiring `ttlMs` after the last
 * request that named it (`GETEX` in a script that first checks its length, one round trip per request). The signals
 * go on one pub/sub channel, `<prefix>sessions` (at most once, in order per
 * instance); each instance subscribes once, while it holds sessions.
 *
 * During an outage, a request naming a session is answered 503 with
 * `Retry-After` (the record cannot be read), `initialize` likewise, and the
 * signals of that time are lost (an answer relayed then is not heard: its
 * request times out; an update is read again by the next request).
 */
export class RedisSessionStore implements SessionStore {
  /** Always true: the transport reads the record on each request and signals the other instances. */
  readonly shared = true;
  /** This instance's name (the `instance` option, else random): in the ids of its requests to clients and of its streams. */
  readonly instance: string;
  readonly #connection: Connection;
  readonly #sub: Redis;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #connectTimeoutMs: number;
  readonly #watch: OutageWatch;
  readonly #listeners = new Set<(signal: SessionSignal) => void>();
  #subscribed: Promise<unknown> | undefined;
  #closed = false;

  /** @throws TypeError for connection options that are not as documented; RangeError for a bad `ttlMs` or `instance`. */
  constructor(options: RedisSessionStoreOptions) {
    this.#ttlMs = positive("ttlMs", options.ttlMs ?? DEFAULT_SESSION_IDLE_MS);
    const instance = options.instance ?? randomName();
    if (!/^[A-Za-z0-9_]{1,32}$/.test(instance)) throw new RangeError(`instance must be 1 to 32 letters, digits or _, got ${instance}`);
    this.instance = instance;
    this.#prefix = prefixOf(options);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.#connection = connectionOf(options, "RedisSessionStore");
    this.#sub = this.#connection.redis.duplicate({ ...OWN_CONNECTION_OPTIONS, autoResubscribe: false, lazyConnect: true });
    this.#watch = new OutageWatch("session store", options.onError ?? reportToStderr);
    this.#watch.watch(this.#connection.redis);
    this.#watch.watch(this.#sub);
    this.#sub.on("message", (_channel: string, text: string) => this.#deliver(text));
    // Subscribes again on each new connection itself (ioredis' autoResubscribe fails as an unhandled rejection).
    this.#sub.on("ready", () => {
      if (!this.#subscribed || this.#closed) return;
      this.#sub.subscribe(this.channel).catch((error: unknown) => {
        this.#watch.report(new Error(`session store: could not subscribe again to ${this.channel}: ${String(error)}`, { cause: error }));
      });
    });
    if (this.#connection.owned) this.#connection.redis.connect().catch(() => {});
  }

  /** The key of a session's record. */
  sessionKey(id: string): string {
    return `${this.#prefix}session:${id}`;
  }

  /** The channel of the signals. */
  get channel(): string {
    return `${this.#prefix}sessions`;
  }

  /** Records are counted by each instance's own table: a shared store answers 0. */
  get size(): number {
    return 0;
  }

  /**
   * The record of `id`, its expiry renewed, as read (the server checks it);
   * `undefined` when there is none (ended, expired, never made).
   * @throws (rejects) SessionRecordError when the key holds what cannot be
   *   a record: a Redis error reply (WRONGTYPE: a key of another type, and
   *   the like), text longer than `MAX_SESSION_RECORD_CHARS` (checked in
   *   Redis, so it is not sent across), or text that is not JSON;
   *   RedisUnavailableError while Redis is unreachable.
   */
  async load(id: string): Promise<SessionRecord | undefined> {
    const redis = this.#connection.redis;
    await this.#watch.ready(redis, this.#connectTimeoutMs);
    const key = this.sessionKey(id);
    const args = [String(this.#ttlMs), String(MAX_RECORD_BYTES)];
    let found: unknown;
    try {
      found = await this.#watch.command(redis, async () => {
        try {
          return await redis.call("EVALSHA", LOAD_SHA, 1, key, ...args);
        } catch (error) {
          if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
          return await redis.call("EVAL", LOAD, 1, key, ...args);
        }
      });
    } catch (error) {
      // Redis answered, with an error: the key is not a record (an outage rejects with RedisUnavailableError).
      if (error instanceof Error && error.name === "ReplyError") throw new SessionRecordError(id, error.message, { cause: error });
      throw error;
    }
    if (found === null) return undefined;
    if (typeof found === "number") throw new SessionRecordError(id, `${found} bytes, more than ${MAX_RECORD_BYTES}`);
    const text = String(found);
    if (text.length > MAX_SESSION_RECORD_CHARS) {
      throw new SessionRecordError(id, `${text.length} characters, more than ${MAX_SESSION_RECORD_CHARS}`);
    }
    try {
      return parseJson(text) as SessionRecord;
    } catch (error) {
      throw new SessionRecordError(id, `not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    }
  }

  /**
   * Writes a record (expiring `ttlMs` from now).
   * @throws (rejects) RedisUnavailableError while Redis is unreachable.
   */
  async save(record: SessionRecord): Promise<void> {
    const redis = this.#connection.redis;
    await this.#watch.ready(redis, this.#connectTimeoutMs);
    await this.#watch.command(redis, () => redis.set(this.sessionKey(record.id), stringifyJson(record) as string, "PX", this.#ttlMs));
  }

  /** Removes a record. @throws (rejects) RedisUnavailableError while Redis is unreachable. */
  async delete(id: string): Promise<void> {
    const redis = this.#connection.redis;
    await this.#watch.ready(redis, this.#connectTimeoutMs);
    await this.#watch.command(redis, () => redis.del(this.sessionKey(id)));
  }

  /** PUBLISHes a signal to the other instances; a failure is reported (once per outage), never thrown. */
  signal(signal: SessionSignal): void {
    if (this.#closed) return;
    const redis = this.#connection.redis;
    const text = stringifyJson({ from: this.instance, ...signal }) as string;
    this.#watch
      .ready(redis, this.#connectTimeoutMs)
      .then(() => this.#watch.command(redis, () => redis.publish(this.channel, text)))
      .catch(() => {
        // Reported by the watch; the signal is lost, as the class comment says.
      });
  }

  /** Calls `listener` with the other instances' signals until the returned function is called; subscribes on the first listener. */
  listen(listener: (signal: SessionSignal) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#subscribed && !this.#closed) {
      this.#subscribed = this.#watch
        .ready(this.#sub, this.#connectTimeoutMs)
        .then(() => this.#watch.command(this.#sub, () => this.#sub.subscribe(this.channel)))
        .catch(() => {
          this.#subscribed = undefined;
        });
    }
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Closes the subscriber connection, and the other when the store made it. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    this.#watch.detach();
    await Promise.all([closeOwned(this.#sub), this.#connection.owned ? closeOwned(this.#connection.redis) : Promise.resolve()]);
  }

  #deliver(text: string): void {
    let signal: (SessionSignal & { from?: unknown }) | undefined;
    try {
      signal = parseJson(text) as SessionSignal & { from?: unknown };
    } catch {
      signal = undefined;
    }
    if (typeof signal !== "object" || signal === null || typeof signal.session !== "string") {
      this.#watch.report(new Error(`session store: dropped a signal on ${this.channel} that is not one: ${text.slice(0, 200)}`));
      return;
    }
    if (signal.from === this.instance) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener(signal);
      } catch (error) {
        this.#watch.report(new Error(`session store: a listener threw: ${String(error)}`, { cause: error }));
      }
    }
  }
}

/**
 * A shared {@link EventStore} in Redis (the `eventStore` option of the HTTP
 * transport): the SSE events of a session, whichever instance sent them, in
 * one list, `<prefix>events:<sessionId>`, in the order Redis received them,
 * at most `maxEventsPerSession` (the oldest dropped first: `LTRIM`),
 * expiring `ttlMs` after the last event. An event id is
 * `<streamId>.<instance>.<n>`, chosen by the instance at once; the write
 * follows (in order on its connection), so a store that cannot be reached
 * loses the events of that time for replay (reported once per outage). A
 * resume reads the whole list (`LRANGE`, bounded by `maxEventsPerSession`).
 */
export class RedisEventStore implements EventStore {
  readonly #connection: Connection;
  readonly #prefix: string;
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #connectTimeoutMs: number;
  readonly #watch: OutageWatch;
  readonly #instance = randomName();
  #next = 0;
  #closed = false;

  /** @throws TypeError for connection options that are not as documented; RangeError for a bad bound. */
  constructor(options: RedisEventStoreOptions) {
    this.#max = positive("maxEventsPerSession", options.maxEventsPerSession ?? DEFAULT_MAX_EVENTS_PER_SESSION);
    this.#ttlMs = positive("ttlMs", options.ttlMs ?? DEFAULT_SESSION_IDLE_MS);
    this.#prefix = prefixOf(options);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.#connection = connectionOf(options, "RedisEventStore");
    this.#watch = new OutageWatch("event store", options.onError ?? reportToStderr);
    this.#watch.watch(this.#connection.redis);
    if (this.#connection.owned) this.#connection.redis.connect().catch(() => {});
  }

  /** The key of a session's events. */
  eventsKey(sessionId: string): string {
    return `${this.#prefix}events:${sessionId}`;
  }

  /** Stores an event (written after; a failure is reported, never thrown) and answers its id at once. */
  append(sessionId: string, streamId: string, message: StoredEvent["message"]): string {
    const id = `${streamId}.${this.#instance}.${++this.#next}`;
    if (this.#closed) return id;
    const redis = this.#connection.redis;
    const key = this.eventsKey(sessionId);
    const text = stringifyJson(message === undefined ? { id, streamId } : { id, streamId, message }) as string;
    const write = () =>
      this.#watch.command(redis, () => redis.multi().rpush(key, text).ltrim(key, -this.#max, -1).pexpire(key, this.#ttlMs).exec());
    // A connection that was ready once fails fast while down; the first one is waited for.
    (redis.status === "ready" ? write() : this.#watch.ready(redis, this.#connectTimeoutMs).then(write)).catch(() => {});
    return id;
  }

  /**
   * The events after `lastEventId` on its stream; `undefined` when the id is
   * not among the kept events.
   * @throws (rejects) RedisUnavailableError while Redis is unreachable (the transport then opens a fresh stream).
   */
  async replay(sessionId: string, lastEventId: string): Promise<Replay | undefined> {
    const redis = this.#connection.redis;
    await this.#watch.ready(redis, this.#connectTimeoutMs);
    const texts = await this.#watch.command(redis, () => redis.lrange(this.eventsKey(sessionId), 0, -1));
    const events: StoredEvent[] = [];
    for (const text of texts) {
      try {
        const event = parseJson(text) as StoredEvent;
        if (typeof event?.id === "string" && typeof event.streamId === "string") events.push(event);
      } catch {
        // A damaged entry is skipped.
      }
    }
    const at = events.findIndex((e) => e.id === lastEventId);
    if (at < 0) return undefined;
    const streamId = events[at]!.streamId;
    return { streamId, events: events.slice(at + 1).filter((e) => e.streamId === streamId) };
  }

  /** Forgets a session's events (written after; a failure leaves them to their expiry). */
  forget(sessionId: string): void {
    if (this.#closed) return;
    const redis = this.#connection.redis;
    this.#watch.command(redis, () => redis.del(this.eventsKey(sessionId))).catch(() => {});
  }

  /** Closes the connection when the store made it. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watch.detach();
    if (this.#connection.owned) await closeOwned(this.#connection.redis);
  }
}
