/** OAuth for the HTTP transport (spec 2026-07-28, basic/authorization). */
export { parseChallenges, type Challenge, type ResourceMetadata } from "./discovery.js";
export { AUTH_REQUEST_TIMEOUT_MS, MAX_AUTH_RESPONSE_BYTES, MAX_METADATA_BYTES } from "./requests.js";
export { DEFAULT_REDIRECT_WAIT_MS, type LoopbackOptions, LoopbackRedirectReceiver } from "./loopback.js";
export { type ClientCredentialsOptions, clientCredentials, importPrivateKey, type JwtBearerOptions, jwtBearer } from "./machine.js";
export {
  type AuthorizeContext,
  FileTokenStore,
  InMemoryTokenStore,
  MAX_TOKEN_FILE_BYTES,
  type MachineGrant,
  type OAuthClientInformation,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredAuthorization,
  type StoredTokens,
  type TokenStore,
} from "./provider.js";
export { MAX_AUTHORIZATIONS_PER_REQUEST, MAX_STEP_UPS_PER_REQUEST, OAuthSession, REFRESH_MARGIN_SECONDS } from "./session.js";
