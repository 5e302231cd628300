/**
 * What the OAuth client sends to the authorization server's endpoints and how
 * it reads their answers: client authentication at the token endpoint, the
 * registration response, the tokens kept, and the words of an error.
 */
import type * as OAuth from "oauth4webapi";
import { authError, clip } from "../errors.js";
import { loadedOAuth, oauthNow } from "./oauth-lib.js";
import type { OAuthClientInformation, StoredTokens } from "./provider.js";

/** The OAuth error a token endpoint put in its `WWW-Authenticate` challenge (a 401 for a bad client authentication). */
function challengeError(error: OAuth.WWWAuthenticateChallengeError): { error?: string; description?: string } {
  const parameters = error.cause[0]?.parameters as Record<string, string> | undefined;
  return {
    ...(parameters?.error ? { error: parameters.error } : {}),
    ...(parameters?.error_description ? { description: parameters.error_description } : {}),
  };
}

/** An error of a step in words; oauth4webapi's errors with their OAuth `error` and HTTP status. */
// Its errors exist only once oauth4webapi was loaded, and only it throws them.
export function describe(error: unknown): string {
  const oauth = loadedOAuth();
  if (oauth === undefined) return error instanceof Error ? error.message : String(error);
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    const { error: code, description } = challengeError(error);
    return `${code ?? "a challenge"}${description ? `: ${description}` : ""} (HTTP ${error.status})`;
  }
  if (error instanceof oauth.ResponseBodyError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ""} (HTTP ${error.status})`;
  if (error instanceof oauth.AuthorizationResponseError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ""}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * An endpoint the authorization server's metadata names, as a URL.
 * @throws McpClientError -32097 `"authorization_server_metadata"` when it is missing or not a URL.
 */
export function endpointOf(as: OAuth.AuthorizationServer, member: "authorization_endpoint" | "token_endpoint"): URL {
  const value = as[member];
  if (typeof value !== "string" || !URL.canParse(value)) {
    throw authError("authorization_server_metadata", `${as.issuer} has no usable ${member}`);
  }
  return new URL(value);
}

/** Client authentication at the token endpoint: the client's method, else what the server advertises. */
export function clientAuth(info: OAuthClientInformation, as: OAuth.AuthorizationServer, privateKey?: CryptoKey): OAuth.ClientAuth {
  const oauth = oauthNow();
  const supported = as.token_endpoint_auth_methods_supported;
  let method = info.token_endpoint_auth_method;
  if (!method) {
    if (privateKey) method = "private_key_jwt";
    else if (info.client_secret === undefined) method = "none";
    else if (supported?.includes("client_secret_basic") || !supported) method = "client_secret_basic";
    else if (supported.includes("client_secret_post")) method = "client_secret_post";
    else method = "client_secret_basic";
  }
  switch (method) {
    case "client_secret_basic":
      return secretBasic(info.client_secret ?? "");
    case "client_secret_post":
      return oauth.ClientSecretPost(info.client_secret ?? "");
    case "private_key_jwt":
      if (!privateKey) throw authError("token", "private_key_jwt needs a private key");
      return oauth.PrivateKeyJwt(privateKey);
    case "client_secret_jwt":
      return oauth.ClientSecretJwt(info.client_secret ?? "");
    default:
      return oauth.None();
  }
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): id and secret form-urlencoded,
 * joined by a colon, in Base64. The WHATWG form encoding leaves `-._*` and
 * alphanumerics as they are, which servers that skip the decoding step also read.
 */
function secretBasic(secret: string): OAuth.ClientAuth {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return (_as, client, _body, headers) => {
    // The form encoding leaves only ASCII, which btoa takes as it is.
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

/** The tokens to keep from a token response; a refresh token not sent again is kept from `previous`. */
export function toStored(response: OAuth.TokenEndpointResponse, previous: StoredTokens | undefined): StoredTokens {
  const tokens: StoredTokens = { access_token: response.access_token, token_type: response.token_type };
  const refresh = response.refresh_token ?? previous?.refresh_token;
  if (refresh) tokens.refresh_token = refresh;
  if (typeof response.expires_in === "number") {
    tokens.issued_at = Math.floor(Date.now() / 1000);
    tokens.expires_at = tokens.issued_at + response.expires_in;
  }
  if (typeof response.scope === "string") tokens.scope = response.scope;
  return tokens;
}

/**
 * Reads a registration response (RFC 7591 §3.2.1): a 2xx JSON object with a
 * string `client_id`. Read here rather than by oauth4webapi, which also
 * demands `client_secret_expires_at` with every secret, a member servers
 * often leave out.
 */
export async function readRegistration(
  response: Response,
): Promise<{ client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown }> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body as { error?: unknown; error_description?: unknown } | undefined) ?? {};
    throw new Error(
      `HTTP ${response.status}${typeof error.error === "string" ? ` ${error.error}` : ""}${typeof error.error_description === "string" ? `: ${clip(error.error_description, 200)}` : ""}`,
    );
  }
  if (typeof body !== "object" || body === null || typeof (body as { client_id?: unknown }).client_id !== "string") {
    throw new Error("the registration response has no client_id");
  }
  return body as { client_id: string };
}

/** `data` for an error an endpoint caused: its HTTP status and OAuth `error`, when known. */
export function statusOf(error: unknown): Record<string, unknown> | undefined {
  const oauth = loadedOAuth();
  if (oauth !== undefined && error instanceof oauth.ResponseBodyError) return { status: error.status, error: error.error };
  if (oauth !== undefined && error instanceof oauth.WWWAuthenticateChallengeError) {
    const code = challengeError(error).error;
    return { status: error.status, ...(code ? { error: code } : {}) };
  }
  const response = (error as { cause?: unknown })?.cause;
  return response instanceof Response ? { status: response.status } : undefined;
}
