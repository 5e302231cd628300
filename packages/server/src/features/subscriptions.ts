/**
 * `subscriptions/listen` (spec 2026-07-28, basic/patterns/subscriptions): a
 * long-lived request whose response stream carries the change notifications
 * the client opted in to, each tagged with the subscription's id. The
 * listeners are the server's fan-out of list changes and resource updates.
 */
import type { JSONRPCNotification, RequestId, ServerCapabilities, SubscriptionFilter, SubscriptionsListenResult } from "@x/mcp-v2607";
import { ErrorCode, META_SUBSCRIPTION_ID, Method } from "@x/mcp-v2607/constants";
import { type DetailedTask, declaresTasks, TaskMethod, tasksRequiredData } from "@x/mcp-v2607/tasks";
import type { RequestContext, TransportInfo } from "../context.js";
import { McpError, SERVER_BUSY } from "../errors.js";
import { copyOwn, isObject, type JsonObject } from "../objects.js";
import { Call } from "../transports/call.js";
import type { Feature, MethodTable, ServerHost } from "./feature.js";

/** One open listen stream. */
interface Listener {
  id: RequestId;
  filter: SubscriptionFilter;
  uris: Set<string>;
  /** The tasks (of `owner`) whose statuses it hears (tasks extension); `undefined` when none. */
  taskIds: Set<string> | undefined;
  owner: string;
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
   * @returns the listener, to pass to {@link Subscriptions.remove}, or
   *   `undefined` when the acknowledgement could not be delivered (the
   *   response cannot stream).
   */
  open(
    id: RequestId,
    granted: SubscriptionFilter & { taskIds?: string[] },
    notify: (n: JSONRPCNotification) => boolean,
    end: () => void,
    owner = "",
  ): object | undefined {
    if (!notify(tagged(Method.NotificationsSubscriptionsAcknowledged, id, { notifications: granted }))) return undefined;
    const listener: Listener = {
      id,
      filter: granted,
      uris: new Set(granted.resourceSubscriptions ?? []),
      taskIds: granted.taskIds?.length ? new Set(granted.taskIds) : undefined,
      owner,
      notify,
      end,
    };
    this.#listeners.add(listener);
    return listener;
  }

  /** Removes a listener {@link Subscriptions.open} returned (no-op when gone already). */
  remove(listener: object): void {
    this.#listeners.delete(listener as Listener);
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

  /** Tells the listeners of `task` (the owner's own) its new status (`notifications/tasks`, the detailed task). */
  taskStatus(owner: string, task: DetailedTask): void {
    for (const l of this.#listeners) {
      if (l.owner === owner && l.taskIds?.has(task.taskId))
        l.notify(tagged(TaskMethod.Status, l.id, task as unknown as NonNullable<JSONRPCNotification["params"]>));
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

function tagged(method: string, id: RequestId, params: NonNullable<JSONRPCNotification["params"]>): JSONRPCNotification {
  const copy = copyOwn(params);
  copy._meta = { [META_SUBSCRIPTION_ID]: id };
  return { jsonrpc: "2.0", method, params: copy } as JSONRPCNotification;
}

/** `subscriptions/listen`: opens a listener on the request's own response stream. */
export class ListenFeature implements Feature {
  readonly #host: ServerHost;
  readonly #subscriptions: Subscriptions;
  readonly #limit: number;
  readonly #tasks: ListenTasks;
  /** True once the server is closing: no new listen is accepted. */
  closed = false;

  /** `limit`: the most streams open at once (`ServerOptions.maxListenStreams`). */
  constructor(host: ServerHost, subscriptions: Subscriptions, limit: number, tasks: ListenTasks) {
    this.#host = host;
    this.#subscriptions = subscriptions;
    this.#limit = limit;
    this.#tasks = tasks;
  }

  readonly methods: MethodTable = {
    [Method.SubscriptionsListen]: {
      enabled: () => true,
      handle: (params, ctx, transport) => {
        const filter: unknown = params.notifications;
        if (!isObject(filter)) {
          throw new McpError(ErrorCode.InvalidParams, "Invalid params: notifications (a subscription filter) is required");
        }
        const notify = transport.notify;
        if (!notify) throw new McpError(ErrorCode.InternalError, "subscriptions/listen needs a transport that can stream notifications");
        if (this.closed) throw new McpError(SERVER_BUSY, "Server is closing: no new subscriptions");
        const limit = this.#limit;
        if (this.#subscriptions.size >= limit) {
          throw new McpError(SERVER_BUSY, `Too many open subscriptions/listen streams (limit ${limit})`, { limit });
        }
        const granted: SubscriptionFilter & { taskIds?: string[] } = grant(filter, this.#host.capabilities());
        const wanted = filter.taskIds;
        if (wanted === undefined) return this.#open(granted, ctx, transport, notify, "");
        if (!declaresTasks(ctx.clientCapabilities)) {
          throw new McpError(
            ErrorCode.MissingRequiredClientCapability,
            "Missing required client capability: task status notifications need the io.modelcontextprotocol/tasks extension",
            tasksRequiredData(),
          );
        }
        if (!Array.isArray(wanted) || wanted.some((id) => typeof id !== "string")) {
          throw new McpError(ErrorCode.InvalidParams, "Invalid params: notifications.taskIds must be an array of strings");
        }
        if (wanted.length > MAX_LISTEN_TASK_IDS) {
          throw new McpError(ErrorCode.InvalidParams, `Invalid params: at most ${MAX_LISTEN_TASK_IDS} taskIds per listen`);
        }
        const owner = this.#tasks.owner(ctx);
        // Only the caller's own tasks are granted: another's are left out as if unknown.
        return Promise.all(wanted.map((id) => this.#tasks.owns(id, owner))).then((owned) => {
          granted.taskIds = [...new Set((wanted as string[]).filter((_, i) => owned[i]))];
          return this.#open(granted, ctx, transport, notify, owner);
        });
      },
    },
  };

  #open(
    granted: SubscriptionFilter & { taskIds?: string[] },
    ctx: RequestContext,
    transport: TransportInfo,
    notify: (n: JSONRPCNotification) => boolean,
    owner: string,
  ): Promise<SubscriptionsListenResult> {
    // The transports' own calls are told of their abort directly: a signal read here would
    // make an AbortController (and its listener) that every open stream would keep.
    const call = transport instanceof Call ? transport : undefined;
    // Only these are held for the stream's life, not the whole context.
    const requestId = ctx.requestId;
    const signal = call ? undefined : ctx.signal;
    const subscriptions = this.#subscriptions;
    return new Promise<SubscriptionsListenResult>((resolve, reject) => {
      let listener: object | undefined;
      const finish = () => {
        if (listener) subscriptions.remove(listener);
        if (call) {
          if (call.onAbort === finish) call.onAbort = undefined;
        } else signal?.removeEventListener("abort", finish);
        resolve({ resultType: "complete", _meta: { [META_SUBSCRIPTION_ID]: requestId } } as SubscriptionsListenResult);
      };
      listener = subscriptions.open(requestId, granted, notify, finish, owner);
      if (!listener) {
        reject(new McpError(ErrorCode.InvalidRequest, "subscriptions/listen needs a streaming response: send Accept: text/event-stream"));
        return;
      }
      if (call) call.onAbort = finish;
      else signal?.addEventListener("abort", finish, { once: true });
    });
  }

  capabilities(_caps: ServerCapabilities): void {
    // Listening is part of the protocol's core: no capability of its own.
  }
}

/** The most task ids one `subscriptions/listen` may name. */
export const MAX_LISTEN_TASK_IDS = 100;

/** What the listen feature needs of the server's tasks. */
export interface ListenTasks {
  /** Who owns a request's tasks. */
  owner(ctx: RequestContext): string;
  /** Whether `taskId` exists and is `owner`'s. */
  owns(taskId: string, owner: string): Promise<boolean>;
}

/** What of a requested filter the server grants: only what its capabilities announce. */
function grant(filter: JsonObject, caps: ServerCapabilities): SubscriptionFilter {
  const granted: SubscriptionFilter = {};
  const want = (key: keyof SubscriptionFilter) => filter[key] === true;
  if (want("toolsListChanged") && caps.tools) granted.toolsListChanged = true;
  if (want("promptsListChanged") && caps.prompts) granted.promptsListChanged = true;
  if (want("resourcesListChanged") && caps.resources) granted.resourcesListChanged = true;
  if (Array.isArray(filter.resourceSubscriptions) && caps.resources) {
    granted.resourceSubscriptions = filter.resourceSubscriptions.filter((u): u is string => typeof u === "string");
  }
  return granted;
}
