// End to end with a real authorization server: `oidc-provider` on 127.0.0.1
// issues JWT access tokens (RFC 9068) for the resource indicator (RFC 8707)
// of an @x/server endpoint, which verifies them with jwtVerifier against the
// provider's own JWKS, and with introspectionVerifier against its
// introspection endpoint. The test is the OAuth client: client credentials
// at the token endpoint, the token on each MCP request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { introspectionVerifier, jwtVerifier } from "../../src/auth/index.js";
import { McpServer, type RequestContext } from "../../src/index.js";
import { headersFor, request } from "../helpers.js";
import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from "./pkce.js";
import { CALLBACK, oidcProvider, serveMcp, signIn } from "./fixture.js";

type Message = Record<string, any>;

let runs = 0;
function makeServer() {
  const mcp = new McpServer({ name: "e2e", version: "1" });
  mcp.registerTool("whoami", {}, (_a, ctx: RequestContext) => {
    runs++;
    return `${ctx.auth?.subject} ${ctx.auth?.clientId} ${ctx.auth?.scopes.join(" ")}`;
  });
  mcp.registerTool("deploy", { requiredScopes: ["deploy"] }, () => {
    runs++;
    return "deployed";
  });
  return mcp;
}

let provider: Awaited<ReturnType<typeof oidcProvider>>;
let issuer: string;
let jwtServer: Awaited<ReturnType<typeof serveMcp>>;
let opaqueServer: Awaited<ReturnType<typeof serveMcp>>;

beforeAll(async () => {
  provider = await oidcProvider();
  issuer = provider.issuer;
  jwtServer = await serveMcp(makeServer(), (resource) => ({
    auth: {
      verifyAccessToken: jwtVerifier({ jwksUrl: `${issuer}/jwks`, issuer, audience: resource, typ: "at+jwt" }),
      resourceMetadata: { resource, authorizationServers: [issuer], scopesSupported: ["mcp"] },
    },
  }));
  opaqueServer = await serveMcp(makeServer(), (resource) => ({
    auth: {
      verifyAccessToken: introspectionVerifier({
        endpoint: `${issuer}/token/introspection`,
        clientId: "resource-server",
        clientSecret: "rs-secret",
        audience: resource,
        issuer,
      }),
      resourceMetadata: { resource, authorizationServers: [issuer] },
    },
  }));
  provider.resources.set(jwtServer.resource, "jwt");
  provider.resources.set(opaqueServer.resource, "opaque");
});

afterAll(async () => {
  await jwtServer?.stop();
  await opaqueServer?.stop();
  await provider?.stop();
});

/** Client credentials at the provider's token endpoint for `resource`; the access token. */
async function tokenFor(resource: string, scope: string): Promise<string> {
  const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
  const response = await fetch(metadata.token_endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from("machine:machine-secret").toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }),
  });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.access_token as string;
}

async function call(resource: string, name: string, token?: string) {
  const body = request("tools/call", { name, arguments: {} });
  const response = await fetch(resource, {
    method: "POST",
    headers: { ...headersFor(body), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate"), json: (await response.json()) as Message };
}

describe("oidc-provider end to end", () => {
  it("discovery: the 401 names the metadata, which names the provider, whose metadata is found", async () => {
    const refused = await call(jwtServer.resource, "whoami");
    expect(refused.status).toBe(401);
    const url = /resource_metadata="([^"]+)"/.exec(refused.challenge!)![1]!;
    const prm = await (await fetch(url)).json();
    expect(prm.resource).toBe(jwtServer.resource);
    expect(prm.authorization_servers).toEqual([issuer]);
    const asMeta = await (await fetch(`${prm.authorization_servers[0]}/.well-known/openid-configuration`)).json();
    expect(asMeta.issuer).toBe(issuer);
  });

  it("a JWT access token for this resource is accepted; ctx.auth carries the client and scopes", async () => {
    const token = await tokenFor(jwtServer.resource, "mcp");
    expect(token.split(".")).toHaveLength(3);
    runs = 0;
    const answer = await call(jwtServer.resource, "whoami", token);
    expect(answer.status).toBe(200);
    expect(answer.json.result.content[0].text).toBe("machine machine mcp");
    expect(runs).toBe(1);
  });

  it("a token for the other resource (another audience) is refused with 401 invalid_token", async () => {
    provider.resources.set(`${jwtServer.origin}/other`, "jwt");
    const other = await tokenFor(`${jwtServer.origin}/other`, "mcp");
    runs = 0;
    const answer = await call(jwtServer.resource, "whoami", other);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('error="invalid_token"');
    expect(runs).toBe(0);
  });

  it("step-up: 403 insufficient_scope names the scope; a token with it passes", async () => {
    const small = await tokenFor(jwtServer.resource, "mcp");
    runs = 0;
    const refused = await call(jwtServer.resource, "deploy", small);
    expect(refused.status).toBe(403);
    const scope = /scope="([^"]+)"/.exec(refused.challenge!)![1]!;
    expect(scope).toBe("deploy");
    expect(runs).toBe(0);
    const bigger = await tokenFor(jwtServer.resource, `mcp ${scope}`);
    const ok = await call(jwtServer.resource, "deploy", bigger);
    expect(ok.status).toBe(200);
    expect(runs).toBe(1);
  });

  it("an opaque token is accepted through the provider's introspection endpoint", async () => {
    const token = await tokenFor(opaqueServer.resource, "mcp deploy");
    runs = 0;
    const answer = await call(opaqueServer.resource, "deploy", token);
    expect(answer.status).toBe(200);
    expect(runs).toBe(1);
    expect((await call(opaqueServer.resource, "whoami", "no-such-token")).status).toBe(401);
  });
});

/**
 * The authorization-code flow with PKCE, the test as client: the
 * authorization request (with `resource`), the provider's pages answered as
 * a user would (`signIn`), the redirect's `state` and `iss` checked, and the
 * code exchanged with the verifier and `resource`. Returns the access token.
 */
async function authorizationCode(resource: string, scope: string, login: string): Promise<string> {
  const metadata = await (await fetch(`${issuer}/.well-known/openid-configuration`)).json();
  const verifier = randomPKCECodeVerifier();
  const state = "st-1";
  const authorize = new URL(metadata.authorization_endpoint);
  for (const [k, v] of Object.entries({
    client_id: "cli",
    response_type: "code",
    redirect_uri: CALLBACK,
    scope,
    state,
    resource,
    code_challenge: await calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }))
    authorize.searchParams.set(k, v);
  const callback = await signIn(authorize, login);
  expect(callback.get("state")).toBe(state);
  expect(callback.get("iss")).toBe(issuer);
  const token = await fetch(metadata.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: "cli",
      code: callback.get("code")!,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      resource,
    }),
  });
  const body = await token.json();
  expect(token.status, JSON.stringify(body)).toBe(200);
  return body.access_token as string;
}

describe("oidc-provider end to end, authorization code with PKCE", () => {
  it("a user's token reaches the handler with the user as subject, in both eras", async () => {
    const token = await authorizationCode(jwtServer.resource, "mcp", "alice");
    runs = 0;
    const answer = await call(jwtServer.resource, "whoami", token);
    expect(answer.status).toBe(200);
    expect(answer.json.result.content[0].text).toBe("alice cli mcp");
    // The initialize era with the same token, on its session.
    const init = await fetch(jwtServer.resource, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    await init.arrayBuffer();
    const legacy = await fetch(jwtServer.resource, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } }),
    });
    expect(legacy.status).toBe(200);
    expect(runs).toBe(2);
    // Another user's token on that session: as for an unknown session.
    const bobs = await authorizationCode(jwtServer.resource, "mcp", "bob");
    const stolen = await fetch(jwtServer.resource, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        authorization: `Bearer ${bobs}`,
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "whoami", arguments: {} } }),
    });
    expect(stolen.status).toBe(404);
    expect(runs).toBe(2);
  });
});
