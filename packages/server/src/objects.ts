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

/**
 * A deep copy of plain JSON data (plain objects, arrays, strings, numbers,
 * booleans, null, bigint, undefined), every object and array of it frozen;
 * `undefined` when `value` holds anything else (a class instance, a getter,
 * a `toJSON`, a function, a cycle) or is nested too deep for the stack,
 * because then its JSON text could change without the copy changing.
 * Own enumerable string keys only, as `JSON.stringify` reads them.
 */
export function frozenJsonCopy<T>(value: T): T | undefined {
  try {
    return copyFrozen(value, new Set()) as T;
  } catch {
    return undefined;
  }
}

/** Thrown inside {@link frozenJsonCopy} for a value it does not copy. */
const NOT_PLAIN = Symbol("not plain JSON data");

function copyFrozen(value: unknown, ancestors: Set<object>): unknown {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
  if (typeof value === "function" || ancestors.has(value)) throw NOT_PLAIN;
  const proto = Object.getPrototypeOf(value);
  const array = Array.isArray(value);
  if (array ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  // JSON.stringify calls a toJSON whether or not it is enumerable.
  if (Object.hasOwn(value, "toJSON")) throw NOT_PLAIN;
  ancestors.add(value);
  const read = (key: string) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor !== undefined && !("value" in descriptor)) throw NOT_PLAIN;
    return copyFrozen(descriptor?.value, ancestors);
  };
  let copy: unknown[] | Record<string, unknown>;
  if (array) {
    copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = read(String(i));
  } else {
    copy = proto === null ? Object.create(null) : {};
    for (const key of Object.keys(value)) {
      const item = read(key);
      if (key === "__proto__") Object.defineProperty(copy, key, { value: item, enumerable: true });
      else (copy as Record<string, unknown>)[key] = item;
    }
  }
  ancestors.delete(value);
  return Object.freeze(copy);
}
