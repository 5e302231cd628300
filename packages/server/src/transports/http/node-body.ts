/**
 * How the `node:http` adapter gets a request's body: read from the stream,
 * each chunk admitted by the core, under a deadline swept for all reads at
 * once; or, behind a body parser that read the stream first, taken from what
 * the parser left on the request.
 */
import type { IncomingMessage } from "node:http";
import { stringifyJson } from "@x/jsonrpc";
import type { Core } from "./core.js";
import { BodyTimeout, type Exchange } from "./exchange.js";
import { stalled } from "./linger.js";

/** The exchange a body is read for: its handler's deadlines, and where a late body is recorded. */
export interface BodyExchange extends Exchange {
  /** The handler's body deadlines; `undefined` when `bodyTimeoutMs` is off. */
  readonly deadlines: BodyDeadlines | undefined;
  /** Set once the body read passed `bodyTimeoutMs`. */
  bodyTimedOut: boolean;
}

/**
 * Reads `req`'s body, each chunk counted by `core.admit`; settles exactly
 * once: the bytes, `undefined` when refused (the rest is discarded as it
 * comes), or a rejection when the request errs or closes before its end, or
 * ({@link BodyTimeout}) when it has not ended within `core.bodyTimeoutMs`.
 */
export function readNodeBody(req: IncomingMessage, core: Core, ex: BodyExchange): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const read = new NodeBodyRead(req, core, ex, resolve, reject);
    (req as Reading)[READING] = read;
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("close", onClose);
    if (ex.deadlines !== undefined && !read.settled) ex.deadlines.add(read);
  });
}

/** Where the read in progress sits on its request, for the stream's listeners. */
const READING = Symbol("x.bodyRead");
type Reading = IncomingMessage & { [READING]?: NodeBodyRead };

// The stream's listeners are the same functions for every request (Node calls them with the
// request as `this`), and the read is one object: no closures made per request.
function onData(this: Reading, chunk: Buffer): void {
  this[READING]?.data(chunk);
}
function onEnd(this: Reading): void {
  this[READING]?.end();
}
// A connection cut (a timeout, the client gone, an error) closes the request. No 'error'
// listener: Node emits a request's 'error' only to listeners, and 'close' follows it.
function onClose(this: Reading): void {
  this[READING]?.fail();
}

/** One body being read: its chunks, and its place on the {@link BodyDeadlines} list. */
class NodeBodyRead implements BodyRead {
  due = 0;
  prev: BodyRead | undefined = undefined;
  next: BodyRead | undefined = undefined;
  settled = false;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(
    readonly req: IncomingMessage,
    readonly core: Core,
    readonly ex: BodyExchange,
    readonly resolve: (bytes: Uint8Array | undefined) => void,
    readonly reject: (error: Error) => void,
  ) {}

  #settle(): void {
    this.settled = true;
    if (this.due !== 0) this.ex.deadlines?.remove(this);
  }

  data(chunk: Buffer): void {
    if (this.settled) return;
    this.#size += chunk.length;
    if (!this.core.admit(this.ex, this.#size)) {
      // Refused: 'data' stays listened to, so the rest is discarded as it comes.
      this.#settle();
      this.#chunks.length = 0;
      this.resolve(undefined);
      return;
    }
    this.#chunks.push(chunk);
  }

  end(): void {
    if (this.settled) return;
    this.#settle();
    const chunks = this.#chunks;
    this.resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    // Nothing more comes: let go of the read and of the chunks it holds, which
    // a request answered by a long stream (subscriptions/listen) would keep as long as it.
    chunks.length = 0;
    const req = this.req as Reading;
    req[READING] = undefined;
    req.off("data", onData);
    req.off("end", onEnd);
    req.off("close", onClose);
  }

  fail(error?: Error): void {
    if (this.settled) return;
    this.#settle();
    this.#chunks.length = 0;
    this.reject(error ?? new Error("the connection closed before the body ended"));
  }

  /** Whatever the server's own timeouts (a framework's may have none), a stalled body is let go. */
  expire(): void {
    this.ex.bodyTimedOut = true;
    stalled(this.req);
    this.fail(new BodyTimeout(this.core.bodyTimeoutMs));
  }
}

/** A body being read, on the {@link BodyDeadlines} list until it ends or is late. */
interface BodyRead {
  /** The sweep at which it is late; 0 when not on the list. */
  due: number;
  prev: BodyRead | undefined;
  next: BodyRead | undefined;
  /** Called once, when it is late. */
  expire(): void;
}

/**
 * The bodies a handler is reading, each with its deadline (`bodyTimeoutMs`),
 * swept by one unref'd interval that runs only while some body is being
 * read: no timer set and cleared per request (that was about 0.3 µs of the
 * handler's 9 per request, `bench/micro/http-path.mjs`). A late body is let
 * go between `bodyTimeoutMs` and `bodyTimeoutMs` plus two sweeps (a sweep is
 * a quarter of it, at most 1 s). The list runs through the reads themselves,
 * so adding and removing one allocates nothing.
 */
export class BodyDeadlines {
  readonly #every: number;
  /** Sweeps from a read's start to its deadline, the partial first one not counted. */
  readonly #span: number;
  #sweeps = 0;
  #head: BodyRead | undefined = undefined;
  #timer: ReturnType<typeof setInterval> | undefined = undefined;

  constructor(ms: number) {
    this.#every = Math.max(1, Math.min(1000, Math.ceil(ms / 4)));
    this.#span = Math.ceil(ms / this.#every) + 1;
  }

  add(read: BodyRead): void {
    read.due = this.#sweeps + this.#span;
    read.prev = undefined;
    read.next = this.#head;
    if (this.#head) this.#head.prev = read;
    this.#head = read;
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.#every);
      this.#timer.unref?.();
    }
  }

  remove(read: BodyRead): void {
    if (read.prev) read.prev.next = read.next;
    else if (this.#head === read) this.#head = read.next;
    if (read.next) read.next.prev = read.prev;
    read.prev = read.next = undefined;
    read.due = 0;
  }

  #sweep(): void {
    const now = ++this.#sweeps;
    for (let read = this.#head; read !== undefined; ) {
      const next = read.next;
      if (read.due <= now) {
        this.remove(read);
        read.expire();
      }
      read = next;
    }
    // Idle: the interval stops, and the next body read starts it again.
    if (this.#head === undefined && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}

/** What frameworks leave on Node's request: a router's full target, a body parser's result. */
export interface FrameworkFields {
  /** The request target before a router stripped its mount prefix (Express, Connect). */
  originalUrl?: unknown;
  /** The body's bytes, kept by some frameworks and body parsers beside the parsed value. */
  rawBody?: unknown;
  /** A body parser's result: JSON (an object or array), text, or bytes. */
  body?: unknown;
}

/** The 400's text when a body was read before the handler and nothing usable was left of it. */
export const CONSUMED =
  "the request body was already read before the MCP handler (by a body parser in front of it) and neither req.rawBody nor req.body holds it; mount the handler before the parser, or let the parser read JSON";

/**
 * True when something before the handler read the request stream (its end
 * was emitted, or data was taken from it): no more 'data' will come.
 */
export function alreadyRead(req: IncomingMessage): boolean {
  return req.readableEnded || req.readableDidRead;
}

/**
 * The body a framework kept after reading the stream: `req.rawBody` bytes
 * first (exact bytes: big integers and duplicate keys as sent), then
 * `req.body` as bytes, text, or a parsed JSON object or array (written back
 * as JSON text, so every check on the body applies to it as to bytes:
 * the size limit to that text, the nesting limit, the message rules).
 * `undefined` when none is there. Throws when `req.body` cannot be written as JSON.
 */
export function bodyLeft(req: IncomingMessage & FrameworkFields): Uint8Array | undefined {
  const raw = req.rawBody;
  if (raw instanceof Uint8Array) return raw;
  if (typeof raw === "string") return Buffer.from(raw, "utf8");
  const body = req.body;
  if (body instanceof Uint8Array) return body;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body !== null && typeof body === "object") return Buffer.from(stringifyJson(body), "utf8");
  return undefined;
}
