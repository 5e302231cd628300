/**
 * The authorization demo (`pnpm demo:auth`): a real OAuth authorization
 * server (oidc-provider), an @x/server that accepts only its JWT access
 * tokens, and an @x/client that authorizes by itself, all on 127.0.0.1.
 * Every HTTP exchange of the authorization is printed as it happens; the
 * demo walks through the authorization code flow with PKCE, a step-up to a
 * scope a tool needs, the expiry and refresh of a short-lived token, and the
 * revocation of the refresh token, which sends the user through a new
 * authorization. Exits 0 when every step did what it should.
 *
 *   node dist/auth-demo.js
 */
import { Client, InMemoryTokenStore, type OAuthClientProvider, StreamableHttpTransport } from "@x/client";
import { EXTRA_SCOPE, followAsBrowser, revoke, startAuthorizationServer, startMcpServer } from "./auth-parts.js";

const print = (line: string) => process.stdout.write(`${line}\n`);
// Where the authorization server sends the browser back. The demo's "browser" stops at this redirect, so nothing listens there.
const REDIRECT = "http://127.0.0.1:9/callback";

/** A `fetch` for the transport that prints each exchange, named by what it is for. */
function tracingFetch(mcpUrl: string): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? init.body : init?.body instanceof URLSearchParams ? init.body.toString() : "";
    const response = await fetch(input, init);
    const status = `→ ${response.status}`;
    if (url.href === mcpUrl) {
      const rpc = /"method":"([^"]+)"/.exec(body)?.[1] ?? method;
      const token = new Headers(init?.headers).has("authorization") ? "with a token" : "without a token";
      const challenge = response.headers.get("www-authenticate");
      print(`  MCP ${rpc} ${token} ${status}${challenge ? `\n      WWW-Authenticate: ${challenge}` : ""}`);
    } else if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      print(`  protected resource metadata (RFC 9728): GET ${url.href} ${status}`);
    } else if (url.pathname.includes("/.well-known/")) {
      print(`  authorization server metadata: GET ${url.href} ${status}`);
    } else if (url.pathname === "/reg") {
      print(`  dynamic client registration (RFC 7591): POST ${url.href} ${status}`);
    } else if (url.pathname === "/token") {
      const grant = new URLSearchParams(body).get("grant_type");
      const what =
        grant === "authorization_code" ? "code exchange (with the PKCE verifier)" : grant === "refresh_token" ? "refresh" : grant;
      print(`  token request, ${what}: POST ${url.href} ${status}`);
    } else {
      print(`  ${method} ${url.href} ${status}`);
    }
    return response;
  };
}

const as = await startAuthorizationServer();
const mcp = await startMcpServer(as.issuer);
as.resources.add(mcp.url);
print(`Authorization server (oidc-provider) at ${as.issuer}`);
print(`MCP server at ${mcp.url}: whoami needs any token, deploy needs the "${EXTRA_SCOPE}" scope`);

const store = new InMemoryTokenStore();
const auth: OAuthClientProvider = {
  redirectUrl: REDIRECT,
  clientMetadata: { client_name: "x-auth-demo" },
  tokenStore: store,
  // A real app opens a browser; here the demo acts as the browser and the user.
  authorize: async (url) => {
    print(`  authorization URL: ${url.origin}${url.pathname}`);
    print(
      `    scope="${url.searchParams.get("scope")}" resource=${url.searchParams.get("resource")} code_challenge_method=${url.searchParams.get("code_challenge_method")}`,
    );
    const redirect = await followAsBrowser(url, REDIRECT);
    const back = new URL(redirect).searchParams;
    print(`  the user signed in and consented; redirected back with code, state and iss=${back.get("iss")}`);
    return redirect;
  },
};
const client = new Client({ name: "x-auth-demo", version: "1.0.0" });
const transport = new StreamableHttpTransport(mcp.url, { auth, fetch: tracingFetch(mcp.url) });
const saved = () => store.load(mcp.url);
const text = (result: { content?: unknown }) => (result.content as Array<{ text?: string }> | undefined)?.[0]?.text ?? "";

let code = 0;
try {
  print("\n1. Connect: the first request has no token, so the client authorizes (authorization code with PKCE)");
  await client.connect(transport);
  print(`  connected (protocol ${client.protocolVersion})`);
  print(`  whoami → ${text(await client.callTool("whoami", {}))}`);

  print(`\n2. Step-up: deploy needs "${EXTRA_SCOPE}"; the 403 names it and the client asks for the union of the scopes`);
  // Short-lived tokens from here on, so that step 3 can watch one expire.
  as.setAccessTokenTtl(2);
  print(`  deploy → ${text(await client.callTool("deploy", {}))}`);
  print(`  the new token: scopes "${saved()?.tokens?.scope}", valid for 2 s (the authorization server now issues short-lived tokens)`);
  print(
    "  (a token that expires within the refresh margin — refreshMarginSeconds, default 60 s, a quarter of its lifetime for a short-lived one — is refreshed before it is sent, hence the refresh right after the code exchange)",
  );

  print("\n3. Expiry: wait 3 s; the server refuses the expired token, the client refreshes it before sending");
  const old = saved()?.tokens?.access_token as string;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const expired = await fetch(mcp.url, {
    method: "POST",
    headers: { authorization: `Bearer ${old}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  await expired.body?.cancel();
  print(`  the expired token, sent by hand → ${expired.status}\n      WWW-Authenticate: ${expired.headers.get("www-authenticate")}`);
  print(`  whoami → ${text(await client.callTool("whoami", {}))}`);

  print("\n4. Revocation: the refresh token is revoked at the authorization server (the user signed out elsewhere)");
  const state = saved();
  await revoke(as.issuer, state?.tokens?.refresh_token as string, state?.client?.client_id as string);
  print(
    "  revoked; once the 2 s token has expired (wait 3 s) the next request needs a refresh, which is refused, so the client authorizes again",
  );
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const before = as.grants.length;
  print(`  whoami → ${text(await client.callTool("whoami", {}))}`);
  print(`  token requests: ${as.grants.slice(before).join(", ")}`);
  print(`  the new authorization asked for the challenge's scope again: "${saved()?.tokens?.scope}" (deploy would step up once more)`);
  print("\nDone.");
} catch (error) {
  process.stderr.write(`auth demo: ${error instanceof Error ? error.message : String(error)}\n`);
  code = 1;
} finally {
  await client.close();
  await mcp.close();
  await as.close();
}
process.exit(code);
