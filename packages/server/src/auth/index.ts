/**
 * `@x/server/auth`: ready `verifyAccessToken` hooks for the HTTP
 * transport's `auth` option (spec: basic/authorization). On their own
 * subpath so that a server without authorization loads no `jose`.
 *
 * @module @x/server/auth
 */
export type { AuthInfo } from "../authorization.js";
export type { AuthOptions, AuthRequest, ProtectedResourceMetadata, VerifyAccessToken } from "../transports/http/auth.js";
export { PROTECTED_RESOURCE_WELL_KNOWN } from "../transports/http/auth.js";
export {
  DEFAULT_INTROSPECTION_CACHE_SIZE,
  DEFAULT_INTROSPECTION_CACHE_TTL_MS,
  type IntrospectionVerifierOptions,
  introspectionVerifier,
} from "./introspection.js";
export { MAX_AUTH_RESPONSE_BYTES } from "./bounded.js";
export { authInfoOf, DEFAULT_JWT_ALGORITHMS, type JwtVerifierOptions, jwtVerifier } from "./jwt.js";
