/**
 * One request in flight inside a transport (internal): its cancellation
 * state, and the {@link TransportInfo} handed to the dispatcher.
 *
 * Most requests finish without anyone reading their `AbortSignal`, and an
 * `AbortController` is one of the costlier objects a request can allocate.
 * So a `Call` records "aborted" itself and makes the controller only when
 * the signal is first read; a signal made after the abort starts aborted.
 */
import type { JSONRPCNotification } from "@x/mcp-v2607";
import type { TransportInfo } from "../context.js";
import type { Outcome } from "../dispatch.js";
import type { AuthInfo } from "../authorization.js";
import type { JsonObject } from "../objects.js";

/**
 * What an HTTP exchange tells when its client goes away before the answer
 * (internal). A request served per request is cancelled by it (a `Call`
 * aborts); what a request on a session does is its framing's (in the
 * `initialize` era it runs on and only stops holding a connection: spec
 * 2025-11-25, a disconnection is not a cancellation).
 */
export interface ClientWatcher {
  clientGone(): void;
}

export class Call implements TransportInfo, ClientWatcher {
  #controller: AbortController | undefined = undefined;
  /** The {@link CallList} holding this call, and its neighbours there (internal to the list). */
  list: CallList | undefined = undefined;
  prev: Call | undefined = undefined;
  next: Call | undefined = undefined;
  /** True once {@link Call.abort} was called. */
  aborted = false;
  /** See {@link TransportInfo.notify}. */
  notify: ((notification: JSONRPCNotification) => boolean) | undefined = undefined;
  /** {@link Call.notify} of compact JSON, as the transport set it (see {@link Call.jsonNotify}). */
  #notifyJson: ((json: string) => boolean) | undefined = undefined;
  /** The `notify` the transport set with {@link Call.#notifyJson}. */
  #ownNotify: ((notification: JSONRPCNotification) => boolean) | undefined = undefined;
  /** True once the request was answered: nothing more is sent for it. */
  done = false;
  /** See {@link TransportInfo.assigns}. */
  assigns: Readonly<JsonObject> | undefined = undefined;
  /** See {@link TransportInfo.auth}. */
  auth: AuthInfo | undefined = undefined;
  /** See {@link TransportInfo.manyInstances}: set by the HTTP transport. */
  manyInstances = false;
  /** See {@link TransportInfo.status}: set by the HTTP transport. */
  status: ((outcome: Outcome) => number) | undefined = undefined;
  /** See {@link TransportInfo.via}. */
  readonly via: "http" | "stdio";
  /**
   * Run once by {@link Call.abort}, after the signal (if made) is aborted: a
   * long-lived request (`subscriptions/listen`) waits on this, not on a
   * signal listener, so it makes no `AbortController` for the whole stream.
   */
  onAbort: (() => void) | undefined = undefined;

  /** `via`: what carries the call (see {@link TransportInfo.via}). */
  constructor(via: "http" | "stdio") {
    this.via = via;
  }

  /** Aborts the call: its signal (now, or when it is first read) is aborted with the default `AbortError`. Idempotent. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#controller?.abort();
    const onAbort = this.onAbort;
    this.onAbort = undefined;
    onAbort?.();
  }

  /** The client went away: a request of 2026-07-28 is cancelled. */
  clientGone(): void {
    this.abort();
  }

  /** The call's signal, made on first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** Sets the transport's `notify`, and the same for a notification already written as compact JSON. */
  streamsTo(notify: (notification: JSONRPCNotification) => boolean, notifyJson: (json: string) => boolean): void {
    this.notify = notify;
    this.#ownNotify = notify;
    this.#notifyJson = notifyJson;
  }

  /**
   * The transport's `notify` of compact JSON, so a fan-out to many listen
   * streams serialises its notification once, not once per stream; only
   * while `notify` is still the transport's own: around a wrapped one (the
   * traffic channel's, a session's reduction) `undefined`, so the wrapper
   * sees every notification.
   */
  jsonNotify(): ((json: string) => boolean) | undefined {
    return this.notify !== undefined && this.notify === this.#ownNotify ? this.#notifyJson : undefined;
  }
}

/**
 * The calls a transport has in flight (internal): a list threaded through
 * the calls themselves, so adding and removing one allocates nothing. A
 * `Set` took one add and one delete per request, and V8 rehashed it as it
 * filled and emptied: about 0.5 µs of a request's CPU time.
 */
export class CallList {
  /** Calls in the list. */
  size = 0;
  #head: Call | undefined = undefined;

  /** Adds `call` (no-op when it is in a list already). */
  add(call: Call): void {
    if (call.list !== undefined) return;
    call.list = this;
    call.prev = undefined;
    call.next = this.#head;
    if (this.#head !== undefined) this.#head.prev = call;
    this.#head = call;
    this.size++;
  }

  /** Removes `call`; false when it was not in this list. */
  delete(call: Call): boolean {
    if (call.list !== this) return false;
    if (call.prev !== undefined) call.prev.next = call.next;
    else this.#head = call.next;
    if (call.next !== undefined) call.next.prev = call.prev;
    call.list = call.prev = call.next = undefined;
    this.size--;
    return true;
  }

  /** The calls now in the list, as an array (safe to change the list while going through it). */
  toArray(): Call[] {
    const calls: Call[] = [];
    for (let c = this.#head; c !== undefined; c = c.next) calls.push(c);
    return calls;
  }
}
