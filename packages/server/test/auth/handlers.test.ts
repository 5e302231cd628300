// The `auth` option on the fetch-style handler (metadata by URL path, the
// challenges, CORS exposing WWW-Authenticate), with a verifier hook of the
// application's own; and the bundles: jose only in one that imports
// `@x/server/auth`.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundle } from "../../../../test-support/bundle.js";
import { type AuthInfo, createFetchHandler, McpServer, type RequestContext } from "../../src/index.js";
import { headersFor, request } from "../helpers.js";

const here = dirname(fileURLToPath(import.meta.url));
const resource = "http://localhost/api/mcp";

function handler(verify: (token: string) => AuthInfo | undefined | Promise<AuthInfo | undefined>) {
  const mcp = new McpServer({ name: "f", version: "1" });
  let runs = 0;
  mcp.registerTool("whoami", {}, (_a, ctx: RequestContext) => {
    runs++;
    return `${ctx.auth?.subject} ${JSON.stringify(ctx.assigns)}`;
  });
  const handle = createFetchHandler(mcp, {
    cors: { origins: ["http://localhost:5173"] },
    auth: {
      verifyAccessToken: verify,
      resourceMetadata: {
        resource,
        authorizationServers: ["https://as.example"],
        extra: { resource_signing_alg_values_supported: ["ES256"] },
      },
    },
  });
  return { handle, runs: () => runs };
}

function post(body: ReturnType<typeof request>, headers: Record<string, string> = {}) {
  return new Request(resource, { method: "POST", headers: { ...headersFor(body), ...headers }, body: JSON.stringify(body) });
}

describe("createFetchHandler with auth", () => {
  it("answers the metadata at the well-known path of /api/mcp, HEAD and its preflight too", async () => {
    const { handle } = handler(() => undefined);
    const got = await handle(new Request("http://localhost/.well-known/oauth-protected-resource/api/mcp"));
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual({
      resource_signing_alg_values_supported: ["ES256"],
      resource,
      authorization_servers: ["https://as.example"],
      bearer_methods_supported: ["header"],
    });
    const head = await handle(new Request("http://localhost/.well-known/oauth-protected-resource/api/mcp", { method: "HEAD" }));
    expect(head.status).toBe(200);
    const pre = await handle(
      new Request("http://localhost/.well-known/oauth-protected-resource", {
        method: "OPTIONS",
        headers: { origin: "http://localhost:5173" },
      }),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("a 401 to a CORS origin exposes WWW-Authenticate to the page; no scope known, none sent", async () => {
    const { handle, runs } = handler(() => undefined);
    const answer = await handle(post(request("tools/call", { name: "whoami", arguments: {} }), { origin: "http://localhost:5173" }));
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/api/mcp"',
    );
    expect(answer.headers.get("access-control-expose-headers")).toContain("www-authenticate");
    expect(runs()).toBe(0);
  });

  it("an application's own verifier: its AuthInfo reaches ctx.auth and its assigns ctx.assigns", async () => {
    const { handle, runs } = handler((token) =>
      token === "let-me-in" ? { subject: "sam", scopes: [], assigns: { plan: "pro" } } : undefined,
    );
    const answer = await handle(post(request("tools/call", { name: "whoami", arguments: {} }), { authorization: "Bearer let-me-in" }));
    expect(answer.status).toBe(200);
    expect((await answer.json()).result.content[0].text).toBe('sam {"plan":"pro"}');
    expect(runs()).toBe(1);
  });

  it("a verifier whose AuthInfo has expired is refused with 401 invalid_token", async () => {
    const { handle, runs } = handler(() => ({ subject: "sam", scopes: [], expiresAt: Math.floor(Date.now() / 1000) - 1 }));
    const answer = await handle(post(request("tools/call", { name: "whoami", arguments: {} }), { authorization: "Bearer old" }));
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toContain('error="invalid_token", error_description="the access token has expired"');
    expect(runs()).toBe(0);
  });

  it("a verifier that throws: 503, the error text not sent", async () => {
    const { handle } = handler(() => {
      throw new Error("db password is hunter2");
    });
    const answer = await handle(post(request("tools/call", { name: "whoami", arguments: {} }), { authorization: "Bearer x" }));
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(await answer.text()).not.toContain("hunter2");
  });
});

describe("bundles", () => {
  it("a server bundled from @x/server carries no jose; one that imports @x/server/auth does", async () => {
    const root = JSON.stringify(join(here, "..", "..", "dist", "index.js"));
    const auth = JSON.stringify(join(here, "..", "..", "dist", "auth", "index.js"));
    const plain = `import { McpServer, createFetchHandler } from ${root}; createFetchHandler(new McpServer({ name: "m", version: "1" }), { auth: { verifyAccessToken: () => undefined, resourceMetadata: { resource: "https://a.example/mcp", authorizationServers: ["https://as.example"] } } });`;
    const withJwt = `${plain} import { jwtVerifier } from ${auth}; jwtVerifier({ jwksUrl: "https://as.example/jwks", issuer: "https://as.example", audience: "https://a.example/mcp" });`;
    const core = await bundle(plain, here);
    const full = await bundle(withJwt, here);
    expect(core).not.toContain("createRemoteJWKSet");
    expect(full).toContain("createRemoteJWKSet");
  });
});
