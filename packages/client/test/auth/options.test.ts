// The OAuth client's tuning options: each has effect, a bad value or a
// misspelt name is refused where it is given (a TypeError naming it) and
// does not compile.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  clientCredentials,
  FileTokenStore,
  InMemoryTokenStore,
  jwtBearer,
  LoopbackRedirectReceiver,
  type OAuthClientProvider,
  StreamableHttpTransport,
} from "../../src/index.js";
import {
  type AuthorizationServer,
  followAuthorization,
  type ResourceServer,
  startAuthorizationServer,
  startResourceServer,
} from "./servers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

describe("FileTokenStore maxFileBytes", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "x-store-options-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a file over maxFileBytes reads as empty; one within it is read, also past the 1 MiB default", async () => {
    const path = join(dir, "tokens.json");
    const text = JSON.stringify({ k: { issuer: "https://as.example.com", pad: "x".repeat(2 * 1024 * 1024) } });
    writeFileSync(path, text);
    expect(await new FileTokenStore(path).load("k")).toBeUndefined();
    expect((await new FileTokenStore(path, { maxFileBytes: text.length }).load("k"))?.issuer).toBe("https://as.example.com");
    expect(await new FileTokenStore(path, { maxFileBytes: text.length - 1 }).load("k")).toBeUndefined();
  });

  it("refuses a misspelt option and a bound that is not a positive integer", () => {
    const path = join(dir, "other.json");
    // @ts-expect-error a misspelt option does not compile
    expect(() => new FileTokenStore(path, { maxBytes: 10 })).toThrow(/FileTokenStore has no option "maxBytes"/);
    expect(() => new FileTokenStore(path, { maxFileBytes: 0 })).toThrow(/maxFileBytes must be an integer at least 1, got 0/);
    expect(() => new FileTokenStore(path, { maxFileBytes: 1.5 })).toThrow(TypeError);
  });
});

describe("LoopbackRedirectReceiver options", () => {
  it("timeoutMs bounds the wait, named in the error", async () => {
    const receiver = await LoopbackRedirectReceiver.start({ timeoutMs: 1 });
    try {
      await expect(receiver.waitForRedirect()).rejects.toThrow(/within 1 ms/);
    } finally {
      await receiver.close();
    }
  });

  it("refuses a misspelt option and an out-of-range timeoutMs or port before listening", async () => {
    // @ts-expect-error a misspelt option does not compile
    await expect(LoopbackRedirectReceiver.start({ timeout: 1000 })).rejects.toThrow(/has no option "timeout"; did you mean "timeoutMs"\?/);
    await expect(LoopbackRedirectReceiver.start({ timeoutMs: 0 })).rejects.toThrow(/timeoutMs must be an integer from 1 to 2147483647/);
    await expect(LoopbackRedirectReceiver.start({ timeoutMs: 2 ** 31 })).rejects.toThrow(TypeError);
    await expect(LoopbackRedirectReceiver.start({ port: 70_000 })).rejects.toThrow(/port must be an integer from 0 to 65535/);
  });
});

describe("the machine grants' options", () => {
  it("clientCredentials and jwtBearer refuse a misspelt option and pass refreshMarginSeconds on", async () => {
    // @ts-expect-error a misspelt option does not compile
    await expect(clientCredentials({ clientId: "a", clientSecret: "s", requestTimeoutMS: 5 })).rejects.toThrow(
      /clientCredentials has no option "requestTimeoutMS"; did you mean "requestTimeoutMs"\?/,
    );
    // @ts-expect-error a misspelt option does not compile
    expect(() => jwtBearer({ clientId: "a", assertion: () => "jwt", scopes: "x" })).toThrow(/jwtBearer has no option "scopes"/);
    const provider = await clientCredentials({ clientId: "a", clientSecret: "s", refreshMarginSeconds: 120 });
    expect(provider.refreshMarginSeconds).toBe(120);
    expect(jwtBearer({ clientId: "a", assertion: () => "jwt", refreshMarginSeconds: 0 }).refreshMarginSeconds).toBe(0);
  });
});

describe("the provider's options against oidc-provider", () => {
  let as: AuthorizationServer;
  let rs: ResourceServer;
  beforeAll(async () => {
    let rsUrl = "";
    as = await startAuthorizationServer(() => rsUrl);
    rs = await startResourceServer(() => as.issuer);
    rsUrl = rs.url;
  });
  afterAll(async () => {
    await rs.close();
    await as.close();
  });

  function provider(extra: Partial<OAuthClientProvider> = {}): OAuthClientProvider {
    return {
      redirectUrl: REDIRECT,
      clientMetadata: { client_name: "x-options" },
      authorize: async (url) => followAuthorization(url, REDIRECT),
      ...extra,
    };
  }

  async function listWith(auth: OAuthClientProvider): Promise<void> {
    const client = new Client({ name: "options", version: "1" }, { onWarning: () => {} });
    try {
      await client.connect(new StreamableHttpTransport(rs.url, { auth }));
      await client.listTools();
    } finally {
      await client.close();
    }
  }

  it("refreshMarginSeconds: a token with 300 s left is sent as it is by default, refreshed first with a margin of 600 s", async () => {
    const store = new InMemoryTokenStore();
    await listWith(provider({ tokenStore: store }));
    // The token lived long and has 300 s left: over the 60 s default margin, under a 600 s one
    // (a quarter of its lifetime is far more than either, so the margin decides).
    const ageTokens = () => {
      const saved = store.load(rs.url);
      const now = Math.floor(Date.now() / 1000);
      if (saved?.tokens) Object.assign(saved.tokens, { issued_at: now - 100_000, expires_at: now + 300 });
      if (saved) store.save(rs.url, saved);
    };
    ageTokens();
    let before = as.grants.length;
    await listWith(provider({ tokenStore: store }));
    expect(as.grants.slice(before)).toEqual([]);
    before = as.grants.length;
    await listWith(provider({ tokenStore: store, refreshMarginSeconds: 600 }));
    expect(as.grants.slice(before)).toEqual(["refresh_token"]);
  });

  it("refuses a misspelt provider option and a bad refreshMarginSeconds when the transport is made; its own members pass", () => {
    const make = (auth: OAuthClientProvider) => new StreamableHttpTransport(rs.url, { auth });
    // @ts-expect-error a misspelt option does not compile
    expect(() => make(provider({ refreshMarginSecond: 600 }))).toThrow(
      /The auth provider has no option "refreshMarginSecond"; did you mean "refreshMarginSeconds"\?/,
    );
    expect(() => make({ ...provider(), requestTimeoutMS: 5 } as OAuthClientProvider)).toThrow(/did you mean "requestTimeoutMs"/);
    expect(() => make(provider({ refreshMarginSeconds: -1 }))).toThrow(/refreshMarginSeconds must be an integer at least 0, got -1/);
    expect(() => make(provider({ requestTimeoutMs: 0 }))).toThrow(/requestTimeoutMs must be an integer from 1 to 2147483647/);
    // An app's provider may carry members of its own.
    expect(() => make({ ...provider(), calls: 0, openBrowser: () => {} } as OAuthClientProvider)).not.toThrow();
  });
});
