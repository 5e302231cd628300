// Shared pieces of the authorization tests: a JWKS served by a node:http
// server on 127.0.0.1 (keys from jose's generateKeyPair, the served set
// changeable to rotate keys), tokens signed with jose's SignJWT, and an
// @x/server behind createNodeHandler with the `auth` option, whose endpoint
// URL (the resource's canonical URL) is known before the handler is made.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";
import { createNodeHandler, type McpServer, type NodeHandlerOptions } from "../../src/index.js";

/** A signing key of the test authorization server. */
export interface TestKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

export async function makeKey(kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return { kid, privateKey: privateKey as CryptoKey, jwk };
}

/** A loopback HTTP server; `stop` closes it and its connections. */
export async function loopback(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const http: Server = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const stop = async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { origin, stop };
}

/** A JWKS endpoint serving `keys` (replace the array to rotate); counts its fetches. */
export async function jwksServer(initial: TestKey[]) {
  const state = { keys: initial, fetches: 0 };
  const server = await loopback((_req, res) => {
    state.fetches++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: state.keys.map((k) => k.jwk) }));
  });
  return { ...server, url: `${server.origin}/jwks`, state };
}

export const ISSUER = "https://as.test.example";

/** A token signed by `key`, with the usual claims unless `claims` overrides them. */
export function sign(key: TestKey, audience: string, claims: JWTPayload = {}, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: "alice", client_id: "app-1", scope: "mcp", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "at+jwt", ...header })
    .setIssuer((claims.iss as string | undefined) ?? ISSUER)
    .setAudience((claims.aud as string | undefined) ?? audience)
    .setIssuedAt(now)
    .setExpirationTime((claims.exp as number | undefined) ?? now + 300)
    .sign(key.privateKey);
}

/** An unsecured JWT (`alg: none`) with valid-looking claims. */
export function unsecured(audience: string): string {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  return `${b64({ alg: "none", typ: "at+jwt" })}.${b64({ iss: ISSUER, aud: audience, sub: "alice", scope: "mcp", exp: now + 300 })}.`;
}

/**
 * Serves `mcp` on a free loopback port at `/mcp` with the options `make`
 * builds from the endpoint URL (known before the handler exists).
 */
export async function serveMcp(mcp: McpServer, make: (resource: string) => NodeHandlerOptions) {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = await loopback((req, res) => handler!(req, res));
  const resource = `${server.origin}/mcp`;
  try {
    handler = createNodeHandler(mcp, { keepAliveMs: 0, path: "/mcp", ...make(resource) });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    resource,
    origin: server.origin,
    stop: async () => {
      mcp.close();
      await server.stop();
    },
  };
}

/** The redirect URI of the public client `cli`. */
export const CALLBACK = "http://127.0.0.1:1/callback";

/**
 * A real authorization server, `oidc-provider`, on a free loopback port:
 * one EC signing key (its JWKS at `/jwks`), client credentials for the
 * client `machine` (secret `machine-secret`, scopes `mcp deploy`), the
 * client `resource-server` (secret `rs-secret`) for introspection, the
 * public client `cli` (authorization code with PKCE, redirect {@link CALLBACK};
 * the built-in login page takes any login), and
 * resource indicators: a resource listed in `resources` gets tokens whose
 * audience it is, as JWTs (RFC 9068) or opaque tokens.
 */
export async function oidcProvider() {
  const { default: Provider } = await import("oidc-provider");
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), kid: "as-key-1", alg: "ES256", use: "sig" };
  const resources = new Map<string, "jwt" | "opaque">();
  let provider: InstanceType<typeof Provider> | undefined;
  const server = await loopback((req, res) => provider!.callback()(req, res));
  const issuer = server.origin;
  provider = new Provider(issuer, {
    jwks: { keys: [signing] },
    // The only key is an EC key: everything the provider signs uses it.
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    scopes: ["openid", "mcp", "deploy"],
    clients: [
      {
        client_id: "machine",
        client_secret: "machine-secret",
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        scope: "mcp deploy",
      },
      {
        // A public client (PKCE) of the authorization-code flow; its redirect is read, never visited.
        client_id: "cli",
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        redirect_uris: [CALLBACK],
      },
      {
        // The resource server's own credentials, for introspection.
        client_id: "resource-server",
        client_secret: "rs-secret",
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    features: {
      // Its built-in login and consent pages, which the authorization-code test fills in.
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          const format = resources.get(indicator);
          if (format === undefined) throw new Provider.errors.InvalidTarget();
          return {
            scope: "mcp deploy",
            audience: indicator,
            accessTokenTTL: 300,
            accessTokenFormat: format,
            ...(format === "jwt" ? { jwt: { sign: { alg: "ES256" } } } : {}),
          };
        },
      },
    },
  });
  return { issuer, resources, stop: server.stop };
}

/**
 * What a browser and its user do between an authorization request and the
 * redirect back, on `oidc-provider`'s built-in pages: follow the redirects,
 * sign in as `login` (any password), consent, and stop at the redirect to
 * {@link CALLBACK} (never followed). Cookies are kept by hand. Returns the
 * redirect's query (`code`, `state`, `iss`).
 * @throws Error when the flow does not reach the redirect within a few steps.
 */
export async function signIn(authorizationUrl: URL, login: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    await response.arrayBuffer();
    return response;
  };
  let response = await go(authorizationUrl.href);
  let signedIn = false;
  // At most a login and a consent, each a redirect to a page, a form post and a redirect back.
  for (let step = 0; step < 8; step++) {
    const location = response.headers.get("location");
    if (location === null) throw new Error(`the authorization server answered ${response.status} without a redirect`);
    const next = new URL(location, authorizationUrl);
    if (next.href.startsWith(CALLBACK)) return next.searchParams;
    if (next.pathname.startsWith("/interaction/")) {
      await go(next.href);
      // The first page is the login, the next the consent.
      const form: Record<string, string> = signedIn ? { prompt: "consent" } : { prompt: "login", login, password: "any" };
      signedIn = true;
      response = await go(next.href, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      });
      continue;
    }
    response = await go(next.href);
  }
  throw new Error("the authorization flow did not reach the redirect");
}
