/**
 * `listen` on an `initialize`-era session (spec 2025-11-25:
 * server/resources "Subscriptions"): the session's notifications that a
 * filter asks for, with `resources/subscribe` for each URI of
 * `resourceSubscriptions` (and `resources/unsubscribe` on close), served
 * through the same `Subscription` as 2026-07-28's `subscriptions/listen`.
 */
import type { JSONRPCNotification, SubscriptionFilter } from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import type { RequestOptions, Subscription } from "../../options.js";
import { isObject } from "../../results.js";
import type { PeerInfo } from "../revision.js";

/** What a listen needs of its session. */
export interface SessionNotifications {
  /** Listeners of every notification of the session. */
  readonly listeners: Set<(notification: JSONRPCNotification) => void>;
  peer(): PeerInfo | undefined;
  /** True while the session is the client's. */
  open(): boolean;
  subscribe(uri: string, options: RequestOptions): Promise<void>;
  unsubscribe(uri: string, options: RequestOptions): Promise<void>;
  warn(message: string): void;
}

/**
 * `listen` in the `initialize` era: the session's notifications that
 * `filter` asks for, with `resources/subscribe` for each URI of
 * `resourceSubscriptions` (and `resources/unsubscribe` on close). The
 * acknowledged filter keeps what the server's capabilities offer.
 */
export function listenOnSession(
  session: SessionNotifications,
  filter: SubscriptionFilter,
  options: Omit<RequestOptions, "timeout" | "onProgress">,
): Subscription {
  const queue: JSONRPCNotification[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const uris = new Set(Array.isArray(filter.resourceSubscriptions) ? filter.resourceSubscriptions : []);
  const wanted = (n: JSONRPCNotification): boolean => {
    switch (n.method) {
      case Method.NotificationsToolsListChanged:
        return filter.toolsListChanged === true;
      case Method.NotificationsPromptsListChanged:
        return filter.promptsListChanged === true;
      case Method.NotificationsResourcesListChanged:
        return filter.resourcesListChanged === true;
      case Method.NotificationsResourcesUpdated:
        return uris.has((n.params as { uri?: string } | undefined)?.uri ?? "");
      default:
        return false;
    }
  };
  const listener = (n: JSONRPCNotification) => {
    if (finished || !wanted(n)) return;
    options.onNotification?.(n);
    queue.push(n);
    if (queue.length > 1000) {
      queue.shift();
      session.warn("A subscription dropped its oldest unread notification (more than 1000 waiting)");
    }
    notify();
  };
  session.listeners.add(listener);
  const caps = session.peer()?.capabilities ?? {};
  const offers = (feature: string, flag: string) => isObject(caps[feature]) && (caps[feature] as Record<string, unknown>)[flag] === true;
  const acknowledged = (async (): Promise<SubscriptionFilter> => {
    for (const uri of uris) await session.subscribe(uri, { signal: options.signal });
    const agreed: SubscriptionFilter = {};
    if (filter.toolsListChanged && offers("tools", "listChanged")) agreed.toolsListChanged = true;
    if (filter.promptsListChanged && offers("prompts", "listChanged")) agreed.promptsListChanged = true;
    if (filter.resourcesListChanged && offers("resources", "listChanged")) agreed.resourcesListChanged = true;
    if (uris.size > 0) agreed.resourceSubscriptions = [...uris];
    return agreed;
  })();
  let endNow: (value: { graceful: boolean }) => void = () => {};
  const ended = new Promise<{ graceful: boolean }>((resolve) => (endNow = resolve));
  const close = async () => {
    if (finished) return;
    finished = true;
    session.listeners.delete(listener);
    notify();
    await acknowledged.catch(() => {});
    for (const uri of uris) if (session.open()) await session.unsubscribe(uri, {}).catch(() => {});
    endNow({ graceful: false });
  };
  acknowledged.catch(() => close());
  options.signal?.addEventListener("abort", () => void close(), { once: true });
  return {
    acknowledged,
    ended,
    close,
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<JSONRPCNotification>> => {
        while (queue.length === 0 && !finished) await new Promise<void>((resolve) => (wake = resolve));
        if (queue.length > 0) return { value: queue.shift()!, done: false };
        return { value: undefined, done: true };
      },
      return: async (): Promise<IteratorResult<JSONRPCNotification>> => {
        await close();
        return { value: undefined, done: true };
      },
    }),
  };
}
