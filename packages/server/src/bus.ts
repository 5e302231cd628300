/**
 * The event bus (internal to a deployment, not part of the protocol): how
 * the instances of one server tell each other what a client listening on
 * any of them must hear. `subscriptions/listen` streams (spec 2026-07-28,
 * basic/patterns/subscriptions) are fed from it: a list change, a resource
 * update, a task's new status. So are a task's controls: a `tasks/update`
 * or `tasks/cancel` received by one instance reaches the instance running
 * the task. The default, {@link MemoryEventBus}, is one process; a shared
 * bus (`@x/redis`) makes the same events reach every instance.
 */
import type { JsonObject } from "./objects.js";

/** The topics the server publishes and subscribes to, with the shape of their messages. */
export const BusTopic = Object.freeze({
  /** `{ kind: "tools" | "prompts" | "resources" }`: a list changed. */
  ListChanged: "list-changed",
  /** `{ uri }`: a resource changed (`McpServer.notifyResourceUpdated`). */
  ResourceUpdated: "resource-updated",
  /** `{ owner, task }`: a task's new state (`task` is the detailed task, as `tasks/get` answers it). */
  TaskStatus: "task-status",
  /**
   * `{ taskId, kind: "input", inputResponses }`, `{ taskId, kind: "cancel" }`, or
   * `{ taskId, kind: "refuse", key, code, message }` (an ask the client answered
   * with an error, initialize era): for the instance running the task.
   */
  TaskControl: "task-control",
} as const);

/** One of {@link BusTopic}'s topics. */
export type BusTopicName = (typeof BusTopic)[keyof typeof BusTopic];

/**
 * What the server needs of a bus. Delivery is at most once, in order per
 * publisher; a message published while an instance is cut off from the bus
 * is not replayed to it (listeners then miss it; task state itself lives in
 * the task store, so a poll still tells the truth). A bus that reports an
 * outage itself, once, rejects during it with errors whose `reported`
 * member is `true`: the server's default reporting prints nothing for those.
 */
export interface EventBus {
  /**
   * Delivers `message` to every subscriber of `topic` on every instance,
   * this one included (a message is handled once, when it comes back).
   * @throws (rejects) when the bus cannot take the message.
   */
  publish(topic: BusTopicName, message: JsonObject): Promise<void>;
  /**
   * Calls `listener` with every message of `topic` from now on.
   * @returns once subscribed, the function that unsubscribes.
   */
  subscribe(topic: BusTopicName, listener: (message: JsonObject) => void): Promise<() => void>;
  /** Releases the bus's connections (called by `McpServer.close` when the server owns it). */
  close?(): Promise<void>;
}

/** The in-process bus: delivery is synchronous, within `publish`. */
export class MemoryEventBus implements EventBus {
  readonly #listeners = new Map<string, Set<(message: JsonObject) => void>>();

  publish(topic: BusTopicName, message: JsonObject): Promise<void> {
    this.deliver(topic, message);
    return Promise.resolve();
  }

  /** Delivers at once, without a promise (the server's own path when the bus is this one). */
  deliver(topic: BusTopicName, message: JsonObject): void {
    const listeners = this.#listeners.get(topic);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch {
        // One failing listener must not keep the message from the others.
      }
    }
  }

  subscribe(topic: BusTopicName, listener: (message: JsonObject) => void): Promise<() => void> {
    let set = this.#listeners.get(topic);
    if (!set) {
      set = new Set();
      this.#listeners.set(topic, set);
    }
    set.add(listener);
    return Promise.resolve(() => {
      set.delete(listener);
    });
  }
}
