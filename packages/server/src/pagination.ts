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
  const start = cursor === undefined ? 0 : readCursor(keys, list, cursor);
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
