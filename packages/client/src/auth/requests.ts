/**
 * The one way the OAuth client reaches an authorization server or a
 * metadata document (spec 2026-07-28, basic/authorization/security-considerations
 * "Communication Security": every authorization server endpoint is https).
 * Every request it makes, its own and oauth4webapi's (through `customFetch`),
 * passes {@link authRequest}, and every URL it hands the user passes
 * {@link requireSecureEndpoint}: each URL is judged by itself, never by the
 * issuer it came from. A response body is read here, up to
 * {@link MAX_AUTH_RESPONSE_BYTES}, within the request's time-out.
 */
import { type AuthStep, authError, clip } from "../errors.js";

/**
 * Largest body of any OAuth response the client reads (metadata,
 * registration, token), in bytes: 256 KiB. A safety bound, not an option
 * (README, "https, sizes and time-outs").
 */
export const MAX_AUTH_RESPONSE_BYTES = 256 * 1024;

/** How the OAuth requests of one transport are made. */
export interface AuthRequests {
  fetch: typeof fetch;
  /** `true`: plain http anywhere; `false`: nowhere; `undefined`: on a loopback host only. */
  allowInsecureRequests: boolean | undefined;
  /** Time-out of each request, in milliseconds. */
  timeoutMs: number;
}

/** What each step calls the URL it reaches, in messages (the spec's terms). */
const ENDPOINTS: Partial<Record<AuthStep, string>> = {
  resource_metadata: "protected resource metadata",
  authorization_server_metadata: "authorization server metadata",
  registration: "registration endpoint",
  authorization: "authorization endpoint",
  token: "token endpoint",
};
const endpointOf = (step: AuthStep): string => ENDPOINTS[step] ?? step.replaceAll("_", " ");
/** The request a step makes, in messages: "token request", "protected resource metadata request". */
const requestOf = (step: AuthStep): string => `${endpointOf(step).replace(/ endpoint$/, "")} request`;

/**
 * True for a loopback host as a WHATWG URL spells its `hostname`:
 * `localhost`, an address of 127.0.0.0/8 (always four decimal parts once
 * parsed) or `[::1]`. Names that merely resolve to loopback are not.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Throws unless `url` may be reached (or shown to the user) at `step`: https,
 * or http on a loopback host ({@link isLoopbackHost}); `allowInsecureRequests`
 * `true` admits any http, `false` none.
 * @throws McpClientError -32097 naming `step` and the URL (`data.url`).
 */
export function requireSecureEndpoint(requests: AuthRequests, step: AuthStep, url: URL): void {
  if (url.protocol === "https:") return;
  const allow = requests.allowInsecureRequests;
  if (url.protocol === "http:" && (allow === true || (allow === undefined && isLoopbackHost(url.hostname)))) return;
  const why =
    url.protocol !== "http:"
      ? "neither https nor http"
      : allow === false
        ? "not https (allowInsecureRequests is false)"
        : "not https, and plain http is allowed only for a loopback host";
  throw authError(step, `the ${endpointOf(step)} ${clip(url.href, 200)} is ${why}`, { url: url.href });
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * Sends one OAuth request and reads its whole answer: the URL checked by
 * {@link requireSecureEndpoint}, the body read up to
 * {@link MAX_AUTH_RESPONSE_BYTES} (past it the stream is cancelled, which
 * drops the connection), all within `requests.timeoutMs`.
 * @returns a `Response` whose body is the bytes read, for the caller or oauth4webapi to parse.
 * @throws McpClientError -32097 naming `step` and the URL for an insecure URL, a body over the limit
 *   (`data.limit`) or the time-out (`data.timeoutMs`); the fetch's own error (a `TypeError`) when
 *   no HTTP answer came at all.
 */
export async function authRequest(requests: AuthRequests, step: AuthStep, url: URL, init: RequestInit): Promise<Response> {
  requireSecureEndpoint(requests, step, url);
  const ms = requests.timeoutMs;
  const controller = new AbortController();
  let cancel: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A fetch that ignores its signal still cannot hold the step: the race ends it.
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      cancel?.();
      reject(authError(step, `${requestOf(step)} to ${clip(url.href, 200)} timed out after ${ms} ms`, { url: url.href, timeoutMs: ms }));
    }, ms);
  });
  const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
  const sent = requests.fetch(url, { ...init, signal });
  try {
    const response = await Promise.race([sent, expired]);
    if (response.status < 200 || response.status > 599) return response; // an opaque redirect: no body to read
    const reader = response.body?.getReader();
    cancel = () => void reader?.cancel().catch(() => {});
    const body = reader ? await Promise.race([readAtMost(reader, step, url), expired]) : null;
    return new Response(NULL_BODY.has(response.status) ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    // A response that arrives after the time-out is not read.
    sent.then((late) => late.body?.cancel().catch(() => {})).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Reads a body to its end, or throws once it passes {@link MAX_AUTH_RESPONSE_BYTES} (and cancels the rest). */
async function readAtMost(reader: ReadableStreamDefaultReader<Uint8Array>, step: AuthStep, url: URL): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_AUTH_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw authError(
        step,
        `the answer to the ${requestOf(step)} to ${clip(url.href, 200)} is larger than ${MAX_AUTH_RESPONSE_BYTES} bytes; reading stopped there`,
        { url: url.href, limit: MAX_AUTH_RESPONSE_BYTES },
      );
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
