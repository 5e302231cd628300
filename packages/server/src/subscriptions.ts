/**
 * `subscriptions/listen` (spec 2026-07-28, basic/patterns/subscriptions): a
 * long-lived request whose response stream carries the change notifications
 * the client opted in to, each tagged with the subscription's id.
 */
import type { JSONRPCNotification, RequestId, SubscriptionFilter } from "@x/mcp-v2607";
import { META_SUBSCRIPTION_ID, Method } from "@x/mcp-v2607/constants";
import { copyOwn } from "./objects.js";

/** One open listen stream. */
interface Listener {
  id: RequestId;
  filter: SubscriptionFilter;
  uris: Set<string>;
  notify: (n: JSONRPCNotification) => boolean;
  end: () => void;
}

/** The kinds of list change a server can announce. */
export type ListKind = "tools" | "prompts" | "resources";

const FILTER_KEY: Record<ListKind, keyof SubscriptionFilter> = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
};
const LIST_CHANGED: Record<ListKind, string> = {
  tools: Method.NotificationsToolsListChanged,
  prompts: Method.NotificationsPromptsListChanged,
  resources: Method.NotificationsResourcesListChanged,
};

/** The open listen streams of one server. */
export class Subscriptions {
  readonly #listeners = new Set<Listener>();

  /** Number of open listen streams. */
  get size(): number {
    return this.#listeners.size;
  }

  /**
   * Opens a listen stream: sends the acknowledgement with the granted
   * filter, then keeps the listener until `end` is called (by the caller on
   * cancellation, or by {@link Subscriptions.closeAll}).
   * @returns the function that removes the listener, or `undefined` when the
   *   acknowledgement could not be delivered (the response cannot stream).
   */
  open(id: RequestId, granted: SubscriptionFilter, notify: (n: JSONRPCNotification) => boolean, end: () => void): (() => void) | undefined {
    if (!notify(tagged(Method.NotificationsSubscriptionsAcknowledged, id, { notifications: granted }))) return undefined;
    const listener: Listener = { id, filter: granted, uris: new Set(granted.resourceSubscriptions ?? []), notify, end };
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Tells every listener that asked for it that a list changed. */
  listChanged(kind: ListKind): void {
    for (const l of this.#listeners) {
      if (l.filter[FILTER_KEY[kind]] === true) l.notify(tagged(LIST_CHANGED[kind], l.id, {}));
    }
  }

  /** Tells the listeners subscribed to `uri` that the resource changed. */
  resourceUpdated(uri: string): void {
    for (const l of this.#listeners) {
      if (l.uris.has(uri)) l.notify(tagged(Method.NotificationsResourcesUpdated, l.id, { uri }));
    }
  }

  /** Ends every listen stream (each answers with its final result). */
  closeAll(): void {
    for (const l of [...this.#listeners]) {
      this.#listeners.delete(l);
      l.end();
    }
  }
}

function tagged(method: string, id: RequestId, params: Record<string, unknown>): JSONRPCNotification {
  const copy = copyOwn(params);
  copy._meta = { [META_SUBSCRIPTION_ID]: id };
  return { jsonrpc: "2.0", method, params: copy } as JSONRPCNotification;
}
