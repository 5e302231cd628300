// The server as an OAuth resource server with the JWT verifier (spec:
// basic/authorization), over real HTTP on 127.0.0.1: a JWKS served by a
// loopback node:http server, tokens signed by jose, and every bad input its
// own test with its status, its WWW-Authenticate and a handler that never ran.
import { request as httpRequest } from "node:http";
import { SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jwtVerifier } from "../../src/auth/index.js";
import { McpServer, type RequestContext, serveStdio } from "../../src/index.js";
import { headersFor, request } from "../helpers.js";
import { ISSUER, jwksServer, makeKey, serveMcp, sign, type TestKey, unsecured } from "./fixture.js";

type Message = Record<string, any>;

/** How many times each handler ran. */
const runs: Record<string, number> = {};
const ran = (name: string) => {
  runs[name] = (runs[name] ?? 0) + 1;
};

function protectedServer(): McpServer {
  const mcp = new McpServer({ name: "protected", version: "1.0.0" }, { requestStateKeys: [Buffer.alloc(32, 7)] });
  mcp.registerTool("whoami", {}, (_args, ctx: RequestContext) => {
    ran("whoami");
    return { resultType: "complete", content: [], structuredContent: { auth: ctx.auth ?? null, assigns: ctx.assigns } } as never;
  });
  mcp.registerTool("deploy", { requiredScopes: ["deploy", "admin:write"] }, () => {
    ran("deploy");
    return "deployed";
  });
  mcp.registerPrompt(
    "secret-prompt",
    {
      requiredScopes: ["prompts:secret"],
      arguments: [{ name: "topic" }],
      complete: {
        topic: () => {
          ran("complete");
          return ["secret topic"];
        },
      },
    },
    () => {
      ran("secret-prompt");
      return "a secret";
    },
  );
  mcp.registerResource("secret", "file:///secret.txt", { requiredScopes: ["files:read"] }, () => {
    ran("secret-resource");
    return "the secret";
  });
  mcp.registerResourceTemplate("docs", "file:///docs/{name}", { requiredScopes: ["docs:read"] }, () => {
    ran("docs");
    return "a doc";
  });
  return mcp;
}

let k1: TestKey;
let stranger: TestKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let served: Awaited<ReturnType<typeof serveMcp>>;
let resource: string;
let metadataUrl: string;

beforeAll(async () => {
  k1 = await makeKey("k1");
  // Same kid as k1, another key: a forged signature for a kid the JWKS has.
  stranger = await makeKey("k1");
  jwks = await jwksServer([k1]);
  served = await serveMcp(protectedServer(), (url) => ({
    auth: {
      verifyAccessToken: jwtVerifier({ jwksUrl: jwks.url, issuer: ISSUER, audience: url }),
      resourceMetadata: { resource: url, authorizationServers: [ISSUER], scopesSupported: ["mcp"], resourceName: "Protected test server" },
    },
    assigns: (header) => ({ tenant: header("x-tenant") ?? "none" }),
  }));
  resource = served.resource;
  metadataUrl = `${served.origin}/.well-known/oauth-protected-resource/mcp`;
});

afterAll(async () => {
  await served.stop();
  await jwks.stop();
});

beforeEach(() => {
  for (const key of Object.keys(runs)) delete runs[key];
});

async function call(body: Message, headers: Record<string, string> = {}, url = resource) {
  const response = await fetch(url, { method: "POST", headers: { ...headersFor(body as never), ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, challenge: response.headers.get("www-authenticate"), text, body: text ? JSON.parse(text) : undefined };
}

const toolCall = (name: string) => request("tools/call", { name, arguments: {} });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("protected resource metadata (RFC 9728)", () => {
  it("is served at the well-known path derived from the endpoint, without a token", async () => {
    const response = await fetch(metadataUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({
      resource,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp"],
      resource_name: "Protected test server",
    });
  });

  it("is served at the root well-known path too, and other methods get 405", async () => {
    const root = await fetch(`${served.origin}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(200);
    expect((await root.json()).resource).toBe(resource);
    const post = await fetch(metadataUrl, { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("other paths are still not found", async () => {
    const response = await fetch(`${served.origin}/.well-known/oauth-protected-resource/other`);
    expect(response.status).toBe(404);
  });
});

describe("a valid token", () => {
  it("reaches the handler, which sees ctx.auth and the assigns", async () => {
    const token = await sign(k1, resource, { scope: "mcp extra" });
    const answer = await call(toolCall("whoami"), { ...bearer(token), "x-tenant": "t1" });
    expect(answer.status).toBe(200);
    const seen = answer.body.result.structuredContent;
    expect(seen.auth).toMatchObject({ subject: "alice", clientId: "app-1", scopes: ["mcp", "extra"] });
    expect(seen.auth.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(seen.auth.claims.iss).toBe(ISSUER);
    expect(seen.assigns).toEqual({ tenant: "t1" });
    expect(runs.whoami).toBe(1);
  });

  it("reads scopes from scp when there is no scope claim", async () => {
    const token = await sign(k1, resource, { scope: undefined, scp: ["deploy", "admin:write"] });
    const answer = await call(toolCall("deploy"), bearer(token));
    expect(answer.status).toBe(200);
    expect(runs.deploy).toBe(1);
  });
});

/** Asserts a refusal of the token check: status, the challenge's parts, no handler run, and the token nowhere in the answer. */
function expectRefused(answer: Awaited<ReturnType<typeof call>>, status: number, error: string | undefined, token?: string) {
  expect(answer.status).toBe(status);
  expect(answer.challenge).toContain(`Bearer resource_metadata="${metadataUrl}"`);
  if (error === undefined) expect(answer.challenge).not.toContain("error=");
  else expect(answer.challenge).toContain(`error="${error}"`);
  expect(answer.body.jsonrpc).toBe("2.0");
  expect(answer.body.error.code).toBe(-32600);
  expect(Object.keys(runs)).toEqual([]);
  if (token !== undefined) {
    expect(answer.text).not.toContain(token);
    expect(answer.challenge).not.toContain(token);
  }
}

describe("bad input: each refused before the handler runs", () => {
  it("no token: 401 with resource_metadata and scope, no error code", async () => {
    const answer = await call(toolCall("whoami"));
    expectRefused(answer, 401, undefined);
    expect(answer.challenge).toBe(`Bearer resource_metadata="${metadataUrl}", scope="mcp"`);
  });

  it.each([
    ["another scheme", "Basic YWxpY2U6c2VjcmV0"],
    ["Bearer without a token", "Bearer"],
    ["Bearer with two parts", "Bearer abc def"],
    ["a token that is no token68", "Bearer abc=def"],
    ["two headers joined", "Bearer abc, Bearer def"],
  ])("malformed Authorization (%s): 400 invalid_request", async (_label, value) => {
    const answer = await call(toolCall("whoami"), { authorization: value });
    expectRefused(answer, 400, "invalid_request");
  });

  it("two Authorization header lines: 400 invalid_request (Node would keep only the first)", async () => {
    const token = await sign(k1, resource);
    const body = JSON.stringify(toolCall("whoami"));
    const { status, challenge } = await new Promise<{ status: number; challenge: string | undefined }>((resolve, reject) => {
      const url = new URL(resource);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          // A flat list of names and values: Node sends each pair as its own line.
          headers: [
            "host",
            url.host,
            ...Object.entries(headersFor(JSON.parse(body))).flat(),
            "authorization",
            `Bearer ${token}`,
            "authorization",
            `Bearer ${token}`,
          ],
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode!, challenge: res.headers["www-authenticate"] }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(status).toBe(400);
    expect(challenge).toContain('error="invalid_request"');
    expect(runs.whoami).toBeUndefined();
  });

  it("a token in the query string: 400 invalid_request", async () => {
    const token = await sign(k1, resource);
    const answer = await call(toolCall("whoami"), bearer(token), `${resource}?access_token=${token}`);
    expectRefused(answer, 400, "invalid_request", token);
  });

  it("an expired token: 401 invalid_token", async () => {
    const token = await sign(k1, resource, { exp: Math.floor(Date.now() / 1000) - 60 });
    expectRefused(await call(toolCall("whoami"), bearer(token)), 401, "invalid_token", token);
  });

  it("a token not yet valid (nbf ahead): 401 invalid_token", async () => {
    const token = await sign(k1, resource, { nbf: Math.floor(Date.now() / 1000) + 120 });
    expectRefused(await call(toolCall("whoami"), bearer(token)), 401, "invalid_token", token);
  });

  it("a token without exp: 401 invalid_token", async () => {
    const token = await new SignJWT({ sub: "alice", scope: "mcp" })
      .setProtectedHeader({ alg: "ES256", kid: k1.kid })
      .setIssuer(ISSUER)
      .setAudience(resource)
      .sign(k1.privateKey);
    expectRefused(await call(toolCall("whoami"), bearer(token)), 401, "invalid_token", token);
  });

  it("a token for another audience: 401 invalid_token", async () => {
    const token = await sign(k1, resource, { aud: "http://127.0.0.1:1/other-mcp" });
    expectRefused(await call(toolCall("whoami"), bearer(token)), 401, "invalid_token", token);
  });

  it("a token of another issuer: 401 invalid_token", async () => {
    const token = await sign(k1, resource, { iss: "https://evil.example" });
    expectRefused(await call(toolCall("whoami"), bearer(token)), 401, "invalid_token", token);
  });

  it("alg none: 401 invalid_token", async () => {
    const token = unsecured(resource);
    expectRefused(await call(toolCall("whoami"), bearer(token)), 401, "invalid_token", token);
  });

  it("a signature by a key not in the JWKS (same kid): 401 invalid_token", async () => {
    const token = await sign(stranger, resource);
    expectRefused(await call(toolCall("whoami"), bearer(token)), 401, "invalid_token", token);
  });

  it("a signature by a key not in the JWKS (unknown kid): 401 invalid_token", async () => {
    const unknown = await makeKey("nobody");
    const token = await sign(unknown, resource);
    expectRefused(await call(toolCall("whoami"), bearer(token)), 401, "invalid_token", token);
  });

  it("garbage that is token68 but no JWT: 401 invalid_token", async () => {
    expectRefused(await call(toolCall("whoami"), bearer("not-a-jwt")), 401, "invalid_token", "not-a-jwt");
  });

  it("too few scopes on a scoped tool: 403 insufficient_scope naming all its scopes", async () => {
    const token = await sign(k1, resource, { scope: "mcp deploy" });
    const answer = await call(toolCall("deploy"), bearer(token));
    expect(answer.status).toBe(403);
    expect(answer.challenge).toBe(
      `Bearer resource_metadata="${metadataUrl}", error="insufficient_scope", error_description="tools/call of this tool needs more scopes", scope="deploy admin:write"`,
    );
    expect(answer.body.id).toBeDefined();
    expect(runs.deploy).toBeUndefined();
  });

  it("too few scopes on a scoped prompt, resource and template: 403 each", async () => {
    const token = await sign(k1, resource);
    const prompt = await call(request("prompts/get", { name: "secret-prompt" }), bearer(token));
    expect(prompt.status).toBe(403);
    expect(prompt.challenge).toContain('scope="prompts:secret"');
    const read = await call(request("resources/read", { uri: "file:///secret.txt" }), bearer(token));
    expect(read.status).toBe(403);
    expect(read.challenge).toContain('scope="files:read"');
    const doc = await call(request("resources/read", { uri: "file:///docs/a" }), bearer(token));
    expect(doc.status).toBe(403);
    expect(doc.challenge).toContain('scope="docs:read"');
    expect(Object.keys(runs)).toEqual([]);
    const enough = await sign(k1, resource, { scope: "docs:read" });
    expect((await call(request("resources/read", { uri: "file:///docs/a" }), bearer(enough))).status).toBe(200);
    expect(runs.docs).toBe(1);
  });

  it("completing a scoped prompt's argument needs the prompt's scopes: 403, then 200 with them", async () => {
    const complete = () =>
      request("completion/complete", { ref: { type: "ref/prompt", name: "secret-prompt" }, argument: { name: "topic", value: "s" } });
    const short = await call(complete(), bearer(await sign(k1, resource)));
    expect(short.status).toBe(403);
    expect(short.challenge).toContain('scope="prompts:secret"');
    expect(runs.complete).toBeUndefined();
    const enough = await call(complete(), bearer(await sign(k1, resource, { scope: "prompts:secret" })));
    expect(enough.status).toBe(200);
    expect(enough.body.result.completion.values).toEqual(["secret topic"]);
  });

  it("scoped tools are still listed to a token without their scopes", async () => {
    const token = await sign(k1, resource);
    const answer = await call(request("tools/list"), bearer(token));
    expect(answer.status).toBe(200);
    expect(answer.body.result.tools.map((t: Message) => t.name)).toContain("deploy");
  });
});

describe("server-wide requiredScopes", () => {
  it("a token without them gets 403 insufficient_scope on every request; the 401 challenge names them", async () => {
    const key = await makeKey("wide");
    const keys = await jwksServer([key]);
    const mcp = protectedServer();
    const wide = await serveMcp(mcp, (url) => ({
      auth: {
        verifyAccessToken: jwtVerifier({ jwksUrl: keys.url, issuer: ISSUER, audience: url }),
        resourceMetadata: { resource: url, authorizationServers: [ISSUER], scopesSupported: ["mcp"] },
        requiredScopes: ["mcp:use"],
      },
    }));
    try {
      const none = await call(toolCall("whoami"), {}, wide.resource);
      expect(none.status).toBe(401);
      expect(none.challenge).toContain('scope="mcp:use"');
      const short = await call(toolCall("whoami"), bearer(await sign(key, wide.resource)), wide.resource);
      expect(short.status).toBe(403);
      expect(short.challenge).toContain('error="insufficient_scope"');
      expect(short.challenge).toContain('scope="mcp:use"');
      expect(runs.whoami).toBeUndefined();
      const ok = await call(toolCall("whoami"), bearer(await sign(key, wide.resource, { scope: "mcp:use" })), wide.resource);
      expect(ok.status).toBe(200);
      expect(runs.whoami).toBe(1);
    } finally {
      await wide.stop();
      await keys.stop();
    }
  });
});

describe("a JWKS that rotates", () => {
  it("accepts the new key after a refetch, refuses the old one once removed (a replayed token)", async () => {
    const old = await makeKey("old");
    const fresh = await makeKey("new");
    const keys = await jwksServer([old]);
    const rotating = await serveMcp(protectedServer(), (url) => ({
      auth: {
        // No cooldown: a token with an unknown kid refetches at once.
        verifyAccessToken: jwtVerifier({ jwksUrl: keys.url, issuer: ISSUER, audience: url, jwksCooldownMs: 0 }),
        resourceMetadata: { resource: url, authorizationServers: [ISSUER] },
      },
    }));
    try {
      const oldToken = await sign(old, rotating.resource);
      expect((await call(toolCall("whoami"), bearer(oldToken), rotating.resource)).status).toBe(200);
      expect(keys.state.fetches).toBe(1);
      keys.state.keys = [fresh];
      const freshToken = await sign(fresh, rotating.resource);
      expect((await call(toolCall("whoami"), bearer(freshToken), rotating.resource)).status).toBe(200);
      expect(keys.state.fetches).toBe(2);
      expect(runs.whoami).toBe(2);
      const replay = await call(toolCall("whoami"), bearer(oldToken), rotating.resource);
      expect(replay.status).toBe(401);
      expect(replay.challenge).toContain('error="invalid_token"');
      expect(runs.whoami).toBe(2);
    } finally {
      await rotating.stop();
      await keys.stop();
    }
  });

  it("an unreachable JWKS: 503 with Retry-After, not 401", async () => {
    const key = await makeKey("gone");
    const keys = await jwksServer([key]);
    const url = keys.url;
    await keys.stop();
    const down = await serveMcp(protectedServer(), (resource) => ({
      auth: {
        verifyAccessToken: jwtVerifier({ jwksUrl: url, issuer: ISSUER, audience: resource }),
        resourceMetadata: { resource, authorizationServers: [ISSUER] },
      },
    }));
    try {
      const answer = await call(toolCall("whoami"), bearer(await sign(key, down.resource)), down.resource);
      expect(answer.status).toBe(503);
      expect(answer.challenge).toBeNull();
      expect(runs.whoami).toBeUndefined();
    } finally {
      await down.stop();
    }
  });
});

describe("options checked up front", () => {
  it("jwtVerifier refuses alg none, HS256, and missing issuer/audience/keys", () => {
    expect(() => jwtVerifier({ jwksUrl: "http://127.0.0.1:1/jwks", issuer: ISSUER, audience: "x", algorithms: ["none"] })).toThrow(
      TypeError,
    );
    expect(() => jwtVerifier({ jwksUrl: "http://127.0.0.1:1/jwks", issuer: ISSUER, audience: "x", algorithms: ["HS256"] })).toThrow(
      TypeError,
    );
    expect(() => jwtVerifier({ jwksUrl: "http://127.0.0.1:1/jwks", issuer: "", audience: "x" })).toThrow(/issuer/);
    expect(() => jwtVerifier({ jwksUrl: "http://127.0.0.1:1/jwks", issuer: ISSUER, audience: "" })).toThrow(/audience/);
    expect(() => jwtVerifier({ issuer: ISSUER, audience: "x" })).toThrow(/jwksUrl/);
  });

  it("a resource URL with a fragment, or no authorization server, is refused when the handler is made", async () => {
    const mcp = new McpServer({ name: "x", version: "1" });
    const verifyAccessToken = () => undefined;
    await expect(
      serveMcp(mcp, () => ({
        auth: { verifyAccessToken, resourceMetadata: { resource: "https://a.example/mcp#x", authorizationServers: [ISSUER] } },
      })),
    ).rejects.toThrow(TypeError);
    await expect(
      serveMcp(mcp, () => ({
        auth: { verifyAccessToken, resourceMetadata: { resource: "https://a.example/mcp", authorizationServers: [] } },
      })),
    ).rejects.toThrow(/authorization server/);
  });

  it("requiredScopes with a space is refused at registration", () => {
    const mcp = new McpServer({ name: "x", version: "1" });
    expect(() => mcp.registerTool("t", { requiredScopes: ["a b"] }, () => "x")).toThrow(/scope tokens/);
    expect(() => mcp.registerPrompt("p", { requiredScopes: ['a"'] }, () => "x")).toThrow(/scope tokens/);
  });

  it("stdio refuses the auth option", () => {
    const mcp = new McpServer({ name: "x", version: "1" });
    expect(() => serveStdio(mcp, { auth: {} } as never)).toThrow(/stdio takes no OAuth/);
  });
});
