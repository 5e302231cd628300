/**
 * `subscriptions/listen` (spec 2026-07-28, basic/patterns/subscriptions): a
 * long-lived request whose response stream carries the change notifications
 * the client opted in to, each tagged with the subscription's id. The
 * listeners are the server's fan-out of list changes and resource updates.
 */
import type { JSONRPCNotification, RequestId, ServerCapabilities, SubscriptionFilter, SubscriptionsListenResult } from "@x/mcp-v2607";
import { ErrorCode, META_SUBSCRIPTION_ID, Method } from "@x/mcp-v2607/constants";
import type { RequestContext, TransportInfo } from "../context.js";
import { McpError, SERVER_BUSY } from "../errors.js";
import { stringifyJson } from "@x/jsonrpc";
import { copyOwn, isObject, type JsonObject } from "../objects.js";
import { Call } from "../transports/call.js";
import type { Feature, MethodTable, ServerHost } from "./feature.js";
import { publishStream, type TrafficBase, trafficBase, trafficObserved, transportOf } from "../traffic.js";

/** One open listen stream. */
interface Listener {
  id: RequestId;
  filter: SubscriptionFilter;
  uris: Set<string>;
  /** The tasks (of `owner`) whose statuses it hears (the tasks plug-in's `taskIds`); `undefined` when none. */
  taskIds: Set<string> | undefined;
  owner: string;
  notify: (n: JSONRPCNotification) => boolean;
  /** The transport's `notify` of compact JSON ({@link Call.jsonNotify}), when it has one. */
  notifyJson: ((json: string) => boolean) | undefined;
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
    notifyJson?: (json: string) => boolean,
  ): object | undefined {
    if (!notify(tagged(Method.NotificationsSubscriptionsAcknowledged, id, { notifications: granted }))) return undefined;
    const listener: Listener = {
      id,
      filter: granted,
      uris: new Set(granted.resourceSubscriptions ?? []),
      taskIds: granted.taskIds?.length ? new Set(granted.taskIds) : undefined,
      owner,
      notify,
      notifyJson,
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
    const note = new Tagged(LIST_CHANGED[kind], {});
    for (const l of this.#listeners) {
      if (l.filter[FILTER_KEY[kind]] === true) note.send(l);
    }
  }

  /** Tells the listeners subscribed to `uri` that the resource changed. */
  resourceUpdated(uri: string): void {
    const note = new Tagged(Method.NotificationsResourcesUpdated, { uri });
    for (const l of this.#listeners) {
      if (l.uris.has(uri)) note.send(l);
    }
  }

  /**
   * Sends `method` with `params` to the listeners of `owner` that hear of
   * `taskId` (granted by the tasks plug-in: `notifications/tasks`, the
   * detailed task), each tagged with its subscription's id.
   */
  notifyTask(owner: string, taskId: string, method: string, params: JsonObject): void {
    const note = new Tagged(method, params as NonNullable<JSONRPCNotification["params"]>);
    for (const l of this.#listeners) {
      if (l.owner === owner && l.taskIds?.has(taskId)) note.send(l);
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

type Params = NonNullable<JSONRPCNotification["params"]>;

function tagged(method: string, id: RequestId, params: Params): JSONRPCNotification {
  const copy = copyOwn(params);
  copy._meta = { [META_SUBSCRIPTION_ID]: id };
  return { jsonrpc: "2.0", method, params: copy } as JSONRPCNotification;
}

/**
 * One notification for many listeners, each copy tagged with its listener's
 * subscription id. To a transport that takes compact JSON it is serialised
 * once for all of them (the text of {@link tagged}'s copy, up to the id),
 * not once per stream; params with a `_meta` of their own keep the per-stream copy.
 */
class Tagged {
  readonly #method: string;
  readonly #params: Params;
  /** The JSON text before the id; `undefined` until first needed, `null` when the params rule it out. */
  #head: string | null | undefined = undefined;

  constructor(method: string, params: Params) {
    this.#method = method;
    this.#params = params;
  }

  send(l: Listener): boolean {
    const json = l.notifyJson;
    if (json) {
      if (this.#head === undefined) this.#head = headOf(this.#method, this.#params);
      if (this.#head !== null) return json(`${this.#head}${stringifyJson(l.id)}}}}`);
    }
    return l.notify(tagged(this.#method, l.id, this.#params));
  }
}

/**
 * The compact JSON of `tagged(method, id, params)` up to the id (`}}}` follows it); `null` when params hold
 * `_meta`, or a `toJSON` that would write something else in their place.
 */
function headOf(method: string, params: Params): string | null {
  if (Object.hasOwn(params, "_meta") || typeof (params as { toJSON?: unknown }).toJSON === "function") return null;
  const body = stringifyJson(copyOwn(params));
  if (body[0] !== "{" || body.at(-1) !== "}") return null;
  const members = body.length > 2 ? `${body.slice(0, -1)},` : "{";
  return `{"jsonrpc":"2.0","method":${stringifyJson(method)},"params":${members}"_meta":{${stringifyJson(META_SUBSCRIPTION_ID)}:`;
}

/** `subscriptions/listen`: opens a listener on the request's own response stream. */
export class ListenFeature implements Feature {
  readonly #host: ServerHost;
  readonly #subscriptions: Subscriptions;
  readonly #limit: number;
  /** The tasks plug-in's part of a listen; `undefined` without it. */
  #tasks: ListenTasks | undefined;
  /** True once the server is closing: no new listen is accepted. */
  closed = false;

  /** `limit`: the most streams open at once (`ServerOptions.maxListenStreams`). */
  constructor(host: ServerHost, subscriptions: Subscriptions, limit: number) {
    this.#host = host;
    this.#subscriptions = subscriptions;
    this.#limit = limit;
  }

  /** Lets a listen name tasks (`notifications.taskIds`): the tasks plug-in installs it as the server is built. */
  useTasks(tasks: ListenTasks): void {
    this.#tasks = tasks;
  }

  /** See {@link Subscriptions.notifyTask}. */
  notifyTask(owner: string, taskId: string, method: string, params: JsonObject): void {
    this.#subscriptions.notifyTask(owner, taskId, method, params);
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
        const tasks = this.#tasks;
        // Without the tasks plug-in no task is announced, so none is granted (as any other member it does not announce).
        if (wanted === undefined || tasks === undefined) return this.#open(granted, ctx, transport, notify, "");
        return tasks.grant(wanted, ctx).then((grant) => {
          granted.taskIds = grant.taskIds;
          return this.#open(granted, ctx, transport, notify, grant.owner);
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
        if (listener) {
          subscriptions.remove(listener);
          if (trafficObserved()) publishStream(listenBase(ctx, transport), "close", "listen", String(requestId));
        }
        if (call) {
          if (call.onAbort === finish) call.onAbort = undefined;
        } else signal?.removeEventListener("abort", finish);
        resolve({ resultType: "complete", _meta: { [META_SUBSCRIPTION_ID]: requestId } } as SubscriptionsListenResult);
      };
      listener = subscriptions.open(requestId, granted, notify, finish, owner, call?.jsonNotify());
      if (!listener) {
        reject(new McpError(ErrorCode.InvalidRequest, "subscriptions/listen needs a streaming response: send Accept: text/event-stream"));
        return;
      }
      if (trafficObserved()) publishStream(listenBase(ctx, transport), "open", "listen", String(requestId));
      if (call) call.onAbort = finish;
      else signal?.addEventListener("abort", finish, { once: true });
    });
  }

  capabilities(_caps: ServerCapabilities): void {
    // Listening is part of the protocol's core: no capability of its own.
  }
}

/** The traffic fields of a listen stream's events (2026-07-28: no session). */
function listenBase(ctx: RequestContext, transport: TransportInfo): TrafficBase {
  return { ...trafficBase(transportOf(transport), undefined, ctx.protocolVersion, ctx.auth, ctx.clientInfo), era: "2026-07-28" };
}

/** What the tasks plug-in adds to a listen: the task ids it may name (`notifications.taskIds`). */
export interface ListenTasks {
  /**
   * The task ids of `taskIds` (as sent) that the caller may hear of, and the
   * owner they belong to.
   * @throws McpError refusing the listen (the request lacks the extension, a malformed list).
   */
  grant(taskIds: unknown, ctx: RequestContext): Promise<{ owner: string; taskIds: string[] }>;
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
