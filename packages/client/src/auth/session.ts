/**
 * The OAuth client of one HTTP transport (spec 2026-07-28,
 * basic/authorization; 2025-11-25, basic/authorization, which both eras
 * follow): it puts the access token on every request, and on `401` or
 * `403 insufficient_scope` runs discovery, registration and a grant, then
 * sends the request again. OAuth mechanics are oauth4webapi's; the order of
 * discovery, the challenges, scope selection and the hooks are ours. This
 * file holds the request loop, the stored state and the refresh; the grants
 * and the client identity are in `grants.ts`.
 */
import type * as OAuth from "oauth4webapi";
import { authError, clip } from "../errors.js";
import {
  type Challenge,
  discoverAuthorizationServer,
  discoverResourceMetadata,
  parseChallenges,
  pickChallenge,
  type ResourceMetadata,
} from "./discovery.js";
import { Grants } from "./grants.js";
import { toStored } from "./messages.js";
import { loadOAuth, oauthNow } from "./oauth-lib.js";
import {
  InMemoryTokenStore,
  type OAuthClientProvider,
  PROVIDER_MEMBERS,
  type StoredAuthorization,
  type StoredTokens,
  type TokenStore,
} from "./provider.js";
import { DEFAULT_AUTH_REQUEST_TIMEOUT_MS, DEFAULT_REFRESH_MARGIN_SECONDS, integerOption, rejectMisspelt, timerOption } from "./options.js";
import type { AuthRequests } from "./requests.js";

/**
 * How many times one request is authorized anew after a `401` before it fails
 * with step `"unauthorized"`: a safety bound against a server that refuses
 * every token, not an option (README, "https, sizes and time-outs").
 */
export const MAX_AUTHORIZATIONS_PER_REQUEST = 2;
/** How many step-ups one request makes after `403 insufficient_scope` before it fails with step `"insufficient_scope"`; a safety bound too. */
export const MAX_STEP_UPS_PER_REQUEST = 2;

/** The union of scope strings (space-separated), in first-seen order; `undefined` when empty. */
function unionScopes(...lists: Array<string | string[] | undefined>): string[] {
  const out: string[] = [];
  for (const list of lists) {
    const items = typeof list === "string" ? list.split(" ") : (list ?? []);
    for (const item of items) if (item !== "" && !out.includes(item)) out.push(item);
  }
  return out;
}

interface Discovered {
  prm: ResourceMetadata;
  as: OAuth.AuthorizationServer;
}

/**
 * Runs the authorization for one transport. Created by
 * `StreamableHttpTransport` from its `auth` option; `fetch` is what the
 * transport calls instead of the global `fetch`.
 */
export class OAuthSession {
  readonly #endpoint: URL;
  readonly #provider: OAuthClientProvider;
  readonly #fetch: typeof fetch;
  readonly #store: TokenStore;
  readonly #key: string;
  readonly #requests: AuthRequests;
  readonly #grants: Grants;
  readonly #refreshMargin: number;
  #state: StoredAuthorization | undefined;
  #loaded = false;
  #discovered: Discovered | undefined;
  #dpop: OAuth.DPoPHandle | undefined;
  #dpopKeys: CryptoKeyPair | undefined;
  #running: Promise<void> | undefined;
  #refreshing: Promise<boolean> | undefined;

  /**
   * @throws TypeError when `clientMetadataUrl` is not an https URL with a path
   *   (spec 2026-07-28, client-registration: Client ID Metadata Documents), `redirectUrl` is not a URL,
   *   `requestTimeoutMs` is not a positive integer of at most 2^31 - 1, `refreshMarginSeconds` is not
   *   a non-negative integer, or a member is a misspelt option (`requestTimeoutMS`).
   */
  constructor(endpoint: URL, provider: OAuthClientProvider, fetchImpl: typeof fetch) {
    rejectMisspelt("The auth provider", provider, PROVIDER_MEMBERS);
    if (provider.clientMetadataUrl !== undefined) {
      const text = String(provider.clientMetadataUrl);
      const cimd = URL.canParse(text) ? new URL(text) : undefined;
      if (cimd === undefined || cimd.protocol !== "https:" || cimd.pathname === "/") {
        throw new TypeError(`clientMetadataUrl must be an https URL with a path, got ${clip(text, 120)}`);
      }
    }
    if (provider.redirectUrl !== undefined && !URL.canParse(String(provider.redirectUrl))) {
      throw new TypeError(`redirectUrl is not a URL: ${clip(String(provider.redirectUrl), 120)}`);
    }
    const timeoutMs = timerOption("requestTimeoutMs", provider.requestTimeoutMs, DEFAULT_AUTH_REQUEST_TIMEOUT_MS);
    this.#refreshMargin = integerOption("refreshMarginSeconds", provider.refreshMarginSeconds, DEFAULT_REFRESH_MARGIN_SECONDS, 0);
    this.#endpoint = endpoint;
    this.#provider = provider;
    this.#fetch = fetchImpl;
    this.#store = provider.tokenStore ?? new InMemoryTokenStore();
    this.#key = endpoint.href;
    this.#requests = { fetch: fetchImpl, allowInsecureRequests: provider.allowInsecureRequests, timeoutMs };
    this.#grants = new Grants(
      provider,
      this.#requests,
      () => this.#dpop,
      (state) => this.#save(state),
    );
  }

  /** The access token the next request carries, or `undefined` before authorization. */
  async accessToken(): Promise<string | undefined> {
    return (await this.#load())?.tokens?.access_token;
  }

  /**
   * A `fetch` that authorizes: adds the token, refreshes it when it is about
   * to expire, and on `401` / `403 insufficient_scope` authorizes and sends
   * the request again (bounded by {@link MAX_AUTHORIZATIONS_PER_REQUEST} and
   * {@link MAX_STEP_UPS_PER_REQUEST}). The body must be a string or absent.
   * `hooks.pauseTimeout` stops the request's timeout while an authorization runs.
   * @throws McpClientError -32097 (`AuthorizationFailed`) naming the failed step.
   */
  readonly fetch = async (
    input: string | URL | Request,
    init: RequestInit = {},
    hooks: { pauseTimeout?: () => () => void } = {},
  ): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input);
    if ((init.method ?? "GET").toUpperCase() === "DELETE") {
      // Ending a session never starts an authorization; the token it has is sent.
      await this.#refreshIfExpiring();
      return this.#send(url, init, (await this.#load())?.tokens);
    }
    let authorizations = 0;
    let stepUps = 0;
    let refreshed = false;
    let nonceRetried = false;
    for (;;) {
      await this.#refreshIfExpiring();
      const tokens = (await this.#load())?.tokens;
      const response = await this.#send(url, init, tokens);
      if (response.status !== 401 && response.status !== 403) return response;
      const challenges = parseChallenges(response.headers.get("www-authenticate"));
      const challenge = pickChallenge(challenges);
      if (response.status === 403 && challenge?.params.error !== "insufficient_scope") return response;
      await response.body?.cancel().catch(() => {});
      if (challenge?.params.error === "use_dpop_nonce" && this.#dpop && !nonceRetried) {
        // The DPoP handle took the nonce from the response; the same token is sent again with it (RFC 9449 §9).
        nonceRetried = true;
        continue;
      }
      if (response.status === 401) {
        if (tokens?.refresh_token && !refreshed) {
          refreshed = true;
          if (await this.#refresh()) continue;
        }
        if (authorizations >= MAX_AUTHORIZATIONS_PER_REQUEST) {
          throw authError(
            "unauthorized",
            `${url.href} answered 401 again after ${authorizations} authorization${authorizations === 1 ? "" : "s"}`,
            { status: 401 },
          );
        }
        authorizations++;
        await this.#paused(hooks, () => this.#authorizeOnce(challenge, false, tokens));
        continue;
      }
      if (stepUps >= MAX_STEP_UPS_PER_REQUEST) {
        throw authError(
          "insufficient_scope",
          `${url.href} still answers 403 insufficient_scope (${clip(challenge?.params.scope ?? "no scope named", 120)}) after ${stepUps} step-up${stepUps === 1 ? "" : "s"}`,
          { status: 403, scope: challenge?.params.scope },
        );
      }
      stepUps++;
      await this.#paused(hooks, () => this.#authorizeOnce(challenge, true, tokens));
    }
  };

  async #paused(hooks: { pauseTimeout?: () => () => void }, run: () => Promise<void>): Promise<void> {
    const resume = hooks.pauseTimeout?.();
    try {
      await run();
    } finally {
      resume?.();
    }
  }

  async #send(url: URL, init: RequestInit, tokens: StoredTokens | undefined): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!tokens) {
      headers.delete("authorization");
      return this.#fetch(url, { ...init, headers });
    }
    if (this.#dpop && tokens.token_type.toLowerCase() === "dpop") {
      const oauth = oauthNow(); // #dpop is set only by #setUpDpop, which loaded it
      try {
        return await oauth.protectedResourceRequest(
          tokens.access_token,
          init.method ?? "GET",
          url,
          headers,
          (init.body ?? null) as string | null,
          {
            DPoP: this.#dpop,
            signal: init.signal ?? undefined,
            [oauth.customFetch]: (target, options) => this.#fetch(target, options as RequestInit),
            [oauth.allowInsecureRequests]: true,
          },
        );
      } catch (error) {
        if (error instanceof oauth.WWWAuthenticateChallengeError) return error.response;
        throw error;
      }
    }
    headers.set("authorization", `Bearer ${tokens.access_token}`);
    return this.#fetch(url, { ...init, headers });
  }

  async #load(): Promise<StoredAuthorization | undefined> {
    if (!this.#loaded) {
      this.#state = (await this.#store.load(this.#key)) ?? undefined;
      this.#loaded = true;
    }
    return this.#state;
  }

  async #save(state: StoredAuthorization | undefined): Promise<void> {
    this.#state = state;
    if (state === undefined) await this.#store.clear(this.#key);
    else await this.#store.save(this.#key, state);
  }

  /** One authorization at a time: a request that meets a `401` while another runs waits for it, then retries. */
  async #authorizeOnce(challenge: Challenge | undefined, stepUp: boolean, sentTokens: StoredTokens | undefined): Promise<void> {
    while (this.#running) {
      await this.#running.catch(() => {});
      if (this.#state?.tokens?.access_token !== sentTokens?.access_token) return;
    }
    const run = this.#authorize(challenge, stepUp);
    this.#running = run;
    try {
      await run;
    } finally {
      if (this.#running === run) this.#running = undefined;
    }
  }

  /** Discovers (again, since the server may have moved), then runs the grant and stores the tokens. */
  async #authorize(challenge: Challenge | undefined, stepUp: boolean): Promise<void> {
    const prm = await discoverResourceMetadata(this.#endpoint, challenge?.params.resource_metadata, this.#requests);
    const issuer = (prm.authorization_servers as string[])[0] as string;
    let state = await this.#load();
    if (state && state.issuer !== issuer) {
      // Credentials are bound to the authorization server that issued them (spec: Authorization Server Binding).
      state = undefined;
      await this.#save(undefined);
    }
    const as = this.#discovered?.as.issuer === issuer ? this.#discovered.as : await discoverAuthorizationServer(issuer, this.#requests);
    this.#discovered = { prm, as };
    state ??= { issuer: as.issuer };
    state.issuer = issuer;

    const challenged = challenge?.params.scope;
    const base = challenged !== undefined && challenged !== "" ? challenged : prm.scopes_supported;
    let scopes = stepUp ? unionScopes(state.scopes, challenged) : unionScopes(base);
    const grant = this.#provider.grant;
    if (!grant && as.scopes_supported?.includes("offline_access") && this.#wantsRefresh() && scopes.length > 0) {
      scopes = unionScopes(scopes, ["offline_access"]);
    }
    if (grant && scopes.length === 0 && grant.scope) scopes = unionScopes(grant.scope);
    const scope = scopes.length > 0 ? scopes.join(" ") : undefined;
    state.scopes = scopes;
    await this.#setUpDpop(as);

    let response: OAuth.TokenEndpointResponse;
    if (grant) response = await this.#grants.machineGrant(as, prm, scope);
    else response = await this.#grants.authorizationCode(as, prm, scope, state);
    state.tokens = toStored(response, state.tokens);
    await this.#save(state);
  }

  #wantsRefresh(): boolean {
    const grants = this.#provider.clientMetadata?.grant_types;
    return grants === undefined || grants.includes("refresh_token");
  }

  async #setUpDpop(as: OAuth.AuthorizationServer): Promise<void> {
    const oauth = await loadOAuth();
    const wanted = this.#provider.dpop;
    if (!wanted || !Array.isArray(as.dpop_signing_alg_values_supported) || as.dpop_signing_alg_values_supported.length === 0) {
      this.#dpop = undefined;
      return;
    }
    if (!this.#dpopKeys) {
      if (wanted === true) {
        const alg = as.dpop_signing_alg_values_supported.includes("ES256") ? "ES256" : (as.dpop_signing_alg_values_supported[0] as string);
        this.#dpopKeys = await oauth.generateKeyPair(alg);
      } else this.#dpopKeys = wanted;
    }
    this.#dpop = oauth.DPoP({}, this.#dpopKeys);
  }

  async #refreshIfExpiring(): Promise<void> {
    const tokens = (await this.#load())?.tokens;
    if (!tokens?.refresh_token || tokens.expires_at === undefined) return;
    const lifetime = tokens.issued_at === undefined ? Number.POSITIVE_INFINITY : tokens.expires_at - tokens.issued_at;
    const margin = Math.min(this.#refreshMargin, lifetime / 4);
    if (tokens.expires_at - Date.now() / 1000 > margin) return;
    await this.#refresh();
  }

  /** Uses the refresh token; on failure the tokens are dropped and false returned (a new authorization follows). */
  async #refresh(): Promise<boolean> {
    if (this.#refreshing) return this.#refreshing;
    const run = this.#doRefresh();
    this.#refreshing = run;
    try {
      return await run;
    } finally {
      this.#refreshing = undefined;
    }
  }

  async #doRefresh(): Promise<boolean> {
    const state = await this.#load();
    const refreshToken = state?.tokens?.refresh_token;
    if (!state || !refreshToken) return false;
    try {
      let discovered = this.#discovered;
      if (!discovered || discovered.as.issuer !== state.issuer) {
        const prm = await discoverResourceMetadata(this.#endpoint, undefined, this.#requests);
        if (prm.authorization_servers?.[0] !== state.issuer) throw new Error("the authorization server changed");
        discovered = { prm, as: await discoverAuthorizationServer(state.issuer, this.#requests) };
        this.#discovered = discovered;
        await this.#setUpDpop(discovered.as);
      }
      const { as, prm } = discovered;
      const info = this.#provider.grant?.client ?? this.#grants.preregistered(as) ?? state.client;
      if (!info) throw new Error("no client identity for the refresh");
      const response = await this.#grants.refresh(as, prm, info, refreshToken);
      state.tokens = toStored(response, state.tokens);
      await this.#save(state);
      return true;
    } catch {
      // An expired or revoked refresh token: a new authorization is needed.
      if (state.tokens) delete state.tokens;
      await this.#save(state);
      return false;
    }
  }
}
