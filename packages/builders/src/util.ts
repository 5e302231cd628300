/** Internal helpers shared by the builders; not exported from the package. */

/** A short, bounded rendering of a value for error messages (at most 80 characters). */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    if (typeof value === "bigint") text = `${value}n`;
    else text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** True for a plain JSON-like object: not null, not an array, not a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Checks the options argument of a builder: `undefined` becomes `{}`, a plain
 * object is returned as is, anything else is a TypeError naming `name`.
 */
export function optionsObject<T extends object>(value: T | undefined, name = "options"): T {
  if (value === undefined) return {} as T;
  if (!isPlainObject(value)) throw new TypeError(`${name} must be a plain object, got ${describeValue(value)}`);
  return value;
}

/** True when an optional value is given: neither `undefined` nor `null` (both mean an absent key). */
export function isGiven<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}
