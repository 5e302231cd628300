/**
 * How the ready verifiers read what an authorization server answers (a key
 * set, an introspection answer): as it streams, up to a bound, so that a
 * huge or endless answer costs at most that many bytes of memory.
 */

/**
 * Largest answer of an authorization server the verifiers read (a JWKS, an
 * introspection answer), in bytes: 262 144 (256 KiB). Past it reading stops,
 * the rest of the body is cancelled (which closes the connection), and the
 * token counts as not checked: the request gets 503 with `Retry-After`, as
 * for an unreachable endpoint.
 */
export const MAX_AUTH_RESPONSE_BYTES = 256 * 1024;

/**
 * The body of `response` as text, read as it streams.
 * @throws Error naming `what` when the body passes {@link MAX_AUTH_RESPONSE_BYTES} (the body is cancelled first).
 */
export async function readAtMost(response: Response, what: string): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MAX_AUTH_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw new Error(`${what} answered more than ${MAX_AUTH_RESPONSE_BYTES} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * A `fetch` for a library that reads the answer itself (jose's key set):
 * the answer it gets has already been read within {@link MAX_AUTH_RESPONSE_BYTES}.
 */
export function boundedFetch(what: string): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const response = await fetch(url, init);
    const text = await readAtMost(response, what);
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
