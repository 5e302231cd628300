/**
 * An event bus on Redis pub/sub: what one server instance publishes
 * (a resource update, a list change, a task's status or control) reaches
 * every instance subscribed to the same Redis, so a `subscriptions/listen`
 * stream on any of them hears it.
 */
import { parseJson, stringifyJson } from "@x/jsonrpc";
import type { BusTopicName, EventBus } from "@x/server";
import type { Redis } from "ioredis";
import {
  closeOwned,
  connectionOf,
  DEFAULT_CONNECT_TIMEOUT_MS,
  OutageWatch,
  OWN_CONNECTION_OPTIONS,
  prefixOf,
  type RedisConnectionOptions,
  reportToStderr,
} from "./connection.js";

/** The longest wait between two attempts to subscribe again after a refusal, in milliseconds. */
export const RESUBSCRIBE_MAX_DELAY_MS = 30_000;

/** Options of {@link RedisEventBus}. */
export type RedisEventBusOptions = RedisConnectionOptions;

/** A bus message: a JSON object. */
type Message = Parameters<EventBus["publish"]>[1];
type Listener = (message: Message) => void;

interface Topic {
  listeners: Set<Listener>;
  /** Settles once Redis confirmed the SUBSCRIBE. */
  subscribed: Promise<void>;
}

/**
 * An {@link EventBus} on Redis pub/sub (the `eventBus` option of
 * `McpServer`). The channel of a topic is `prefix + topic`
 * (`x-mcp:resource-updated`); a message is the JSON of the published object
 * (integers beyond 2^53 kept).
 *
 * Two connections: PUBLISH goes on the given client (or one made from
 * `url`), SUBSCRIBE on a duplicate of it that the bus makes and closes, one
 * SUBSCRIBE per topic however many listeners it has.
 *
 * Delivery is Redis pub/sub's: at most once, in order per publisher, to the
 * instances subscribed at that moment. During an outage:
 * - `publish` rejects (at once on connections the bus made: no offline
 *   queue; a given client follows its own options), so the server answers
 *   -32603 instead of waiting;
 * - messages published meanwhile by other instances are lost for this one
 *   (task state lives in the task store, so a `tasks/get` still tells the
 *   truth; a listener misses the notifications of that time);
 * - ioredis reconnects (attempts `min(50 ms × attempt, 2 s)` apart, forever)
 *   and the bus subscribes again to every topic on each new connection; a
 *   failure to (a refusal, the connection lost again) is reported and tried
 *   again, on the next connection or, while it stays up, after 1 s, 2 s, ...
 *   up to {@link RESUBSCRIBE_MAX_DELAY_MS} apart. (Not ioredis' `autoResubscribe`: its
 *   failure is an unhandled rejection, which ends a Node process.)
 * - `onError` is told once (default: one line on stderr), not once per attempt.
 * A listener that throws, or a message on the channel that is not a JSON
 * object, is reported to `onError`; the other listeners still get it.
 */
export class RedisEventBus implements EventBus {
  readonly #pub: Redis;
  readonly #ownsPub: boolean;
  readonly #sub: Redis;
  readonly #prefix: string;
  readonly #connectTimeoutMs: number;
  readonly #watch: OutageWatch;
  readonly #topics = new Map<string, Topic>();
  /** The channels Redis confirmed, to subscribe again after a reconnection. */
  readonly #confirmed = new Set<string>();
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /** @throws TypeError for options that are not as documented. */
  constructor(options: RedisEventBusOptions) {
    const { redis, owned } = connectionOf(options, "RedisEventBus");
    this.#pub = redis;
    this.#ownsPub = owned;
    this.#sub = redis.duplicate({ ...OWN_CONNECTION_OPTIONS, autoResubscribe: false, lazyConnect: true });
    this.#prefix = prefixOf(options);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.#watch = new OutageWatch("event bus", options.onError ?? reportToStderr);
    this.#watch.watch(this.#pub);
    this.#watch.watch(this.#sub);
    this.#sub.on("message", (channel: string, text: string) => this.#deliver(channel, text));
    this.#sub.on("ready", () => this.#resubscribe(0));
    if (owned) this.#pub.connect().catch(() => {});
    this.#sub.connect().catch(() => {});
  }

  /** The Redis channel of `topic`. */
  channelOf(topic: string): string {
    return this.#prefix + topic;
  }

  /**
   * PUBLISHes `message` on the topic's channel; resolves once Redis took it.
   * @throws (rejects) RedisUnavailableError (marked `reported`: the outage
   *   was told to `onError` once) while Redis is unreachable; Error when the
   *   bus is closed; TypeError for a message that is not JSON (a cycle).
   */
  async publish(topic: BusTopicName, message: Message): Promise<void> {
    if (this.#closed) throw new Error("RedisEventBus: the bus is closed");
    const text = stringifyJson(message) as string;
    await this.#watch.ready(this.#pub, this.#connectTimeoutMs);
    await this.#watch.command(this.#pub, () => this.#pub.publish(this.channelOf(topic), text));
  }

  /**
   * Adds `listener` to `topic`; resolves, with the function that removes it,
   * once Redis confirmed the subscription (at once when the topic already
   * has one). The last listener's removal unsubscribes the channel.
   * @throws (rejects) RedisUnavailableError (marked `reported`) while Redis
   *   is unreachable; Error when the bus is closed.
   */
  async subscribe(topic: BusTopicName, listener: (message: Message) => void): Promise<() => void> {
    if (this.#closed) throw new Error("RedisEventBus: the bus is closed");
    const channel = this.channelOf(topic);
    let entry = this.#topics.get(channel);
    if (!entry) {
      const created: Topic = { listeners: new Set(), subscribed: this.#subscribeChannel(channel) };
      this.#topics.set(channel, created);
      created.subscribed.catch(() => {
        if (this.#topics.get(channel) === created) this.#topics.delete(channel);
      });
      entry = created;
    }
    await entry.subscribed;
    const topicEntry = entry;
    topicEntry.listeners.add(listener);
    return () => {
      if (!topicEntry.listeners.delete(listener) || topicEntry.listeners.size > 0) return;
      if (this.#topics.get(channel) !== topicEntry) return;
      this.#topics.delete(channel);
      this.#confirmed.delete(channel);
      if (this.#closed) return;
      this.#sub.unsubscribe(channel).catch((error: unknown) => {
        this.#watch.report(new Error(`event bus: could not unsubscribe from ${channel}: ${String(error)}`, { cause: error }));
      });
    };
  }

  /** Closes the subscriber connection, and the publishing one when the bus made it; a given client stays open. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watch.detach();
    this.#topics.clear();
    this.#confirmed.clear();
    clearTimeout(this.#retry);
    await Promise.all([closeOwned(this.#sub), this.#ownsPub ? closeOwned(this.#pub) : Promise.resolve()]);
  }

  async #subscribeChannel(channel: string): Promise<void> {
    await this.#watch.ready(this.#sub, this.#connectTimeoutMs);
    await this.#watch.command(this.#sub, () => this.#sub.subscribe(channel));
    if (this.#topics.has(channel)) this.#confirmed.add(channel);
  }

  /**
   * A new connection of the subscriber after a lost one: SUBSCRIBE again to
   * every confirmed channel. A refusal on a connection that stays up is
   * tried again after 1 s, doubling up to {@link RESUBSCRIBE_MAX_DELAY_MS};
   * only the first failure of a streak is reported.
   */
  #resubscribe(attempt = 0): void {
    clearTimeout(this.#retry);
    this.#retry = undefined;
    if (this.#closed || this.#confirmed.size === 0 || this.#sub.status !== "ready") return;
    const channels = [...this.#confirmed];
    this.#sub.subscribe(...channels).catch((error: unknown) => {
      if (attempt === 0) {
        this.#watch.report(
          new Error(
            `event bus: could not subscribe again to ${channels.join(", ")} after reconnecting (${error instanceof Error ? error.message : String(error)}); trying again`,
            { cause: error },
          ),
        );
      }
      if (this.#closed) return;
      this.#retry = setTimeout(() => this.#resubscribe(attempt + 1), Math.min(1000 * 2 ** attempt, RESUBSCRIBE_MAX_DELAY_MS));
      this.#retry.unref?.();
    });
  }

  #deliver(channel: string, text: string): void {
    const entry = this.#topics.get(channel);
    if (!entry || entry.listeners.size === 0) return;
    let message: unknown;
    try {
      message = parseJson(text);
    } catch (error) {
      message = error;
    }
    if (typeof message !== "object" || message === null || Array.isArray(message) || message instanceof Error) {
      this.#watch.report(new Error(`event bus: dropped a message on ${channel} that is not a JSON object: ${text.slice(0, 200)}`));
      return;
    }
    for (const listener of [...entry.listeners]) {
      try {
        listener(message as Message);
      } catch (error) {
        this.#watch.report(new Error(`event bus: a listener of ${channel} threw: ${String(error)}`, { cause: error }));
      }
    }
  }
}
