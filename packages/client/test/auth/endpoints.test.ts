// Every endpoint the OAuth client contacts or hands to the user is https,
// or plain http on a loopback host. A hostile authorization server on
// 127.0.0.1 names http endpoints on another host: the client must refuse
// with -32097 naming the step and the endpoint, send nothing there, and never
// hand the user such a URL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, type OAuthClientProvider, StreamableHttpTransport } from "../../src/index.js";
import { EVIL, type Rogue, recordingFetch, redirectFor, startRogue } from "./rogue.js";

const REDIRECT = "http://127.0.0.1:9/callback";

let rogue: Rogue;

beforeAll(async () => {
  rogue = await startRogue();
});
afterAll(async () => {
  await rogue.close();
});
beforeEach(() => {
  rogue.metadata = () => ({});
  rogue.routes = {};
});

/** A provider whose authorize hook records each URL it is handed and answers as a user's browser would. */
function provider(issuer: () => string, extra: Partial<OAuthClientProvider> = {}): OAuthClientProvider & { handed: URL[] } {
  const handed: URL[] = [];
  return {
    handed,
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: "x-endpoints" },
    authorize: async (url) => {
      handed.push(url);
      return redirectFor(REDIRECT, url, issuer());
    },
    ...extra,
  };
}

async function run(
  auth: OAuthClientProvider,
  fetchImpl: typeof fetch,
): Promise<{ error?: { code: number; message: string; data: { reason: string; url?: string } }; tools?: string[] }> {
  const client = new Client({ name: "endpoints", version: "1" }, { protocol: "2026-07-28", onWarning: () => {} });
  try {
    await client.connect(new StreamableHttpTransport(rogue.url, { auth, fetch: fetchImpl }));
    return { tools: (await client.listTools()).tools.map((t) => t.name) };
  } catch (error) {
    return { error: error as { code: number; message: string; data: { reason: string; url?: string } } };
  } finally {
    await client.close();
  }
}

/** A URL the user must never be handed: plain http to a host that is not 127.0.0.1 or localhost. */
const insecure = (url: URL) => url.protocol !== "https:" && url.hostname !== "127.0.0.1" && url.hostname !== "localhost";

describe("a loopback authorization server whose metadata names http endpoints on another host", () => {
  it.each([
    ["token", "token_endpoint", `http://${EVIL}/token`],
    ["registration", "registration_endpoint", `http://${EVIL}/register`],
    ["authorization", "authorization_endpoint", `http://${EVIL}/authorize`],
  ])(
    "an http %s endpoint is refused (-32097, step and endpoint named), never contacted and never handed to authorize()",
    async (step, member, endpoint) => {
      rogue.metadata = () => ({ [member]: endpoint });
      const recorded = recordingFetch();
      const auth = provider(() => rogue.origin);
      const { error } = await run(auth, recorded.fetch);
      expect(error?.code).toBe(ClientErrorCode.AuthorizationFailed);
      expect(error?.data.reason).toBe(step);
      expect(error?.message).toContain(endpoint);
      expect(recorded.urls.filter((url) => url.hostname === EVIL)).toEqual([]);
      expect(auth.handed.filter(insecure)).toEqual([]);
    },
  );

  it("a resource_metadata URL on an http host that is not loopback is refused before it is fetched", async () => {
    rogue.routes["/mcp"] = (req, res) => {
      req.resume();
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="http://${EVIL}/prm"` }).end();
    };
    const recorded = recordingFetch();
    const { error } = await run(
      provider(() => rogue.origin),
      recorded.fetch,
    );
    expect(error?.code).toBe(ClientErrorCode.AuthorizationFailed);
    expect(error?.data.reason).toBe("resource_metadata");
    expect(error?.message).toContain(`http://${EVIL}/prm`);
    expect(recorded.urls.filter((url) => url.hostname === EVIL)).toEqual([]);
  });

  it("an https issuer does not make http acceptable elsewhere: its http token endpoint is refused", async () => {
    // https://as.test is this server reached through the fetch (no TLS in the test); the metadata says so.
    const issuer = "https://as.test";
    rogue.routes["/.well-known/oauth-protected-resource/mcp"] = (_req, res, origin) => {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [issuer] }));
    };
    rogue.metadata = () => ({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      registration_endpoint: `${issuer}/register`,
      token_endpoint: `http://${EVIL}/token`,
    });
    const recorded = recordingFetch({ "as.test": rogue.origin });
    const auth = provider(() => issuer);
    const { error } = await run(auth, recorded.fetch);
    expect(error?.code).toBe(ClientErrorCode.AuthorizationFailed);
    expect(error?.data.reason).toBe("token");
    expect(error?.message).toContain(`http://${EVIL}/token`);
    expect(recorded.urls.filter((url) => url.hostname === EVIL)).toEqual([]);
    expect(auth.handed.filter(insecure)).toEqual([]);
  });

  it("loopback http endpoints still work, each judged by its own host (localhost beside 127.0.0.1)", async () => {
    rogue.metadata = (origin) => {
      const port = new URL(origin).port;
      return { token_endpoint: `http://localhost:${port}/token`, registration_endpoint: `http://localhost:${port}/register` };
    };
    const recorded = recordingFetch();
    const auth = provider(() => rogue.origin);
    const { tools, error } = await run(auth, recorded.fetch);
    expect(error).toBeUndefined();
    expect(tools).toEqual(["whoami"]);
    expect(auth.handed.map((url) => url.origin)).toEqual([rogue.origin]);
    expect(recorded.urls.map((url) => `${url.hostname}${url.pathname}`)).toEqual(
      expect.arrayContaining(["localhost/register", "localhost/token"]),
    );
  });

  it("allowInsecureRequests: false refuses plain http even on loopback", async () => {
    const recorded = recordingFetch();
    const { error } = await run(
      provider(() => rogue.origin, { allowInsecureRequests: false }),
      recorded.fetch,
    );
    expect(error?.code).toBe(ClientErrorCode.AuthorizationFailed);
    expect(error?.data.reason).toBe("resource_metadata");
    expect(error?.message).toContain(`${rogue.origin}/.well-known/oauth-protected-resource/mcp`);
    // The MCP request itself is the user's choice; no OAuth request followed it.
    expect(recorded.urls.map((url) => url.pathname)).toEqual(["/mcp"]);
  });

  it("allowInsecureRequests: true is the explicit opt-out: the http token endpoint is used", async () => {
    rogue.metadata = () => ({ token_endpoint: `http://${EVIL}/token` });
    const recorded = recordingFetch();
    const { error } = await run(
      provider(() => rogue.origin, { allowInsecureRequests: true }),
      recorded.fetch,
    );
    expect(error?.data.reason).toBe("token");
    expect(recorded.urls.filter((url) => url.hostname === EVIL).map((url) => url.href)).toEqual([`http://${EVIL}/token`]);
  });
});

describe("isLoopbackHost", () => {
  it("takes localhost, 127.0.0.0/8 and [::1] as URL hostnames, and nothing else", async () => {
    const { isLoopbackHost } = await import("../../src/auth/requests.js");
    const host = (url: string) => new URL(url).hostname;
    for (const url of [
      "http://localhost:1/",
      "http://127.0.0.1/",
      "http://127.1/",
      "http://127.255.0.9/",
      "http://[::1]:8/",
      "http://LOCALHOST/",
    ]) {
      expect(isLoopbackHost(host(url)), url).toBe(true);
    }
    for (const url of [
      `http://${EVIL}/`,
      "http://localhost.evil.example/",
      "http://127.0.0.1.evil.example/",
      "http://128.0.0.1/",
      "http://[::2]/",
      "http://0.0.0.0/",
    ]) {
      expect(isLoopbackHost(host(url)), url).toBe(false);
    }
  });
});
