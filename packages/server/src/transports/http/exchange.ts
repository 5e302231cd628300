/**
 * One HTTP exchange as the Streamable HTTP transport sees it (internal):
 * what an adapter hands the core (`HttpExchange`, or its own `Exchange`),
 * what the ladder's stages learn of it, and the answer it gets.
 */
import type { AuthInfo } from "../../authorization.js";
import type { Inbound } from "../../dispatch.js";
import type { JsonObject } from "../../objects.js";
import type { ClientWatcher } from "../call.js";
import type { Decoded } from "../messages.js";
import type { ChunkQueue } from "../sse.js";
import type { Core } from "./core.js";
import type { FramedSession } from "./framing.js";

/** The response the transport core produces, independent of the HTTP library. */
export type HttpAnswer =
  | { status: number; headers: Record<string, string>; body: string }
  | { status: number; headers: Record<string, string>; stream: ChunkQueue };

/** What an adapter hands the core for one HTTP request. */
export interface HttpExchange {
  method: string;
  /**
   * The request target's path and query (`/mcp?x=1`), when the adapter
   * knows it: the protected resource metadata is answered by path, and a
   * token in the query is refused. Without it neither is done.
   */
  url?: string;
  /** Reads a request header by lower-case name; several lines of one header come joined by ", ". */
  header(name: string): string | undefined;
  /**
   * Reads the whole body, calling `admit` with the byte count read so far
   * after each chunk, and resolves `undefined` as soon as `admit` returns
   * false. Rejects when the body cannot be read (or the client goes away).
   */
  body(admit: (size: number) => boolean): Promise<Uint8Array | undefined>;
  /** Aborted by the adapter when the client goes away. */
  signal: AbortSignal;
}

/** Which of JSON and SSE an `Accept` header admits. */
export interface Accepts {
  readonly json: boolean;
  readonly sse: boolean;
}

export const NO_CORS: Readonly<Record<string, string>> = Object.freeze({});

export const ANY: Accepts = Object.freeze({ json: true, sse: true });

/**
 * One HTTP exchange as the ladder sees it (internal): what the adapter reads
 * from its HTTP library, and what the stages found so far.
 */
export abstract class Exchange {
  /** The request method. */
  abstract readonly method: string;
  /** The request target's path and query, when the adapter knows it. */
  abstract readonly url: string | undefined;
  /** Reads a request header by lower-case name (several lines joined by ", "); callable unbound. */
  abstract readonly header: (name: string) => string | undefined;
  /**
   * Reads the whole body, calling `core.admit(this, size)` with the byte count
   * read so far after each chunk; resolves `undefined` as soon as it refuses.
   * Rejects when the body cannot be read or the client goes away.
   */
  abstract body(core: Core): Promise<Uint8Array | undefined>;
  /** From now on, the client going away (before the answer is written) is told to `watcher`; gone already, at once. */
  abstract watch(watcher: ClientWatcher): void;
  /** Stops what {@link Exchange.watch} started. */
  abstract unwatch(): void;
  /** The CORS headers every later answer carries (set by `dnsRebinding`). */
  cors: Readonly<Record<string, string>> = NO_CORS;
  /** What `Accept` admits (set by `accept`). */
  accepts: Accepts = ANY;
  /** The body, from the read until `decode` decodes it. */
  bytes: Uint8Array | undefined = undefined;
  /** The decoded message (its value, and whether it was read a second time to keep long integers exact), from `decode` until `message` classifies it. */
  decoded: Extract<Decoded, { ok: true }> | undefined = undefined;
  /** Bytes of this body counted in the core's in-flight total (set by `bodyBudget` and the read). */
  reserved = 0;
  /** True once the in-flight cap, not `maxBodyBytes`, refused the body. */
  overBudget = false;
  /** The message, as `message` read it; a request from `notification` on. */
  inbound: Inbound | undefined = undefined;
  /** What the assigns hook returned (set by `assignsHook`). */
  assigns: JsonObject | undefined = undefined;
  /** The session the exchange names, as the core's framing found it (set by `sessionHeader`). */
  session: FramedSession | undefined = undefined;
  /** True when the headers call for a session the exchange does not name (set by the framing at `sessionHeader`). */
  expectsSession = false;
  /** What the verifier found in the bearer token (set by the token check; `auth` option only). */
  auth: AuthInfo | undefined = undefined;
}

/** Adapts a public {@link HttpExchange} (with its `signal`) to the ladder. */
export class SignalExchange extends Exchange {
  readonly method: string;
  readonly url: string | undefined;
  readonly header: (name: string) => string | undefined;
  readonly #exchange: HttpExchange;
  #onAbort: (() => void) | undefined = undefined;

  constructor(exchange: HttpExchange) {
    super();
    this.#exchange = exchange;
    this.method = exchange.method;
    this.url = exchange.url;
    this.header = exchange.header;
  }

  body(core: Core): Promise<Uint8Array | undefined> {
    return this.#exchange.body((size) => core.admit(this, size));
  }

  watch(watcher: ClientWatcher): void {
    if (this.#exchange.signal.aborted) {
      watcher.clientGone();
      return;
    }
    this.#onAbort = () => watcher.clientGone();
    this.#exchange.signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  unwatch(): void {
    if (this.#onAbort) this.#exchange.signal.removeEventListener("abort", this.#onAbort);
  }
}

/**
 * Why an adapter cannot hand over a body (internal): its message is the
 * answer's (400, -32700), so say what happened and how to fix the set-up.
 */
export class BodyUnavailable extends Error {}

/** An adapter's body read passed `bodyTimeoutMs` (internal); the adapter has let go of what it read. */
export class BodyTimeout extends Error {
  constructor(readonly ms: number) {
    super(`the body did not arrive within ${ms} ms`);
  }
}
