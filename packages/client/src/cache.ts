/**
 * A client-side cache of results that carry cache hints (spec 2026-07-28,
 * server/utilities/caching): `ttlMs` (how long the result is fresh, in
 * milliseconds) and `cacheScope` (`"public"`: shareable by anyone;
 * `"private"`: only within the same authorization context).
 */
import { stringifyJson } from "@x/jsonrpc";
import { Method } from "@x/mcp-v2607/constants";

/** The methods whose results carry cache hints and may be cached (spec: caching "Cacheable Results"). */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  Method.ServerDiscover,
  Method.ToolsList,
  Method.PromptsList,
  Method.ResourcesList,
  Method.ResourcesTemplatesList,
  Method.ResourcesRead,
]);

/** Options of {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /** Most entries kept; the least recently used go first. Default 500. */
  maxEntries?: number;
  /** The clock, in milliseconds (default `Date.now`); tests pass their own. */
  now?: () => number;
}

interface Entry {
  result: Record<string, unknown>;
  freshUntil: number;
  method: string;
  params: Record<string, unknown>;
}

/** A stable text of a JSON value: object keys sorted, so that equal params give equal keys. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return stringifyJson(value) ?? "null";
}

/**
 * The cache. An entry is identified by the method, the request parameters
 * that affect the result (all of `params` except `_meta`), and, for a
 * `"private"` result, the authorization context it was fetched in.
 *
 * Rules (spec: caching):
 * - only results of {@link CACHEABLE_METHODS} are stored;
 * - a result is stored only when `ttlMs` is a positive number; an absent,
 *   zero or negative `ttlMs` means immediately stale;
 * - an absent `cacheScope` is taken as `"private"` (the safe choice);
 * - a private entry is found only under the same authorization context;
 * - requests that carry `inputResponses` or `requestState` are never
 *   stored or served (the caller also never stores the result of a Multi
 *   Round-Trip retry).
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  /** @throws RangeError when `maxEntries` is not a positive integer. */
  constructor(options: ResponseCacheOptions = {}) {
    const max = options.maxEntries ?? 500;
    if (!Number.isSafeInteger(max) || max <= 0) throw new RangeError(`maxEntries must be a positive integer, got ${max}`);
    this.maxEntries = max;
    this.now = options.now ?? Date.now;
  }

  /** The number of entries held (fresh or not). */
  get size(): number {
    return this.entries.size;
  }

  private static cacheable(method: string, params: Record<string, unknown>): boolean {
    return CACHEABLE_METHODS.has(method) && params.inputResponses === undefined && params.requestState === undefined;
  }

  private static key(scope: string, method: string, params: Record<string, unknown>): string {
    const { _meta: _, ...rest } = params;
    return `${scope}\u0000${method}\u0000${stableJson(rest)}`;
  }

  private static privateScope(authContext: string | undefined): string {
    return `private:${authContext ?? ""}`;
  }

  /**
   * A fresh cached result for this request, or `undefined`. A public entry
   * is found under any authorization context; a private one only under its own.
   */
  get(method: string, params: Record<string, unknown>, authContext: string | undefined): Record<string, unknown> | undefined {
    if (!ResponseCache.cacheable(method, params)) return undefined;
    const now = this.now();
    for (const scope of ["public", ResponseCache.privateScope(authContext)]) {
      const key = ResponseCache.key(scope, method, params);
      const entry = this.entries.get(key);
      if (!entry) continue;
      if (now >= entry.freshUntil) {
        this.entries.delete(key);
        continue;
      }
      this.entries.delete(key);
      this.entries.set(key, entry);
      return structuredClone(entry.result);
    }
    return undefined;
  }

  /**
   * Stores a complete result if its hints allow (see the class rules).
   * `hints` default to the result's own `ttlMs` and `cacheScope`; the client
   * passes its own for a result of the `initialize` era, which has none.
   * @returns true when stored.
   */
  set(
    method: string,
    params: Record<string, unknown>,
    authContext: string | undefined,
    result: Record<string, unknown>,
    hints: { ttlMs?: unknown; cacheScope?: unknown } = result,
  ): boolean {
    if (!ResponseCache.cacheable(method, params)) return false;
    const ttl = hints.ttlMs;
    if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0) return false;
    const scope = hints.cacheScope === "public" ? "public" : ResponseCache.privateScope(authContext);
    const key = ResponseCache.key(scope, method, params);
    // A result that moved from one scope to the other must not leave the old entry behind.
    this.entries.delete(ResponseCache.key(scope === "public" ? ResponseCache.privateScope(authContext) : "public", method, params));
    this.entries.delete(key);
    const { _meta: _, ...rest } = params;
    this.entries.set(key, { result: structuredClone(result), freshUntil: this.now() + ttl, method, params: rest });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return true;
  }

  /**
   * Drops entries: all of them, those of one method, or those of a method
   * whose params match `where` (e.g. `resources/read` of one `uri`, on
   * `notifications/resources/updated`).
   * @returns the number dropped.
   */
  invalidate(method?: string, where?: (params: Record<string, unknown>) => boolean): number {
    let dropped = 0;
    for (const [key, entry] of this.entries) {
      if (method !== undefined && entry.method !== method) continue;
      if (where && !where(entry.params)) continue;
      this.entries.delete(key);
      dropped++;
    }
    return dropped;
  }

  /** Drops every entry. */
  clear(): void {
    this.entries.clear();
  }
}
