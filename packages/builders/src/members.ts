/**
 * Checks of the members several definitions share (spec 2026-07-28, schema:
 * `Annotations`, `Icon`, `MetaObject`, `JSONObject`), for the builders that
 * pass on objects their callers wrote, so that they return a valid result
 * or throw. String formats are the `@x/mcp-v2607` validators' (see the README).
 */
import { describeValue, isPlainObject } from "./util.js";

/** Throws the TypeError of a member: `<where> <what>, got <value>`. */
export function fail(where: string, what: string, value: unknown): never {
  throw new TypeError(`${where} ${what}, got ${describeValue(value)}`);
}

/** A `string` member. */
export function requireString(block: Record<string, unknown>, key: string, where: string): void {
  if (typeof block[key] !== "string") fail(`${where}.${key}`, "must be a string", block[key]);
}

/** A `string` member, when given. */
export function optionalString(block: Record<string, unknown>, key: string, where: string): void {
  if (block[key] !== undefined && typeof block[key] !== "string") fail(`${where}.${key}`, "must be a string when given", block[key]);
}

/** `_meta` (a `MetaObject`: any plain object), when given. */
export function optionalMeta(block: Record<string, unknown>, where: string): void {
  if (block._meta !== undefined && !isPlainObject(block._meta)) fail(`${where}._meta`, "must be a plain object when given", block._meta);
}

/** `Annotations`: `audience` of roles, `priority` from 0 to 1, `lastModified` a string. */
export function checkAnnotations(value: unknown, where: string): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) fail(where, "must be a plain object when given", value);
  const { audience, priority } = value;
  if (audience !== undefined && !(Array.isArray(audience) && audience.every((role) => role === "user" || role === "assistant"))) {
    fail(`${where}.audience`, 'must be an array of "user" and "assistant"', audience);
  }
  if (priority !== undefined && !(typeof priority === "number" && priority >= 0 && priority <= 1)) {
    fail(`${where}.priority`, "must be a number from 0 to 1", priority);
  }
  optionalString(value, "lastModified", where);
}

/** `Icon`s: each a `src` string, with optional `mimeType`, `sizes` (strings) and `theme` (`"light"` or `"dark"`). */
export function checkIcons(value: unknown, where: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) fail(where, "must be an array when given", value);
  value.forEach((icon: unknown, i) => {
    const at = `${where}[${i}]`;
    if (!isPlainObject(icon)) fail(at, "must be an icon object", icon);
    requireString(icon, "src", at);
    optionalString(icon, "mimeType", at);
    if (icon.sizes !== undefined && !(Array.isArray(icon.sizes) && icon.sizes.every((s) => typeof s === "string"))) {
      fail(`${at}.sizes`, "must be an array of strings when given", icon.sizes);
    }
    if (icon.theme !== undefined && icon.theme !== "light" && icon.theme !== "dark")
      fail(`${at}.theme`, 'must be "light" or "dark"', icon.theme);
  });
}

/** A `boolean` member, when given. */
export function optionalBoolean(block: Record<string, unknown>, key: string, where: string): void {
  if (block[key] !== undefined && typeof block[key] !== "boolean") fail(`${where}.${key}`, "must be a boolean when given", block[key]);
}

/** A `size`-like member: an integer, when given. */
export function optionalInteger(block: Record<string, unknown>, key: string, where: string): void {
  if (block[key] !== undefined && !Number.isSafeInteger(block[key])) fail(`${where}.${key}`, "must be an integer when given", block[key]);
}

/** An array of strings, when given. */
export function optionalStrings(block: Record<string, unknown>, key: string, where: string): void {
  const value = block[key];
  if (value !== undefined && !(Array.isArray(value) && value.every((s) => typeof s === "string"))) {
    fail(`${where}.${key}`, "must be an array of strings when given", value);
  }
}

/**
 * A `JSONObject` of the schema: its values (and theirs, all the way down) are
 * objects, arrays, strings, booleans or integers; `null`, fractions, numbers
 * that are not finite and `bigint`s are not among them. Each object is
 * looked at once (a cycle ends there), without recursion.
 */
export function checkJsonObject(value: unknown, where: string): void {
  if (!isPlainObject(value)) fail(where, "must be a plain object", value);
  const seen = new Set<unknown>();
  const pending: [unknown, string][] = [[value, where]];
  while (pending.length > 0) {
    const [v, at] = pending.pop()!;
    if (typeof v === "object" && v !== null) {
      if (seen.has(v)) continue;
      seen.add(v);
    }
    if (Array.isArray(v)) for (let i = 0; i < v.length; i++) pending.push([v[i], `${at}[${i}]`]);
    else if (isPlainObject(v)) for (const [key, item] of Object.entries(v)) pending.push([item, `${at}.${key}`]);
    else if (!(typeof v === "string" || typeof v === "boolean" || Number.isSafeInteger(v))) {
      fail(at, "must be a JSON value the schema allows (an object, array, string, boolean or integer)", v);
    }
  }
}
