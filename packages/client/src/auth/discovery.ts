/**
 * Discovery (spec 2026-07-28, basic/authorization/authorization-server-discovery):
 * the `WWW-Authenticate` challenge, protected resource metadata (RFC 9728)
 * and authorization server metadata (RFC 8414, OpenID Connect Discovery),
 * each tried in the order the spec gives.
 */
import { resourceMetadataPaths } from "@x/mcp-v2607/wire";
import type * as OAuth from "oauth4webapi";
import { loadOAuth } from "./oauth-lib.js";
import { authError, clip } from "../errors.js";
import { utf8Length } from "../transports/jsonrpc.js";

/** One challenge of a `WWW-Authenticate` header: its scheme (lowercased) and parameters (names lowercased). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
  /** The token68 form (`Basic abc==`), when the challenge has one instead of parameters. */
  token68?: string;
}

/** Longest `WWW-Authenticate` header read, in characters; the rest is ignored. */
const MAX_CHALLENGE_CHARS = 8192;
/** Largest metadata document read, in bytes. */
export const MAX_METADATA_BYTES = 256 * 1024;
/** Longest wait for one metadata, registration or token request, in milliseconds. */
export const AUTH_REQUEST_TIMEOUT_MS = 10_000;

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

/** How the discovery requests are made. */
export interface DiscoveryContext {
  fetch: typeof fetch;
  /** Plain http allowed for this URL. */
  insecure: (url: URL) => boolean;
}

async function getJson(url: URL, ctx: DiscoveryContext): Promise<{ status: number; body?: unknown; response?: Response }> {
  if (url.protocol !== "https:" && !ctx.insecure(url)) return { status: 0 };
  let response: Response;
  try {
    response = await ctx.fetch(url, {
      method: "GET",
      headers: { accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS),
    });
  } catch {
    return { status: 0 };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { status: response.status };
  }
  const text = await response.text().catch(() => "");
  if (utf8Length(text) > MAX_METADATA_BYTES) return { status: response.status };
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status };
  }
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
 * `resource_metadata` URL when given, then the well-known URLs.
 * @throws McpClientError -32097 `"resource_metadata"` when none answers with a document naming an
 *   authorization server, `"resource_mismatch"` when its `resource` is not this endpoint.
 */
export async function discoverResourceMetadata(
  endpoint: URL,
  metadataUrl: string | undefined,
  ctx: DiscoveryContext,
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
  const tried: string[] = [];
  for (const url of candidates) {
    const { status, body } = await getJson(url, ctx);
    tried.push(`${url.href} (${status || "unreachable"})`);
    if (typeof body !== "object" || body === null || typeof (body as ResourceMetadata).resource !== "string") continue;
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
  }
  throw authError("resource_metadata", `no protected resource metadata found; tried ${tried.join(", ")}`);
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
 * (refused, reset, or no answer within {@link AUTH_REQUEST_TIMEOUT_MS}), the
 * later URLs, all on the same origin, are not tried.
 * @throws McpClientError -32097 `"authorization_server_metadata"`: none found, or the issuer does not match.
 */
export async function discoverAuthorizationServer(issuer: string, ctx: DiscoveryContext): Promise<OAuth.AuthorizationServer> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw authError("authorization_server_metadata", `the authorization server ${clip(issuer, 120)} is not a URL`);
  }
  if (issuerUrl.protocol !== "https:" && !ctx.insecure(issuerUrl)) {
    throw authError("authorization_server_metadata", `the authorization server ${issuer} is not https`);
  }
  // Before any request, and outside the checks below: a missing oauth4webapi is the installation's fault, not the server's.
  const oauth = await loadOAuth();
  const tried: string[] = [];
  // Every URL is on the issuer's origin: once one gave no HTTP answer at all (refused, reset, timed
  // out), the others are skipped, so a host that never answers costs one timeout, not one per URL.
  let unreachable = false;
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    if (unreachable) {
      tried.push(`${url.href} (skipped)`);
      continue;
    }
    let response: Response;
    try {
      response = await ctx.fetch(url, {
        method: "GET",
        headers: { accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS),
      });
    } catch {
      tried.push(`${url.href} (unreachable)`);
      unreachable = true;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      tried.push(`${url.href} (${response.status})`);
      continue;
    }
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
  }
  throw authError("authorization_server_metadata", `no authorization server metadata for ${issuer}; tried ${tried.join(", ")}`);
}
