// @x/client authorizing against a real oidc-provider on 127.0.0.1: the
// authorization code flow with PKCE (the test follows the redirects, no
// browser), refresh before expiry and on 401, step-up on 403, client
// credentials, and the loopback redirect receiver.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  Client,
  clientCredentials,
  FileTokenStore,
  InMemoryTokenStore,
  LoopbackRedirectReceiver,
  type OAuthClientProvider,
  StreamableHttpTransport,
} from "../../src/index.js";
import {
  type AuthorizationServer,
  followAuthorization,
  MACHINE_CLIENT,
  MACHINE_JWT_CLIENT,
  type ResourceServer,
  revoke,
  startAuthorizationServer,
  startResourceServer,
} from "./servers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

let as: AuthorizationServer;
let rs: ResourceServer;
let machineKey: CryptoKeyPair;

beforeAll(async () => {
  let rsUrl = "";
  machineKey = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const machineJwk = { ...(await crypto.subtle.exportKey("jwk", machineKey.publicKey)), alg: "ES256", use: "sig" };
  as = await startAuthorizationServer(() => rsUrl, { machineJwk });
  rs = await startResourceServer(() => as.issuer);
  rsUrl = rs.url;
});
afterAll(async () => {
  await rs.close();
  await as.close();
});

function provider(extra: Partial<OAuthClientProvider> = {}): OAuthClientProvider & { urls: URL[] } {
  const urls: URL[] = [];
  return {
    urls,
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: "x-test-cli" },
    authorize: async (url) => {
      urls.push(url);
      return followAuthorization(url, REDIRECT);
    },
    ...extra,
  };
}

async function connect(auth: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: "auth-test", version: "1" }, { onWarning: () => {} });
  await client.connect(new StreamableHttpTransport(rs.url, { auth }));
  return client;
}

describe("the authorization code flow against oidc-provider", () => {
  it("a 401 leads to discovery, dynamic registration, PKCE S256 with resource, and the call succeeds with the token", async () => {
    const store = new InMemoryTokenStore();
    const auth = provider({ tokenStore: store });
    const client = await connect(auth);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["whoami"]);
    expect(auth.urls).toHaveLength(1);
    const url = auth.urls[0] as URL;
    expect(url.origin).toBe(as.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(rs.url);
    expect(url.searchParams.get("scope")).toBe("mcp:read offline_access");
    const saved = store.load(rs.url);
    expect(saved?.issuer).toBe(as.issuer);
    expect(saved?.client?.client_id).toMatch(/.+/);
    expect(saved?.tokens?.refresh_token).toMatch(/.+/);
    expect(rs.seen.at(-1)).toBe(`Bearer ${saved?.tokens?.access_token}`);
    await client.close();
  });

  it("step-up: a 403 insufficient_scope re-authorizes with the union of the old and the challenged scopes", async () => {
    const auth = provider();
    const client = await connect(auth);
    const result = await client.callTool("whoami", {});
    expect(result.content).toEqual([{ type: "text", text: "user-1" }]);
    expect(auth.urls).toHaveLength(2);
    expect(auth.urls[1]?.searchParams.get("scope")?.split(" ").sort()).toEqual(["mcp:read", "mcp:write", "offline_access"]);
    await client.close();
  });

  it("a token about to expire is refreshed before it is sent (refresh_token grant with the same resource)", async () => {
    // A 4 s token: its refresh margin is a quarter of its lifetime, 1 s.
    as.setAccessTokenTtl(4);
    try {
      const store = new InMemoryTokenStore();
      const client = await connect(provider({ tokenStore: store }));
      await client.listTools();
      const first = store.load(rs.url)?.tokens?.access_token;
      await new Promise((resolve) => setTimeout(resolve, 3200));
      const before = as.grants.length;
      await client.listTools();
      expect(as.grants.slice(before)).toContain("refresh_token");
      const second = store.load(rs.url)?.tokens?.access_token;
      expect(second).not.toBe(first);
      expect(rs.seen.at(-1)).toBe(`Bearer ${second}`);
      await client.close();
    } finally {
      as.setAccessTokenTtl(3600);
    }
  });

  it("a 401 invalid_token to a token the client thinks valid is answered by a refresh and the request sent again, without a new authorization", async () => {
    const store = new InMemoryTokenStore();
    const auth = provider({ tokenStore: store });
    const client = await connect(auth);
    await client.listTools();
    const token = store.load(rs.url)?.tokens?.access_token as string;
    rs.rejected.add(token);
    const before = as.grants.length;
    await client.listTools();
    expect(as.grants.slice(before)).toEqual(["refresh_token"]);
    expect(auth.urls).toHaveLength(1);
    expect(store.load(rs.url)?.tokens?.access_token).not.toBe(token);
    await client.close();
  });

  it("expiry without a refresh token: a 401 to the expired token sends the user through a new authorization", async () => {
    const store = new InMemoryTokenStore();
    const auth = provider({ tokenStore: store, clientMetadata: { client_name: "x-no-refresh", grant_types: ["authorization_code"] } });
    const client = await connect(auth);
    await client.listTools();
    const saved = store.load(rs.url);
    expect(saved?.tokens?.refresh_token).toBeUndefined();
    expect(auth.urls[0]?.searchParams.get("scope")).toBe("mcp:read");
    rs.rejected.add(saved?.tokens?.access_token as string);
    await client.listTools();
    expect(auth.urls).toHaveLength(2);
    expect(store.load(rs.url)?.tokens?.access_token).not.toBe(saved?.tokens?.access_token);
    await client.close();
  });

  it("the time the user spends authorizing does not count against the probe's or the request's timeout", async () => {
    // The clock is faked, so that only the time the test lets pass counts: a round trip on a busy
    // machine takes none of it, and the user's sign-in takes ten times the timeouts.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let signIns = 0;
      const auth = provider({
        authorize: async (url) => {
          signIns += 1;
          vi.advanceTimersByTime(1000);
          return followAuthorization(url, REDIRECT);
        },
      });
      const client = new Client({ name: "auth-test", version: "1" }, { onWarning: () => {}, probeTimeout: 100, timeout: 100 });
      await client.connect(new StreamableHttpTransport(rs.url, { auth }));
      expect(client.protocolVersion).toBe("2026-07-28");
      expect(signIns).toBe(1); // within the probe's timeout
      const result = await client.callTool("whoami", {});
      expect(result.content).toEqual([{ type: "text", text: "user-1" }]);
      expect(signIns).toBe(2); // the step-up, within the call's timeout
      await client.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("a clientMetadataUrl that is not https with a path is refused when the transport is made", () => {
    expect(() => new StreamableHttpTransport(rs.url, { auth: provider({ clientMetadataUrl: "http://example.com/client.json" }) })).toThrow(
      TypeError,
    );
    expect(() => new StreamableHttpTransport(rs.url, { auth: provider({ clientMetadataUrl: "https://example.com" }) })).toThrow(TypeError);
  });

  it("revocation: after the grant is revoked at the authorization server, the refresh is refused and the user is asked to authorize again", async () => {
    const store = new InMemoryTokenStore();
    const auth = provider({ tokenStore: store });
    const client = await connect(auth);
    await client.listTools();
    const saved = store.load(rs.url);
    await revoke(as.issuer, saved?.tokens?.refresh_token as string, saved?.client?.client_id as string);
    rs.rejected.add(saved?.tokens?.access_token as string);
    const before = as.grants.length;
    await client.listTools();
    expect(as.grants.slice(before)).toEqual(["refresh_token (refused)", "authorization_code"]);
    expect(auth.urls).toHaveLength(2);
    await client.close();
  });

  it("tokens kept in a FileTokenStore (mode 0600) are used by the next transport without a new authorization", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-auth-"));
    try {
      const path = join(dir, "nested", "tokens.json");
      const first = provider({ tokenStore: new FileTokenStore(path) });
      const a = await connect(first);
      await a.listTools();
      await a.close();
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const second = provider({ tokenStore: new FileTokenStore(path) });
      const b = await connect(second);
      await b.listTools();
      expect(second.urls).toHaveLength(0);
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the loopback receiver takes the real redirect on 127.0.0.1 and hands it to the flow", async () => {
    const receiver = await LoopbackRedirectReceiver.start({ timeoutMs: 10_000 });
    try {
      expect(receiver.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const auth: OAuthClientProvider = {
        redirectUrl: receiver.redirectUrl,
        clientMetadata: { client_name: "x-loopback" },
        // The "browser": follows the AS's redirects, then requests the loopback URL as a browser would.
        authorize: receiver.authorizeWith(async (url) => {
          const redirect = await followAuthorization(url, receiver.redirectUrl);
          const page = await fetch(redirect);
          expect(page.status).toBe(200);
          await page.text();
        }),
      };
      const client = await connect(auth);
      expect((await client.listTools()).tools).toHaveLength(1);
      await client.close();
    } finally {
      await receiver.close();
    }
  });
});

describe("the initialize era (2025-11-25) with authorization", () => {
  it("the token goes on every request of the session: initialize, POSTs, the GET stream and DELETE", async () => {
    const store = new InMemoryTokenStore();
    const client = new Client({ name: "auth-legacy", version: "1" }, { onWarning: () => {}, protocol: "2025-11-25" });
    const start = rs.requests.length;
    await client.connect(new StreamableHttpTransport(rs.url, { auth: provider({ tokenStore: store }) }));
    expect(client.protocolVersion).toBe("2025-11-25");
    await client.listTools();
    await client.close();
    const token = store.load(rs.url)?.tokens?.access_token;
    const requests = rs.requests.slice(start);
    // The first request is answered 401 (no token yet); every later one carries the token.
    expect(requests[0]?.authorization).toBeUndefined();
    const after = requests.slice(1);
    expect(after.length).toBeGreaterThan(2);
    expect(after.every((r) => r.authorization === `Bearer ${token}`)).toBe(true);
    expect(after.map((r) => r.method)).toEqual(expect.arrayContaining(["POST", "GET", "DELETE"]));
  });
});

describe("client credentials against oidc-provider", () => {
  it("a machine client gets a token for the resource with client_secret_basic and calls a tool", async () => {
    const auth = await clientCredentials({ clientId: MACHINE_CLIENT.id, clientSecret: MACHINE_CLIENT.secret, scope: "mcp:read mcp:write" });
    const before = as.grants.length;
    const client = await connect(auth);
    const result = await client.callTool("whoami", {});
    expect(result.content).toEqual([{ type: "text", text: "user-1" }]);
    // One token for the read scope, one more for the step-up to mcp:write.
    expect(as.grants.slice(before)).toEqual(["client_credentials", "client_credentials"]);
    expect(rs.seen.at(-1)).toMatch(/^Bearer .+/);
    await client.close();
  });

  it("private_key_jwt: a PKCS#8 PEM key signs the client assertion oidc-provider verifies", async () => {
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", machineKey.privateKey)).toString("base64");
    const pem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, "$1\n")}\n-----END PRIVATE KEY-----\n`;
    const auth = await clientCredentials({ clientId: MACHINE_JWT_CLIENT, privateKey: pem, algorithm: "ES256" });
    const before = as.grants.length;
    const client = await connect(auth);
    expect((await client.listTools()).tools).toHaveLength(1);
    expect(as.grants.slice(before)).toEqual(["client_credentials"]);
    await client.close();
  });

  it("a wrong client secret: step token with invalid_client, no retry loop", async () => {
    const auth = await clientCredentials({ clientId: MACHINE_CLIENT.id, clientSecret: "wrong" });
    const client = new Client({ name: "auth-test", version: "1" }, { onWarning: () => {} });
    const before = as.grants.length;
    const error = await client
      .connect(new StreamableHttpTransport(rs.url, { auth }))
      .then(() => client.listTools())
      .catch((e) => e);
    expect(error).toMatchObject({ code: -32097, data: { reason: "token", error: "invalid_client", status: 401 } });
    expect(error.message).toMatch(/invalid_client/);
    expect(as.grants.length - before).toBeLessThanOrEqual(1);
    await client.close();
  });
});

describe("an authorization server that moved", () => {
  it("the metadata names a new issuer: the old client and tokens are dropped, the client registers at the new one and authorizes there", async () => {
    let rsUrl = "";
    const first = await startAuthorizationServer(() => rsUrl);
    const second = await startAuthorizationServer(() => rsUrl);
    let current = first;
    const moving = await startResourceServer(() => current.issuer);
    rsUrl = moving.url;
    try {
      const store = new InMemoryTokenStore();
      const urls: URL[] = [];
      const auth: OAuthClientProvider = {
        redirectUrl: REDIRECT,
        clientMetadata: { client_name: "x-moving" },
        tokenStore: store,
        authorize: async (url) => {
          urls.push(url);
          return followAuthorization(url, REDIRECT);
        },
      };
      const client = new Client({ name: "auth-test", version: "1" }, { onWarning: () => {} });
      await client.connect(new StreamableHttpTransport(moving.url, { auth }));
      await client.listTools();
      const before = store.load(moving.url);
      expect(before?.issuer).toBe(first.issuer);
      current = second;
      await client.listTools();
      const after = store.load(moving.url);
      expect(after?.issuer).toBe(second.issuer);
      expect(urls.map((u) => u.origin)).toEqual([first.issuer, second.issuer]);
      // The new server got its own registration; the old client id was not presented to it.
      expect(urls[1]?.searchParams.get("client_id")).toBe(after?.client?.client_id);
      expect(after?.client?.client_id).not.toBe(before?.client?.client_id);
      expect(second.authorizations.some((q) => q.get("client_id") === before?.client?.client_id)).toBe(false);
      await client.close();
    } finally {
      await moving.close();
      await first.close();
      await second.close();
    }
  });
});
