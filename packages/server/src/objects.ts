/**
 * Shallow copies on the request path (internal).
 *
 * V8 (Node 20) builds `{ ...source, key: value }`, `{ ...a, ...b }`, and any
 * property added later to an object made by a spread, on a slow path: about
 * half a microsecond per object, against tens of nanoseconds for a plain
 * loop (measured in bench/README.md, "Why no spreads on the request path").
 * `copyOwn` makes an ordinary object that takes new properties cheaply.
 */

/**
 * A new plain object with `source`'s own enumerable string-keyed properties,
 * in the same order. A `__proto__` key is copied as data (not as the
 * prototype). The copy is shallow: values are shared.
 */
export function copyOwn(source: object): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    const value = (source as Record<string, unknown>)[key];
    if (key === "__proto__") Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    else copy[key] = value;
  }
  return copy;
}

// One rule for "a JSON object" on both sides of the wire.
export { isObject } from "@x/jsonrpc";
