/**
 * The rules of the request headers the HTTP ladder reads (pure functions):
 * which host names are loopback, what a Host, an Origin, an `Accept` and a
 * `Content-Type` value say, and the path of a request target.
 */

/** The host names of loopback, as a Host header spells them: the default `allowedHosts`. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

/** The path of a request target (without its query). */
export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/** Which of JSON and SSE an `Accept` header admits (both when it is absent). */
export function acceptable(accept: string | undefined): { json: boolean; sse: boolean } {
  if (accept === undefined || accept.trim() === "") return { json: true, sse: true };
  let json = false;
  let sse = false;
  for (const part of accept.split(",")) {
    const range = part.split(";")[0]!.trim().toLowerCase();
    if (range === "*/*") json = sse = true;
    else if (range === "application/json" || range === "application/*") json = true;
    else if (range === "text/event-stream" || range === "text/*") sse = true;
  }
  return { json, sse };
}

/**
 * True when a `Content-Type` value's media type is `application/json`, in
 * any case, whatever parameters follow (`; charset=utf-8`: the body is read
 * as UTF-8 whatever they say). False when absent: a body without a type
 * could be anything (and a browser sends a typeless body cross-origin
 * without a preflight), so it is refused like any other type.
 */
export function isJsonMediaType(type: string | undefined): boolean {
  if (type === undefined) return false;
  // What clients send on every POST: no parsing.
  if (type === "application/json") return true;
  const semicolon = type.indexOf(";");
  return (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase() === "application/json";
}

/**
 * A Host value: a name of letters, digits, hyphens, dots (an IPv4 address is
 * one) and underscores (proxy upstream and container names use them), or a
 * bracketed IPv6 literal; then at most a `:port` of digits.
 */
const HOST = /^(?:[a-z0-9._-]+|\[[0-9a-f.]*:[0-9a-f:.]*\])(?::([0-9]{1,5}))?$/i;

/**
 * The Host header's host name, lower-case, without the port (`[::1]` keeps
 * its brackets); `undefined` unless the whole value is a host and an optional
 * port from 1 to 65535, so nothing can follow a name that passes the allow-list.
 */
export function hostName(host: string): string | undefined {
  const match = HOST.exec(host);
  if (match === null) return undefined;
  const port = match[1];
  if (port === undefined) return host.toLowerCase();
  const n = Number(port);
  return n >= 1 && n <= 65535 ? host.slice(0, host.length - port.length - 1).toLowerCase() : undefined;
}

/** True for an Origin whose host is loopback (`localhost`, 127.0.0.1, `[::1]`). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const host = new URL(origin).hostname.toLowerCase();
    return LOOPBACK_HOSTS.includes(host) || host === "::1";
  } catch {
    return false;
  }
}
