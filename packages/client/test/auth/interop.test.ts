// Interop: @x/client authorizes against a server built with the official
// SDK (@modelcontextprotocol/server 2.4.0) and its bearer auth
// (requireBearerAuth, oauthMetadataResponse), with tokens issued by a real
// oidc-provider; all on 127.0.0.1.
import {
  type AuthInfo,
  createMcpHandler,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  requireBearerAuth,
} from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, InMemoryTokenStore, type OAuthClientProvider, StreamableHttpTransport } from "../../src/index.js";
import { type AuthorizationServer, followAuthorization, RESOURCE_SERVER_CLIENT, serve, startAuthorizationServer } from "./servers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

let as: AuthorizationServer;
let mcp: { origin: string; close: () => Promise<void> };
let url: string;
const authInfos: AuthInfo[] = [];

function officialServer(): McpServer {
  const server = new McpServer({ name: "official-protected", version: "2.4.0" });
  server.registerTool("hello", { description: "Says hello" }, async () => ({ content: [{ type: "text", text: "hello" }] }));
  return server;
}

beforeAll(async () => {
  as = await startAuthorizationServer(() => url);
  const oauthMetadata = await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json();
  const handler = createMcpHandler(officialServer);
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const response = await fetch(`${as.issuer}/token/introspection`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${RESOURCE_SERVER_CLIENT.id}:${RESOURCE_SERVER_CLIENT.secret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ token }),
      });
      const info = (await response.json()) as { active: boolean; client_id: string; scope?: string; exp: number; aud: string };
      if (!info.active) throw new OAuthError(OAuthErrorCode.InvalidToken, "inactive token");
      return { token, clientId: info.client_id, scopes: (info.scope ?? "").split(" "), expiresAt: info.exp, resource: new URL(info.aud) };
    },
  };
  let gate: ((request: Request) => Promise<AuthInfo | Response>) | undefined;
  mcp = await serve(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(`${mcp.origin}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    gate ??= requireBearerAuth({
      verifier,
      requiredScopes: ["mcp:read"],
      resourceMetadataUrl: `${mcp.origin}/.well-known/oauth-protected-resource/mcp`,
      expectedResource: new URL(url),
    });
    let response =
      oauthMetadataResponse(request, {
        oauthMetadata,
        resourceServerUrl: new URL(url),
        scopesSupported: ["mcp:read"],
        dangerouslyAllowInsecureIssuerUrl: true,
      }) ?? undefined;
    if (!response) {
      const auth = await gate(request);
      if (auth instanceof Response) response = auth;
      else {
        authInfos.push(auth);
        response = await handler.fetch(request, { authInfo: auth });
      }
    }
    response.headers.forEach((value, name) => {
      res.setHeader(name, value);
    });
    res.writeHead(response.status);
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  url = `${mcp.origin}/mcp`;
});

afterAll(async () => {
  await mcp.close();
  await as.close();
});

describe("@x/client against the official SDK's bearer auth, tokens from oidc-provider", () => {
  it("the 401 challenge leads through the SDK's metadata to a token the SDK accepts, and the tool runs", async () => {
    const urls: URL[] = [];
    const store = new InMemoryTokenStore();
    const auth: OAuthClientProvider = {
      redirectUrl: REDIRECT,
      clientMetadata: { client_name: "x-interop-auth" },
      tokenStore: store,
      authorize: async (authorizationUrl) => {
        urls.push(authorizationUrl);
        return followAuthorization(authorizationUrl, REDIRECT);
      },
    };
    const client = new Client({ name: "x-interop", version: "1" }, { onWarning: () => {} });
    await client.connect(new StreamableHttpTransport(url, { auth }));
    const result = await client.callTool("hello", {});
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
    expect(urls).toHaveLength(1);
    expect(urls[0]?.searchParams.get("resource")).toBe(url);
    expect(urls[0]?.searchParams.get("scope")?.split(" ")).toContain("mcp:read");
    const token = store.load(url)?.tokens?.access_token;
    expect(authInfos.at(-1)?.token).toBe(token);
    expect(authInfos.at(-1)?.scopes).toContain("mcp:read");
    await client.close();
  });
});
