// An authorization server that fails is not the token's fault: whatever
// keeps the ready verifiers from getting keys (JWKS) or an answer
// (introspection) is 503 with Retry-After, never 401 invalid_token, which
// would send the client to re-authorize during the outage. Only a token
// actually checked and found bad is 401. Real loopback endpoints on
// 127.0.0.1 switch between failing and healthy; a fresh verifier per test, so
// no key set or answer is cached from an earlier one.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { introspectionVerifier, jwtVerifier, MAX_AUTH_RESPONSE_BYTES } from "../../src/auth/index.js";
import { McpServer, type VerifyAccessToken } from "../../src/index.js";
import { headersFor, request } from "../helpers.js";
import { ISSUER, loopback, makeKey, serveMcp, sign, type TestKey } from "./fixture.js";

/** How a failing endpoint fails; `ok` answers properly. */
type Failure = "500" | "503" | "html" | "not-json" | "not-a-key-set" | "not-an-answer" | "reset" | "silent";
type Mode = Failure | "ok";

/** Answers `res` the way `mode` fails. */
function fail(mode: Failure, req: IncomingMessage, res: ServerResponse): void {
  switch (mode) {
    case "500":
      res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
      return;
    case "503":
      res.writeHead(503, { "content-type": "text/plain", "retry-after": "30" }).end("down for maintenance");
      return;
    case "html":
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Sign in to the proxy</body></html>");
      return;
    case "not-json":
      res.writeHead(200, { "content-type": "application/json" }).end('{"keys": [');
      return;
    case "not-a-key-set":
      res.writeHead(200, { "content-type": "application/json" }).end('{"keys": "none today"}');
      return;
    case "not-an-answer":
      // JSON, but no introspection answer: RFC 7662 section 2.2 requires a boolean `active`.
      res.writeHead(200, { "content-type": "application/json" }).end('{"error": "temporarily_unavailable"}');
      return;
    case "reset":
      req.socket.resetAndDestroy();
      return;
    case "silent":
      // Never answered: the verifier's time-out ends the wait (see expireTimeouts); the connection is closed when the endpoint stops.
      return;
  }
}

/** An endpoint whose `mode` a test switches; `asked` counts requests, `askedTimes(n)` resolves once it reached `n`. */
async function endpoint(healthy: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const state: { mode: Mode; asked: number } = { mode: "ok", asked: 0 };
  const waiting: { n: number; resolve: () => void }[] = [];
  const server = await loopback((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      state.asked++;
      for (const w of waiting.filter((w) => w.n <= state.asked)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
      if (state.mode === "ok") healthy(req, res, body);
      else fail(state.mode, req, res);
    });
  });
  const askedTimes = (n: number) => (state.asked >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve })));
  return { ...server, state, askedTimes };
}

/**
 * Both verifiers bound each request to their endpoint with
 * `AbortSignal.timeout`. Here it makes a signal that only the test ends
 * (`expireTimeouts`, once the silent endpoint holds the request), so that
 * no answer is cut short by a busy machine, and a silent endpoint's wait
 * ends when the test says, as the verifier's time-out would end it.
 */
const realTimeout = AbortSignal.timeout;
const timeouts: AbortController[] = [];
beforeEach(() => {
  AbortSignal.timeout = () => {
    const controller = new AbortController();
    timeouts.push(controller);
    return controller.signal;
  };
});
afterEach(() => {
  AbortSignal.timeout = realTimeout;
  timeouts.length = 0;
});
/** Ends every time-out signal made so far with the reason AbortSignal.timeout gives. */
function expireTimeouts(): void {
  for (const controller of timeouts.splice(0)) {
    controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
  }
}

let runs = 0;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  runs = 0;
});

/** A server protected by `verifier(resource)`; stopped after the test. */
async function protect(verifier: (resource: string) => VerifyAccessToken) {
  const mcp = new McpServer({ name: "outage", version: "1" });
  mcp.registerTool("whoami", {}, (_a, ctx) => {
    runs++;
    return ctx.auth?.subject ?? "nobody";
  });
  const served = await serveMcp(mcp, (resource) => ({
    auth: { verifyAccessToken: verifier(resource), resourceMetadata: { resource, authorizationServers: [ISSUER] } },
  }));
  stops.push(served.stop);
  return served;
}

async function call(resource: string, token: string) {
  const body = request("tools/call", { name: "whoami", arguments: {} });
  const response = await fetch(resource, {
    method: "POST",
    headers: { ...headersFor(body), authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    challenge: response.headers.get("www-authenticate"),
    json: JSON.parse(text),
  };
}

/** The answer to a token that could not be checked: 503, Retry-After, no challenge, handler not run. */
function expectUnavailable(answer: Awaited<ReturnType<typeof call>>) {
  expect(answer.status).toBe(503);
  expect(answer.retryAfter).toBe("1");
  expect(answer.challenge).toBeNull();
  expect(answer.json.error.code).toBe(-32603);
  expect(runs).toBe(0);
}

/**
 * A call through a verifier whose endpoint fails in `mode`: a silent
 * endpoint's wait is ended by the time-out once the endpoint holds the
 * request (its `n`-th), as the verifier's own time-out would end it.
 */
async function failingCall(
  mode: Failure,
  endpointOf: { askedTimes: (n: number) => Promise<void> },
  n: number,
  resource: string,
  token: string,
) {
  const answer = call(resource, token);
  if (mode === "silent") {
    await endpointOf.askedTimes(n);
    expireTimeouts();
  }
  return answer;
}

describe("jwtVerifier with a failing JWKS endpoint", () => {
  let key: TestKey;
  let stranger: TestKey;

  async function setup() {
    key ??= await makeKey("k1");
    // Same kid, another key: a signature the healthy JWKS does not verify.
    stranger ??= await makeKey("k1");
    const jwks = await endpoint((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [key.jwk] }));
    });
    stops.push(jwks.stop);
    const served = await protect((audience) => jwtVerifier({ jwksUrl: `${jwks.origin}/jwks`, issuer: ISSUER, audience }));
    return { jwks, served };
  }

  it.each<Failure>(["500", "503", "html", "not-json", "not-a-key-set", "reset", "silent"])(
    "JWKS %s: a valid token gets 503 with Retry-After, never 401; once the JWKS recovers the same token passes and a forged one is 401",
    async (mode) => {
      const { jwks, served } = await setup();
      const token = await sign(key, served.resource);
      jwks.state.mode = mode;
      expectUnavailable(await failingCall(mode, jwks, 1, served.resource, token));
      expect(jwks.state.asked).toBe(1);
      // Still failing: asked again (a failed fetch caches nothing), still 503.
      expectUnavailable(await failingCall(mode, jwks, 2, served.resource, token));
      expect(jwks.state.asked).toBe(2);
      jwks.state.mode = "ok";
      const recovered = await call(served.resource, token);
      expect(recovered.status).toBe(200);
      expect(recovered.json.result.content[0].text).toBe("alice");
      const forged = await call(served.resource, await sign(stranger, served.resource));
      expect(forged.status).toBe(401);
      expect(forged.challenge).toContain('error="invalid_token"');
      expect(runs).toBe(1);
    },
  );
});

describe("introspectionVerifier with a failing endpoint", () => {
  async function setup() {
    const introspection = await endpoint((_req, res, body) => {
      const token = new URLSearchParams(body).get("token");
      const answer = token === "good" ? { active: true, sub: "alice", scope: "mcp" } : { active: false };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
    stops.push(introspection.stop);
    const served = await protect(() =>
      introspectionVerifier({
        endpoint: `${introspection.origin}/introspect`,
        clientId: "rs",
        clientSecret: "secret",
      }),
    );
    return { introspection, served };
  }

  it.each<Failure>(["500", "503", "html", "not-json", "not-a-key-set", "not-an-answer", "reset", "silent"])(
    "endpoint %s: an active token gets 503 with Retry-After, never 401; once it recovers the same token passes and an inactive one is 401",
    async (mode) => {
      const { introspection, served } = await setup();
      introspection.state.mode = mode;
      expectUnavailable(await failingCall(mode, introspection, 1, served.resource, "good"));
      expect(introspection.state.asked).toBe(1);
      // A failure is not cached: asked again, still 503.
      expectUnavailable(await failingCall(mode, introspection, 2, served.resource, "good"));
      expect(introspection.state.asked).toBe(2);
      introspection.state.mode = "ok";
      const recovered = await call(served.resource, "good");
      expect(recovered.status).toBe(200);
      expect(recovered.json.result.content[0].text).toBe("alice");
      const inactive = await call(served.resource, "revoked");
      expect(inactive.status).toBe(401);
      expect(inactive.challenge).toContain('error="invalid_token"');
      expect(runs).toBe(1);
    },
  );
});

describe("an answer of 50 MiB", () => {
  it.each(["introspection", "jwks"] as const)(
    "from the %s endpoint is its failure: 503 with Retry-After, and the connection is closed long before its end",
    async (kind) => {
      const FLOOD = 50 * 1024 * 1024;
      const chunk = Buffer.alloc(64 * 1024, "x");
      let written = 0;
      let hungUp!: () => void;
      const closed = new Promise<void>((resolve) => {
        hungUp = resolve;
      });
      // A valid answer once whole: only the size bound can refuse it.
      const flood = await loopback((req, res) => {
        req.resume();
        req.on("end", () => {
          res.on("close", hungUp);
          res.writeHead(200, { "content-type": "application/json" });
          res.write(kind === "introspection" ? '{"active":true,"sub":"alice","scope":"mcp","pad":"' : '{"keys":[],"pad":"');
          // Writes until the peer stops reading; `written` grows each turn, so at most FLOOD / 64 KiB of them.
          const pump = () => {
            while (written < FLOOD && !res.destroyed) {
              written += chunk.byteLength;
              if (!res.write(chunk)) return;
            }
            if (!res.destroyed) res.end('"}');
          };
          res.on("drain", pump);
          pump();
        });
      });
      stops.push(flood.stop);
      // A time-out far beyond reading 50 MiB: what stops the read must be the size bound.
      const served = await protect((audience) =>
        kind === "introspection"
          ? introspectionVerifier({ endpoint: `${flood.origin}/introspect`, clientId: "rs", clientSecret: "secret", timeoutMs: 600_000 })
          : jwtVerifier({ jwksUrl: `${flood.origin}/jwks`, issuer: ISSUER, audience, jwksTimeoutMs: 600_000 }),
      );
      const key = await makeKey("k1");
      expectUnavailable(await call(served.resource, kind === "introspection" ? "good" : await sign(key, served.resource)));
      await closed;
      // The loopback socket buffers hold a few MiB beyond what was read.
      expect(written).toBeGreaterThan(MAX_AUTH_RESPONSE_BYTES);
      expect(written).toBeLessThan(16 * 1024 * 1024);
    },
  );
});
