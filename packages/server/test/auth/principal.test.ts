// Authorization in the initialize era (spec 2025-11-25: every request of a
// session carries the token, and a session is its opener's) and the binding
// of a 2026-07-28 requestState to the token's subject and client; real HTTP
// on 127.0.0.1 with the JWT verifier and a loopback JWKS.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jwtVerifier } from "../../src/auth/index.js";
import { McpServer, type RequestContext } from "../../src/index.js";
import { META_CLIENT_CAPABILITIES } from "@x/mcp-v2607";
import { headersFor, meta } from "../helpers.js";
import { ISSUER, jwksServer, makeKey, serveMcp, sign, type TestKey } from "./fixture.js";

type Message = Record<string, any>;

const runs: Record<string, number> = {};
const ran = (name: string) => {
  runs[name] = (runs[name] ?? 0) + 1;
};

let key: TestKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let served: Awaited<ReturnType<typeof serveMcp>>;
let alice: string;
let bob: string;
let aliceOtherApp: string;

beforeAll(async () => {
  key = await makeKey("k");
  jwks = await jwksServer([key]);
  const mcp = new McpServer({ name: "p", version: "1" }, { requestStateKeys: [Buffer.alloc(32, 3)] });
  mcp.registerTool("whoami", {}, (_a, ctx: RequestContext) => {
    ran("whoami");
    return ctx.auth?.subject ?? "nobody";
  });
  mcp.registerTool("deploy", { requiredScopes: ["deploy"] }, () => {
    ran("deploy");
    return "deployed";
  });
  mcp.registerTool("confirm", {}, async (_a, ctx: RequestContext) => {
    ran("confirm");
    const answer = await ctx.elicit("Sure?", { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] });
    return `${ctx.auth?.subject}: ${answer.action}`;
  });
  served = await serveMcp(mcp, (url) => ({
    auth: {
      verifyAccessToken: jwtVerifier({ jwksUrl: jwks.url, issuer: ISSUER, audience: url }),
      resourceMetadata: { resource: url, authorizationServers: [ISSUER] },
    },
  }));
  alice = await sign(key, served.resource);
  bob = await sign(key, served.resource, { sub: "bob" });
  aliceOtherApp = await sign(key, served.resource, { client_id: "app-2" });
});

afterAll(async () => {
  await served.stop();
  await jwks.stop();
});

beforeEach(() => {
  for (const k of Object.keys(runs)) delete runs[k];
});

let nextId = 1;
const JSON_AND_SSE = "application/json, text/event-stream";

async function post(body: Message, headers: Record<string, string>) {
  const response = await fetch(served.resource, {
    method: "POST",
    headers: { "content-type": "application/json", accept: JSON_AND_SSE, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = text.startsWith("{")
    ? JSON.parse(text)
    : text.includes("data: {")
      ? JSON.parse(text.slice(text.lastIndexOf("data: {") + 6))
      : undefined;
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate"),
    session: response.headers.get("mcp-session-id"),
    json,
  };
}

/** Opens a session with `token`; returns the headers of its later requests (without the token). */
async function open(token: string) {
  const init = await post(
    {
      jsonrpc: "2.0",
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
    { authorization: `Bearer ${token}` },
  );
  expect(init.status).toBe(200);
  const headers = { "mcp-session-id": init.session!, "mcp-protocol-version": "2025-11-25" };
  expect(
    (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { ...headers, authorization: `Bearer ${token}` })).status,
  ).toBe(202);
  return headers;
}

const legacyCall = (name: string) => ({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: {} } });

describe("the initialize era", () => {
  it("initialize without a token: 401 with the challenge, no session minted", async () => {
    const init = await post(
      {
        jsonrpc: "2.0",
        id: nextId++,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
      {},
    );
    expect(init.status).toBe(401);
    expect(init.challenge).toMatch(/^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/);
    expect(init.session).toBeNull();
  });

  it("each request of a session needs the token: with it 200, without it 401, with a bad one 401 invalid_token", async () => {
    const headers = await open(alice);
    const ok = await post(legacyCall("whoami"), { ...headers, authorization: `Bearer ${alice}` });
    expect(ok.status).toBe(200);
    expect(ok.json.result.content[0].text).toBe("alice");
    const none = await post(legacyCall("whoami"), headers);
    expect(none.status).toBe(401);
    const expired = await sign(key, served.resource, { exp: Math.floor(Date.now() / 1000) - 5 });
    const bad = await post(legacyCall("whoami"), { ...headers, authorization: `Bearer ${expired}` });
    expect(bad.status).toBe(401);
    expect(bad.challenge).toContain('error="invalid_token"');
    expect(runs.whoami).toBe(1);
  });

  it("another subject's token on the session: 404 as for an unknown session, handler not run", async () => {
    const headers = await open(alice);
    const stolen = await post(legacyCall("whoami"), { ...headers, authorization: `Bearer ${bob}` });
    expect(stolen.status).toBe(404);
    expect(runs.whoami).toBeUndefined();
  });

  it("the same subject through another client: 404 too", async () => {
    const headers = await open(alice);
    const other = await post(legacyCall("whoami"), { ...headers, authorization: `Bearer ${aliceOtherApp}` });
    expect(other.status).toBe(404);
  });

  it("GET stream and DELETE of a session need the opener's token", async () => {
    const headers = await open(alice);
    const noToken = await fetch(served.resource, { method: "GET", headers: { ...headers, accept: "text/event-stream" } });
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get("www-authenticate")).toContain("resource_metadata=");
    const stolen = await fetch(served.resource, { method: "DELETE", headers: { ...headers, authorization: `Bearer ${bob}` } });
    expect(stolen.status).toBe(404);
    const own = await fetch(served.resource, { method: "DELETE", headers: { ...headers, authorization: `Bearer ${alice}` } });
    expect(own.status).toBe(200);
    const after = await post(legacyCall("whoami"), { ...headers, authorization: `Bearer ${alice}` });
    expect(after.status).toBe(404);
  });

  it("a scoped tool with too few scopes: 403 insufficient_scope on the session too", async () => {
    const headers = await open(alice);
    const answer = await post(legacyCall("deploy"), { ...headers, authorization: `Bearer ${alice}` });
    expect(answer.status).toBe(403);
    expect(answer.challenge).toContain('error="insufficient_scope"');
    expect(answer.challenge).toContain('scope="deploy"');
    expect(runs.deploy).toBeUndefined();
  });
});

/** A tools/call whose client declares elicitation (so the tool's ask goes out as input_required). */
const request = (method: string, params: Message) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method,
  params: { ...params, _meta: meta({ [META_CLIENT_CAPABILITIES]: { elicitation: {} } }) },
});

describe("2026-07-28 requestState", () => {
  async function call(body: Message, token: string) {
    const response = await fetch(served.resource, {
      method: "POST",
      headers: { ...headersFor(body as never), authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  it("is bound to the token's subject and client by default: another principal's retry is refused before the handler runs", async () => {
    const first = await call(request("tools/call", { name: "confirm", arguments: {} }), alice);
    expect(first.json.result.resultType).toBe("input_required");
    const state = first.json.result.requestState as string;
    expect(typeof state).toBe("string");
    const [askId] = Object.keys(first.json.result.inputRequests);
    const retry = {
      name: "confirm",
      arguments: {},
      requestState: state,
      inputResponses: { [askId!]: { action: "accept", content: { ok: true } } },
    };
    expect(runs.confirm).toBe(1);
    for (const other of [bob, aliceOtherApp]) {
      const refused = await call(request("tools/call", retry), other);
      expect(refused.json.error.code).toBe(-32602);
      expect(refused.json.error.message).toContain("another principal");
    }
    expect(runs.confirm).toBe(1);
    const own = await call(request("tools/call", retry), alice);
    expect(own.json.result.content[0].text).toBe("alice: accept");
    expect(runs.confirm).toBe(2);
  });
});
