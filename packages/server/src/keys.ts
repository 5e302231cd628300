/**
 * The server's secret keys, used to seal `requestState` and to sign list
 * cursors (spec 2026-07-28, basic/patterns/mrtr "requestState" and
 * server/utilities/pagination). HMAC-SHA256 from `node:crypto`.
 */
import type * as Crypto from "node:crypto";
import { nodeBuiltin } from "./builtins.js";

/**
 * `node:crypto`, loaded on first use: a server that never signs a cursor nor
 * seals a `requestState` never loads it (loading it costs milliseconds).
 * See `nodeBuiltin` for where it comes from.
 */
export function nodeCrypto(): typeof Crypto {
  return nodeBuiltin<typeof Crypto>("node:crypto");
}

/** The minimum key length, in bytes. */
export const MIN_KEY_BYTES = 32;

/**
 * A ring of HMAC keys: the first signs, every one verifies (key rotation:
 * put the new key first, keep the old ones until what they signed expired).
 */
export class KeyRing {
  /** The keys; for an ephemeral ring, made on first use. */
  #keys: Buffer[] | undefined;
  /** True when the keys were generated at random for this process (not shared between instances). */
  readonly ephemeral: boolean;

  /**
   * @param keys raw keys, each at least 32 bytes; when empty, one random key is made.
   * @throws RangeError when a key is shorter than 32 bytes.
   */
  constructor(keys: readonly Uint8Array[] = []) {
    for (const [i, key] of keys.entries()) {
      if (key.byteLength < MIN_KEY_BYTES)
        throw new RangeError(`requestStateKeys[${i}] must be at least ${MIN_KEY_BYTES} bytes, got ${key.byteLength}`);
    }
    this.ephemeral = keys.length === 0;
    this.#keys = this.ephemeral ? undefined : keys.map((k) => Buffer.from(k));
  }

  get #ring(): Buffer[] {
    this.#keys ??= [nodeCrypto().randomBytes(MIN_KEY_BYTES)];
    return this.#keys;
  }

  /** Keys from a comma-separated list of base64 strings (the `MCP_REQUEST_STATE_KEYS` format). */
  static fromBase64List(list: string): Uint8Array[] {
    return list
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => Buffer.from(s, "base64"));
  }

  /** HMAC-SHA256 of `data` under the signing key, for `purpose` (keys are separated by purpose). */
  sign(purpose: string, data: string): Buffer {
    return mac(this.#ring[0]!, purpose, data);
  }

  /** True when `tag` is a prefix (at least 16 bytes) of the HMAC of `data` under any key of the ring. Constant-time per key. */
  verifyPrefix(purpose: string, data: string, tag: Uint8Array): boolean {
    if (tag.length < 16) return false;
    for (const key of this.#ring) {
      const expected = mac(key, purpose, data).subarray(0, tag.length);
      if (expected.length === tag.length && nodeCrypto().timingSafeEqual(expected, tag)) return true;
    }
    return false;
  }

  /** True when `tag` is the HMAC of `data` under any key of the ring. Constant-time per key. */
  verify(purpose: string, data: string, tag: Uint8Array): boolean {
    for (const key of this.#ring) {
      const expected = mac(key, purpose, data);
      if (expected.length === tag.length && nodeCrypto().timingSafeEqual(expected, tag)) return true;
    }
    return false;
  }
}

function mac(key: Buffer, purpose: string, data: string): Buffer {
  return nodeCrypto().createHmac("sha256", key).update(purpose).update("\0").update(data).digest();
}

/** `Buffer` → base64url text (no padding). */
export function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

/**
 * Base64url text → bytes, or `undefined` when it is not the canonical
 * base64url (unpadded) of those bytes. Canonical only: the unused low bits
 * of the last character must be zero, so no two texts decode to one tag.
 */
export function fromB64url(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : undefined;
}
