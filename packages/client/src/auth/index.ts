/** OAuth for the HTTP transport (spec 2026-07-28, basic/authorization). */
export { parseChallenges, type Challenge, type ResourceMetadata } from "./discovery.js";
export { type LoopbackOptions, LoopbackRedirectReceiver } from "./loopback.js";
export { type ClientCredentialsOptions, clientCredentials, importPrivateKey, type JwtBearerOptions, jwtBearer } from "./machine.js";
export {
  type AuthorizeContext,
  FileTokenStore,
  type FileTokenStoreOptions,
  InMemoryTokenStore,
  type MachineGrant,
  type OAuthClientInformation,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type StoredAuthorization,
  type StoredTokens,
  type TokenStore,
} from "./provider.js";
export { OAuthSession } from "./session.js";
