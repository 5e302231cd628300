/**
 * Ready providers for clients acting on their own behalf: the
 * `client_credentials` grant (OAuth 2.1 §4.2, the MCP client credentials
 * extension) with `client_secret_basic`, `client_secret_post` or
 * `private_key_jwt` (RFC 7523 §2.2), and the JWT bearer grant (RFC 7523 §2.1)
 * for workload identity. They do no step-up on `403 insufficient_scope`
 * beyond asking the token endpoint again with the union of scopes.
 */
import { rejectUnknown } from "./options.js";
import type { MachineGrant, OAuthClientProvider, TokenStore } from "./provider.js";

/** Options of {@link clientCredentials}. */
export interface ClientCredentialsOptions {
  clientId: string;
  /** The client secret (`client_secret_basic`, or `client_secret_post` when `method` says so). */
  clientSecret?: string;
  /**
   * A private key for `private_key_jwt`: a `CryptoKey`, or a PKCS#8 PEM string
   * imported for `algorithm` (default `"ES256"`; also ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA).
   */
  privateKey?: CryptoKey | string;
  algorithm?: string;
  /** The token endpoint authentication method. Default: `private_key_jwt` with a key, else `client_secret_basic` (or what the server advertises). */
  method?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
  /** Scope asked for when the server's challenge and metadata name none. */
  scope?: string;
  tokenStore?: TokenStore;
  /** See {@link OAuthClientProvider.allowInsecureRequests}. */
  allowInsecureRequests?: boolean;
  /** See {@link OAuthClientProvider.requestTimeoutMs}. */
  requestTimeoutMs?: number;
  /** See {@link OAuthClientProvider.refreshMarginSeconds}. */
  refreshMarginSeconds?: number;
}

const CLIENT_CREDENTIALS_OPTIONS: Record<keyof ClientCredentialsOptions, true> = {
  clientId: true,
  clientSecret: true,
  privateKey: true,
  algorithm: true,
  method: true,
  scope: true,
  tokenStore: true,
  allowInsecureRequests: true,
  requestTimeoutMs: true,
  refreshMarginSeconds: true,
};

/** The provider members both helpers pass on as given (checked by the transport's session). */
function tuning(options: ClientCredentialsOptions | JwtBearerOptions): Partial<OAuthClientProvider> {
  const out: Partial<OAuthClientProvider> = {};
  if (options.tokenStore) out.tokenStore = options.tokenStore;
  if (options.allowInsecureRequests !== undefined) out.allowInsecureRequests = options.allowInsecureRequests;
  if (options.requestTimeoutMs !== undefined) out.requestTimeoutMs = options.requestTimeoutMs;
  if (options.refreshMarginSeconds !== undefined) out.refreshMarginSeconds = options.refreshMarginSeconds;
  return out;
}

const IMPORT: Record<string, EcKeyImportParams | RsaHashedImportParams | Algorithm> = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  ES384: { name: "ECDSA", namedCurve: "P-384" },
  ES512: { name: "ECDSA", namedCurve: "P-521" },
  RS256: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
  RS384: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" },
  RS512: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" },
  PS256: { name: "RSA-PSS", hash: "SHA-256" },
  PS384: { name: "RSA-PSS", hash: "SHA-384" },
  PS512: { name: "RSA-PSS", hash: "SHA-512" },
  EdDSA: { name: "Ed25519" },
};

/**
 * Imports a PKCS#8 PEM private key for signing with `algorithm`.
 * @throws TypeError for an unknown algorithm or a key that is not PKCS#8 PEM.
 */
export async function importPrivateKey(pem: string, algorithm = "ES256"): Promise<CryptoKey> {
  const params = IMPORT[algorithm];
  if (!params) throw new TypeError(`Unsupported signing algorithm ${algorithm}`);
  const match = /-----BEGIN PRIVATE KEY-----([\s\S]+?)-----END PRIVATE KEY-----/.exec(pem);
  if (!match) throw new TypeError("The private key must be a PKCS#8 PEM (BEGIN PRIVATE KEY)");
  let der: Uint8Array<ArrayBuffer>;
  try {
    der = Uint8Array.from(atob((match[1] as string).replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    throw new TypeError("The private key's PEM body is not Base64");
  }
  return crypto.subtle.importKey("pkcs8", der, params, false, ["sign"]);
}

/**
 * A provider for the `client_credentials` grant: no user, no redirect. The
 * token is asked for on the first `401` with the `resource` parameter and the
 * scope of the challenge (else the metadata's, else `scope`).
 * @example
 * new StreamableHttpTransport(url, { auth: await clientCredentials({ clientId: "svc", clientSecret: process.env.SECRET }) })
 * @throws TypeError for an unknown option, when neither a secret nor a private key is given, or the key does not import.
 */
export async function clientCredentials(options: ClientCredentialsOptions): Promise<OAuthClientProvider> {
  rejectUnknown("clientCredentials", options, Object.keys(CLIENT_CREDENTIALS_OPTIONS));
  if (options.clientSecret === undefined && options.privateKey === undefined) {
    throw new TypeError("clientCredentials needs a clientSecret or a privateKey");
  }
  const privateKey =
    typeof options.privateKey === "string" ? await importPrivateKey(options.privateKey, options.algorithm) : options.privateKey;
  const method = options.method ?? (privateKey ? "private_key_jwt" : undefined);
  const grant: MachineGrant = {
    kind: "client_credentials",
    client: {
      client_id: options.clientId,
      ...(options.clientSecret !== undefined ? { client_secret: options.clientSecret } : {}),
      ...(method ? { token_endpoint_auth_method: method } : {}),
    },
    ...(privateKey ? { privateKey } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
  };
  return {
    grant,
    ...tuning(options),
  };
}

/** Options of {@link jwtBearer}. */
export interface JwtBearerOptions {
  clientId: string;
  /** A client secret, sent with `client_secret_basic`; without one the client authenticates with `none`. */
  clientSecret?: string;
  /** Returns the assertion (a JWT) for this authorization server and resource, e.g. a workload identity token. */
  assertion: (context: { issuer: string; tokenEndpoint: string; resource: string; scope?: string }) => Promise<string> | string;
  scope?: string;
  tokenStore?: TokenStore;
  /** See {@link OAuthClientProvider.allowInsecureRequests}. */
  allowInsecureRequests?: boolean;
  /** See {@link OAuthClientProvider.requestTimeoutMs}. */
  requestTimeoutMs?: number;
  /** See {@link OAuthClientProvider.refreshMarginSeconds}. */
  refreshMarginSeconds?: number;
}

const JWT_BEARER_OPTIONS: Record<keyof JwtBearerOptions, true> = {
  clientId: true,
  clientSecret: true,
  assertion: true,
  scope: true,
  tokenStore: true,
  allowInsecureRequests: true,
  requestTimeoutMs: true,
  refreshMarginSeconds: true,
};

/**
 * A provider for the JWT bearer grant (RFC 7523 §2.1,
 * `urn:ietf:params:oauth:grant-type:jwt-bearer`): the assertion comes from
 * your hook. A refused grant fails the request with step `"token"`; it is
 * not retried and no other grant is tried.
 * @throws TypeError for an unknown option.
 */
export function jwtBearer(options: JwtBearerOptions): OAuthClientProvider {
  rejectUnknown("jwtBearer", options, Object.keys(JWT_BEARER_OPTIONS));
  const grant: MachineGrant = {
    kind: "jwt_bearer",
    client: {
      client_id: options.clientId,
      ...(options.clientSecret !== undefined
        ? { client_secret: options.clientSecret, token_endpoint_auth_method: "client_secret_basic" }
        : { token_endpoint_auth_method: "none" }),
    },
    assertion: async (context) => options.assertion(context),
    ...(options.scope ? { scope: options.scope } : {}),
  };
  return {
    grant,
    ...tuning(options),
  };
}
