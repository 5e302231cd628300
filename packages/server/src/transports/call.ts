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
import type { AuthInfo } from "../authorization.js";
import type { JsonObject } from "../objects.js";

export class Call implements TransportInfo {
  #controller: AbortController | undefined = undefined;
  /** True once {@link Call.abort} was called. */
  aborted = false;
  /** See {@link TransportInfo.notify}. */
  notify: ((notification: JSONRPCNotification) => boolean) | undefined = undefined;
  /** True once the request was answered: nothing more is sent for it. */
  done = false;
  /** See {@link TransportInfo.assigns}. */
  assigns: Readonly<JsonObject> | undefined = undefined;
  /** See {@link TransportInfo.auth}. */
  auth: AuthInfo | undefined = undefined;

  /** Aborts the call: its signal (now, or when it is first read) is aborted with the default `AbortError`. Idempotent. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.#controller?.abort();
  }

  /** The call's signal, made on first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }
}
