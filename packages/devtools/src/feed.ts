/**
 * The traffic feed: a subscriber of `x-mcp:traffic` that turns each event
 * into JSON at once (a request's start and end are one object, changed in
 * place between the two), keeps the last `maxEvents` of them in a ring
 * (at most `maxBufferBytes` of JSON together), and
 * writes each to every open page as one server-sent event.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ServerResponse } from "node:http";
import { stringifyJson } from "@x/jsonrpc";
import { type RequestStateReading, TRAFFIC_CHANNEL, type TrafficEvent } from "@x/server/telemetry";

/** The first characters of a cut member's JSON that the page still shows. */
export const PREVIEW_CHARS = 4096;
/** Most pages open at once; the next one is answered 429. */
export const MAX_PAGES = 8;
/**
 * Bytes of live events a page may leave unread, on top of its replay, before
 * it is dropped (it reconnects and replays the ring).
 */
export const MAX_PAGE_BACKLOG = 8 * 1024 * 1024;
/** Milliseconds between two heartbeat comments on an idle stream. */
export const HEARTBEAT_MS = 15_000;

/** A member of an event cut to its preview. */
export interface Truncated {
  readonly truncated: true;
  /** Bytes of the member's whole JSON (UTF-8). */
  readonly bytes: number;
  /** Its first {@link PREVIEW_CHARS} characters. */
  readonly preview: string;
}

/** An elicitation the page's own client received, waiting for the page's answer. */
export interface PageAsk {
  readonly id: string;
  /** The protocol version of the client that was asked. */
  readonly era: string;
  readonly message: string;
  readonly requestedSchema: object;
  /** The tool whose call asked, when known. */
  readonly tool?: string;
}

/** What decodes a `requestState` (the server's own key ring behind it). */
export type StateReader = (state: unknown) => RequestStateReading;

/** The members of an event that may be cut, largest first. */
const CUTTABLE = ["params", "response", "message", "state", "issuedState", "clientInfo"] as const;

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

function cut(text: string): Truncated {
  return { truncated: true, bytes: byteLength(text), preview: text.slice(0, PREVIEW_CHARS) };
}

interface Page {
  readonly response: ServerResponse;
  /** Bytes of the replay written at open: the page may still be reading them when live events come. */
  readonly replayBytes: number;
}

/** The ring of serialized events and the pages they are written to. */
export class Feed {
  readonly #maxEvents: number;
  readonly #maxEventBytes: number;
  readonly #readState: StateReader;
  readonly #maxBufferBytes: number;
  readonly #ring: string[] = [];
  /** The UTF-8 size of each of the ring's events, and their sum. */
  readonly #sizes: number[] = [];
  #ringBytes = 0;
  #dropped = 0;
  readonly #pages = new Set<Page>();
  readonly #asks = new Map<string, string>();
  readonly #listener = (event: unknown) => this.#traffic(event as TrafficEvent);
  readonly #heartbeat: NodeJS.Timeout;
  #closed = false;

  constructor(maxEvents: number, maxEventBytes: number, maxBufferBytes: number, readState: StateReader) {
    this.#maxEvents = maxEvents;
    this.#maxEventBytes = maxEventBytes;
    this.#maxBufferBytes = maxBufferBytes;
    this.#readState = readState;
    subscribe(TRAFFIC_CHANNEL, this.#listener);
    this.#heartbeat = setInterval(() => this.#send(": heartbeat\n\n"), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** Events dropped from the ring since it was made. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Open pages. */
  get pages(): number {
    return this.#pages.size;
  }

  /** The ring's events as JSON texts, oldest first. */
  events(): readonly string[] {
    return this.#ring;
  }

  #traffic(event: TrafficEvent): void {
    if (this.#closed) return;
    const out: Record<string, unknown> = { type: "traffic", event };
    if (event.kind === "request") {
      const state = event.params?.requestState;
      if (state !== undefined) out.state = this.#readState(state);
      const issued = (event.response?.result as { requestState?: unknown } | undefined)?.requestState;
      if (issued !== undefined) out.issuedState = this.#readState(issued);
    }
    let json: string;
    try {
      json = this.#bounded(out);
    } catch {
      // A value JSON cannot hold (a cycle a handler put in a result): the row still appears.
      json = stringifyJson({ type: "traffic", event: { ...event, params: undefined, response: undefined, message: undefined } });
    }
    this.#ring.push(json);
    this.#sizes.push(byteLength(json));
    this.#ringBytes += this.#sizes.at(-1)!;
    while (this.#ring.length > this.#maxEvents || (this.#ringBytes > this.#maxBufferBytes && this.#ring.length > 1)) {
      this.#ring.shift();
      this.#ringBytes -= this.#sizes.shift()!;
      this.#dropped++;
    }
    this.#send(`data: ${json}\n\n`);
  }

  /** The event's JSON, its largest members cut to a preview until it fits `maxEventBytes`. */
  #bounded(out: Record<string, unknown>): string {
    const json = stringifyJson(out);
    if (byteLength(json) <= this.#maxEventBytes) return json;
    const event = { ...(out.event as Record<string, unknown>) };
    const copy: Record<string, unknown> = { ...out, event };
    const holders = (name: string): Record<string, unknown> => (name === "state" || name === "issuedState" ? copy : event);
    const sizes = CUTTABLE.map((name) => {
      const value = holders(name)[name];
      const text = value === undefined ? "" : stringifyJson(value);
      return { name, text };
    }).sort((a, b) => b.text.length - a.text.length);
    let bounded = json;
    for (const { name, text } of sizes) {
      if (text.length === 0) break;
      holders(name)[name] = cut(text);
      bounded = stringifyJson(copy);
      if (byteLength(bounded) <= this.#maxEventBytes) return bounded;
    }
    return bounded;
  }

  /** Announces an ask of the page's client to every page (and to pages that open while it waits). */
  ask(ask: PageAsk): void {
    const json = stringifyJson({ type: "ask", ask });
    this.#asks.set(ask.id, json);
    this.#send(`data: ${json}\n\n`);
  }

  /** Says an ask was answered or is gone. */
  askDone(id: string): void {
    if (!this.#asks.delete(id)) return;
    this.#send(`data: ${stringifyJson({ type: "ask-done", id })}\n\n`);
  }

  /**
   * Makes `response` a page's stream: the ring first (after a `dropped`
   * event when the ring overflowed), the asks still waiting, then live
   * events. False when {@link MAX_PAGES} are open already.
   */
  open(response: ServerResponse): boolean {
    if (this.#closed || this.#pages.size >= MAX_PAGES) return false;
    // Written event by event: no one string as large as the whole ring.
    const replay = [": devtools\n\n"];
    if (this.#dropped > 0) replay.push(`data: ${stringifyJson({ type: "dropped", count: this.#dropped })}\n\n`);
    for (const json of this.#ring) replay.push(`data: ${json}\n\n`);
    for (const json of this.#asks.values()) replay.push(`data: ${json}\n\n`);
    let replayBytes = 0;
    for (const chunk of replay) replayBytes += byteLength(chunk);
    const page: Page = { response, replayBytes };
    this.#pages.add(page);
    response.on("close", () => this.#pages.delete(page));
    for (const chunk of replay) response.write(chunk);
    return true;
  }

  #send(chunk: string): void {
    for (const page of this.#pages) {
      const { response } = page;
      // A page that does not read is dropped rather than held in memory without bound. Its replay
      // (the ring, possibly far over the backlog) does not count against it.
      if (response.writableLength > MAX_PAGE_BACKLOG + page.replayBytes) {
        this.#pages.delete(page);
        response.destroy();
        continue;
      }
      response.write(chunk);
    }
  }

  /** Unsubscribes from the channel and ends every page's stream. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    unsubscribe(TRAFFIC_CHANNEL, this.#listener);
    clearInterval(this.#heartbeat);
    for (const page of this.#pages) page.response.end();
    this.#pages.clear();
  }
}
