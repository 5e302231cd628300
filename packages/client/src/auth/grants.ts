/**
 * The grants of the OAuth client (spec 2026-07-28, basic/authorization):
 * the authorization code flow with PKCE, the grants without a user, the
 * refresh, and the client identity each one uses. Every request goes through
 * {@link authRequest}; what the tokens are kept in is the session's.
 */
import type * as OAuth from "oauth4webapi";
import { type AuthStep, authError, ClientErrorCode, clip, isMcpClientError } from "../errors.js";
import type { ResourceMetadata } from "./discovery.js";
import { clientAuth, describe, endpointOf, readRegistration, statusOf } from "./messages.js";
import { loadOAuth, oauthNow } from "./oauth-lib.js";
import type { OAuthClientInformation, OAuthClientProvider, StoredAuthorization } from "./provider.js";
import { type AuthRequests, authRequest, isLoopbackHost, requireSecureEndpoint } from "./requests.js";

/** An error of our own request guard or step, passed on as it is (a `DOMException` also has a numeric `code`). */
export const isAuthFailure = (error: unknown): boolean => isMcpClientError(error, ClientErrorCode.AuthorizationFailed);

/**
 * Runs the token requests of one OAuth session: it reads the
 * session's DPoP handle when it sends and saves a registration through it.
 */
export class Grants {
  readonly #provider: OAuthClientProvider;
  readonly #requests: AuthRequests;
  readonly #dpop: () => OAuth.DPoPHandle | undefined;
  readonly #save: (state: StoredAuthorization) => Promise<void>;

  constructor(
    provider: OAuthClientProvider,
    requests: AuthRequests,
    dpop: () => OAuth.DPoPHandle | undefined,
    save: (state: StoredAuthorization) => Promise<void>,
  ) {
    this.#provider = provider;
    this.#requests = requests;
    this.#dpop = dpop;
    this.#save = save;
  }

  /** Uses `refreshToken` at `as` for `prm.resource`, with the client identity `info`. */
  async refresh(
    as: OAuth.AuthorizationServer,
    prm: ResourceMetadata,
    info: OAuthClientInformation,
    refreshToken: string,
  ): Promise<OAuth.TokenEndpointResponse> {
    const oauth = await loadOAuth();
    const client: OAuth.Client = { client_id: info.client_id };
    const auth = clientAuth(info, as, this.#provider.grant?.privateKey);
    return this.#tokenRequest(
      "token",
      () =>
        oauth.refreshTokenGrantRequest(
          as,
          client,
          auth,
          refreshToken,
          this.#options("token", { additionalParameters: { resource: prm.resource } }),
        ),
      (r) => oauth.processRefreshTokenResponse(as, client, r),
    );
  }

  /**
   * oauth4webapi's options for a request of `step`: it sends through
   * {@link authRequest}, which judges each URL, bounds the answer and times
   * the request, so oauth4webapi's own http check is off rather than a
   * second, issuer-wide answer.
   */
  // One option bag serves requests whose customFetch types differ only in the body type, hence `any`.
  #options<T extends object>(step: AuthStep, extra: T): any {
    const oauth = oauthNow();
    return {
      ...extra,
      DPoP: this.#dpop(),
      [oauth.customFetch]: (target: string, options: unknown) => authRequest(this.#requests, step, new URL(target), options as RequestInit),
      [oauth.allowInsecureRequests]: true,
    };
  }

  /** A token request, sent once more when the authorization server asks for a DPoP nonce (RFC 9449, section 8). */
  async #tokenRequest(
    step: "token",
    send: () => Promise<Response>,
    read: (response: Response) => Promise<OAuth.TokenEndpointResponse>,
  ): Promise<OAuth.TokenEndpointResponse> {
    const oauth = await loadOAuth();
    for (let attempt = 0; ; attempt++) {
      try {
        return await read(await send());
      } catch (error) {
        if (attempt === 0 && this.#dpop() && oauth.isDPoPNonceError(error)) continue;
        if (isAuthFailure(error)) throw error;
        throw authError(step, `the token endpoint refused: ${describe(error)}`, statusOf(error), error);
      }
    }
  }

  /** The token of a grant without a user ({@link OAuthClientProvider.grant}): client credentials or a JWT bearer assertion. */
  async machineGrant(
    as: OAuth.AuthorizationServer,
    prm: ResourceMetadata,
    scope: string | undefined,
  ): Promise<OAuth.TokenEndpointResponse> {
    const oauth = await loadOAuth();
    const grant = this.#provider.grant as NonNullable<OAuthClientProvider["grant"]>;
    const client: OAuth.Client = { client_id: grant.client.client_id };
    const auth = clientAuth(grant.client, as, grant.privateKey);
    const parameters: Record<string, string> = { resource: prm.resource };
    if (scope) parameters.scope = scope;
    if (grant.kind === "client_credentials") {
      return this.#tokenRequest(
        "token",
        () => oauth.clientCredentialsGrantRequest(as, client, auth, parameters, this.#options("token", {})),
        (response) => oauth.processClientCredentialsResponse(as, client, response),
      );
    }
    if (!grant.assertion) throw authError("token", "the JWT bearer grant has no assertion hook");
    let assertion: string;
    try {
      assertion = await grant.assertion({ issuer: as.issuer, tokenEndpoint: String(as.token_endpoint), resource: prm.resource, scope });
    } catch (error) {
      throw authError("token", `the JWT bearer assertion could not be made: ${describe(error)}`, undefined, error);
    }
    return this.#tokenRequest(
      "token",
      () =>
        oauth.genericTokenEndpointRequest(
          as,
          client,
          auth,
          "urn:ietf:params:oauth:grant-type:jwt-bearer",
          { ...parameters, assertion },
          this.#options("token", {}),
        ),
      (response) => oauth.processGenericTokenEndpointResponse(as, client, response),
    );
  }

  /** The client identity: pre-registered, then a Client ID Metadata Document, then dynamic registration. */
  async #clientFor(as: OAuth.AuthorizationServer, state: StoredAuthorization, redirectUri: string): Promise<OAuthClientInformation> {
    const oauth = await loadOAuth();
    const given = this.#provider.clientInformation;
    const preregistered = typeof given === "function" ? given(as.issuer) : given;
    if (preregistered) return preregistered;
    const cimd = this.#provider.clientMetadataUrl;
    if (cimd && as.client_id_metadata_document_supported === true) return { client_id: cimd, token_endpoint_auth_method: "none" };
    if (state.client) return state.client;
    if (!as.registration_endpoint) {
      throw authError(
        "registration",
        `${as.issuer} offers no dynamic client registration and no pre-registered client or usable client metadata document was given`,
      );
    }
    const metadata = this.#registrationMetadata(as, redirectUri);
    let registered: { client_id: string; client_secret?: unknown; token_endpoint_auth_method?: unknown };
    try {
      const response = await oauth.dynamicClientRegistrationRequest(
        as,
        metadata as Partial<OAuth.Client>,
        this.#options("registration", {}),
      );
      registered = await readRegistration(response);
    } catch (error) {
      if (isAuthFailure(error)) throw error;
      throw authError(
        "registration",
        `dynamic client registration at ${String(as.registration_endpoint)} failed: ${describe(error)}`,
        statusOf(error),
        error,
      );
    }
    const client: OAuthClientInformation = { client_id: registered.client_id };
    if (typeof registered.client_secret === "string") client.client_secret = registered.client_secret;
    const method = registered.token_endpoint_auth_method ?? metadata.token_endpoint_auth_method;
    if (typeof method === "string") client.token_endpoint_auth_method = method;
    state.client = client;
    await this.#save(state);
    return client;
  }

  #registrationMetadata(
    as: OAuth.AuthorizationServer,
    redirectUri: string,
  ): Record<string, unknown> & { token_endpoint_auth_method?: string } {
    const given = this.#provider.clientMetadata ?? {};
    const supported = as.token_endpoint_auth_methods_supported;
    const method = !supported
      ? "client_secret_basic"
      : (["none", "client_secret_basic", "client_secret_post"].find((m) => supported.includes(m)) ?? supported[0]);
    const redirect = new URL(redirectUri);
    const native = redirect.protocol !== "https:" && redirect.protocol !== "http:" ? true : isLoopbackHost(redirect.hostname);
    return {
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      application_type: native ? "native" : "web",
      ...(method ? { token_endpoint_auth_method: method } : {}),
      ...given,
    };
  }

  /** The authorization code flow with PKCE S256: the user at the authorization endpoint, then the code exchanged. */
  async authorizationCode(
    as: OAuth.AuthorizationServer,
    prm: ResourceMetadata,
    scope: string | undefined,
    state: StoredAuthorization,
  ): Promise<OAuth.TokenEndpointResponse> {
    const oauth = await loadOAuth();
    const redirect = this.#provider.redirectUrl;
    const authorize = this.#provider.authorize;
    if (redirect === undefined || !authorize) {
      throw authError("authorization", "the server requires authorization but the auth option has no redirectUrl and authorize hook");
    }
    if (!as.code_challenge_methods_supported?.includes("S256")) {
      // PKCE S256 is required; a server that does not advertise it is refused (spec: Authorization Code Protection).
      throw authError("authorization_server_metadata", `${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported)`);
    }
    // Both places the code travels are judged before the user is sent anywhere or a client registered.
    const url = endpointOf(as, "authorization_endpoint");
    requireSecureEndpoint(this.#requests, "authorization", url);
    requireSecureEndpoint(this.#requests, "token", endpointOf(as, "token_endpoint"));
    const redirectUri = String(redirect);
    const info = await this.#clientFor(as, state, redirectUri);
    const client: OAuth.Client = { client_id: info.client_id };
    const verifier = oauth.generateRandomCodeVerifier();
    const expectedState = oauth.generateRandomState();
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", info.client_id);
    url.searchParams.set("redirect_uri", redirectUri);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", expectedState);
    if (scope) url.searchParams.set("scope", scope);
    url.searchParams.set("resource", prm.resource);
    const dpop = this.#dpop();
    if (dpop) url.searchParams.set("dpop_jkt", await dpop.calculateThumbprint());

    let answer: string | URL | URLSearchParams;
    try {
      answer = await authorize.call(this.#provider, url, { state: expectedState, issuer: as.issuer });
    } catch (error) {
      if (isMcpClientError(error)) throw error;
      throw authError("authorization", `the authorize hook failed: ${describe(error)}`, undefined, error);
    }
    let params: URLSearchParams;
    try {
      params = answer instanceof URLSearchParams ? answer : new URL(answer).searchParams;
    } catch (error) {
      throw authError("authorization_response", `the redirect ${clip(String(answer), 120)} is not a URL`, undefined, error);
    }
    let callback: URLSearchParams;
    try {
      // Checks state, and iss against the recorded issuer (RFC 9207 §2.4) before the code goes anywhere.
      callback = oauth.validateAuthResponse(as, client, params, expectedState);
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError) {
        throw authError("authorization_response", `the authorization server answered ${describe(error)}`, { error: error.error }, error);
      }
      throw authError("authorization_response", `the redirect was refused: ${describe(error)}`, undefined, error);
    }
    const auth = clientAuth(info, as);
    return this.#tokenRequest(
      "token",
      () =>
        oauth.authorizationCodeGrantRequest(
          as,
          client,
          auth,
          callback,
          redirectUri,
          verifier,
          this.#options("token", { additionalParameters: { resource: prm.resource } }),
        ),
      (response) => oauth.processAuthorizationCodeResponse(as, client, response),
    );
  }

  /** The identity known without registering at `as`: pre-registered, or the metadata document where `as` supports it. */
  preregistered(as: OAuth.AuthorizationServer): OAuthClientInformation | undefined {
    const given = this.#provider.clientInformation;
    const info = typeof given === "function" ? given(as.issuer) : given;
    if (info) return info;
    const cimd = this.#provider.clientMetadataUrl;
    return cimd && as.client_id_metadata_document_supported === true ? { client_id: cimd, token_endpoint_auth_method: "none" } : undefined;
  }
}
