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
  /**
   * Set by the HTTP transport when the token names neither a subject nor a
   * client: a SHA-256 digest of the token (base64url, over a purpose prefix
   * and the token; never the token), which then makes the principal (see
   * `principalOf`), so two such tokens are two principals. The transport
   * replaces what a verifier puts here; with a subject or client it is not read.
   */
  readonly tokenDigest?: string | undefined;
}

/** The scopes of `needed` that `granted` lacks. */
export function missingScopes(needed: readonly string[], granted: readonly string[]): string[] {
  return needed.filter((s) => !granted.includes(s));
}

/** True when the token names whom it is about or for: a non-empty subject or client id. */
function namesPrincipal(auth: AuthInfo): boolean {
  return !!auth.subject || !!auth.clientId;
}

/** Keeps the digest of the principal apart from any other digest of the same token (the introspection cache's). */
const TOKEN_DIGEST_PURPOSE = "x-mcp:principal-token\0";

/**
 * The verified `auth` as the request carries it: with its {@link
 * AuthInfo.tokenDigest} when the token names neither subject nor client
 * (the only case that pays for a digest), else as it is.
 */
export function withTokenDigest(auth: AuthInfo, token: string): AuthInfo | Promise<AuthInfo> {
  if (namesPrincipal(auth)) return auth;
  const bytes = new TextEncoder().encode(TOKEN_DIGEST_PURPOSE + token);
  return globalThis.crypto.subtle.digest("SHA-256", bytes).then((digest) => {
    let binary = "";
    for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
    const tokenDigest = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return { ...auth, tokenDigest };
  });
}

/**
 * The principal of a verified token, which sessions, `requestState` and
 * tasks are bound to: the subject and the client together, so that what one
 * made is refused for the other. A token naming neither is its own principal,
 * by its {@link AuthInfo.tokenDigest}: a three-member array, so it equals no
 * subject and client pair. `undefined` without `auth`.
 */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  if (!namesPrincipal(auth) && auth.tokenDigest !== undefined) return JSON.stringify([null, null, auth.tokenDigest]);
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

/** The default `ServerOptions.principal`: the verified token's (HTTP `auth` option; {@link principalOf}), else none. */
export const tokenPrincipal = (ctx: { readonly auth?: AuthInfo }): string | undefined => principalOf(ctx.auth);
