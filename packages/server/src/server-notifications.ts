/**
 * How a server's changes reach the listeners of every instance: a list
 * changed (a registration or removal) or a resource updated goes out on the
 * {@link EventBus}, and what the bus brings back (this instance's messages
 * included) feeds the `subscriptions/listen` streams and the revision
 * plug-ins' sessions. The in-memory bus delivers at once.
 */
import { BusTopic, type BusTopicName, type EventBus, MemoryEventBus } from "./bus.js";
import { reportToStderr } from "./errors.js";
import type { ListenFeature, ListKind, Subscriptions } from "./features/subscriptions.js";
import type { JsonObject } from "./objects.js";
import type { ServerOptions } from "./options.js";
import type { PluggedRevision, ServerChange } from "./revisions/plugin.js";

/** The notifications of one server, between its bus and its listeners. */
export class ServerNotifications {
  readonly bus: EventBus;
  readonly #subscriptions: Subscriptions;
  readonly #listen: ListenFeature;
  readonly #onError: ServerOptions["onError"];
  readonly #unsubscribe: (() => void)[] = [];
  /** The revision plug-ins told of changes; `undefined` until they are installed. */
  plugged: readonly PluggedRevision[] | undefined = undefined;
  /** True once the server has been handed a message: from then on its list changes are news to other instances. */
  serving = false;

  constructor(bus: EventBus, subscriptions: Subscriptions, listen: ListenFeature, onError: ServerOptions["onError"]) {
    this.bus = bus;
    this.#subscriptions = subscriptions;
    this.#listen = listen;
    this.#onError = onError;
    this.#follow();
  }

  /** Sends a change to every instance's listeners through the bus (the in-memory bus delivers at once). */
  emit(topic: BusTopicName, message: JsonObject): void {
    const bus = this.bus;
    // Registrations made while the server is built are not news to other instances (they have their own).
    if (bus instanceof MemoryEventBus || (topic === BusTopic.ListChanged && !this.serving)) {
      if (!(bus instanceof MemoryEventBus)) {
        this.#subscriptions.listChanged(message.kind as ListKind);
        this.#tell({ kind: "list", list: message.kind as ListKind });
        return;
      }
      bus.deliver(topic, message);
      return;
    }
    bus.publish(topic, message).catch((error) => this.report(error, `publishing ${topic}`));
  }

  /** Calls `listener` with every message of `topic` until the server closes (see `ServerParts.follow`). */
  on(topic: BusTopicName, listener: (message: JsonObject) => void): void {
    const guarded = (message: JsonObject) => {
      try {
        listener(message);
      } catch (error) {
        this.report(error, `handling ${topic}`);
      }
    };
    // A bus that cannot subscribe yet (Redis not reachable at start) is tried again, with backoff, until the server closes.
    const attempt = (delay: number, reported: boolean) => {
      if (this.#listen.closed) return;
      this.bus.subscribe(topic, guarded).then(
        (unsubscribe) => {
          if (this.#listen.closed) unsubscribe();
          else this.#unsubscribe.push(unsubscribe);
        },
        (error) => {
          if (!reported) this.report(error, `subscribing to ${topic} (retrying every ${delay} ms or more)`);
          const timer = setTimeout(() => attempt(Math.min(delay * 2, 30_000), true), delay);
          timer.unref?.();
        },
      );
    };
    attempt(1000, false);
  }

  /** A failure no request awaits (a task's store write, a bus message): `onError`, else one line on stderr. */
  report(error: unknown, what: string): void {
    try {
      if (this.#onError) this.#onError(error, { method: what, requestId: undefined });
      else reportToStderr(error, what);
    } catch {
      // A failing reporter must not take the server down.
    }
  }

  /** Stops following the bus (the server closes). */
  close(): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
  }

  /** Feeds this instance's listeners from the bus (messages of every instance, this one's included). */
  #follow(): void {
    this.on(BusTopic.ListChanged, (message) => {
      const kind = message.kind;
      if (kind !== "tools" && kind !== "prompts" && kind !== "resources") return;
      this.#subscriptions.listChanged(kind);
      this.#tell({ kind: "list", list: kind });
    });
    this.on(BusTopic.ResourceUpdated, (message) => {
      if (typeof message.uri !== "string") return;
      this.#subscriptions.resourceUpdated(message.uri);
      this.#tell({ kind: "resource", uri: message.uri });
    });
  }

  /** Tells the plug-ins a change their sessions may have to hear of. */
  #tell(change: ServerChange): void {
    // Not yet installed while the server is built.
    for (const plugged of this.plugged ?? []) plugged.changed(change);
  }
}
