/**
 * Discovery (spec 2026-07-28, basic/authorization/authorization-server-discovery):
 * the `WWW-Authenticate` challenge, protected resource metadata (RFC 9728)
 * and authorization server metadata (RFC 8414, OpenID Connect Discovery),
 * each tried in the order the spec gives.
 */
import { resourceMetadataPaths } from "@x/mcp-v2607/wire";
import type * as OAuth from "oauth4webapi";
import { type AuthStep, authError, ClientErrorCode, clip, isMcpClientError } from "../errors.js";
import { loadOAuth } from "./oauth-lib.js";
import { type AuthRequests, authRequest } from "./requests.js";

/** One challenge of a `WWW-Authenticate` header: its scheme (lowercased) and parameters (names lowercased). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
  /** The token68 form (`Basic abc==`), when the challenge has one instead of parameters. */
  token68?: string;
}

/** Longest `WWW-Authenticate` header read, in characters; the rest is ignored. */
const MAX_CHALLENGE_CHARS = 8192;

/**
 * Parses a `WWW-Authenticate` header (RFC 9110 §11.6.1) into its challenges.
 * Parameters may be tokens or quoted strings; a header that does not parse
 * yields the challenges read before the fault.
 */
export function parseChallenges(header: string | null): Challenge[] {
  if (!header) return [];
  const text = header.slice(0, MAX_CHALLENGE_CHARS);
  const challenges: Challenge[] = [];
  let i = 0;
  const skip = () => {
    while (i < text.length && /[\s,]/.test(text[i] as string)) i++;
  };
  const token = (): string => {
    const start = i;
    while (i < text.length && /[!#$%&'*+.^_`|~0-9A-Za-z/-]/.test(text[i] as string)) i++;
    return text.slice(start, i);
  };
  skip();
  while (i < text.length) {
    const scheme = token();
    if (!scheme) break;
    const challenge: Challenge = { scheme: scheme.toLowerCase(), params: {} };
    challenges.push(challenge);
    for (;;) {
      while (i < text.length && /\s/.test(text[i] as string)) i++;
      const save = i;
      const name = token();
      while (i < text.length && /\s/.test(text[i] as string)) i++;
      if (!name || text[i] !== "=") {
        i = save;
        break;
      }
      let run = 0;
      while (text[i + run] === "=") run++;
      const after = text.slice(i + run).trimStart();
      if (run > 1 || (Object.keys(challenge.params).length === 0 && (after === "" || after.startsWith(",")))) {
        // token68 (RFC 9110 §11.2): base64-ish text ending in "=" padding.
        challenge.token68 = name + "=".repeat(run);
        i += run;
        break;
      }
      i++;
      while (i < text.length && /\s/.test(text[i] as string)) i++;
      let value = "";
      if (text[i] === '"') {
        i++;
        while (i < text.length && text[i] !== '"') {
          if (text[i] === "\\" && i + 1 < text.length) i++;
          value += text[i];
          i++;
        }
        i++;
      } else {
        value = token();
        while (i < text.length && text[i] === "=") value += text[i++];
      }
      challenge.params[name.toLowerCase()] = value;
      while (i < text.length && /\s/.test(text[i] as string)) i++;
      if (text[i] === ",") i++;
      else break;
    }
    skip();
  }
  return challenges;
}

/** The challenge this client answers: DPoP's or Bearer's, else the first. */
export function pickChallenge(challenges: Challenge[]): Challenge | undefined {
  return challenges.find((c) => c.scheme === "dpop") ?? challenges.find((c) => c.scheme === "bearer") ?? challenges[0];
}

/** Protected resource metadata (RFC 9728 §2), the members this client uses. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  [member: string]: unknown;
}

/**
 * GETs `urls` in order through {@link authRequest} (https or loopback,
 * bounded, timed) until `read` makes a document of a 2xx answer; `read`
 * returns `undefined` to pass to the next URL, or throws to end the walk. A
 * URL that gives no HTTP answer at all (refused, reset) passes too, and the
 * later URLs on its origin are skipped: that host is down, and each try
 * could cost a time-out.
 * @returns the document, or `tried` listing each URL with its status for the caller's error.
 * @throws McpClientError -32097 naming `step`: an insecure URL, a body over the limit, the time-out;
 *   or what `read` throws.
 */
async function firstDocument<T>(
  requests: AuthRequests,
  step: AuthStep,
  urls: URL[],
  read: (url: URL, response: Response) => Promise<T | undefined>,
): Promise<{ document: T } | { tried: string }> {
  const tried: string[] = [];
  const down = new Set<string>();
  for (const url of urls) {
    if (down.has(url.origin)) {
      tried.push(`${url.href} (skipped)`);
      continue;
    }
    let response: Response | undefined;
    try {
      response = await authRequest(requests, step, url, { method: "GET", headers: { accept: "application/json" }, redirect: "manual" });
    } catch (error) {
      if (isMcpClientError(error, ClientErrorCode.AuthorizationFailed)) throw error;
      down.add(url.origin);
    }
    tried.push(`${url.href} (${response?.status ?? "unreachable"})`);
    if (!response?.ok) continue;
    const document = await read(url, response);
    if (document !== undefined) return { document };
  }
  return { tried: tried.join(", ") };
}

/**
 * The well-known URLs of a resource's metadata, in the spec's order (the
 * shared rule `resourceMetadataPaths` of `@x/mcp-v2607/wire`).
 */
export function resourceMetadataUrls(endpoint: URL): URL[] {
  return resourceMetadataPaths(endpoint).map((path) => new URL(path, endpoint.origin));
}

/**
 * True when the metadata's `resource` names `endpoint`: the same origin and
 * a path that is the endpoint's or one of its parent paths (RFC 9728 §3.3 with
 * the spec's canonical server URI).
 */
export function resourceMatches(resource: string, endpoint: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== endpoint.origin || url.hash !== "") return false;
  const base = url.pathname.replace(/\/+$/, "");
  const path = endpoint.pathname.replace(/\/+$/, "");
  return base === "" || path === base || path.startsWith(`${base}/`);
}

/**
 * Reads the protected resource metadata: from the challenge's
 * `resource_metadata` URL when given, then the well-known URLs; a URL that
 * answers with anything but such a document, or not at all, passes to the next
 * (after no answer at all, the next on another origin: see {@link firstDocument}).
 * @throws McpClientError -32097 `"resource_metadata"` when none answers with a document naming an
 *   authorization server, or a request failed as {@link authRequest} says (not https or loopback,
 *   too large, timed out), `"resource_mismatch"` when its `resource` is not this endpoint.
 */
export async function discoverResourceMetadata(
  endpoint: URL,
  metadataUrl: string | undefined,
  requests: AuthRequests,
): Promise<ResourceMetadata> {
  const candidates: URL[] = [];
  if (metadataUrl) {
    try {
      candidates.push(new URL(metadataUrl, endpoint));
    } catch {
      // An unusable URL in the header: the well-known ones are tried.
    }
  }
  candidates.push(...resourceMetadataUrls(endpoint));
  const found = await firstDocument(requests, "resource_metadata", candidates, async (url, response) => {
    let body: unknown;
    try {
      body = JSON.parse(await response.text());
    } catch {
      return undefined;
    }
    if (typeof body !== "object" || body === null || typeof (body as ResourceMetadata).resource !== "string") return undefined;
    const metadata = body as ResourceMetadata;
    if (!resourceMatches(metadata.resource, endpoint)) {
      throw authError(
        "resource_mismatch",
        `the protected resource metadata at ${url.href} is for ${clip(metadata.resource, 120)}, not ${endpoint.href}`,
        { resource: metadata.resource },
      );
    }
    const servers = metadata.authorization_servers;
    if (!Array.isArray(servers) || servers.length === 0 || typeof servers[0] !== "string") {
      throw authError("resource_metadata", `the protected resource metadata at ${url.href} names no authorization server`);
    }
    return metadata;
  });
  if ("document" in found) return found.document;
  throw authError("resource_metadata", `no protected resource metadata found; tried ${found.tried}`);
}

/**
 * The metadata URLs of an authorization server, in the spec's order. With a
 * path: OAuth path insertion, OpenID path insertion, OpenID path appending;
 * without: OAuth, then OpenID.
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/+$/, "");
  if (path === "") {
    return [new URL("/.well-known/oauth-authorization-server", issuer.origin), new URL("/.well-known/openid-configuration", issuer.origin)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * Reads and validates the authorization server's metadata: the first
 * well-known URL that answers 2xx is checked by oauth4webapi
 * (`processDiscoveryResponse`: a JSON object whose `issuer` is exactly the
 * expected issuer, RFC 8414 §3.3). When a URL gives no HTTP answer at all
 * (refused, reset), the later URLs, all on the same origin, are not tried.
 * @throws McpClientError -32097 `"authorization_server_metadata"`: none found, the issuer does not
 *   match, or a request failed as {@link authRequest} says (not https or loopback, too large, timed out).
 */
export async function discoverAuthorizationServer(issuer: string, requests: AuthRequests): Promise<OAuth.AuthorizationServer> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw authError("authorization_server_metadata", `the authorization server ${clip(issuer, 120)} is not a URL`);
  }
  // Before any request, and outside the checks below: a missing oauth4webapi is the installation's fault, not the server's.
  const oauth = await loadOAuth();
  const found = await firstDocument(
    requests,
    "authorization_server_metadata",
    authorizationServerMetadataUrls(issuerUrl),
    async (url, response) => {
      try {
        return await oauth.processDiscoveryResponse(issuerUrl, response);
      } catch (error) {
        throw authError(
          "authorization_server_metadata",
          `the metadata at ${url.href} is not valid for issuer ${issuer}: ${error instanceof Error ? error.message : String(error)}`,
          { url: url.href },
          error,
        );
      }
    },
  );
  if ("document" in found) return found.document;
  throw authError("authorization_server_metadata", `no authorization server metadata for ${issuer}; tried ${found.tried}`);
}
