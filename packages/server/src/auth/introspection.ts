/**
 * A ready `verifyAccessToken` for opaque access tokens: OAuth 2.0 Token
 * Introspection (RFC 7662), asking the authorization server whether a
 * token is `active`, with a bounded cache of the answers.
 */
import { isObject, type JsonObject } from "../objects.js";
import type { AuthInfo } from "../authorization.js";
import type { VerifyAccessToken } from "../transports/http/auth.js";
import { MAX_AUTH_RESPONSE_BYTES, readAtMost } from "./bounded.js";
import { authInfoOf } from "./jwt.js";

/** Default most answers cached: 1000 tokens. */
export const DEFAULT_INTROSPECTION_CACHE_SIZE = 1000;
/** Default longest time an answer is reused, in ms: 60 000 (never past the token's `exp`). */
export const DEFAULT_INTROSPECTION_CACHE_TTL_MS = 60_000;

/** Options of {@link introspectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's `introspection_endpoint`. */
  endpoint: string | URL;
  /** This resource server's client id at the authorization server (with `clientSecret`: HTTP Basic, RFC 6749 section 2.3.1). */
  clientId?: string;
  /** Its secret. */
  clientSecret?: string;
  /**
   * Authenticates the introspection request another way (a bearer token of
   * the resource server, a JWT assertion...): returns headers to add, and
   * may add form fields to `body`. Replaces `clientId`/`clientSecret`.
   */
  authenticate?: (body: URLSearchParams) => Record<string, string> | Promise<Record<string, string>>;
  /** The `aud` an active token must carry (the resource's canonical URL); checked when the answer carries `aud`. Default: not checked. */
  audience?: string;
  /** The `iss` an active token must carry; checked when the answer carries `iss`. Default: not checked. */
  issuer?: string;
  /** Most answers cached (by a SHA-256 digest of the token, never the token). Default {@link DEFAULT_INTROSPECTION_CACHE_SIZE}; 0 turns caching off. */
  cacheSize?: number;
  /** Longest reuse of an answer, in ms (never past `exp`). Default {@link DEFAULT_INTROSPECTION_CACHE_TTL_MS}. */
  cacheTtlMs?: number;
  /** How long the introspection request may take, in ms. Default 5 000. */
  timeoutMs?: number;
  /** The `fetch` to use. Default: the global one. */
  fetch?: typeof fetch;
  /** What to put in `ctx.assigns`, from the introspection answer. Default: nothing. */
  assigns?: (claims: Readonly<JsonObject>) => JsonObject | undefined;
}

/**
 * A `verifyAccessToken` that introspects each token (RFC 7662 section 2):
 * `undefined` for an answer with `active: false`, of another audience
 * or issuer, or expired; rejects (the request gets 503 with `Retry-After`,
 * never 401) whenever the token could not be checked: the endpoint
 * unreachable or past `timeoutMs`, or answering other than 200 with a JSON
 * object holding a boolean `active` of at most
 * {@link MAX_AUTH_RESPONSE_BYTES}. Answers
 * are cached for up to `cacheTtlMs` (so a revoked token may pass until its
 * answer leaves the cache); the oldest entry goes first when it is full.
 * @throws TypeError when `endpoint` is not a URL, or neither client credentials nor `authenticate` are given.
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): VerifyAccessToken {
  const endpoint = new URL(options.endpoint);
  if (!options.authenticate && (options.clientId === undefined || options.clientSecret === undefined)) {
    throw new TypeError("introspectionVerifier: give clientId and clientSecret, or authenticate");
  }
  const size = options.cacheSize ?? DEFAULT_INTROSPECTION_CACHE_SIZE;
  const ttl = options.cacheTtlMs ?? DEFAULT_INTROSPECTION_CACHE_TTL_MS;
  const timeout = options.timeoutMs ?? 5_000;
  const doFetch = options.fetch ?? fetch;
  const cache = new Map<string, { until: number; info: AuthInfo | undefined }>();

  const introspect = async (token: string): Promise<AuthInfo | undefined> => {
    const body = new URLSearchParams({ token, token_type_hint: "access_token" });
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
    };
    if (options.authenticate) Object.assign(headers, await options.authenticate(body));
    else headers.authorization = `Basic ${btoa(`${formEncode(options.clientId!)}:${formEncode(options.clientSecret!)}`)}`;
    const response = await doFetch(endpoint, { method: "POST", headers, body, signal: AbortSignal.timeout(timeout), redirect: "error" });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`introspection endpoint answered ${response.status}`);
    }
    const answer: unknown = JSON.parse(await readAtMost(response, "the introspection endpoint"));
    // RFC 7662 section 2.2: `active` is required. Without it the token was not checked, so no 401.
    if (!isObject(answer) || typeof answer.active !== "boolean")
      throw new Error("introspection endpoint answered no introspection response");
    if (!answer.active) return undefined;
    if (options.audience !== undefined && answer.aud !== undefined) {
      const aud = Array.isArray(answer.aud) ? answer.aud : [answer.aud];
      if (!aud.includes(options.audience)) return undefined;
    }
    if (options.issuer !== undefined && answer.iss !== undefined && answer.iss !== options.issuer) return undefined;
    if (typeof answer.nbf === "number" && answer.nbf > Date.now() / 1000) return undefined;
    const { active: _active, ...claims } = answer;
    return authInfoOf(claims as JsonObject, options.assigns);
  };

  return async (token) => {
    if (size === 0) return introspect(token);
    const key = await digest(token);
    const now = Date.now();
    const hit = cache.get(key);
    if (hit !== undefined && hit.until > now) return hit.info;
    if (hit !== undefined) cache.delete(key);
    const info = await introspect(token);
    const until = Math.min(now + ttl, info?.expiresAt !== undefined ? info.expiresAt * 1000 : Number.POSITIVE_INFINITY);
    if (until > now) {
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
      cache.set(key, { until, info });
    }
    return info;
  };
}

/**
 * A client credential encoded as RFC 6749 section 2.3.1 asks before Basic;
 * a space as `%20`, which every form decoder reads back (a `+` some read as itself).
 */
function formEncode(value: string): string {
  return encodeURIComponent(value);
}

async function digest(token: string): Promise<string> {
  const bytes = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return hex;
}
