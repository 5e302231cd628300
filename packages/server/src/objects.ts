/**
 * Plain objects (internal): the one `JsonObject` alias, and shallow copies on
 * the request path.
 *
 * V8 (Node 20) builds `{ ...source, key: value }`, `{ ...a, ...b }`, and any
 * property added later to an object made by a spread, on a slow path: about
 * half a microsecond per object, against tens of nanoseconds for a plain
 * loop (measured in bench/README.md, "Why no spreads on the request path").
 * `copyOwn` makes an ordinary object that takes new properties cheaply.
 */

/**
 * An object of string keys whose values are not checked: JSON decoded from
 * the wire, or data a user hands the server. The generated `JSONObject` is
 * for objects already known to hold JSON values.
 */
export type JsonObject = Record<string, unknown>;

/**
 * A new plain object with `source`'s own enumerable string-keyed properties,
 * in the same order. A `__proto__` key is copied as data (not as the
 * prototype). The copy is shallow: values are shared.
 */
export function copyOwn(source: object): JsonObject {
  const copy: JsonObject = {};
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    const value = (source as JsonObject)[key];
    if (key === "__proto__") Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    else copy[key] = value;
  }
  return copy;
}

// One rule for "a JSON object" on both sides of the wire.
export { isObject } from "@x/jsonrpc";
