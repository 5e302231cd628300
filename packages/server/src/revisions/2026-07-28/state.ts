/**
 * `requestState` on the server (spec 2026-07-28, basic/patterns/mrtr): the
 * answers a Multi Round-Trip Request has gathered, sealed with HMAC-SHA256
 * over an expiry, the principal, the method and a digest of the request's
 * parameters, so a client can carry them but not change or replay them
 * elsewhere. Signed, not encrypted: it holds only what the client sent.
 */
import { MissingDependencyError, parseJson, stringifyJson } from "@x/jsonrpc";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { McpError } from "../../errors.js";
import { b64url, fromB64url, type KeyRing, nodeCrypto } from "../../keys.js";
import { isObject, type JsonObject } from "../../objects.js";

/**
 * Checks `inputResponses` as sent.
 * @throws McpError(-32602) when it is not an object (`null` included) or an entry is not an object.
 */
export function readInputResponses(value: unknown): JsonObject {
  if (value === undefined) return {};
  if (!isObject(value)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: inputResponses must be an object");
  for (const [key, entry] of Object.entries(value)) {
    if (!isObject(entry)) throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses.${key} must be an object`, { key });
  }
  return value;
}

const PURPOSE = "x-mcp:requestState";

/** What a sealed `requestState` binds. */
export interface StateBinding {
  method: string;
  params: JsonObject;
  principal: string | undefined;
}

/** JSON with object keys sorted, so equal values digest equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return stringifyJson(value) ?? "null";
}

/** Digest of the request's parameters, without `_meta`, `inputResponses` and `requestState`. */
export function paramsDigest(params: JsonObject): string {
  const { _meta, inputResponses, requestState, ...rest } = params;
  // An absent `arguments` and an empty one are the same request.
  if (rest.arguments === undefined) rest.arguments = {};
  return nodeCrypto().createHash("sha256").update(canonical(rest)).digest("base64url");
}

/** Seals the answers of a round into a `requestState` string. */
export function sealState(keys: KeyRing, answers: JsonObject, binding: StateBinding, ttlMs: number, now = Date.now()): string {
  const payload = { v: 1, a: answers, e: now + ttlMs, p: binding.principal ?? null, m: binding.method, d: paramsDigest(binding.params) };
  const body = b64url(Buffer.from(stringifyJson(payload)));
  return `${body}.${b64url(keys.sign(PURPOSE, body))}`;
}

/** A sealed `requestState`'s payload, verified with the server's keys. */
interface Sealed {
  v: 1;
  /** The answers. */
  a: JsonObject;
  /** Expiry, ms since the epoch. */
  e: number;
  /** The principal, or null. */
  p?: unknown;
  /** The method. */
  m?: unknown;
  /** The params' digest. */
  d?: unknown;
}

/**
 * The payload of `state` when it is a `requestState` these keys sealed
 * (expired or not); `undefined` when it is not a string or fails verification.
 * @throws MissingDependencyError only (a JSON reader the server needs is missing).
 */
function readSealed(keys: KeyRing, state: unknown): Sealed | undefined {
  if (typeof state !== "string") return undefined;
  const dot = state.indexOf(".");
  const body = dot === -1 ? "" : state.slice(0, dot);
  const tag = dot === -1 ? undefined : fromB64url(state.slice(dot + 1));
  if (!body || !tag || !/^[A-Za-z0-9_-]+$/.test(body) || !keys.verify(PURPOSE, body, tag)) return undefined;
  let payload: { v?: unknown; a?: unknown; e?: unknown; p?: unknown; m?: unknown; d?: unknown };
  try {
    payload = parseJson(Buffer.from(body, "base64url").toString("utf8")) as typeof payload;
  } catch (error) {
    if (error instanceof MissingDependencyError) throw error;
    return undefined;
  }
  if (payload.v !== 1 || !isObject(payload.a) || typeof payload.e !== "number") return undefined;
  return payload as Sealed;
}

/**
 * Opens a `requestState` and returns the answers it carries.
 * @throws McpError(-32602) when the state is malformed, fails verification,
 *   has expired, or belongs to another principal, method or request.
 */
export function openState(keys: KeyRing, state: unknown, binding: StateBinding, now = Date.now()): JsonObject {
  const refuse = (why: string) => new McpError(ErrorCode.InvalidParams, `Invalid requestState: ${why}`);
  if (typeof state !== "string") throw refuse("must be a string");
  const payload = readSealed(keys, state);
  if (payload === undefined) throw refuse("failed verification");
  if (payload.e <= now) throw refuse("expired");
  if (payload.p !== (binding.principal ?? null)) throw refuse("issued to another principal");
  if (payload.m !== binding.method || payload.d !== paramsDigest(binding.params)) throw refuse("issued for another request");
  return payload.a;
}

/** What {@link readRequestState} found in a `requestState`. */
export interface RequestStateReading {
  /** True when the server's keys sealed it (then the other members are set). */
  readonly verified: boolean;
  /** True when it is verified and past its expiry. */
  readonly expired: boolean;
  /** The method it was issued for. */
  readonly method?: string;
  /** The answers it carries (the client's `inputResponses` of earlier rounds), by ask key. */
  readonly answers?: JsonObject;
  /** When it expires, in milliseconds since the epoch. */
  readonly expiresAt?: number;
}

/**
 * Reads a Multi Round-Trip `requestState` (spec 2026-07-28: the
 * `input_required` result's `requestState`) with the server's own keys, for
 * a devtools page or a log: whether it verifies, has expired, and what it
 * carries. The principal it is bound to and the params' digest are not
 * returned. `now`: ms since the epoch (default `Date.now()`).
 * Never throws: what is not a state these keys sealed reads `{ verified: false, expired: false }`.
 */
export function readRequestState(keys: KeyRing, state: unknown, now = Date.now()): RequestStateReading {
  let payload: Sealed | undefined;
  try {
    payload = readSealed(keys, state);
  } catch {
    payload = undefined;
  }
  if (payload === undefined) return { verified: false, expired: false };
  const reading: { -readonly [K in keyof RequestStateReading]: RequestStateReading[K] } = {
    verified: true,
    expired: payload.e <= now,
    answers: payload.a,
    expiresAt: payload.e,
  };
  if (typeof payload.m === "string") reading.method = payload.m;
  return reading;
}
