// Real servers for the auth tests, all on 127.0.0.1: an oidc-provider
// authorization server (login and consent done by the test, no browser),
// and a resource server in front of an @x/server that checks tokens by
// introspection at that authorization server and answers 401/403 challenges.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createFetchHandler, McpServer } from "@x/server";
import Provider from "oidc-provider";

/** A listening node server with a close that drops open connections. */
export async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(handler);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface AuthorizationServer {
  issuer: string;
  /** Seconds an access token lives; change between tests. */
  setAccessTokenTtl(seconds: number): void;
  /** Every token endpoint request's grant_type, in order. */
  grants: string[];
  /** Every authorization request's query. */
  authorizations: URLSearchParams[];
  close(): Promise<void>;
}

export const RESOURCE_SERVER_CLIENT = { id: "resource-server", secret: "resource-server-secret" };
export const MACHINE_CLIENT = { id: "machine", secret: "machine-secret" };
export const MACHINE_JWT_CLIENT = "machine-jwt";

/**
 * oidc-provider with resource indicators (opaque access tokens for `resource`),
 * PKCE, RFC 9207 `iss`, refresh tokens, client credentials, introspection,
 * revocation and dynamic registration. Interactions (login, consent) are
 * completed by a route of this server, which logs in `user-1` and grants what
 * was asked.
 */
export async function startAuthorizationServer(
  resource: () => string,
  options: { machineJwk?: Record<string, unknown> } = {},
): Promise<AuthorizationServer> {
  let ttl = 3600;
  const grants: string[] = [];
  const authorizations: URLSearchParams[] = [];
  let provider: Provider | undefined;
  const server = await serve((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/auth" && req.method === "GET") authorizations.push(url.searchParams);
    if (url.pathname.startsWith("/interaction/")) {
      void finishInteraction(provider as Provider, req, res);
      return;
    }
    (provider as Provider).callback()(req, res);
  });
  const issuer = server.origin;
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: RESOURCE_SERVER_CLIENT.id,
        client_secret: RESOURCE_SERVER_CLIENT.secret,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: MACHINE_CLIENT.id,
        client_secret: MACHINE_CLIENT.secret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
      },
      ...(options.machineJwk
        ? [
            {
              client_id: MACHINE_JWT_CLIENT,
              token_endpoint_auth_method: "private_key_jwt",
              token_endpoint_auth_signing_alg: "ES256",
              jwks: { keys: [options.machineJwk] },
              grant_types: ["client_credentials"],
              redirect_uris: [],
              response_types: [],
            },
          ]
        : []),
    ],
    scopes: ["openid", "offline_access"],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource(),
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: "mcp:read mcp:write",
          audience: resource(),
          accessTokenFormat: "opaque",
          accessTokenTTL: ttl,
        }),
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    ttl: { AccessToken: () => ttl, ClientCredentials: () => ttl },
    pkce: { required: () => true },
    cookies: { keys: ["a-test-cookie-key"] },
    jwks: undefined,
  });
  const grantType = (ctx: unknown) => String((ctx as { oidc?: { params?: { grant_type?: unknown } } }).oidc?.params?.grant_type ?? "");
  provider.on("grant.success", (ctx) => grants.push(grantType(ctx)));
  provider.on("grant.error", (ctx) => grants.push(`${grantType(ctx)} (refused)`));
  provider.on("server_error", (_ctx, error) => {
    process.stderr.write(`oidc-provider: ${String(error)}\n`);
  });
  return {
    issuer,
    setAccessTokenTtl: (seconds) => {
      ttl = seconds;
    },
    grants,
    authorizations,
    close: server.close,
  };
}

async function finishInteraction(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    const result: Record<string, unknown> = {};
    if (details.prompt.name === "login") result.login = { accountId: "user-1" };
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ??
        new provider.Grant({ accountId: "user-1", clientId: String(details.params.client_id) }))
      : new provider.Grant({ accountId: "user-1", clientId: String(details.params.client_id) });
    const scopes = String(details.params.scope ?? "")
      .split(" ")
      .filter(Boolean);
    const oidc = scopes.filter((s) => s === "openid" || s === "offline_access");
    if (oidc.length > 0) grant.addOIDCScope(oidc.join(" "));
    const resourceScopes = scopes.filter((s) => s.startsWith("mcp:"));
    const resource = details.params.resource;
    if (typeof resource === "string" && resourceScopes.length > 0) grant.addResourceScope(resource, resourceScopes.join(" "));
    result.consent = { grantId: await grant.save() };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
}

/**
 * The test's "browser": follows the authorization server's redirects
 * (keeping its cookies) until one points at `redirectUrl`, and returns that
 * redirect. At most 10 hops.
 */
export async function followAuthorization(authorizationUrl: URL, redirectUrl: string): Promise<string> {
  const cookies = new Map<string, string>();
  let next = authorizationUrl.href;
  for (let hop = 0; hop < 10; hop++) {
    if (next.startsWith(redirectUrl)) return next;
    const response = await fetch(next, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = (pair as string).split("=");
      cookies.set((name as string).trim(), value.join("="));
    }
    const location = response.headers.get("location");
    await response.body?.cancel().catch(() => {});
    if (!location) throw new Error(`the authorization server answered ${response.status} without a redirect at ${next}`);
    next = new URL(location, next).href;
  }
  throw new Error("too many redirects");
}

export interface ResourceServer {
  url: string;
  /** Every Authorization header the MCP endpoint received (undefined for none). */
  seen: Array<string | undefined>;
  /** Every request to the MCP endpoint: its HTTP method and Authorization header. */
  requests: Array<{ method: string; authorization: string | undefined }>;
  /** When true, every request gets 401 whatever its token. */
  refuseAll: boolean;
  /** Tokens answered with 401 invalid_token as if expired. */
  rejected: Set<string>;
  close(): Promise<void>;
}

/**
 * A resource server: protected resource metadata at the path-inserted
 * well-known URL, and `/mcp` answered by a real @x/server after the token is
 * introspected at `issuer` (read on every request, so a test can move the
 * resource to another authorization server). `tools/call` needs `mcp:write`,
 * the rest `mcp:read`.
 */
export async function startResourceServer(issuer: () => string): Promise<ResourceServer> {
  const mcp = new McpServer({ name: "protected", version: "1" });
  mcp.registerTool("whoami", {}, () => ({ resultType: "complete", content: [{ type: "text", text: "user-1" }] }));
  const handle = createFetchHandler(mcp);
  const state: ResourceServer = { url: "", seen: [], requests: [], refuseAll: false, rejected: new Set(), close: async () => {} };
  const server = await serve((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", state.url);
      const metadataUrl = `${url.origin}/.well-known/oauth-protected-resource/mcp`;
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            resource: state.url,
            authorization_servers: [issuer()],
            scopes_supported: ["mcp:read", "mcp:write"],
          }),
        );
        return;
      }
      if (url.pathname !== "/mcp") {
        res.writeHead(404).end();
        return;
      }
      const authorization = req.headers.authorization;
      state.seen.push(authorization);
      state.requests.push({ method: req.method ?? "", authorization });
      const method = (() => {
        try {
          return (JSON.parse(body) as { method?: string }).method;
        } catch {
          return undefined;
        }
      })();
      const needed = method === "tools/call" ? "mcp:write" : "mcp:read";
      const challenge = (extra: string) => `Bearer resource_metadata="${metadataUrl}", scope="${needed}"${extra}`;
      const token = authorization?.startsWith("Bearer ") ? authorization.slice(7) : undefined;
      const info = token && !state.refuseAll && !state.rejected.has(token) ? await introspect(issuer(), token) : undefined;
      if (!info?.active || info.aud !== state.url) {
        res.writeHead(401, { "www-authenticate": challenge(token ? ', error="invalid_token"' : "") }).end();
        return;
      }
      if (
        !String(info.scope ?? "")
          .split(" ")
          .includes(needed)
      ) {
        res.writeHead(403, { "www-authenticate": challenge(', error="insufficient_scope"') }).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const response = await handle(new Request(url, { method: req.method ?? "GET", headers, ...(body ? { body } : {}) }));
      response.headers.forEach((value, name) => {
        res.setHeader(name, value);
      });
      res.writeHead(response.status);
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error) => {
      res.writeHead(500).end(String(error));
    });
  });
  state.url = `${server.origin}/mcp`;
  state.close = server.close;
  return state;
}

async function introspect(issuer: string, token: string): Promise<{ active: boolean; scope?: string; aud?: string } | undefined> {
  const response = await fetch(`${issuer}/token/introspection`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${RESOURCE_SERVER_CLIENT.id}:${RESOURCE_SERVER_CLIENT.secret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ token }),
  });
  if (!response.ok) return undefined;
  return (await response.json()) as { active: boolean; scope?: string; aud?: string };
}

/** Revokes a token at the authorization server (RFC 7009), as the given public client. */
export async function revoke(issuer: string, token: string, clientId: string): Promise<void> {
  const response = await fetch(`${issuer}/token/revocation`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, client_id: clientId }),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`revocation answered ${response.status}`);
}
