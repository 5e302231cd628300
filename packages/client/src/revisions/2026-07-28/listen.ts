/**
 * `subscriptions/listen` (spec 2026-07-28: basic/patterns/subscriptions):
 * one long request whose stream carries the notifications a filter asks
 * for, handed out as an async iterator.
 */
import type { JSONRPCNotification, RequestId, SubscriptionFilter } from "@x/mcp-v2607";
import { META_SUBSCRIPTION_ID, Method } from "@x/mcp-v2607/constants";
import type { Channel } from "../../channel.js";
import { ClientErrorCode, isClosed, isMcpClientError } from "../../errors.js";
import { DECLARE_TASKS, type RequestOptions, type SendingOptions, type Subscription } from "../../options.js";
import { invalidResult, kindOf } from "../../results.js";

/**
 * Opens a `subscriptions/listen` stream for the notifications in `filter`.
 * The acknowledgement is not yielded (see `acknowledged`); every other
 * notification carrying this subscription's id is, in order. The stream has
 * no timeout; `close()`, breaking out of a `for await`, or `options.signal`
 * ends it. At most 1000 notifications wait unread; older ones are dropped
 * with a warning.
 */
export function listen(
  channel: Channel,
  warn: (message: string) => void,
  filter: SubscriptionFilter,
  options: Omit<RequestOptions, "timeout" | "onProgress">,
): Subscription {
  const queue: JSONRPCNotification[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: unknown;
  let currentId: RequestId | undefined;
  let acknowledge: (filter: SubscriptionFilter) => void = () => {};
  let refuse: (error: unknown) => void = () => {};
  const acknowledged = new Promise<SubscriptionFilter>((resolve, reject) => {
    acknowledge = resolve;
    refuse = reject;
  });
  acknowledged.catch(() => {});
  const controller = new AbortController();
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const onNotification = (notification: JSONRPCNotification) => {
    const meta = (notification.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const owner = meta?.[META_SUBSCRIPTION_ID];
    if (owner !== undefined && owner !== currentId) return;
    if (notification.method === Method.NotificationsSubscriptionsAcknowledged) {
      acknowledge(((notification.params as { notifications?: SubscriptionFilter } | undefined)?.notifications ?? {}) as SubscriptionFilter);
      return;
    }
    options.onNotification?.(notification);
    queue.push(notification);
    if (queue.length > 1000) {
      queue.shift();
      warn("A subscription dropped its oldest unread notification (more than 1000 waiting)");
    }
    notify();
  };
  const tasksAsked = Array.isArray(filter.taskIds) && filter.taskIds.length > 0;
  const ended = channel
    .request(
      Method.SubscriptionsListen,
      { notifications: filter },
      { ...options, signal: controller.signal, timeout: 0, onNotification, [DECLARE_TASKS]: tasksAsked } as SendingOptions,
      {},
      (id) => {
        currentId = id;
      },
    )
    .then(
      (result) => {
        finished = true;
        outer?.removeEventListener("abort", onOuterAbort);
        refuse(invalidResult("The subscription ended before it was acknowledged"));
        notify();
        kindOf(result, Method.SubscriptionsListen);
        return { graceful: true };
      },
      (error) => {
        finished = true;
        outer?.removeEventListener("abort", onOuterAbort);
        refuse(error);
        notify();
        // The caller's signal and the client's close() end the stream alike: a loop over it ends, not throws.
        if (isMcpClientError(error, ClientErrorCode.RequestCancelled) || isClosed(error)) return { graceful: false };
        failure = error;
        throw error;
      },
    );
  ended.catch(() => {});
  const close = async () => {
    controller.abort();
    await ended.catch(() => {});
  };
  return {
    acknowledged,
    ended,
    close,
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<JSONRPCNotification>> => {
        while (queue.length === 0 && !finished) await new Promise<void>((resolve) => (wake = resolve));
        if (queue.length > 0) return { value: queue.shift()!, done: false };
        if (failure !== undefined) throw failure;
        return { value: undefined, done: true };
      },
      return: async (): Promise<IteratorResult<JSONRPCNotification>> => {
        await close();
        return { value: undefined, done: true };
      },
    }),
  };
}
