/**
 * The decoded `requestState` of a Multi Round-Trip round (spec 2026-07-28,
 * basic/patterns/mrtr), as the page shows it.
 *
 * TODO(issue 42 contract): replace the body of `readRequestState` by the
 * export `readRequestState(server.keys, state)` of `@x/server/telemetry`
 * once it lands; until then nothing is verified (`verified: false`).
 */

/** What the page shows of a `requestState`: never the key, never the principal it is bound to. */
export interface DecodedState {
  /** True when the server's own key verified the state's signature. */
  readonly verified: boolean;
  /** True when its expiry has passed. */
  readonly expired: boolean;
  /** The method it was issued for. */
  readonly method?: string;
  /** The answers of the earlier rounds it carries. */
  readonly answers?: object;
  /** When it expires, in milliseconds since the epoch. */
  readonly expiresAt?: number;
}

/** Decodes `state` without verifying it; never throws. `keys` is the server's key ring (unused until the contract's export lands). */
export function readRequestState(_keys: unknown, state: unknown): DecodedState {
  const unread: DecodedState = { verified: false, expired: false };
  if (typeof state !== "string") return unread;
  const body = state.slice(0, state.indexOf(".") >>> 0);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return unread;
  try {
    const payload: unknown = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    if (typeof payload !== "object" || payload === null) return unread;
    const { a, e, m } = payload as { a?: unknown; e?: unknown; m?: unknown };
    const expiresAt = typeof e === "number" ? e : undefined;
    return {
      verified: false,
      expired: expiresAt !== undefined && expiresAt <= Date.now(),
      ...(typeof m === "string" ? { method: m } : {}),
      ...(typeof a === "object" && a !== null ? { answers: a } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
  } catch {
    return unread;
  }
}
