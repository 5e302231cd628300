/**
 * The options of {@link attachDevtools}, read and checked once: a misspelt
 * name is a TypeError naming the nearest option (the rule server and client
 * share, `rejectUnknown` of `@x/jsonrpc`), a bad number a RangeError, a host
 * that is not loopback a TypeError.
 */
import { randomBytes } from "node:crypto";
import { rejectUnknown } from "@x/jsonrpc";

/** The hosts the page may be served on: loopback only. */
export type DevtoolsHost = "127.0.0.1" | "::1" | "localhost";

/** Options of `attachDevtools`. Every one has a default. */
export interface DevtoolsOptions {
  /** The TCP port of the page; 0 (default) lets the system pick a free one. */
  port?: number;
  /** The loopback address to listen on. Default `"127.0.0.1"`; any other host is a TypeError. */
  host?: DevtoolsHost;
  /**
   * The secret first path segment of every URL of the page. Default: 32
   * random bytes, base64url (43 characters). At least 16 characters of
   * `A-Z a-z 0-9 - _`.
   */
  token?: string;
  /** Most traffic events kept for a page that opens later and for the export (oldest dropped first). Default 2000. */
  maxEvents?: number;
  /**
   * Most bytes of one event's JSON. Default 262144 (256 KiB); at least 16384.
   * A larger `params`, `response` or `message` is replaced by
   * `{ truncated: true, bytes, preview }` (the first 4096 characters of its JSON).
   */
  maxEventBytes?: number;
  /**
   * Most bytes of JSON the kept events hold together (oldest dropped first).
   * Default 33554432 (32 MiB); at least `maxEventBytes`.
   */
  maxBufferBytes?: number;
  /**
   * Where the page's URL goes once it listens: `true` (default) writes
   * `devtools: <url>` on stderr, `false` nothing, a function receives the URL.
   */
  print?: boolean | ((url: string) => void);
}

/** Default of {@link DevtoolsOptions.maxEvents}. */
export const DEFAULT_MAX_EVENTS = 2000;
/** Default of {@link DevtoolsOptions.maxEventBytes}: 256 KiB. */
export const DEFAULT_MAX_EVENT_BYTES = 256 * 1024;
/** Default of {@link DevtoolsOptions.maxBufferBytes}: 32 MiB. */
export const DEFAULT_MAX_BUFFER_BYTES = 32 * 1024 * 1024;
/** Smallest {@link DevtoolsOptions.maxEventBytes}: room for an event whose members were all cut to their preview. */
export const MIN_EVENT_BYTES = 16 * 1024;
/** Shortest {@link DevtoolsOptions.token}, in characters. */
export const MIN_TOKEN_LENGTH = 16;

const NAMES: readonly (keyof DevtoolsOptions)[] = ["port", "host", "token", "maxEvents", "maxEventBytes", "maxBufferBytes", "print"];
const HOSTS: readonly string[] = ["127.0.0.1", "::1", "localhost"];

/** {@link DevtoolsOptions} with every default filled in. */
export interface DevtoolsSettings {
  readonly port: number;
  readonly host: DevtoolsHost;
  readonly token: string;
  readonly maxEvents: number;
  readonly maxEventBytes: number;
  readonly maxBufferBytes: number;
  readonly print: (url: string) => void;
}

function integer(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`attachDevtools: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * Reads `options`.
 * @throws TypeError for a name that is not an option, a non-loopback `host`,
 *   a `token` that is not a string of at least 16 URL-safe characters, a
 *   `print` that is neither boolean nor function; RangeError for a `port`,
 *   `maxEvents`, `maxEventBytes` or `maxBufferBytes` out of range (the
 *   last below `maxEventBytes`).
 */
export function readOptions(options: DevtoolsOptions | undefined): DevtoolsSettings {
  const given = options ?? {};
  if (typeof given !== "object") throw new TypeError("attachDevtools: options must be an object");
  rejectUnknown("attachDevtools", given, NAMES);
  const host = given.host ?? "127.0.0.1";
  if (!HOSTS.includes(host)) {
    throw new TypeError(`attachDevtools: host must be a loopback address (${HOSTS.join(", ")}), got ${JSON.stringify(host)}`);
  }
  const token = given.token ?? randomBytes(32).toString("base64url");
  if (typeof token !== "string" || token.length < MIN_TOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) {
    throw new TypeError(`attachDevtools: token must be at least ${MIN_TOKEN_LENGTH} characters of A-Z, a-z, 0-9, "-" and "_"`);
  }
  const print = given.print ?? true;
  if (typeof print !== "boolean" && typeof print !== "function")
    throw new TypeError("attachDevtools: print must be a boolean or a function");
  const maxEventBytes = integer("maxEventBytes", given.maxEventBytes, DEFAULT_MAX_EVENT_BYTES, MIN_EVENT_BYTES, 64 * 1024 * 1024);
  const maxBufferBytes = integer(
    "maxBufferBytes",
    given.maxBufferBytes,
    Math.max(DEFAULT_MAX_BUFFER_BYTES, maxEventBytes),
    maxEventBytes,
    1024 * 1024 * 1024,
  );
  return {
    port: integer("port", given.port, 0, 0, 65535),
    host: host as DevtoolsHost,
    token,
    maxEvents: integer("maxEvents", given.maxEvents, DEFAULT_MAX_EVENTS, 1, 1_000_000),
    maxEventBytes,
    maxBufferBytes,
    print: typeof print === "function" ? print : print ? (url) => process.stderr.write(`devtools: ${url}\n`) : () => {},
  };
}
