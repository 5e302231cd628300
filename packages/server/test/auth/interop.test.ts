// Interoperability: the official TypeScript SDK client
// (@modelcontextprotocol/client 2.4.0) with its OAuth support
// (ClientCredentialsProvider, and an authorization-code OAuthClientProvider
// with PKCE whose browser step the test acts out) authorizes against an @x/server resource
// server through a real oidc-provider on 127.0.0.1: it reads our 401
// challenge, our protected resource metadata, the provider's metadata, gets
// a JWT access token for our resource indicator and calls our tools.
import {
  Client,
  ClientCredentialsProvider,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jwtVerifier } from "../../src/auth/index.js";
import { McpServer, type RequestContext } from "../../src/index.js";
import { CALLBACK, oidcProvider, serveMcp, signIn } from "./fixture.js";

let provider: Awaited<ReturnType<typeof oidcProvider>>;
let served: Awaited<ReturnType<typeof serveMcp>>;
const seen: { method: string; url: string; status: number; authorized: boolean }[] = [];

beforeAll(async () => {
  provider = await oidcProvider();
  const mcp = new McpServer({ name: "interop-auth", version: "1" });
  mcp.registerTool(
    "whoami",
    { description: "who calls" },
    (_a, ctx: RequestContext) => `${ctx.auth?.subject}/${ctx.auth?.clientId}: ${ctx.auth?.scopes.join(" ")}`,
  );
  served = await serveMcp(mcp, (resource) => ({
    auth: {
      verifyAccessToken: jwtVerifier({ jwksUrl: `${provider.issuer}/jwks`, issuer: provider.issuer, audience: resource }),
      resourceMetadata: { resource, authorizationServers: [provider.issuer], scopesSupported: ["mcp"] },
    },
  }));
  provider.resources.set(served.resource, "jwt");
});

afterAll(async () => {
  await served?.stop();
  await provider?.stop();
});

/** A fetch that records what the official client sends (and whether it carried a token). */
const recording: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  seen.push({ method: request.method, url: request.url, status: response.status, authorized: request.headers.has("authorization") });
  return response;
};

describe("official client with ClientCredentialsProvider", () => {
  it("discovers, gets a token for our resource and calls a tool", async () => {
    const authProvider = new ClientCredentialsProvider({
      clientId: "machine",
      clientSecret: "machine-secret",
      scope: "mcp",
      expectedIssuer: provider.issuer,
    });
    const client = new Client({ name: "official", version: "2.4.0" });
    const transport = new StreamableHTTPClientTransport(new URL(served.resource), { authProvider, fetch: recording });
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: "whoami", arguments: {} });
      expect((result.content as { text: string }[])[0]!.text).toBe("machine/machine: mcp");
    } finally {
      await client.close();
    }
    // Our 401 came first, then our metadata was read, a token fetched, and the MCP requests carried it.
    const first = seen.find((s) => s.url === served.resource)!;
    expect(first.status).toBe(401);
    expect(seen.some((s) => s.url.startsWith(`${served.origin}/.well-known/oauth-protected-resource`) && s.status === 200)).toBe(true);
    expect(seen.some((s) => s.url.startsWith(provider.issuer) && s.method === "POST" && s.status === 200)).toBe(true);
    const authorized = seen.filter((s) => s.url === served.resource && s.authorized);
    expect(authorized.length).toBeGreaterThan(0);
    expect(authorized.every((s) => s.status === 200 || s.status === 202)).toBe(true);
  });
});

/**
 * An application's OAuthClientProvider for the official client, as a CLI
 * would write it: the pre-registered public client `cli`, everything kept in
 * memory, and "opening the browser" recorded for the test to act out.
 */
function cliProvider() {
  const kept: { tokens?: unknown; verifier?: string; opened?: URL } = {};
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return CALLBACK;
    },
    get clientMetadata() {
      return {
        client_name: "cli",
        redirect_uris: [CALLBACK],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      };
    },
    clientInformation: () => ({ client_id: "cli" }),
    tokens: () => kept.tokens as never,
    saveTokens: (tokens) => {
      kept.tokens = tokens;
    },
    redirectToAuthorization: (url) => {
      kept.opened = url;
    },
    saveCodeVerifier: (verifier) => {
      kept.verifier = verifier;
    },
    codeVerifier: () => kept.verifier!,
  };
  return { provider, kept };
}

describe("official client with an authorization-code OAuthClientProvider", () => {
  it("is challenged, sends the user to the provider, finishes with the code and calls a tool as the user", async () => {
    const { provider: authProvider, kept } = cliProvider();
    const first = new StreamableHTTPClientTransport(new URL(served.resource), { authProvider });
    await expect(new Client({ name: "official", version: "2.4.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(kept.opened).toBeDefined();
    // The authorization request names our resource and uses PKCE S256.
    expect(kept.opened!.searchParams.get("resource")).toBe(served.resource);
    expect(kept.opened!.searchParams.get("code_challenge_method")).toBe("S256");
    const callback = await signIn(kept.opened!, "alice");
    await first.finishAuth(callback);
    const client = new Client({ name: "official", version: "2.4.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.resource), { authProvider }));
      const result = await client.callTool({ name: "whoami", arguments: {} });
      expect((result.content as { text: string }[])[0]!.text).toBe("alice/cli: mcp");
    } finally {
      await client.close();
    }
  });
});
