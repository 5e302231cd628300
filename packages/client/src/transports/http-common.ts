/**
 * What the two HTTP transports share: the Streamable HTTP transport
 * (`http.ts`) and the deprecated HTTP+SSE transport (`sse.ts`).
 */

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
