/**
 * What the two HTTP transports share: the Streamable HTTP transport
 * (`http.ts`) and the deprecated HTTP+SSE transport (`sse.ts`).
 */

import { isNode, nodeFetch } from "./node-fetch.js";

/** Longest wait for the server to accept a notification or a response the client POSTs, in milliseconds. */
export const POST_TIMEOUT_MS = 30_000;

// The last digest made: the Authorization value rarely changes between requests.
let lastDigest: { of: string; is: string } | undefined;

/**
 * The `Authorization` value's SHA-256, base64url: an authorization context
 * that does not keep the credential. Web Crypto, which every runtime the
 * client runs on has (Node, Bun, Deno, workerd, browsers).
 */
export async function digest(authorization: string | null): Promise<string | undefined> {
  if (authorization === null) return undefined;
  if (lastDigest?.of === authorization) return lastDigest.is;
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(authorization)));
  let binary = "";
  for (const byte of hash) binary += String.fromCharCode(byte);
  const is = btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  lastDigest = { of: authorization, is };
  return is;
}

/** A failed fetch in words: its message, and its cause's (Node's fetch hides the network error there). */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error && cause.message ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

/** True when `url` carries a user name or password. */
export function hasUserinfo(url: URL): boolean {
  return url.username !== "" || url.password !== "";
}

/**
 * Reads a transport's URL (`what` names it in errors): http or https, with
 * no user name or password (fetch refuses such a URL, and the URL goes into
 * error messages, so the password would end up in logs).
 * @throws TypeError for another scheme or a URL with userinfo; the error never repeats the password.
 */
export function httpUrl(url: string | URL, what: string): URL {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`The ${what} must be an http or https URL, got ${parsed.protocol}`);
  }
  if (hasUserinfo(parsed)) {
    throw new TypeError(`The ${what} must not carry a user name or password; give credentials in the headers or auth option`);
  }
  return parsed;
}

/**
 * The `fetch` a transport sends with: the one given, else on Node the
 * `node:http` one (`node-fetch.ts`: Node's fetch costs more CPU per call),
 * else the global one. Called as a plain function: workerd's fetch refuses
 * to run as a method of another object ("Illegal invocation").
 */
export function baseFetch(given: typeof fetch | undefined): typeof fetch {
  const viaNode = given === undefined && isNode();
  return (input, init) => (given ?? (viaNode ? nodeFetch : globalThis.fetch))(input, init);
}
