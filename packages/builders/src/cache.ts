/**
 * `@x/builders/cache`: the cache hints of cacheable results alone (also
 * exported by `@x/builders`), so that code needing only them (a server's
 * list and read results) does not reach the rest of the builders.
 *
 * @module @x/builders/cache
 */
import { describeValue } from "./util.js";

/**
 * Cache hints for cacheable results (spec 2026-07-28, server/utilities/caching).
 *
 * A cacheable result (`CacheableResult` in the schema: the list results,
 * `resources/read`, `server/discover`) carries two hints: `ttlMs`, how many
 * milliseconds a client may reuse it, and `cacheScope`, who may share it.
 */

/** Who may reuse a cached result: only the same principal, or anyone. */
export type CacheScope = "private" | "public";

/**
 * The two cache hints a cacheable result carries.
 * - `ttlMs`: whole milliseconds, >= 0; `0` means "stale at once, do not reuse".
 * - `cacheScope`: `"private"` (per principal) or `"public"` (shareable).
 */
export interface CacheHints {
  ttlMs: number;
  cacheScope: CacheScope;
}

/** Options accepted by every list and read builder; either key may be left out. */
export interface CacheHintOptions {
  /** Milliseconds a client may reuse the result: an integer >= 0. Default 0. */
  ttlMs?: number;
  /** `"private"` or `"public"`. Default `"private"`. */
  cacheScope?: CacheScope;
}

/**
 * The hint used when none is given: `{ cacheScope: "private", ttlMs: 0 }`,
 * the "do not reuse" hint, which is valid for every cacheable result.
 *
 * Returns a new object on each call.
 *
 * @example
 * defaultCacheControl(); // { cacheScope: "private", ttlMs: 0 }
 */
export function defaultCacheControl(): CacheHints {
  return { cacheScope: "private", ttlMs: 0 };
}

/**
 * Checks and completes a pair of cache hints: a missing key takes its value
 * from {@link defaultCacheControl}.
 *
 * @throws RangeError naming `ttlMs` when it is not an integer >= 0 (within
 *   `Number.MAX_SAFE_INTEGER`), or naming `cacheScope` when it is not
 *   `"private"` or `"public"`.
 *
 * @example
 * cacheHints({ ttlMs: 60_000 }); // { ttlMs: 60000, cacheScope: "private" }
 */
export function cacheHints(options: CacheHintOptions = {}): CacheHints {
  const ttlMs = options.ttlMs ?? 0;
  const cacheScope = options.cacheScope ?? "private";
  if (typeof ttlMs !== "number" || !Number.isSafeInteger(ttlMs) || ttlMs < 0) {
    throw new RangeError(`ttlMs must be an integer >= 0 (milliseconds), got ${describeValue(ttlMs)}`);
  }
  if (cacheScope !== "private" && cacheScope !== "public") {
    throw new RangeError(`cacheScope must be "private" or "public", got ${describeValue(cacheScope)}`);
  }
  return { ttlMs, cacheScope };
}
