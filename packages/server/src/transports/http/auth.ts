/**
 * The server as an OAuth 2.1 resource server on Streamable HTTP (spec
 * 2026-07-28 and 2025-11-25, basic/authorization): the `Authorization:
 * Bearer` header read on every request (RFC 6750 section 2.1), the
 * `WWW-Authenticate` challenges of 401, 403 and 400 (RFC 6750 section 3,
 * with `resource_metadata` of RFC 9728 section 5.1), and the protected
 * resource metadata document (RFC 9728 section 3) at its well-known paths.
 *
 * How a token is checked is the `verifyAccessToken` hook's business; ready
 * hooks (JWT from a JWKS, token introspection) are on `@x/server/auth`, so
 * that this file, which every HTTP server loads, needs no crypto library.
 * A token is never logged, never put in an error or a challenge, and never
 * handed to a handler: handlers see the {@link AuthInfo} only.
 */
import { RESOURCE_METADATA_WELL_KNOWN, resourceMetadataPaths } from "@x/mcp-v2607/wire";
import type { AuthInfo } from "../../authorization.js";
import type { JsonObject } from "../../objects.js";

/** What a verifier may read of the HTTP request besides the token. */
export interface AuthRequest {
  /** The request method (`POST`, `GET`, `DELETE`). */
  readonly method: string;
  /** Reads a request header by lower-case name. */
  header(name: string): string | undefined;
}

/**
 * Checks an access token. Resolves the {@link AuthInfo} of a valid token,
 * `undefined` for one that is invalid, expired or not meant for this
 * resource (the request gets 401 `invalid_token`). Throw (or reject) only
 * when the token cannot be checked now (the JWKS or the introspection
 * endpoint unreachable): the request then gets 503 with `Retry-After`.
 */
export type VerifyAccessToken = (token: string, request: AuthRequest) => AuthInfo | undefined | Promise<AuthInfo | undefined>;

/**
 * The protected resource metadata (RFC 9728 section 2), in this package's
 * spelling; served as JSON with the RFC's snake_case names.
 */
export interface ProtectedResourceMetadata {
  /**
   * The resource's canonical URL (RFC 8707 section 2; spec: "Canonical
   * Server URI"): the MCP endpoint as clients address it, e.g.
   * `https://mcp.example.com/mcp`, no fragment. Tokens must carry it as
   * their audience; the well-known path of this document derives from it.
   */
  resource: string;
  /** The issuer URLs of the authorization servers whose tokens are accepted; at least one. */
  authorizationServers: readonly string[];
  /** The scopes a client should ask for to use the server at all (`scopes_supported`). Never `offline_access`. */
  scopesSupported?: readonly string[];
  /** A human-readable name (`resource_name`). */
  resourceName?: string;
  /** A URL of human-readable documentation (`resource_documentation`). */
  resourceDocumentation?: string;
  /** Further members of the document, as sent (e.g. `resource_signing_alg_values_supported`). */
  extra?: JsonObject;
}

/** The `auth` option of the Streamable HTTP transport: every request then needs a valid bearer token. */
export interface AuthOptions {
  /** Checks each request's token; see {@link VerifyAccessToken}. Ready ones: `jwtVerifier`, `introspectionVerifier` (`@x/server/auth`). */
  verifyAccessToken: VerifyAccessToken;
  /** The document served at the well-known path, and the source of `resource_metadata` in challenges. */
  resourceMetadata: ProtectedResourceMetadata;
  /**
   * Scopes every request's token must hold; a token without them gets 403
   * `insufficient_scope`. They are also the `scope` of the 401 challenge
   * (else `scopesSupported`). Default: none.
   */
  requiredScopes?: readonly string[];
}

/** The well-known path prefix of RFC 9728 section 3 (the shared rule of `@x/mcp-v2607/wire`). */
export const PROTECTED_RESOURCE_WELL_KNOWN: string = RESOURCE_METADATA_WELL_KNOWN;

/** The parts of an {@link AuthOptions}, read once when the transport is made. */
export interface AuthSettings {
  readonly verify: VerifyAccessToken;
  readonly required: readonly string[];
  /** The `scope` of a 401 challenge, or `undefined`. */
  readonly challengeScope: string | undefined;
  /** The absolute URL of the metadata document (`resource_metadata`). */
  readonly metadataUrl: string;
  /** The paths the metadata document is served at: the one derived from `resource`, then the root one. */
  readonly metadataPaths: readonly string[];
  /** The document, serialized once. */
  readonly document: string;
}

/**
 * Reads and checks an {@link AuthOptions}.
 * @throws TypeError when `verifyAccessToken` is not a function, `resource` is
 *   not an absolute http(s) URL without fragment, or no authorization server is named.
 */
export function authSettings(options: AuthOptions): AuthSettings {
  if (typeof options.verifyAccessToken !== "function") throw new TypeError("auth.verifyAccessToken must be a function");
  const meta = options.resourceMetadata;
  let url: URL;
  try {
    url = new URL(meta?.resource);
  } catch {
    throw new TypeError(`auth.resourceMetadata.resource must be an absolute URL, got ${String(meta?.resource)}`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.hash !== "" || meta.resource.includes("#")) {
    throw new TypeError(`auth.resourceMetadata.resource must be an http(s) URL without fragment, got ${meta.resource}`);
  }
  if (!Array.isArray(meta.authorizationServers) || meta.authorizationServers.length === 0) {
    throw new TypeError("auth.resourceMetadata.authorizationServers must name at least one authorization server");
  }
  const required = [...(options.requiredScopes ?? [])];
  const paths = resourceMetadataPaths(url);
  const primary = paths[0]!;
  const scopes = required.length > 0 ? required : (meta.scopesSupported ?? []);
  const document: JsonObject = {
    ...(meta.extra ?? {}),
    resource: meta.resource,
    authorization_servers: [...meta.authorizationServers],
    bearer_methods_supported: ["header"],
  };
  if (meta.scopesSupported) document.scopes_supported = [...meta.scopesSupported];
  if (meta.resourceName !== undefined) document.resource_name = meta.resourceName;
  if (meta.resourceDocumentation !== undefined) document.resource_documentation = meta.resourceDocumentation;
  return {
    verify: options.verifyAccessToken,
    required,
    challengeScope: scopes.length > 0 ? scopes.join(" ") : undefined,
    metadataUrl: url.origin + primary,
    metadataPaths: paths,
    document: JSON.stringify(document),
  };
}

/** `token68` of RFC 7235 section 2.1, the only form of a bearer token (RFC 6750 section 2.1). */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The bearer token of an `Authorization` header: the token, `undefined`
 * when there is no header, or `null` when the header is malformed (not
 * `Bearer <token68>`, several headers joined by the adapter, another scheme).
 */
export function bearerToken(header: string | undefined): string | undefined | null {
  if (header === undefined) return undefined;
  const match = /^([A-Za-z]+) +(\S+)$/.exec(header);
  if (match === null || match[1]!.toLowerCase() !== "bearer") return null;
  const token = match[2]!;
  return TOKEN68.test(token) ? token : null;
}

/** True when a query string carries an `access_token` (forbidden by the spec: tokens go in the header only). */
export function queryHasToken(url: string | undefined): boolean {
  if (url === undefined) return false;
  const q = url.indexOf("?");
  if (q === -1) return false;
  return new URLSearchParams(url.slice(q + 1)).has("access_token");
}

/** An HTTP quoted-string of `value` (RFC 9110 section 5.6.4): `\` and `"` escaped, controls replaced. */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&").replace(/[^\x20-\x7e]/g, " ")}"`;
}

/** An RFC 6750 OAuth error code of a challenge. */
export type BearerError = "invalid_request" | "invalid_token" | "insufficient_scope";

/**
 * A `WWW-Authenticate: Bearer` value: `resource_metadata` always, then
 * `error` and `error_description` when there is an error, then `scope` when known.
 */
export function challenge(settings: AuthSettings, error?: BearerError, description?: string, scope?: string): string {
  let value = `Bearer resource_metadata=${quoted(settings.metadataUrl)}`;
  if (error !== undefined) value += `, error=${quoted(error)}`;
  // A request with no credentials gets no error information (RFC 6750 section 3.1).
  if (error !== undefined && description !== undefined) value += `, error_description=${quoted(description)}`;
  if (scope !== undefined && scope !== "") value += `, scope=${quoted(scope)}`;
  return value;
}
