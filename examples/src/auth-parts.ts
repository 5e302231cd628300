/**
 * The three parts of the authorization example (`pnpm demo:auth`) and of its
 * test, all on 127.0.0.1:
 *
 * - an authorization server: `oidc-provider` issuing JWT access tokens
 *   (RFC 9068) whose audience is the MCP server's URL (resource indicators,
 *   RFC 8707), refresh tokens (`offline_access`), dynamic client
 *   registration, revocation; its login is done by {@link followAsBrowser};
 * - a resource server: an `@x/server` with the `auth` option, verifying the
 *   tokens with `jwtVerifier` against the provider's JWKS;
 * - the "browser" of an `@x/client` whose `authorize` hook follows the
 *   authorization server's redirects in code, signs in the demo user and
 *   returns the redirect back to the client.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createNodeHandler, McpServer } from "@x/server";
import { jwtVerifier } from "@x/server/auth";
import Provider from "oidc-provider";

/** The demo user the authorization server knows (any password is accepted). */
export const DEMO_USER = "alice";
/** The scope every tool needs, and the extra one the `deploy` tool needs. */
export const BASE_SCOPE = "mcp";
export const EXTRA_SCOPE = "deploy";

/** The authorization server's signing key (EC P-256), as a private JWK. */
async function signingKey(): Promise<JsonWebKey & { kid: string }> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  // key_ops would be published in the JWKS as it is ("sign"), and a verifier rightly refuses to verify with such a key.
  const { key_ops: _ops, ext: _ext, ...jwk } = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return { ...jwk, kid: "demo-key-1", alg: "ES256", use: "sig" };
}

/** A listening loopback server; `close` ends open connections too. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return { origin, close };
}

export interface AuthorizationServer {
  issuer: string;
  /** Lifetime of the access tokens issued from now on, in seconds. */
  setAccessTokenTtl(seconds: number): void;
  /** The grant type of every token request, in order (`"refresh_token (refused)"` for a refused one). */
  grants: string[];
  /** The resource servers it issues tokens for (their URLs, the tokens' audience). */
  resources: Set<string>;
  close(): Promise<void>;
}

/**
 * oidc-provider on a free loopback port. Tokens are issued only for a
 * `resource` listed in `resources` (else `invalid_target`), as JWTs signed
 * with the provider's own key, with at most the scopes
 * {@link BASE_SCOPE} and {@link EXTRA_SCOPE}. Login and consent: the
 * `/interaction/<uid>` page signs in whoever posts a `login` and grants
 * the scopes the client asked for.
 */
export async function startAuthorizationServer(options: { accessTokenTtl?: number } = {}): Promise<AuthorizationServer> {
  let ttl = options.accessTokenTtl ?? 3600;
  const grants: string[] = [];
  const resources = new Set<string>();
  let provider: Provider | undefined;
  const server = await serve((req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      void interaction(provider as Provider, req, res);
      return;
    }
    (provider as Provider).callback()(req, res);
  });
  const issuer = server.origin;
  provider = new Provider(issuer, {
    // OpenID scopes only: BASE_SCOPE and EXTRA_SCOPE are the resource's, named by getResourceServerInfo.
    scopes: ["openid", "offline_access"],
    jwks: { keys: [await signingKey()] },
    findAccount: (_ctx: unknown, accountId: string) => ({ accountId, claims: () => ({ sub: accountId }) }),
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 86400, AccessToken: () => ttl },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      // A client may revoke its own tokens.
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) => token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (!resources.has(resource)) throw new Provider.errors.InvalidTarget();
          return {
            scope: `${BASE_SCOPE} ${EXTRA_SCOPE}`,
            audience: resource,
            accessTokenFormat: "jwt",
            accessTokenTTL: ttl,
            jwt: { sign: { alg: "ES256" } },
          };
        },
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // Refresh tokens for clients that registered the grant (and asked for offline_access).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    pkce: { required: () => true },
    // The only key is an EC key: ID tokens are signed with it too.
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    cookies: { keys: ["demo-cookie-key"] },
  });
  const grantType = (ctx: unknown) => String((ctx as { oidc?: { params?: { grant_type?: unknown } } }).oidc?.params?.grant_type ?? "");
  provider.on("grant.success", (ctx) => grants.push(grantType(ctx)));
  provider.on("grant.error", (ctx) => grants.push(`${grantType(ctx)} (refused)`));
  return {
    issuer,
    setAccessTokenTtl: (seconds) => {
      ttl = seconds;
    },
    grants,
    resources,
    close: server.close,
  };
}

/**
 * The login and consent page. GET shows a form; a POST with `login`
 * signs that user in and consents to the scopes the client asked for
 * (a real server would check a password and ask the user).
 */
async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    if (req.method !== "POST") {
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<form method="post"><input name="login"><input name="password" type="password"><button>Sign in</button></form>`);
      return;
    }
    let body = "";
    for await (const chunk of req) body += String(chunk);
    const login = new URLSearchParams(body).get("login");
    if (!login) {
      res.writeHead(400).end("login required");
      return;
    }
    const grant = new provider.Grant({ accountId: login, clientId: String(details.params.client_id) });
    const asked = String(details.params.scope ?? "")
      .split(" ")
      .filter(Boolean);
    const openid = asked.filter((s) => s === "openid" || s === "offline_access");
    if (openid.length > 0) grant.addOIDCScope(openid.join(" "));
    const resourceScopes = asked.filter((s) => s === BASE_SCOPE || s === EXTRA_SCOPE);
    if (typeof details.params.resource === "string" && resourceScopes.length > 0) {
      grant.addResourceScope(details.params.resource, resourceScopes.join(" "));
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: login }, consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: false },
    );
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}

/**
 * What a browser and its user do between the authorization URL and the
 * redirect back: follow the authorization server's redirects (keeping its
 * cookies), fill in the login form as `login`, and stop at the first
 * redirect to `redirectUrl`, which is returned (never requested). At most
 * 10 steps.
 * @throws Error when the redirect back is not reached.
 */
export async function followAsBrowser(authorizationUrl: URL, redirectUrl: string, login = DEMO_USER): Promise<string> {
  const cookies = new Map<string, string>();
  let next = authorizationUrl.href;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 10; step++) {
    if (next.startsWith(redirectUrl)) return next;
    const response = await fetch(next, {
      redirect: "manual",
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(form ? { method: "POST", body: form } : {}),
    });
    form = undefined;
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    const location = response.headers.get("location");
    const page = await response.text();
    if (location) {
      next = new URL(location, next).href;
    } else if (response.status === 200 && page.includes("<form")) {
      form = new URLSearchParams({ login, password: "demo" }); // the user types their name and password
    } else {
      throw new Error(`the authorization server answered ${response.status} at ${next}`);
    }
  }
  throw new Error("the authorization did not reach the redirect back to the client");
}

export interface ProtectedMcpServer {
  /** The endpoint URL: the resource's canonical URL, and the tokens' audience. */
  url: string;
  /** How many times each tool's handler ran. */
  runs: Map<string, number>;
  close(): Promise<void>;
}

/**
 * An `@x/server` on a free loopback port at `/mcp` that requires a JWT
 * access token of `issuer` for its own URL: `whoami` takes any such token,
 * `deploy` needs {@link EXTRA_SCOPE} too.
 */
export async function startMcpServer(issuer: string): Promise<ProtectedMcpServer> {
  const runs = new Map<string, number>();
  const ran = (name: string) => runs.set(name, (runs.get(name) ?? 0) + 1);
  const mcp = new McpServer({ name: "auth-demo", version: "1.0.0" });
  mcp.registerTool("whoami", { description: "Who the token speaks for" }, (_args, ctx) => {
    ran("whoami");
    return `${ctx.auth?.subject} via ${ctx.auth?.clientId}, scopes: ${ctx.auth?.scopes.join(" ")}`;
  });
  mcp.registerTool("deploy", { description: "Needs the deploy scope", requiredScopes: [EXTRA_SCOPE] }, (_args, ctx) => {
    ran("deploy");
    return `deployed by ${ctx.auth?.subject}`;
  });
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = await serve((req, res) => handler?.(req, res));
  const url = `${server.origin}/mcp`;
  handler = createNodeHandler(mcp, {
    path: "/mcp",
    auth: {
      verifyAccessToken: jwtVerifier({ jwksUrl: `${issuer}/jwks`, issuer, audience: url, typ: "at+jwt" }),
      resourceMetadata: { resource: url, authorizationServers: [issuer], scopesSupported: [BASE_SCOPE] },
    },
  });
  return {
    url,
    runs,
    close: async () => {
      mcp.close();
      await server.close();
    },
  };
}

/** Revokes a token at the authorization server's revocation endpoint (RFC 7009), as the public client `clientId`. */
export async function revoke(issuer: string, token: string, clientId: string): Promise<void> {
  const response = await fetch(`${issuer}/token/revocation`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, client_id: clientId, token_type_hint: "refresh_token" }),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the revocation endpoint answered ${response.status}`);
}
