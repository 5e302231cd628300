/**
 * Cache hints of cacheable results (spec 2026-07-28, server/utilities/caching):
 * a server-wide default, per method, per registration and per result, in
 * that order of increasing precedence. Hints are checked when configured.
 */
import { type CacheHintOptions, type CacheHints, cacheHints } from "@x/builders/cache";
import type { Result } from "@x/mcp-v2607";

/** The methods whose results carry cache hints. */
export type CacheableMethod =
  | "server/discover"
  | "tools/list"
  | "prompts/list"
  | "resources/list"
  | "resources/templates/list"
  | "resources/read";

/** Cache hint configuration of a server: a default plus per-method overrides. */
export interface CacheOptions extends CacheHintOptions {
  /** Per-method hints; a key left out takes the server-wide default. */
  methods?: Partial<Record<CacheableMethod, CacheHintOptions>>;
}

const CACHEABLE: readonly CacheableMethod[] = [
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
];

/**
 * Resolves the configured hints of every cacheable method once.
 * @throws RangeError naming `ttlMs` or `cacheScope` when a configured hint is invalid;
 *   TypeError when `methods` names a method that carries no cache hints.
 */
export function resolveCacheOptions(options: CacheOptions = {}): Map<CacheableMethod, CacheHints> {
  const base = cacheHints({
    ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}),
    ...(options.cacheScope !== undefined ? { cacheScope: options.cacheScope } : {}),
  });
  const out = new Map<CacheableMethod, CacheHints>();
  for (const method of Object.keys(options.methods ?? {})) {
    if (!CACHEABLE.includes(method as CacheableMethod)) throw new TypeError(`cache.methods: ${method} carries no cache hints`);
  }
  for (const method of CACHEABLE) {
    const own = options.methods?.[method];
    out.set(method, own ? cacheHints({ ...base, ...own }) : base);
  }
  return out;
}

/**
 * Puts hints on a result: the result's own (checked) if it has both or
 * either, completed from `fallback`.
 * @throws RangeError when the result carries an invalid hint.
 */
export function applyHints(result: Result, fallback: CacheHints): Result {
  const own: CacheHintOptions = {};
  if (result.ttlMs !== undefined) own.ttlMs = result.ttlMs as number;
  if (result.cacheScope !== undefined) own.cacheScope = result.cacheScope as CacheHints["cacheScope"];
  const hints = own.ttlMs === undefined && own.cacheScope === undefined ? fallback : cacheHints({ ...fallback, ...own });
  result.ttlMs = hints.ttlMs;
  result.cacheScope = hints.cacheScope;
  return result;
}
