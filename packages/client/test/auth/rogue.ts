// A hostile MCP server and authorization server in one real node:http server
// on 127.0.0.1: /mcp answers 401 until it sees its own token, the metadata
// documents are the test's to rewrite, and any route can be replaced (a
// body that never ends, a token endpoint that never answers).
import type { IncomingMessage, ServerResponse } from "node:http";
import { createFetchHandler, McpServer } from "@x/server";
import { serve } from "./servers.js";

export const ROGUE_TOKEN = "rogue-access-token";

/** A name under the reserved `.example` domain: it never resolves. */
export const EVIL = "evil.example";

export type Route = (req: IncomingMessage, res: ServerResponse, origin: string) => void;

export interface Rogue {
  origin: string;
  /** The MCP endpoint. */
  url: string;
  /** Every request the server got: method and path. */
  requests: string[];
  /** Replaces the authorization server metadata's members (`issuer` included). */
  metadata: (origin: string) => Record<string, unknown>;
  /** Routes that replace the defaults, by path. */
  routes: Record<string, Route>;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Reads a request body (small: the client's form or registration), then calls `next`. */
function drain(req: IncomingMessage, next: () => void): void {
  req.resume();
  req.once("end", next);
}

/**
 * Starts the server. By default: protected resource metadata naming the
 * server itself as authorization server, authorization server metadata with
 * every endpoint on 127.0.0.1, a registration endpoint, and a token endpoint
 * that hands out {@link ROGUE_TOKEN}.
 */
export async function startRogue(): Promise<Rogue> {
  const mcp = new McpServer({ name: "rogue", version: "1" });
  mcp.registerTool("whoami", {}, () => ({ resultType: "complete", content: [{ type: "text", text: "user-1" }] }));
  const handle = createFetchHandler(mcp);
  const state: Rogue = {
    origin: "",
    url: "",
    requests: [],
    metadata: () => ({}),
    routes: {},
    close: async () => {},
  };
  const server = await serve((req, res) => {
    const origin = state.origin;
    const url = new URL(req.url ?? "/", origin);
    state.requests.push(`${req.method} ${url.pathname}`);
    const route = state.routes[url.pathname];
    if (route) {
      route(req, res, origin);
      return;
    }
    switch (url.pathname) {
      case "/.well-known/oauth-protected-resource/mcp":
        json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
        return;
      case "/.well-known/oauth-authorization-server":
        json(res, 200, {
          issuer: origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
          authorization_response_iss_parameter_supported: true,
          ...state.metadata(origin),
        });
        return;
      case "/register":
        drain(req, () => json(res, 201, { client_id: "rogue-client", token_endpoint_auth_method: "none" }));
        return;
      case "/token":
        drain(req, () => json(res, 200, { access_token: ROGUE_TOKEN, token_type: "Bearer", expires_in: 3600 }));
        return;
      case "/mcp":
        break;
      default:
        res.writeHead(404).end();
        return;
    }
    if (req.headers.authorization !== `Bearer ${ROGUE_TOKEN}`) {
      req.resume();
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` }).end();
      return;
    }
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const response = await handle(new Request(url, { method: req.method ?? "GET", headers, ...(body ? { body } : {}) }));
      response.headers.forEach((value, name) => {
        res.setHeader(name, value);
      });
      res.writeHead(response.status).end(Buffer.from(await response.arrayBuffer()));
    })().catch((error) => {
      res.writeHead(500).end(String(error));
    });
  });
  state.origin = server.origin;
  state.url = `${server.origin}/mcp`;
  state.close = server.close;
  return state;
}

/**
 * A `fetch` for the transport that records every URL the client asks for,
 * refuses any request to {@link EVIL} without touching the network, and
 * sends `https://<name>/...` to `routes[name]` over plain http (a stand-in
 * for a TLS server, so an https issuer can be tested on 127.0.0.1).
 */
export function recordingFetch(routes: Record<string, string> = {}): { fetch: typeof fetch; urls: URL[] } {
  const urls: URL[] = [];
  const recording: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    urls.push(url);
    if (url.hostname === EVIL || url.hostname.endsWith(`.${EVIL}`)) return Promise.reject(new TypeError("fetch failed"));
    const target = url.protocol === "https:" ? routes[url.host] : undefined;
    return fetch(target ? `${target}${url.pathname}${url.search}` : url, init);
  };
  return { fetch: recording, urls };
}

/** The redirect a user's browser would bring back from `authorizationUrl`: a code, the state and the issuer. */
export function redirectFor(redirectUrl: string, authorizationUrl: URL, issuer: string): string {
  const redirect = new URL(redirectUrl);
  redirect.searchParams.set("code", "rogue-code");
  redirect.searchParams.set("state", authorizationUrl.searchParams.get("state") ?? "");
  redirect.searchParams.set("iss", issuer);
  return redirect.href;
}
