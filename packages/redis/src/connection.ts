/**
 * The connections of the store and the bus: which ones they make, with what
 * options, how long they wait for Redis at first, and how an outage is
 * reported (once, not once per reconnection attempt).
 */
import { Redis } from "ioredis";

/** Options every part of this package takes. */
export interface RedisConnectionOptions {
  /**
   * An ioredis client to use. Whoever passes it owns it: `close()` leaves it
   * open, and its own options (offline queue, retries) decide how a command
   * behaves while Redis is down. Give exactly one of `client` and `url`.
   */
  client?: Redis;
  /**
   * A Redis URL (`redis://[user:password@]host:port[/db]`, `rediss://` for
   * TLS): the part makes its own connection, fails fast while Redis is down
   * (see {@link OWN_CONNECTION_OPTIONS}) and closes it in `close()`.
   */
  url?: string;
  /** What every key and channel name starts with, so that several deployments can share one Redis. Default {@link DEFAULT_PREFIX}. */
  prefix?: string;
  /**
   * Told once per outage (the first error after the connection was up, or
   * the failure to reach Redis at first), not once per reconnection attempt.
   * Default: one line on stderr. Commands that fail during the outage also
   * reject, for their caller to handle.
   */
  onError?: (error: Error) => void;
  /**
   * How long the first command waits for the first connection to be ready,
   * in milliseconds (later commands never wait: they fail at once while
   * Redis is down). Default {@link DEFAULT_CONNECT_TIMEOUT_MS}.
   */
  connectTimeoutMs?: number;
}

/** The default key and channel prefix. */
export const DEFAULT_PREFIX = "x-mcp:";

/** The default wait for the first connection, in milliseconds. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** The default bound on one command's answer, in milliseconds, on connections this package makes. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5_000;

/**
 * What a connection this package makes differs in from ioredis' defaults,
 * and why: a request must be answered with an error while Redis is down,
 * not wait for it.
 * - `enableOfflineQueue: false`: a command sent while disconnected rejects
 *   at once instead of being queued until Redis is back.
 * - `maxRetriesPerRequest: 0`: a command in flight when the connection
 *   breaks rejects at once instead of being sent again after the
 *   reconnection (so a rejected write may or may not have been applied).
 * - `commandTimeout`: a command Redis does not answer (a stalled server)
 *   rejects after {@link DEFAULT_COMMAND_TIMEOUT_MS}.
 * Reconnection is ioredis' own: attempts forever, `min(50 ms × attempt, 2 s)`
 * apart. The bus subscribes again on each new connection itself (see
 * `RedisEventBus`), not by ioredis' `autoResubscribe`, whose failure would be
 * an unhandled rejection.
 */
export const OWN_CONNECTION_OPTIONS = Object.freeze({
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: DEFAULT_COMMAND_TIMEOUT_MS,
});

/**
 * Redis cannot be reached: reported once per outage of a part's connections
 * (through `onError`), and what each command of the part rejects with
 * during the outage. `cause` is the connection's own error.
 */
export class RedisUnavailableError extends Error {
  /**
   * True on the rejections of commands during an outage: the outage was
   * reported already, once, so whoever logs failures need not print it
   * again (the server's default reporting prints nothing for it).
   */
  readonly reported: boolean;
  /** Made by the store and the bus when Redis cannot be reached; reported through `onError`. */
  constructor(message: string, options?: { cause?: unknown; reported?: boolean }) {
    super(message, options);
    this.name = "RedisUnavailableError";
    this.reported = options?.reported === true;
  }
}

/** The connection a part uses, and whether it made it (then it closes it). */
export interface Connection {
  redis: Redis;
  owned: boolean;
}

/**
 * The connection of `options`: the given client, or a new one to `url`.
 * @throws TypeError when neither or both are given.
 */
export function connectionOf(options: RedisConnectionOptions, part: string): Connection {
  if ((options.client === undefined) === (options.url === undefined)) {
    throw new TypeError(`${part}: give exactly one of \`client\` (an ioredis client) and \`url\``);
  }
  if (options.client) return { redis: options.client, owned: false };
  return { redis: new Redis(options.url as string, { ...OWN_CONNECTION_OPTIONS, lazyConnect: true }), owned: true };
}

/** The prefix of `options`, checked. @throws TypeError for a non-string. */
export function prefixOf(options: RedisConnectionOptions): string {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (typeof prefix !== "string") throw new TypeError("prefix must be a string");
  return prefix;
}

/** `host:port` of a connection, for messages. */
export function whereOf(redis: Redis): string {
  const { host, port, path } = redis.options;
  return path ? String(path) : `${host ?? "localhost"}:${port ?? 6379}`;
}

/**
 * Resolves once `redis` is ready: at once when it is, else after waiting up
 * to `timeoutMs` for it (connecting it when it was created lazily).
 * @throws RedisUnavailableError when it is closed for good or not ready in time.
 */
export function untilReady(redis: Redis, timeoutMs: number, part: string): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  if (redis.status === "end") return Promise.reject(new RedisUnavailableError(`${part}: the connection to Redis is closed`));
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      redis.off("ready", onReady);
      redis.off("end", onEnd);
      if (error) reject(error);
      else resolve();
    };
    const onReady = () => done();
    const onEnd = () => done(new RedisUnavailableError(`${part}: the connection to Redis was closed`));
    const timer = setTimeout(
      () => done(new RedisUnavailableError(`${part}: Redis at ${whereOf(redis)} was not ready within ${timeoutMs} ms`)),
      timeoutMs,
    );
    redis.on("ready", onReady);
    redis.on("end", onEnd);
    if (redis.status === "wait") redis.connect().catch(() => {});
  });
}

/** The default `onError`: one line on stderr. */
export function reportToStderr(error: Error): void {
  process.stderr.write(`@x/redis: ${error.message}\n`);
}

/**
 * Watches a part's connections and reports an outage once: when the first
 * of them fails while all were up (or before any was ever up), and again
 * only after every one of them was ready once more.
 */
export class OutageWatch {
  readonly #part: string;
  readonly #report: (error: Error) => void;
  readonly #down = new Set<Redis>();
  readonly #everReady = new WeakSet<Redis>();
  readonly #detach: (() => void)[] = [];
  #reported = false;
  /**
   * Connections still up whose last command timed out (a stalled Redis):
   * their commands fail at once but one at a time, the probe, which clears
   * the stall when it is answered.
   */
  readonly #stalled = new Set<Redis>();
  readonly #probing = new Set<Redis>();

  constructor(part: string, report: (error: Error) => void) {
    this.#part = part;
    this.#report = report;
  }

  /** True while a watched connection is down. */
  get down(): boolean {
    return this.#down.size > 0;
  }

  /**
   * Resolves once `redis` can take commands: at once when it is ready or
   * has been ready before (a command then fails fast while it is down),
   * else after waiting for its first connection (see {@link untilReady}).
   * @throws RedisUnavailableError (reported) when it was not ready in time.
   */
  async ready(redis: Redis, timeoutMs: number): Promise<void> {
    if (this.#everReady.has(redis)) return;
    try {
      await untilReady(redis, timeoutMs, this.#part);
    } catch (error) {
      throw this.failed(redis, error);
    }
    this.#everReady.add(redis);
  }

  /**
   * What a command on `redis` that failed with `error` rejects with: when
   * the connection is down (not a reply of Redis, which is the command's own
   * failure), a {@link RedisUnavailableError} marked `reported`, the outage
   * reported first if it was not yet (so it is told once, whichever of the
   * connection's events and the command's failure comes first); else
   * `error` itself.
   */
  failed(redis: Redis, error: unknown): unknown {
    const cause = error instanceof Error ? error : new Error(String(error));
    // A reply is Redis answering; a command that timed out on a connection still up is a slow Redis, not a lost one.
    const up = redis.status === "ready" && (redis as unknown as { stream?: { writable?: boolean } }).stream?.writable === true;
    if (cause.name === "ReplyError" || (up && !(cause instanceof RedisUnavailableError))) return error;
    this.#fail(redis, cause);
    return new RedisUnavailableError(
      `${this.#part}: Redis at ${whereOf(redis)} is unreachable (${cause.message || cause.name}); the outage was reported when it began`,
      { cause, reported: true },
    );
  }

  /**
   * Runs one command on `redis`; its failure while the connection is down is
   * {@link OutageWatch.failed}'s. After a command timed out on a connection
   * still up (Redis stalled: paused, swapping, a long script), the next
   * commands reject at once with a {@link RedisUnavailableError} (`reported`)
   * instead of each waiting its `commandTimeout`, but for one at a time,
   * sent as a probe: the first answer ends the stall (so does a new
   * connection). The stall is reported once, as an outage is.
   */
  async command<T>(redis: Redis, run: () => Promise<T>): Promise<T> {
    const probe = this.#stalled.has(redis);
    if (probe && this.#probing.has(redis)) {
      throw new RedisUnavailableError(
        `${this.#part}: Redis at ${whereOf(redis)} has not answered since a command timed out; the stall was reported when it began`,
        { reported: true },
      );
    }
    if (probe) this.#probing.add(redis);
    try {
      const answer = await run();
      if (this.#stalled.delete(redis) && this.#down.size === 0 && this.#stalled.size === 0) this.#reported = false;
      return answer;
    } catch (error) {
      if (error instanceof Error && error.message === "Command timed out" && redis.status === "ready") this.#stall(redis, error);
      throw this.failed(redis, error);
    } finally {
      if (probe) this.#probing.delete(redis);
    }
  }

  #stall(redis: Redis, cause: Error): void {
    if (this.#stalled.has(redis)) return;
    this.#stalled.add(redis);
    if (this.#reported) return;
    this.#reported = true;
    this.report(
      new RedisUnavailableError(
        `${this.#part}: Redis at ${whereOf(redis)} did not answer a command in time (${cause.message}); failing commands at once, but one at a time sent to see if it answers, until it does`,
        { cause },
      ),
    );
  }

  /** Starts watching `redis` (its `error`, `close` and `ready` events). */
  watch(redis: Redis): void {
    if (redis.status === "ready") this.#everReady.add(redis);
    // A socket error on a ready connection comes just before its close: it is the cause the close reports.
    let cause: Error | undefined;
    const onError = (error: Error) => {
      if (redis.status === "ready") cause = error;
      else this.#fail(redis, error);
    };
    const onClose = () => {
      // A close we asked for (quit, disconnect) is no outage.
      if (redis.status === "end" || (redis as unknown as { manuallyClosing?: boolean }).manuallyClosing) return;
      this.#fail(redis, cause ?? new Error("the connection was closed"));
      cause = undefined;
    };
    const onReady = () => {
      this.#everReady.add(redis);
      cause = undefined;
      this.#down.delete(redis);
      this.#stalled.delete(redis);
      if (this.#down.size === 0 && this.#stalled.size === 0) this.#reported = false;
    };
    redis.on("error", onError);
    redis.on("close", onClose);
    redis.on("ready", onReady);
    this.#detach.push(() => {
      redis.off("error", onError);
      redis.off("close", onClose);
      redis.off("ready", onReady);
    });
  }

  /** Stops watching every connection (the part is closing). */
  detach(): void {
    for (const off of this.#detach.splice(0)) off();
  }

  /** Reports an error that is not a connection's (a listener's, a malformed message), always. */
  report(error: Error): void {
    try {
      this.#report(error);
    } catch {
      // The reporter's own failure has nowhere left to go.
    }
  }

  #fail(redis: Redis, cause: Error): void {
    this.#down.add(redis);
    if (this.#reported) return;
    this.#reported = true;
    this.report(
      new RedisUnavailableError(
        `${this.#part}: ${this.#everReady.has(redis) ? "lost" : "cannot reach"} Redis at ${whereOf(redis)} (${cause.message || cause.name}); reconnecting, and failing requests that need it until then`,
        { cause },
      ),
    );
  }
}

/**
 * Closes a connection the part made: `QUIT` when connected (bounded by
 * `timeoutMs`), else at once.
 */
export async function closeOwned(redis: Redis, timeoutMs = 2_000): Promise<void> {
  if (redis.status === "end") return;
  if (redis.status !== "ready") {
    redis.disconnect();
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quit = redis.quit().then(
    () => {},
    () => redis.disconnect(),
  );
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      redis.disconnect();
      resolve();
    }, timeoutMs);
  });
  await Promise.race([quit, late]);
  clearTimeout(timer);
}
