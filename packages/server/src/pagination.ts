/**
 * Opaque, tamper-evident list cursors (spec 2026-07-28,
 * server/utilities/pagination). A cursor names the list and the offset of
 * the next page, signed with the server's key ring; a cursor that was not
 * made by this server (or by one sharing its keys) is refused with -32602.
 */
import type { CacheHints } from "@x/builders";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { McpError } from "./errors.js";
import { b64url, fromB64url, type KeyRing } from "./keys.js";
import type { JsonObject } from "./objects.js";

const PURPOSE = "x-mcp:cursor";

/** Makes the cursor of the page that starts at `offset` of list `list` (e.g. `"tools/list"`). */
export function makeCursor(keys: KeyRing, list: string, offset: number): string {
  const body = b64url(Buffer.from(JSON.stringify([list, offset])));
  return `${body}.${b64url(keys.sign(PURPOSE, body).subarray(0, 16))}`;
}

/**
 * Reads a cursor back into an offset.
 * @throws McpError(-32602) when the cursor is malformed, forged, or belongs to another list.
 */
export function readCursor(keys: KeyRing, list: string, cursor: unknown): number {
  if (typeof cursor !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid cursor: must be a string");
  const dot = cursor.indexOf(".");
  const body = dot === -1 ? undefined : cursor.slice(0, dot);
  const tag = dot === -1 ? undefined : fromB64url(cursor.slice(dot + 1));
  if (body === undefined || tag === undefined || tag.length !== 16 || !verifyTruncated(keys, body, tag)) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid cursor: not issued by this server", { cursor: cursor.slice(0, 64) });
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  if (!Array.isArray(decoded) || decoded[0] !== list || !Number.isSafeInteger(decoded[1]) || decoded[1] < 0) {
    throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: not a cursor of ${list}`);
  }
  return decoded[1] as number;
}

function verifyTruncated(keys: KeyRing, body: string, tag: Buffer): boolean {
  // The ring verifies full tags; a truncated tag is checked against each key's truncation.
  return keys.verifyPrefix(PURPOSE, body, tag);
}

/**
 * One page of `items` starting at the cursor's offset (or 0 without cursor).
 * @returns the page and the cursor of the next one (absent on the last page).
 */
export function page<T>(
  keys: KeyRing,
  list: string,
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
): { items: T[]; nextCursor?: string } {
  return pageAt(keys, list, items, cursor === undefined ? 0 : readCursor(keys, list, cursor), pageSize);
}

/** The page of `items` at offset `start`, with the cursor of the next one (absent on the last page). */
function pageAt<T>(keys: KeyRing, list: string, items: readonly T[], start: number, pageSize: number): { items: T[]; nextCursor?: string } {
  const end = start + pageSize;
  const out: { items: T[]; nextCursor?: string } = { items: items.slice(start, end) };
  if (end < items.length) out.nextCursor = makeCursor(keys, list, end);
  return out;
}

/**
 * The result of one list page: `items` under `key`, the method's hints and
 * the next cursor. Built here rather than by `@x/builders`' list builders:
 * the server made the items and checked the hints, so their checks would
 * only add weight to every bundle.
 */
export function listResult<K extends string, T>(
  key: K,
  slice: { items: T[]; nextCursor?: string },
  hints: CacheHints,
): { resultType: "complete"; ttlMs: number; cacheScope: CacheHints["cacheScope"]; nextCursor?: string } & { [P in K]: T[] } {
  const result: JsonObject = { resultType: "complete", [key]: slice.items, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
  if (slice.nextCursor !== undefined) result.nextCursor = slice.nextCursor;
  return result as never;
}

/** One page of a {@link PageCache}, and the JSON text of its result once written. */
interface CachedPage<T> {
  readonly slice: { readonly items: readonly T[]; readonly nextCursor?: string };
  /** Whether its text may be kept: every item is frozen plain data, and writing it has not failed (a bigint). */
  keepText: boolean;
  text?: string;
  /** The hints the text was written with. */
  ttlMs?: number;
  cacheScope?: CacheHints["cacheScope"];
}

/** A page result made by a {@link PageCache}, with its page, for {@link pageTextOf}. */
const pageOfResult = new WeakMap<object, CachedPage<unknown>>();

/**
 * The pages of a list that stays the same until it is replaced (tools/list's
 * cached definitions): each page's slice, its next cursor (an HMAC) and,
 * when `keepText` (every item is frozen plain data, so its text cannot
 * change), the JSON text of its result are made once, not on every call.
 * A cursor string is verified the first time it is seen; one that fails is
 * never kept. Drop the cache with the list. Memory: one entry per page
 * boundary of this `pageSize` (a cursor another server signed for another
 * offset is served, not kept), so about the list's JSON text, and at most
 * the page count plus 16 cursor strings.
 */
export class PageCache<T> {
  readonly #items: readonly T[];
  readonly #pageSize: number;
  readonly #keepText: boolean;
  readonly #pages = new Map<number, CachedPage<T>>();
  /** Cursor strings that verified, with their offset. */
  readonly #offsets = new Map<string, number>();
  readonly #cap: number;

  constructor(items: readonly T[], pageSize: number, keepText: boolean) {
    this.#items = items;
    this.#pageSize = pageSize;
    this.#keepText = keepText;
    this.#cap = Math.ceil(items.length / Math.max(1, pageSize)) + 16;
  }

  /**
   * The result of the page at `cursor`, as {@link listResult} makes it (a new
   * object and items array on every call, so a caller may change them).
   * @throws McpError(-32602) for a cursor this server's keys did not sign.
   */
  result<K extends string>(keys: KeyRing, list: string, key: K, cursor: unknown, hints: CacheHints) {
    let start = 0;
    if (cursor !== undefined) {
      const known = typeof cursor === "string" ? this.#offsets.get(cursor) : undefined;
      if (known !== undefined) start = known;
      else {
        start = readCursor(keys, list, cursor);
        if (this.#offsets.size < this.#cap) this.#offsets.set(cursor as string, start);
      }
    }
    const own = start % this.#pageSize === 0 && start <= this.#items.length;
    let cached = own ? this.#pages.get(start) : undefined;
    if (cached === undefined) {
      cached = { slice: pageAt(keys, list, this.#items, start, this.#pageSize), keepText: this.#keepText };
      if (own) this.#pages.set(start, cached);
    }
    const slice: { items: T[]; nextCursor?: string } = { items: cached.slice.items.slice() };
    if (cached.slice.nextCursor !== undefined) slice.nextCursor = cached.slice.nextCursor;
    const result = listResult(key, slice, hints);
    if (cached.keepText) pageOfResult.set(result, cached);
    return result;
  }
}

/**
 * The JSON text of a page result a {@link PageCache} made (`JSON.stringify`
 * of it, written on the page's first answer and kept), or `undefined` for
 * any other value.
 */
export function pageTextOf(result: object): string | undefined {
  const cached = pageOfResult.get(result);
  if (cached === undefined || !cached.keepText) return undefined;
  const { ttlMs, cacheScope } = result as { ttlMs?: number; cacheScope?: CacheHints["cacheScope"] };
  if (cached.text === undefined) {
    try {
      cached.text = JSON.stringify(result);
    } catch {
      // A bigint in a definition: the caller's own path knows what to do with it, every time.
      cached.keepText = false;
      return undefined;
    }
    cached.ttlMs = ttlMs;
    cached.cacheScope = cacheScope;
  }
  // Other hints than the kept text's: write this one afresh.
  return ttlMs === cached.ttlMs && cacheScope === cached.cacheScope ? cached.text : undefined;
}
