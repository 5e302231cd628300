/**
 * Lines read from standard input one at a time, on demand: the same for a
 * terminal (the user types) and a pipe (a script writes the answers).
 */
import { createInterface, type Interface } from "node:readline";
import type { Io } from "./io.js";

/** Reads `io.stdin` line by line; opened on first use, closed by {@link LineReader.close}. */
export class LineReader {
  #rl: Interface | undefined;
  #ended = false;
  readonly #queue: string[] = [];
  #waiter: ((line: string | undefined) => void) | undefined;

  constructor(readonly io: Io) {}

  /** The next line, without its end; `undefined` once stdin has ended. */
  next(): Promise<string | undefined> {
    if (!this.#rl) {
      this.#rl = createInterface({ input: this.io.stdin, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
      this.#rl.on("line", (line) => {
        const waiter = this.#waiter;
        this.#waiter = undefined;
        if (waiter) waiter(line);
        else this.#queue.push(line);
      });
      this.#rl.on("close", () => {
        this.#ended = true;
        this.#waiter?.(undefined);
        this.#waiter = undefined;
      });
    }
    const queued = this.#queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#ended) return Promise.resolve(undefined);
    // Lines that come while nobody waits are queued; one waiter at a time (questions are asked in turn).
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Stops reading stdin, so that it holds the process no longer. */
  close(): void {
    this.#rl?.close();
    this.#rl = undefined;
    this.io.stdin.pause?.();
  }
}
