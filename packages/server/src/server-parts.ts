/**
 * What this package's transports and plug-ins reach inside a server
 * (internal): `partsOf(server)` of `server.ts` gives them, so that a plug-in
 * (action tools, tasks) installs itself without the core importing it.
 */
import type { ServerCapabilities } from "@x/mcp-v2607";
import type { BusTopicName, EventBus } from "./bus.js";
import type { RequestContext } from "./context.js";
import type { Dispatcher, InboundRequest } from "./dispatch.js";
import type { ListenFeature } from "./features/subscriptions.js";
import type { ToolsFeature } from "./features/tools/index.js";
import type { JsonObject } from "./objects.js";
import type { PluggedRevision } from "./revisions/plugin.js";

/** What this package's transports and plug-ins reach inside a server (internal; set by McpServer's static block). */
export interface ServerParts {
  readonly dispatcher: Dispatcher;
  readonly tools: ToolsFeature;
  /** `subscriptions/listen`, which a plug-in extends (the tasks plug-in: `taskIds`). */
  readonly listen: ListenFeature;
  /** The `requiredScopes` of the registration a request names (its method's entry says which); `undefined` for none. */
  requiredScopes(request: InboundRequest): readonly string[] | undefined;
  /** The revision plug-ins installed on the server, in order (their transports' framings come from them; another plug-in extends them). */
  readonly plugged: readonly PluggedRevision[];
  /** Items per page of every list (`ServerOptions.pageSize`). */
  readonly pageSize: number;
  /** The bus between the instances of a deployment (`ServerOptions.eventBus`). */
  readonly bus: EventBus;
  /** Who owns what a request makes (`ServerOptions.principal`, else the token's principal); `""` for nobody in particular. */
  owner(ctx: RequestContext): string;
  /**
   * Calls `listener` with every message of `topic` (every instance's, this
   * one's included) until the server closes; a bus that cannot subscribe
   * yet is tried again, with backoff.
   */
  follow(topic: BusTopicName, listener: (message: JsonObject) => void): void;
  /** Runs `close` when the server closes. */
  onClose(close: () => void): void;
  /** Reports a failure no request awaits: `onError`, else one line on stderr. */
  report(error: unknown, what: string): void;
  /** Has `add` write what a plug-in announces into the capabilities of `server/discover`. */
  discover(add: (caps: ServerCapabilities) => void): void;
}
