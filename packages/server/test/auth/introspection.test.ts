// The introspection verifier (RFC 7662) against an introspection endpoint
// served on 127.0.0.1 (client authentication by HTTP Basic, a table of
// tokens), behind @x/server's `auth` option: active, inactive, another
// audience, the cache and its bound, and an endpoint that fails.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { introspectionVerifier } from "../../src/auth/index.js";
import { McpServer, type RequestContext } from "../../src/index.js";
import { headersFor, request } from "../helpers.js";
import { ISSUER, loopback, serveMcp } from "./fixture.js";

type Message = Record<string, any>;

const BASIC = `Basic ${Buffer.from("rs-client:rs%20secret").toString("base64")}`;
const answers = new Map<string, Message>();
const seen: { tokens: string[]; auth: (string | undefined)[] } = { tokens: [], auth: [] };
let endpoint: Awaited<ReturnType<typeof loopback>>;
let runs = 0;

async function introspectionEndpoint() {
  return loopback((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const form = new URLSearchParams(body);
      seen.auth.push(req.headers.authorization);
      if (req.headers.authorization !== BASIC) {
        res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_client"}');
        return;
      }
      const token = form.get("token") ?? "";
      seen.tokens.push(token);
      if (token === "explode") {
        res.writeHead(500).end("oops");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answers.get(token) ?? { active: false }));
    });
  });
}

function makeServer() {
  const mcp = new McpServer({ name: "i", version: "1" });
  mcp.registerTool("whoami", {}, (_a, ctx: RequestContext) => {
    runs++;
    return `${ctx.auth?.subject}/${ctx.auth?.clientId}/${ctx.auth?.scopes.join(",")}`;
  });
  return mcp;
}

let served: Awaited<ReturnType<typeof serveMcp>>;

beforeAll(async () => {
  endpoint = await introspectionEndpoint();
  served = await serveMcp(makeServer(), (url) => ({
    auth: {
      verifyAccessToken: introspectionVerifier({
        endpoint: `${endpoint.origin}/introspect`,
        clientId: "rs-client",
        clientSecret: "rs secret",
        audience: url,
        cacheSize: 2,
      }),
      resourceMetadata: { resource: url, authorizationServers: [ISSUER] },
    },
  }));
  const exp = Math.floor(Date.now() / 1000) + 300;
  answers.set("good", { active: true, sub: "alice", client_id: "app", scope: "mcp read", aud: served.resource, exp });
  answers.set("good2", { active: true, sub: "bob", scope: "mcp", exp });
  answers.set("good3", { active: true, sub: "carol", scope: "mcp", exp });
  answers.set("tok-elsewhere", { active: true, sub: "alice", aud: "https://other.example/mcp", exp });
  answers.set("tok-expired", { active: true, sub: "alice", aud: served.resource, exp: Math.floor(Date.now() / 1000) - 1 });
});

afterAll(async () => {
  await served.stop();
  await endpoint.stop();
});

beforeEach(() => {
  runs = 0;
  seen.tokens.length = 0;
  seen.auth.length = 0;
});

async function call(token: string) {
  const body = request("tools/call", { name: "whoami", arguments: {} });
  const response = await fetch(served.resource, {
    method: "POST",
    headers: { ...headersFor(body), authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate"), json: (await response.json()) as Message };
}

describe("introspectionVerifier", () => {
  it("an active token reaches the handler with its subject, client and scopes; the resource server authenticated with Basic", async () => {
    const answer = await call("good");
    expect(answer.status).toBe(200);
    expect(answer.json.result.content[0].text).toBe("alice/app/mcp,read");
    expect(seen.auth).toEqual([BASIC]);
    expect(seen.tokens).toEqual(["good"]);
  });

  it("answers are cached: a second request with the same token asks the endpoint no more", async () => {
    await call("good2");
    await call("good2");
    expect(runs).toBe(2);
    expect(seen.tokens.filter((t) => t === "good2")).toHaveLength(1);
  });

  it("the cache is bounded: past cacheSize the oldest answer is asked again", async () => {
    await call("good");
    await call("good2");
    await call("good3");
    seen.tokens.length = 0;
    await call("good3");
    await call("good");
    expect(seen.tokens).toEqual(["good"]);
  });

  it.each([
    ["an inactive (unknown or revoked) token", "tok-revoked"],
    ["a token for another audience", "tok-elsewhere"],
    ["an expired token", "tok-expired"],
  ])("%s: 401 invalid_token, handler not run", async (_label, token) => {
    const answer = await call(token);
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('error="invalid_token"');
    expect(answer.challenge).not.toContain(token);
    expect(runs).toBe(0);
  });

  it("an endpoint that fails: 503 with Retry-After, handler not run", async () => {
    const response = await call("explode");
    expect(response.status).toBe(503);
    expect(runs).toBe(0);
  });

  it("refuses options without client authentication", () => {
    expect(() => introspectionVerifier({ endpoint: "http://127.0.0.1:1/introspect" })).toThrow(TypeError);
  });
});
