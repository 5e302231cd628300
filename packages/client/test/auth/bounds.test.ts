// The OAuth client's reads are bounded: a response body is read only up to
// MAX_AUTH_RESPONSE_BYTES and the connection dropped there (the server sees it
// close long before its 50 MiB are out), and a request that gets no answer
// fails with -32097 naming its step, its URL and the time-out.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, clientCredentials, type OAuthClientProvider, StreamableHttpTransport } from "../../src/index.js";
import { MAX_AUTH_RESPONSE_BYTES } from "../../src/auth/requests.js";
import { type Rogue, redirectFor, startRogue } from "./rogue.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const BODY_BYTES = 50 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

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

/**
 * Answers 200 with a JSON document that goes on for 50 MiB, written as fast
 * as the client takes it; `closed` resolves with the bytes written when the
 * connection closes.
 */
function hugeBody(): { route: (req: IncomingMessage, res: ServerResponse) => void; closed: Promise<number> } {
  let resolve: (bytes: number) => void = () => {};
  const closed = new Promise<number>((r) => {
    resolve = r;
  });
  const route = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    let written = 0;
    res.on("close", () => resolve(written));
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"pad":"');
    const pump = () => {
      while (written < BODY_BYTES && !res.destroyed) {
        written += CHUNK.length;
        if (!res.write(CHUNK)) {
          res.once("drain", pump);
          return;
        }
      }
      if (!res.destroyed) res.end('"}');
    };
    pump();
  };
  return { route, closed };
}

/**
 * The transport's `fetch`, counting the body bytes the client pulls from each
 * response of `path` (the wrapper pulls only when the client reads).
 */
function countingFetch(path: string): { fetch: typeof fetch; pulled: () => number } {
  let pulled = 0;
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname !== path || !response.body) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else {
            pulled += value.byteLength;
            controller.enqueue(value);
          }
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: counting, pulled: () => pulled };
}

const userProvider = (): OAuthClientProvider => ({
  redirectUrl: REDIRECT,
  authorize: async (url) => redirectFor(REDIRECT, url, rogue.origin),
});

async function failure(
  auth: OAuthClientProvider,
  fetchImpl?: typeof fetch,
): Promise<{ code: number; message: string; data: Record<string, unknown> }> {
  const client = new Client({ name: "bounds", version: "1" }, { protocol: "2026-07-28", onWarning: () => {} });
  try {
    await client.connect(new StreamableHttpTransport(rogue.url, { auth, ...(fetchImpl ? { fetch: fetchImpl } : {}) }));
    await client.listTools();
  } catch (error) {
    return error as { code: number; message: string; data: Record<string, unknown> };
  } finally {
    await client.close();
  }
  throw new Error("the request succeeded");
}

describe("a 50 MiB OAuth response", () => {
  it.each([
    ["resource_metadata", "/.well-known/oauth-protected-resource/mcp", "user"],
    ["authorization_server_metadata", "/.well-known/oauth-authorization-server", "user"],
    ["registration", "/register", "user"],
    ["token", "/token", "machine"],
  ])("%s: reading stops at the limit, the connection is dropped, -32097 names the step and the URL", async (step, path, kind) => {
    const huge = hugeBody();
    rogue.routes[path] = huge.route;
    const auth = kind === "user" ? userProvider() : await clientCredentials({ clientId: "m", clientSecret: "s" });
    const counted = countingFetch(path);
    const error = await failure(auth, counted.fetch);
    expect(error.code).toBe(ClientErrorCode.AuthorizationFailed);
    expect(error.data.reason).toBe(step);
    expect(error.message).toContain(`${rogue.origin}${path}`);
    expect(error.message).toMatch(/262144 bytes/);
    // The client pulled the limit and at most one more read's worth (a socket read is at most 64 KiB here).
    expect(counted.pulled()).toBeGreaterThan(MAX_AUTH_RESPONSE_BYTES);
    expect(counted.pulled()).toBeLessThanOrEqual(MAX_AUTH_RESPONSE_BYTES + 1024 * 1024);
    // And dropped the connection: the server got no further than what the loopback socket buffers
    // take before anyone reads (about 4 MiB with Linux's default 4 MiB send buffer), not 50 MiB.
    expect(await huge.closed).toBeLessThan(16 * 1024 * 1024);
  });
});

describe("a request that never gets an answer", () => {
  it("a token endpoint that never answers: -32097 naming the token request, its URL and the configured time-out", async () => {
    rogue.routes["/token"] = (req) => {
      req.resume(); // and no answer, ever; the server's close drops the connection
    };
    const auth = await clientCredentials({ clientId: "m", clientSecret: "s", requestTimeoutMs: 200 });
    const error = await failure(auth);
    expect(error.code).toBe(ClientErrorCode.AuthorizationFailed);
    expect(error.data.reason).toBe("token");
    expect(error.message).toContain(`token request to ${rogue.origin}/token timed out after 200 ms`);
  });

  it("a metadata document whose body stalls after the headers: the same named time-out", async () => {
    rogue.routes["/.well-known/oauth-authorization-server"] = (req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"issuer":'); // and nothing more
    };
    const error = await failure({ ...userProvider(), requestTimeoutMs: 200 });
    expect(error.code).toBe(ClientErrorCode.AuthorizationFailed);
    expect(error.data.reason).toBe("authorization_server_metadata");
    expect(error.message).toContain(
      `authorization server metadata request to ${rogue.origin}/.well-known/oauth-authorization-server timed out after 200 ms`,
    );
  });
});
