/**
 * A small push queue of SSE chunks: the transport core pushes events, the
 * HTTP adapter pulls them (Node `res.write` or a web `ReadableStream`).
 */

/** Formats one JSON-RPC message as an SSE event: a single `data:` line (compact JSON has no newline). */
export function sseEvent(message: unknown): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** An SSE comment line, ignored by clients; keeps idle connections open. */
export const SSE_KEEPALIVE = ":\n\n";

/** An async-iterable queue of strings that ends once `end()` is called. */
export class ChunkQueue implements AsyncIterable<string> {
  #chunks: string[] = [];
  #ended = false;
  #wake: (() => void) | undefined;
  /** Called when the consumer stops reading early (client went away). */
  onCancel: (() => void) | undefined;

  /** Adds a chunk; ignored after `end()`. Returns false when ended. */
  push(chunk: string): boolean {
    if (this.#ended) return false;
    this.#chunks.push(chunk);
    this.#wake?.();
    return true;
  }

  /** Ends the stream after the chunks already pushed. */
  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  get ended(): boolean {
    return this.#ended;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    try {
      for (;;) {
        if (this.#chunks.length > 0) {
          yield this.#chunks.shift()!;
          continue;
        }
        if (this.#ended) return;
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        this.#wake = undefined;
      }
    } finally {
      if (!this.#ended || this.#chunks.length > 0) {
        this.#ended = true;
        this.onCancel?.();
      }
    }
  }
}
