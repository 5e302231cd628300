/**
 * The cache glue of the client (spec: server/utilities/caching): results of
 * the cacheable requests read from and stored in a {@link ResponseCache}
 * keyed by the authorization context, stored by the hints the revision
 * says, and dropped by the change notifications that make them stale.
 */
import type { ClientRequestMethod, JSONRPCNotification, ResponseResultOf } from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import { ResponseCache } from "../cache.js";
import type { Channel } from "../channel.js";
import type { CacheableOptions, CacheMode, ClientOptions, RequestArguments, Result } from "../options.js";
import { completed } from "../results.js";
import type { Transport } from "../transports/transport.js";

/** The cache as the features use it (see the module comment). */
export class CacheFeature {
  /** The cache, or `undefined` when `ClientOptions.cache` is `false`. */
  readonly cache: ResponseCache | undefined;

  constructor(
    private readonly options: ClientOptions,
    private readonly channel: () => Channel,
    private readonly transportOf: () => Transport | undefined,
  ) {
    if (options.cache === false) this.cache = undefined;
    else if (options.cache instanceof ResponseCache) this.cache = options.cache;
    else this.cache = new ResponseCache(options.cache ?? {});
  }

  /** Drops every cached result. */
  clear(): void {
    this.cache?.clear();
  }

  /** The authorization context private entries are keyed by: the option's, else the transport's. */
  async authContext(): Promise<string | undefined> {
    const own = this.options.authContext;
    if (own !== undefined) return typeof own === "function" ? own() : own;
    return this.transportOf()?.authContext?.();
  }

  /** A cacheable request: from the cache when `options.cache` allows, else sent, checked complete, prepared and stored. */
  async cached<M extends ClientRequestMethod>(
    method: M,
    params: RequestArguments<M>,
    options: CacheableOptions,
    prepare: (result: ResponseResultOf<M>) => ResponseResultOf<M>,
  ): Promise<ResponseResultOf<M>> {
    const mode = options.cache ?? "default";
    const auth = this.cache && mode !== "bypass" ? await this.authContext() : undefined;
    if (this.cache && mode === "default") {
      const hit = this.cache.get(method, params, auth);
      // The cache keys entries by method and holds only what `store` put there for it.
      if (hit) return hit as ResponseResultOf<M>;
    }
    const result = prepare(completed(await this.channel().request(method, params, options), method));
    await this.store(method, params, auth, result, mode);
    return result;
  }

  /**
   * Stores a result fetched in the authorization context `auth`, unless the
   * context changed while the request was out (the result might then belong
   * to the new one).
   */
  async store(method: string, params: Record<string, unknown>, auth: string | undefined, result: Result, mode: CacheMode): Promise<void> {
    if (!this.cache || mode === "bypass") return;
    if ((await this.authContext()) !== auth) return;
    const hints = this.channel().revision().storeHints();
    if (hints) this.cache.set(method, params, auth, result, hints);
    else this.cache.set(method, params, auth, result);
  }

  /** Invalidates cached results that a change notification makes stale (spec: caching "Interaction with Notifications"). */
  invalidateFor(notification: JSONRPCNotification): void {
    const cache = this.cache;
    if (!cache) return;
    switch (notification.method) {
      case Method.NotificationsToolsListChanged:
        cache.invalidate(Method.ToolsList);
        break;
      case Method.NotificationsPromptsListChanged:
        cache.invalidate(Method.PromptsList);
        break;
      case Method.NotificationsResourcesListChanged:
        cache.invalidate(Method.ResourcesList);
        cache.invalidate(Method.ResourcesTemplatesList);
        break;
      case Method.NotificationsResourcesUpdated: {
        const uri = (notification.params as { uri?: unknown } | undefined)?.uri;
        cache.invalidate(Method.ResourcesRead, (params) => params.uri === uri);
        break;
      }
    }
  }
}
