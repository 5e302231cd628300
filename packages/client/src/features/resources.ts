/**
 * Resources (spec: server/resources): the lists and templates, cached per
 * their hints; `resources/read`, which may answer `input_required`; and
 * being told of changes, which is the revision's (`subscriptions/listen`,
 * or `resources/subscribe` on a session).
 */
import type {
  InputRequiredResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import { CACHEABLE_METHODS } from "../cache.js";
import type { Channel } from "../channel.js";
import {
  type CacheableOptions,
  type ClientOptions,
  DEFAULT_MAX_PAGES,
  type InputOptions,
  type ListAllOptions,
  type ListOptions,
} from "../options.js";
import { expectArray, isInputRequired, listAll } from "../results.js";
import type { CacheFeature } from "./cache.js";

/** The resources feature of one client (see the module comment). */
export class ResourcesFeature {
  constructor(
    private readonly options: ClientOptions,
    private readonly channel: () => Channel,
    private readonly cache: CacheFeature,
  ) {}

  /** One page of `resources/list`. */
  list(options: ListOptions = {}): Promise<ListResourcesResult> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    return this.cache.cached(Method.ResourcesList, params, options, (r) => expectArray(r, "resources"));
  }

  /** Every resource, page after page. */
  listAll(options: ListAllOptions = {}): Promise<Resource[]> {
    return listAll<Resource>("resources", (cursor) => this.list({ ...options, cursor }), this.maxPages(options));
  }

  /** One page of `resources/templates/list`. */
  listTemplates(options: ListOptions = {}): Promise<ListResourceTemplatesResult> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    return this.cache.cached(Method.ResourcesTemplatesList, params, options, (r) => expectArray(r, "resourceTemplates"));
  }

  /** Every resource template, page after page. */
  listAllTemplates(options: ListAllOptions = {}): Promise<ResourceTemplate[]> {
    return listAll<ResourceTemplate>("resourceTemplates", (cursor) => this.listTemplates({ ...options, cursor }), this.maxPages(options));
  }

  private maxPages(options: ListAllOptions): number {
    return options.maxPages ?? this.options.maxPages ?? DEFAULT_MAX_PAGES;
  }

  /** `resources/read`: a result reached without input rounds is cached per its hints; one reached through them never is. */
  async read(uri: string, options: InputOptions & CacheableOptions = {}): Promise<ReadResourceResult | InputRequiredResult> {
    if (typeof uri !== "string") throw new TypeError("readResource: uri must be a string");
    const params = { uri };
    const mode = options.cache ?? "default";
    const cache = this.cache.cache;
    const auth = cache && mode !== "bypass" ? await this.cache.authContext() : undefined;
    const resuming = options.inputResponses !== undefined || options.requestState !== undefined;
    if (cache && mode === "default" && !resuming) {
      const hit = cache.get(Method.ResourcesRead, params, auth);
      // The cache keys entries by method and holds only what `store` put there for it.
      if (hit) return hit as ReadResourceResult;
    }
    const { result, rounds } = await this.channel()
      .revision()
      .resolve(Method.ResourcesRead, params, options, (p) => this.channel().request(Method.ResourcesRead, p, options), false);
    if (isInputRequired(result, Method.ResourcesRead)) return result;
    expectArray(result, "contents");
    if (rounds === 0 && !resuming && CACHEABLE_METHODS.has(Method.ResourcesRead))
      await this.cache.store(Method.ResourcesRead, params, auth, result, mode);
    return result;
  }
}
