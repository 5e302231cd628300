/**
 * A ready `verifyAccessToken` for JWT access tokens (RFC 9068) signed by
 * keys from a JWKS (spec: basic/authorization, "Token Handling"): the
 * signature, `iss`, `aud` (the resource's canonical URL, RFC 8707), `exp`
 * and `nbf` are checked by `jose`.
 */
import { createLocalJWKSet, createRemoteJWKSet, customFetch, errors, type JSONWebKeySet, type JWTPayload, jwtVerify } from "jose";
import type { JsonObject } from "../objects.js";
import type { AuthInfo } from "../authorization.js";
import type { VerifyAccessToken } from "../transports/http/auth.js";
import { boundedFetch } from "./bounded.js";

/** The algorithms accepted unless `algorithms` says otherwise: asymmetric ones only. */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = Object.freeze(["RS256", "PS256", "ES256", "EdDSA"]);

/** Options of {@link jwtVerifier}. Give exactly one of `jwksUrl` and `jwks`. */
export interface JwtVerifierOptions {
  /** Where the authorization server publishes its keys (its metadata's `jwks_uri`); fetched on first need, refetched for an unknown `kid`. */
  jwksUrl?: string | URL;
  /** The keys themselves, when they are not fetched. */
  jwks?: JSONWebKeySet;
  /** The `iss` a token must carry: the authorization server's issuer identifier, exactly. */
  issuer: string | readonly string[];
  /** The `aud` a token must carry: the resource's canonical URL (`resourceMetadata.resource`). */
  audience: string | readonly string[];
  /** The `alg` values accepted. Default {@link DEFAULT_JWT_ALGORITHMS}; `none` and the symmetric `HS*` are refused. */
  algorithms?: readonly string[];
  /** Leeway for `exp` and `nbf`, in seconds. Default 0. */
  clockToleranceSeconds?: number;
  /** The `typ` header a token must carry (e.g. `at+jwt`, RFC 9068). Default: not checked. */
  typ?: string;
  /** Least time between two JWKS fetches, in ms (a token with an unknown `kid` refetches). Default 30 000. */
  jwksCooldownMs?: number;
  /** How long fetched keys are trusted before a refetch, in ms. Default 600 000. */
  jwksCacheMaxAgeMs?: number;
  /** How long a JWKS fetch may take, in ms. Default 5 000. */
  jwksTimeoutMs?: number;
  /** What to put in `ctx.assigns`, from the verified claims. Default: nothing. */
  assigns?: (claims: Readonly<JsonObject>) => JsonObject | undefined;
}

/**
 * A `verifyAccessToken` for JWT access tokens. Resolves `undefined` for a
 * token that is malformed, signed by no key of the JWKS, of a refused
 * algorithm, of another issuer or audience, without `exp`, expired or not yet valid;
 * rejects whenever the keys cannot be had (the JWKS unreachable, timed out,
 * answering other than 200, not JSON, or not a key set): the request then
 * gets 503 with `Retry-After`, never 401, so a client does not re-authorize
 * during an authorization server's outage.
 * Scopes come from `scope` (space-separated) or `scp` (array or string),
 * the client from `client_id` or `azp`.
 * @throws TypeError for unusable options (no key source or both, `none` or an `HS*` algorithm, no issuer or audience).
 */
export function jwtVerifier(options: JwtVerifierOptions): VerifyAccessToken {
  if ((options.jwksUrl === undefined) === (options.jwks === undefined)) {
    throw new TypeError("jwtVerifier: give exactly one of jwksUrl and jwks");
  }
  const algorithms = [...(options.algorithms ?? DEFAULT_JWT_ALGORITHMS)];
  if (algorithms.length === 0) throw new TypeError("jwtVerifier: algorithms must not be empty");
  for (const alg of algorithms) {
    // A public JWKS cannot verify an HMAC, and `none` is no signature at all.
    if (alg.toLowerCase() === "none" || /^HS/i.test(alg))
      throw new TypeError(`jwtVerifier: algorithm ${alg} is not accepted for access tokens`);
  }
  const issuer = typeof options.issuer === "string" ? options.issuer : [...(options.issuer ?? [])];
  const audience = typeof options.audience === "string" ? options.audience : [...(options.audience ?? [])];
  if (issuer.length === 0) throw new TypeError("jwtVerifier: issuer is required");
  if (audience.length === 0) throw new TypeError("jwtVerifier: audience is required (the resource's canonical URL)");
  const keys =
    options.jwks !== undefined
      ? createLocalJWKSet(options.jwks)
      : createRemoteJWKSet(new URL(options.jwksUrl!), {
          cooldownDuration: options.jwksCooldownMs ?? 30_000,
          cacheMaxAge: options.jwksCacheMaxAgeMs ?? 600_000,
          timeoutDuration: options.jwksTimeoutMs ?? 5_000,
          // A key set larger than MAX_AUTH_RESPONSE_BYTES is not read whole: the keys are not had (503).
          [customFetch]: boundedFetch("the JWKS endpoint"),
        });
  const verifyOptions = {
    issuer,
    audience,
    algorithms,
    clockTolerance: options.clockToleranceSeconds ?? 0,
    // RFC 9068 section 2.2: a JWT access token carries its expiry; one without could be replayed forever.
    requiredClaims: ["exp"],
    ...(options.typ !== undefined ? { typ: options.typ } : {}),
  };
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, verifyOptions));
    } catch (error) {
      // Only a token found bad is 401; anything else (the JWKS unreachable, 5xx, not JSON, no key set) is 503.
      if (isTokenFault(error)) return undefined;
      throw error;
    }
    return authInfoOf(payload as JsonObject, options.assigns);
  };
}

/**
 * The failures of `jwtVerify` that come from the token itself: it is no JWS
 * or JWT, names an algorithm refused or unknown, names no key of the set (or
 * several), its signature or its claims fail. jose reports a JWKS it could
 * not fetch or read as other errors (a plain `JOSEError` for a non-200 or
 * non-JSON answer, `JWKSTimeout`, `JWKSInvalid`, a network `TypeError`), which
 * are therefore not listed: any failure not named here is the key source's.
 */
const TOKEN_FAULTS: readonly (abstract new (...args: never[]) => Error)[] = [
  errors.JWSInvalid,
  errors.JWTInvalid,
  errors.JOSEAlgNotAllowed,
  errors.JOSENotSupported,
  errors.JWKSNoMatchingKey,
  errors.JWKSMultipleMatchingKeys,
  errors.JWSSignatureVerificationFailed,
  errors.JWTClaimValidationFailed,
  errors.JWTExpired,
];

function isTokenFault(error: unknown): boolean {
  return TOKEN_FAULTS.some((fault) => error instanceof fault);
}

/** The {@link AuthInfo} of verified claims (or an introspection answer). */
export function authInfoOf(claims: JsonObject, assigns?: (claims: Readonly<JsonObject>) => JsonObject | undefined): AuthInfo {
  const scope = claims.scope;
  const scp = claims.scp;
  const scopes =
    typeof scope === "string"
      ? scope.split(" ").filter((s) => s !== "")
      : Array.isArray(scp)
        ? scp.filter((s): s is string => typeof s === "string")
        : typeof scp === "string"
          ? scp.split(" ").filter((s) => s !== "")
          : [];
  const clientId = typeof claims.client_id === "string" ? claims.client_id : typeof claims.azp === "string" ? claims.azp : undefined;
  const frozen = Object.freeze({ ...claims });
  const extra = assigns?.(frozen);
  return {
    subject: typeof claims.sub === "string" ? claims.sub : undefined,
    clientId,
    scopes,
    expiresAt: typeof claims.exp === "number" ? claims.exp : undefined,
    claims: frozen,
    ...(extra ? { assigns: extra } : {}),
  };
}
