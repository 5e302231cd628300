// The authorization example's three parts, for real on 127.0.0.1:
// oidc-provider issues JWT access tokens to @x/client, which calls an
// @x/server verifying them with jwtVerifier. The test is the user's browser
// (followAsBrowser): the authorization code flow with PKCE, step-up,
// expiry and refresh, revocation, and a token for another audience.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, InMemoryTokenStore, type OAuthClientProvider, StreamableHttpTransport } from "@x/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthorizationServer,
  followAsBrowser,
  type ProtectedMcpServer,
  revoke,
  startAuthorizationServer,
  startMcpServer,
} from "../src/auth-parts.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const demoEntry = fileURLToPath(new URL("../dist/auth-demo.js", import.meta.url));

let as: AuthorizationServer;
let mcp: ProtectedMcpServer;

beforeAll(async () => {
  as = await startAuthorizationServer();
  mcp = await startMcpServer(as.issuer);
  as.resources.add(mcp.url);
});
afterAll(async () => {
  await mcp?.close();
  await as?.close();
});

/** The app's auth option: the authorization URLs it was sent to are kept; the test acts as the browser. */
function provider(store = new InMemoryTokenStore()): OAuthClientProvider & { urls: URL[]; store: InMemoryTokenStore } {
  const urls: URL[] = [];
  return {
    urls,
    store,
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: "auth-e2e" },
    tokenStore: store,
    authorize: async (url) => {
      urls.push(url);
      return followAsBrowser(url, REDIRECT);
    },
  };
}

async function connect(auth: OAuthClientProvider, protocol: "auto" | "2025-11-25" = "auto", url = mcp.url): Promise<Client> {
  const client = new Client({ name: "auth-e2e", version: "1" }, { protocol, onWarning: () => {} });
  await client.connect(new StreamableHttpTransport(url, { auth }));
  return client;
}

const text = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text;

/** A raw MCP request with `token` (refused or not before its body is read): its status and challenge. */
async function rawCall(token: string) {
  const response = await fetch(mcp.url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
  });
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "" };
}

function claims(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1] as string, "base64url").toString("utf8"));
}

describe("the authorization code flow with PKCE against oidc-provider", () => {
  it("the first 401 leads to registration, an S256 authorization with resource, a JWT for this server, and the tool call", async () => {
    const auth = provider();
    const before = as.grants.length;
    const whoamiRuns = mcp.runs.get("whoami") ?? 0;
    const client = await connect(auth);
    const result = await client.callTool("whoami", {});
    const saved = auth.store.load(mcp.url);
    const clientId = saved?.client?.client_id as string;
    expect(clientId).toMatch(/.+/);
    expect(text(result)).toBe(`alice via ${clientId}, scopes: mcp`);
    expect(mcp.runs.get("whoami")).toBe(whoamiRuns + 1);
    expect(auth.urls).toHaveLength(1);
    const url = auth.urls[0] as URL;
    expect(url.origin).toBe(as.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("resource")).toBe(mcp.url);
    expect(url.searchParams.get("scope")).toBe("mcp offline_access");
    expect(as.grants.slice(before)).toEqual(["authorization_code"]);
    const token = saved?.tokens?.access_token as string;
    expect(claims(token)).toMatchObject({ iss: as.issuer, aud: mcp.url, sub: "alice", client_id: clientId, scope: "mcp" });
    expect(saved?.tokens?.refresh_token).toMatch(/.+/);
    await client.close();
  });

  it("step-up: deploy's 403 insufficient_scope re-authorizes with the union of the scopes, then the handler runs", async () => {
    const auth = provider();
    const client = await connect(auth);
    const deployRuns = mcp.runs.get("deploy") ?? 0;
    const result = await client.callTool("deploy", {});
    expect(text(result)).toBe("deployed by alice");
    expect(mcp.runs.get("deploy")).toBe(deployRuns + 1);
    expect(auth.urls).toHaveLength(2);
    expect(auth.urls[1]?.searchParams.get("scope")?.split(" ").sort()).toEqual(["deploy", "mcp", "offline_access"]);
    expect(claims(auth.store.load(mcp.url)?.tokens?.access_token as string).scope).toBe("mcp deploy");
    await client.close();
  });

  it("a short-lived token is not refreshed before every request: the margin is a quarter of its lifetime", async () => {
    as.setAccessTokenTtl(8);
    try {
      const auth = provider();
      const client = await connect(auth);
      const before = as.grants.length;
      expect(text(await client.callTool("whoami", {}))).toMatch(/^alice via /);
      expect(as.grants.slice(before)).toEqual([]);
      await client.close();
    } finally {
      as.setAccessTokenTtl(3600);
    }
  });

  it("expiry: a short-lived token the server refuses once expired is refreshed (same resource) and the call succeeds", async () => {
    as.setAccessTokenTtl(2);
    try {
      const auth = provider();
      const client = await connect(auth);
      const old = auth.store.load(mcp.url)?.tokens?.access_token as string;
      expect((claims(old).exp as number) - (claims(old).iat as number)).toBe(2);
      // Wait (bounded) until the server refuses the token: it has expired.
      let refused = await rawCall(old);
      for (let i = 0; i < 40 && refused.status !== 401; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        refused = await rawCall(old);
      }
      expect(refused.status).toBe(401);
      expect(refused.challenge).toContain('error="invalid_token"');
      const before = as.grants.length;
      expect(text(await client.callTool("whoami", {}))).toMatch(/^alice via /);
      expect(as.grants.slice(before)).toContain("refresh_token");
      expect(as.grants.slice(before)).not.toContain("authorization_code");
      const fresh = auth.store.load(mcp.url)?.tokens?.access_token as string;
      expect(fresh).not.toBe(old);
      expect(claims(fresh).aud).toBe(mcp.url);
      expect(auth.urls).toHaveLength(1);
      await client.close();
    } finally {
      as.setAccessTokenTtl(3600);
    }
  });

  it("revocation: once the refresh token is revoked at the provider, the refresh is refused and the user authorizes again", async () => {
    // A short-lived token, let expire (bounded wait), so the next request needs the refresh token.
    as.setAccessTokenTtl(2);
    try {
      const auth = provider();
      const client = await connect(auth);
      const saved = auth.store.load(mcp.url);
      await revoke(as.issuer, saved?.tokens?.refresh_token as string, saved?.client?.client_id as string);
      const old = saved?.tokens?.access_token as string;
      for (let i = 0; i < 40 && (await rawCall(old)).status !== 401; i++) await new Promise((resolve) => setTimeout(resolve, 250));
      const before = as.grants.length;
      expect(text(await client.callTool("whoami", {}))).toMatch(/^alice via /);
      expect(as.grants.slice(before, before + 2)).toEqual(["refresh_token (refused)", "authorization_code"]);
      expect(auth.urls).toHaveLength(2);
      expect(auth.store.load(mcp.url)?.tokens?.refresh_token).not.toBe(saved?.tokens?.refresh_token);
      await client.close();
    } finally {
      as.setAccessTokenTtl(3600);
    }
  });

  it("a token the provider issued for another MCP server (another audience) is refused with 401 invalid_token", async () => {
    const other = await startMcpServer(as.issuer);
    as.resources.add(other.url);
    try {
      const auth = provider();
      const client = await connect(auth, "auto", other.url);
      // The token works where it belongs...
      expect(text(await client.callTool("whoami", {}))).toMatch(/^alice via /);
      const foreign = auth.store.load(other.url)?.tokens?.access_token as string;
      expect(claims(foreign).aud).toBe(other.url);
      // ...and not on this server, whose URL is not its audience; the handler never runs.
      const runs = mcp.runs.get("whoami") ?? 0;
      const answer = await rawCall(foreign);
      expect(answer.status).toBe(401);
      expect(answer.challenge).toContain('error="invalid_token"');
      expect(mcp.runs.get("whoami") ?? 0).toBe(runs);
      await client.close();
    } finally {
      await other.close();
    }
  });
});

describe("the initialize era (a client pinned to 2025-11-25) against the same server", () => {
  it("authorizes, calls a tool on its session, and steps up for deploy", async () => {
    const auth = provider();
    const client = await connect(auth, "2025-11-25");
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(text(await client.callTool("whoami", {}))).toMatch(/^alice via .+, scopes: mcp$/);
    expect(text(await client.callTool("deploy", {}))).toBe("deployed by alice");
    expect(auth.urls).toHaveLength(2);
    expect(auth.urls[1]?.searchParams.get("scope")?.split(" ").sort()).toEqual(["deploy", "mcp", "offline_access"]);
    await client.close();
  });
});

describe("the demo (node dist/auth-demo.js)", () => {
  it("prints every step and exits 0", async () => {
    const child = spawn(process.execPath, [demoEntry], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += String(c);
    });
    child.stderr.on("data", (c) => {
      stderr += String(c);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    clearTimeout(timer);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(
      /MCP server\/discover without a token → 401\n\s+WWW-Authenticate: Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="mcp"/,
    );
    expect(stdout).toMatch(/protected resource metadata \(RFC 9728\): GET .+ → 200/);
    expect(stdout).toMatch(/authorization server metadata: GET .+ → 200/);
    expect(stdout).toMatch(/dynamic client registration \(RFC 7591\): POST .+ → 201/);
    expect(stdout).toContain('scope="mcp offline_access deploy"');
    expect(stdout).toMatch(/token request, code exchange \(with the PKCE verifier\): POST .+ → 200/);
    expect(stdout).toMatch(/whoami → alice via \S+, scopes: mcp\n/);
    expect(stdout).toContain('error="insufficient_scope"');
    expect(stdout).toContain("deploy → deployed by alice");
    expect(stdout).toMatch(/the expired token, sent by hand → 401\n\s+WWW-Authenticate: .*error="invalid_token"/);
    expect(stdout).toContain("whoami → alice via");
    expect(stdout).toMatch(/token request, refresh: POST .+ → 400/);
    expect(stdout).toContain("token requests: refresh_token (refused), authorization_code");
    expect(stdout).toContain("Done.");
  });
});
