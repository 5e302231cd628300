/**
 * What the server knows of a request's authorization, whatever the
 * transport (spec: basic/authorization): the {@link AuthInfo} handlers see
 * in `ctx.auth`, the principal that sessions and `requestState` are bound
 * to, and the scope rules of registrations. The HTTP side (the header, the
 * challenges, the metadata document) is `transports/http/auth.ts`.
 */
import type { JsonObject } from "./objects.js";

/** What a verified access token says, as handlers see it in `ctx.auth`. */
export interface AuthInfo {
  /** Whom the token is about (`sub`), when it says. */
  readonly subject?: string | undefined;
  /** The OAuth client the token was issued to (`client_id`, or `azp`), when it says. */
  readonly clientId?: string | undefined;
  /** The scopes granted (`scope`, or `scp`); `[]` when none. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`); a token past it is refused with 401. */
  readonly expiresAt?: number | undefined;
  /** The token's other claims (or the introspection answer), without the token itself. */
  readonly claims?: Readonly<JsonObject> | undefined;
  /** Merged into `ctx.assigns` of the request (the transport's `assigns` hook wins on a shared key). */
  readonly assigns?: Readonly<JsonObject> | undefined;
}

/** The scopes of `needed` that `granted` lacks. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((s) => !granted.includes(s));
}

/**
 * The principal of a verified token: the subject and the client together,
 * so that a session or a `requestState` made for one is refused for the other.
 */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  return JSON.stringify([auth.subject ?? null, auth.clientId ?? null]);
}

/** `scope-token` of RFC 6749 section 3.3: printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * A registration's `requiredScopes`, checked and copied; `undefined` for none.
 * @throws TypeError when it is not an array of RFC 6749 scope tokens.
 */
export function checkedScopes(where: string, scopes: readonly string[] | undefined): readonly string[] | undefined {
  if (scopes === undefined) return undefined;
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === "string" && SCOPE_TOKEN.test(s))) {
    throw new TypeError(`${where}: requiredScopes must be an array of OAuth scope tokens (no spaces or quotes)`);
  }
  return scopes.length === 0 ? undefined : Object.freeze([...scopes]);
}
