// Authorization that must fail, each with McpClientError -32097 naming the
// step: metadata whose issuer does not match, a redirect with the wrong state
// or iss, a token endpoint that errors, a server that keeps answering 401, an
// authorization server without PKCE S256, metadata for another resource.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, type OAuthClientProvider, parseChallenges, StreamableHttpTransport } from "../../src/index.js";
import { MAX_AUTHORIZATIONS_PER_REQUEST } from "../../src/auth/session.js";
import {
  type AuthorizationServer,
  followAuthorization,
  type ResourceServer,
  serve,
  startAuthorizationServer,
  startResourceServer,
} from "./servers.js";

const REDIRECT = "http://127.0.0.1:9/callback";

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

/** A provider whose redirect is rewritten by `tamper` before the client sees it. */
function provider(tamper: (redirect: URL) => void = () => {}): OAuthClientProvider & { calls: number } {
  const auth = {
    calls: 0,
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: "x-bad-input" },
    authorize: async (url: URL) => {
      auth.calls++;
      const redirect = new URL(await followAuthorization(url, REDIRECT));
      tamper(redirect);
      return redirect;
    },
  };
  return auth;
}

async function failure(url: string, auth: OAuthClientProvider): Promise<{ code: number; message: string; data: { reason: string } }> {
  const client = new Client({ name: "bad", version: "1" }, { onWarning: () => {} });
  try {
    await client.connect(new StreamableHttpTransport(url, { auth }));
    await client.listTools();
  } catch (error) {
    return error as { code: number; message: string; data: { reason: string } };
  } finally {
    await client.close();
  }
  throw new Error("the request succeeded");
}

describe("a redirect that must be refused (against oidc-provider)", () => {
  it("a wrong state: step authorization_response, and no token request is made", async () => {
    const before = as.grants.length;
    const error = await failure(
      rs.url,
      provider((r) => r.searchParams.set("state", "not-the-state")),
    );
    expect(error.code).toBe(ClientErrorCode.AuthorizationFailed);
    expect(error.data.reason).toBe("authorization_response");
    expect(error.message).toMatch(/state/);
    expect(as.grants.length).toBe(before);
  });

  it("a wrong iss (RFC 9207): step authorization_response, and the code goes nowhere", async () => {
    const before = as.grants.length;
    const error = await failure(
      rs.url,
      provider((r) => r.searchParams.set("iss", "https://evil.example.com")),
    );
    expect(error.data.reason).toBe("authorization_response");
    expect(error.message).toMatch(/iss/);
    expect(as.grants.length).toBe(before);
  });

  it("an iss with a trailing slash is not normalized away: refused", async () => {
    const error = await failure(
      rs.url,
      provider((r) => r.searchParams.set("iss", `${as.issuer}/`)),
    );
    expect(error.data.reason).toBe("authorization_response");
  });

  it("a missing iss where the server advertises it: refused", async () => {
    const error = await failure(
      rs.url,
      provider((r) => r.searchParams.delete("iss")),
    );
    expect(error.data.reason).toBe("authorization_response");
  });

  it("an error redirect (access_denied) is reported with the server's error code", async () => {
    const error = await failure(
      rs.url,
      provider((r) => {
        r.searchParams.delete("code");
        r.searchParams.set("error", "access_denied");
      }),
    );
    expect(error.data.reason).toBe("authorization_response");
    expect(error.message).toMatch(/access_denied/);
  });

  it("a token endpoint that errors (a forged code): step token with the server's error and HTTP status", async () => {
    const error = await failure(
      rs.url,
      provider((r) => r.searchParams.set("code", "forged-code")),
    );
    expect(error.data.reason).toBe("token");
    expect(error.message).toMatch(/invalid_grant/);
    expect((error.data as { status?: number }).status).toBe(400);
  });

  it("an authorize hook that fails: step authorization", async () => {
    const error = await failure(rs.url, {
      redirectUrl: REDIRECT,
      authorize: async () => {
        throw new Error("the user closed the window");
      },
    });
    expect(error.data.reason).toBe("authorization");
    expect(error.message).toMatch(/closed the window/);
  });

  it("an authorize hook that throws a DOMException (a TimeoutError, code 23): step authorization, not the DOMException", async () => {
    const timeout = new DOMException("the sign-in timed out", "TimeoutError");
    const error = await failure(rs.url, {
      redirectUrl: REDIRECT,
      authorize: async () => {
        throw timeout;
      },
    });
    expect(error).not.toBe(timeout);
    expect(error).toMatchObject({ code: ClientErrorCode.AuthorizationFailed, source: "client", data: { reason: "authorization" } });
    expect(error.message).toMatch(/sign-in timed out/);
    expect((error as { cause?: unknown }).cause).toBe(timeout);
  });
});

describe("servers that must be refused", () => {
  const servers: Array<{ close: () => Promise<void> }> = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  /** A resource server that answers every /mcp request with 401 and serves `metadata` as its PRM. */
  async function always401(metadata: (origin: string) => unknown, routes: Record<string, (origin: string) => unknown> = {}) {
    let hits = 0;
    const server = await serve((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const origin = `http://${req.headers.host}`;
      if (url.pathname === "/mcp") {
        hits++;
        req.resume();
        res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` }).end();
        return;
      }
      const body = url.pathname === "/prm" ? metadata(origin) : routes[url.pathname]?.(origin);
      if (body === undefined) res.writeHead(404).end();
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    servers.push(server);
    return { url: `${server.origin}/mcp`, hits: () => hits };
  }

  const asMetadata = (origin: string, extra: Record<string, unknown> = {}) => ({
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
    ...extra,
  });

  it("authorization server metadata whose issuer does not match: step authorization_server_metadata, the user is never sent anywhere", async () => {
    const server = await always401((o) => ({ resource: `${o}/mcp`, authorization_servers: [o] }), {
      "/.well-known/oauth-authorization-server": (o) => asMetadata(o, { issuer: "https://attacker.example.com" }),
    });
    const auth = provider();
    const error = await failure(server.url, auth);
    expect(error.data.reason).toBe("authorization_server_metadata");
    expect(error.message).toMatch(/issuer/);
    expect(auth.calls).toBe(0);
  });

  it("an authorization server that does not advertise PKCE S256 is refused before the user is sent to it", async () => {
    const server = await always401((o) => ({ resource: `${o}/mcp`, authorization_servers: [o] }), {
      "/.well-known/oauth-authorization-server": (o) => asMetadata(o, { code_challenge_methods_supported: ["plain"] }),
    });
    const auth = provider();
    const error = await failure(server.url, { ...auth, clientInformation: { client_id: "c" } });
    expect(error.data.reason).toBe("authorization_server_metadata");
    expect(error.message).toMatch(/S256/);
    expect(auth.calls).toBe(0);
  });

  it("protected resource metadata for another resource: step resource_mismatch", async () => {
    const server = await always401(() => ({
      resource: "https://evil.example.com/mcp",
      authorization_servers: ["https://evil.example.com"],
    }));
    const error = await failure(server.url, provider());
    expect(error.data.reason).toBe("resource_mismatch");
  });

  it("no protected resource metadata anywhere: step resource_metadata, listing the URLs tried", async () => {
    const server = await always401(() => undefined);
    const error = await failure(server.url, provider());
    expect(error.data.reason).toBe("resource_metadata");
    expect(error.message).toMatch(/\.well-known\/oauth-protected-resource\/mcp/);
  });

  it("an authorization server that never answers costs one time-out, named: its other well-known URLs are not asked", async () => {
    // A real server that takes every request and answers none.
    const asked: string[] = [];
    const silent = await serve((req) => {
      asked.push(req.url ?? "");
    });
    servers.push(silent);
    const server = await always401((o) => ({ resource: `${o}/mcp`, authorization_servers: [`${silent.origin}/tenant`] }));
    const error = await failure(server.url, { ...provider(), requestTimeoutMs: 100 });
    expect(error.data.reason).toBe("authorization_server_metadata");
    // An issuer with a path has three metadata URLs; only the first was asked.
    expect(asked).toEqual(["/.well-known/oauth-authorization-server/tenant"]);
    expect(error.message).toContain(
      `authorization server metadata request to ${silent.origin}/.well-known/oauth-authorization-server/tenant timed out after 100 ms`,
    );
  });

  it("an authorization server that refuses connections: one attempt, then the error", async () => {
    const closed = await serve(() => {});
    const origin = closed.origin;
    await closed.close();
    const server = await always401((o) => ({ resource: `${o}/mcp`, authorization_servers: [`${origin}/a/b`] }));
    const fetched: string[] = [];
    const counting: typeof fetch = (input, init) => {
      fetched.push(String(input instanceof Request ? input.url : input));
      return fetch(input, init);
    };
    const client = new Client({ name: "bad", version: "1" }, { onWarning: () => {} });
    const error = (await client
      .connect(new StreamableHttpTransport(server.url, { auth: provider(), fetch: counting }))
      .then(() => client.listTools())
      .catch((e) => e)) as { data: { reason: string }; message: string };
    await client.close();
    expect(error.data.reason).toBe("authorization_server_metadata");
    expect(fetched.filter((url) => url.startsWith(origin))).toEqual([`${origin}/.well-known/oauth-authorization-server/a/b`]);
    expect(error.message).toContain(`${origin}/.well-known/openid-configuration/a/b (skipped)`);
    expect(error.message).toContain(`${origin}/a/b/.well-known/openid-configuration (skipped)`);
  });

  it("protected resource metadata follows the same walk: after a reset, the other URLs on that host are skipped", async () => {
    // The MCP endpoint answers 401; every metadata URL of the host drops the connection unanswered.
    const asked: string[] = [];
    const server = await serve((req, res) => {
      const origin = `http://${req.headers.host}`;
      if (req.url === "/mcp") {
        req.resume();
        res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` }).end();
        return;
      }
      asked.push(req.url ?? "");
      req.socket.destroy();
    });
    servers.push(server);
    const error = await failure(`${server.origin}/mcp`, provider());
    expect(error.data.reason).toBe("resource_metadata");
    expect(asked).toEqual(["/prm"]);
    expect(error.message).toContain(`${server.origin}/prm (unreachable)`);
    expect(error.message).toContain(`${server.origin}/.well-known/oauth-protected-resource/mcp (skipped)`);
    expect(error.message).toContain(`${server.origin}/.well-known/oauth-protected-resource (skipped)`);
  });

  it("a tools/call whose tool lookup fails authorization ends there: the server is asked once, the user never twice", async () => {
    const server = await always401((o) => ({ resource: `${o}/mcp`, authorization_servers: [o] }), {
      "/.well-known/oauth-authorization-server": (o) => asMetadata(o, { issuer: "https://attacker.example.com" }),
    });
    const auth = provider();
    const warnings: string[] = [];
    // No probe on connect: the tools/list the call makes first is the first request.
    const client = new Client({ name: "bad", version: "1" }, { protocol: "2026-07-28", onWarning: (w) => warnings.push(w) });
    const error = (await client
      .connect(new StreamableHttpTransport(server.url, { auth }))
      .then(() => client.callTool("echo", { text: "hi" }))
      .catch((e) => e)) as { code: number; data: { reason: string } };
    await client.close();
    expect(error.code).toBe(ClientErrorCode.AuthorizationFailed);
    expect(error.data.reason).toBe("authorization_server_metadata");
    // The tools/list before the call met the 401; the call itself was not sent into the same wall.
    expect(server.hits()).toBe(1);
    expect(auth.calls).toBe(0);
    expect(warnings.filter((w) => w.includes("Could not list the tools"))).toEqual([]);
  });

  it("a server that keeps answering 401 to valid tokens: bounded authorizations, then step unauthorized", async () => {
    rs.refuseAll = true;
    try {
      const before = as.grants.length;
      const auth = provider();
      const error = await failure(rs.url, auth);
      expect(error.data.reason).toBe("unauthorized");
      expect(error.message).toMatch(/401 again/);
      expect(auth.calls).toBe(MAX_AUTHORIZATIONS_PER_REQUEST);
      // Each authorization's code was exchanged; the refresh between them was tried once.
      expect(as.grants.slice(before).filter((g) => g === "authorization_code")).toHaveLength(MAX_AUTHORIZATIONS_PER_REQUEST);
    } finally {
      rs.refuseAll = false;
    }
  });

  it("without an auth option a 401 stays an http_error (nothing is discovered)", async () => {
    const server = await always401(() => {
      throw new Error("the metadata must not be fetched");
    });
    const client = new Client({ name: "plain", version: "1" }, { onWarning: () => {} });
    const error = (await client
      .connect(new StreamableHttpTransport(server.url))
      .then(
        () => client.listTools(),
        (e) => Promise.reject(e),
      )
      .catch((e) => e)) as { code: number; data: { reason: string; status: number } };
    expect(error.code).toBe(ClientErrorCode.TransportFailed);
    expect(error.data.status).toBe(401);
    await client.close();
  });
});

describe("parseChallenges", () => {
  it("reads several challenges with quoted and token parameters, escapes and commas inside quotes", () => {
    const parsed = parseChallenges(
      'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource/mcp", DPoP algs="ES256", error_description="a \\"quoted\\", text"',
    );
    expect(parsed).toEqual([
      {
        scheme: "bearer",
        params: { error: "insufficient_scope", scope: "a b", resource_metadata: "https://x/.well-known/oauth-protected-resource/mcp" },
      },
      { scheme: "dpop", params: { algs: "ES256", error_description: 'a "quoted", text' } },
    ]);
  });

  it("gives nothing for an absent or empty header and stops at garbage without throwing", () => {
    expect(parseChallenges(null)).toEqual([]);
    expect(parseChallenges("")).toEqual([]);
    expect(parseChallenges('Bearer realm="unterminated')).toEqual([{ scheme: "bearer", params: { realm: "unterminated" } }]);
    expect(parseChallenges("Basic abc==")).toEqual([{ scheme: "basic", params: {}, token68: "abc==" }]);
    expect(parseChallenges('Basic abc==, Bearer scope="x"')).toEqual([
      { scheme: "basic", params: {}, token68: "abc==" },
      { scheme: "bearer", params: { scope: "x" } },
    ]);
  });
});
