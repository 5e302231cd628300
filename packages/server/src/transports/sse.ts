/**
 * A small push queue of SSE chunks: the transport core pushes events, the
 * HTTP adapter pulls them (Node `res.write` or a web `ReadableStream`).
 */
import { stringifyJson } from "@x/jsonrpc";

/** Formats one JSON-RPC message as an SSE event: a single `data:` line (compact JSON has no newline). */
export function sseEvent(message: unknown): string {
  return sseEventOf(stringifyJson(message));
}

/** {@link sseEvent} of a message already written as compact JSON. */
export function sseEventOf(json: string): string {
  return `event: message\ndata: ${json}\n\n`;
}

/** An SSE comment line, ignored by clients; keeps idle connections open. */
export const SSE_KEEPALIVE = ":\n\n";

/**
 * One keep-alive timer for many SSE streams: every `ms` it pushes
 * {@link SSE_KEEPALIVE} to each stream added and not yet deleted. A
 * `setInterval` per stream cost each idle stream a timer, its closure and
 * its list entry; the shared one runs only while a stream is in the set
 * (and never keeps the process alive). A stream's first comment comes
 * within `ms` of its start, not exactly `ms` after it.
 */
export class KeepAlive {
  readonly #streams = new Set<ChunkQueue>();
  readonly #ms: number;
  #timer: ReturnType<typeof setInterval> | undefined = undefined;

  /** `ms`: the interval, in milliseconds (> 0). */
  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Starts keeping `stream` alive. */
  add(stream: ChunkQueue): void {
    this.#streams.add(stream);
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      for (const s of this.#streams) s.push(SSE_KEEPALIVE);
    }, this.#ms);
    this.#timer.unref?.();
  }

  /** Stops keeping `stream` alive; the timer stops with the last stream. */
  delete(stream: ChunkQueue): void {
    if (!this.#streams.delete(stream) || this.#streams.size > 0 || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** Default cap of the bytes one SSE stream may hold unread: 8 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/**
 * An async-iterable queue of strings that ends once `end()` is called.
 * Taking a chunk is O(1). The queue holds at most `maxBufferedBytes` of
 * unread text: a push past it (a consumer that does not keep up) ends the
 * stream and calls `onOverflow`, so a slow client cannot make the server
 * buffer without bound.
 */
export class ChunkQueue implements AsyncIterable<string> {
  #chunks: string[] = [];
  #head = 0;
  #bytes = 0;
  #ended = false;
  #wake: (() => void) | undefined;
  readonly #max: number;
  /** Called when the consumer stops reading early (client went away). */
  onCancel: (() => void) | undefined;
  /** Called once when a push found the buffer full; the stream is then ended. */
  onOverflow: (() => void) | undefined;

  constructor(maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES) {
    this.#max = maxBufferedBytes;
  }

  /** Unread text held, in UTF-16 code units (an upper bound of the bytes up to 3x for non-ASCII). */
  get buffered(): number {
    return this.#bytes;
  }

  /** Adds a chunk; ignored after `end()`. Returns false when ended or when the buffer overflowed (which ends it). */
  push(chunk: string): boolean {
    if (this.#ended) return false;
    if (this.#bytes + chunk.length > this.#max) {
      this.#ended = true;
      this.#chunks = [];
      this.#head = 0;
      this.#bytes = 0;
      this.#signal();
      this.onOverflow?.();
      return false;
    }
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    this.#signal();
    return true;
  }

  /**
   * The consumer went away (the connection closed): ends the stream, drops
   * what is unread and calls `onCancel` now, without waiting for a reader
   * parked on an empty queue to wake. Idempotent; nothing after `end()`.
   */
  abandon(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#chunks = [];
    this.#head = 0;
    this.#bytes = 0;
    this.#signal();
    this.onCancel?.();
  }

  /** Ends the stream after the chunks already pushed. */
  end(): void {
    this.#ended = true;
    this.#signal();
  }

  get ended(): boolean {
    return this.#ended;
  }

  /**
   * The next unread chunk, or `undefined` when none is there now (then see
   * {@link ChunkQueue.ended}). For a consumer without the async iterator;
   * use one or the other, not both.
   */
  take(): string | undefined {
    return this.#take();
  }

  /**
   * Calls `wake` once, at the next push, end or abandon (a later call
   * replaces an earlier `wake` not called yet). With {@link ChunkQueue.take},
   * a reader that costs an idle stream no promise and no generator.
   */
  onceReady(wake: () => void): void {
    this.#wake = wake;
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #take(): string | undefined {
    if (this.#head >= this.#chunks.length) return undefined;
    const chunk = this.#chunks[this.#head]!;
    this.#chunks[this.#head++] = "";
    this.#bytes -= chunk.length;
    if (this.#head === this.#chunks.length) {
      this.#chunks = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#chunks.length) {
      this.#chunks = this.#chunks.slice(this.#head);
      this.#head = 0;
    }
    return chunk;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    try {
      for (;;) {
        const chunk = this.#take();
        if (chunk !== undefined) {
          yield chunk;
          continue;
        }
        if (this.#ended) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        this.#wake = undefined;
      }
    } finally {
      if (!this.#ended || this.#head < this.#chunks.length) {
        this.#ended = true;
        this.onCancel?.();
      }
    }
  }
}
