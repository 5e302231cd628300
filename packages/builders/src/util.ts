/** Internal helpers shared by the builders; not exported from the package. */

/** A short, bounded rendering of a value for error messages (at most 80 characters). */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
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
