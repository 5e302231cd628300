/**
 * The unknown-key gate of action tools: which keys an action's `data` may
 * carry, at every depth, read from the action's `properties`.
 *
 * Closure rules (an object schema is a property schema that is an object):
 * - `data` itself is closed: it admits exactly the action's property names.
 * - An object schema that declares `properties` is closed unless its
 *   `additionalProperties` is `true` (open: any extra key, not checked further)
 *   or a schema (any extra key, whose value is read against that schema).
 *   Absent or `false`, it is closed.
 * - An object schema without `properties` is closed only by
 *   `additionalProperties: false`, which admits no key at all; with an
 *   `additionalProperties` schema every key is admitted and its value read
 *   against that schema; otherwise it is free-form.
 * - An array value is read item by item against the schema's `items`, when
 *   that is an object schema.
 *
 * The gate follows only `properties`, `additionalProperties` and `items`.
 * Keys under composition (`oneOf`, `anyOf`, `allOf`, `not`, `if`), `$ref`,
 * `patternProperties` and `prefixItems` are not read here; the value gate,
 * which runs next, checks them as JSON Schema says. The gate reads keys, never values.
 */

import type { JsonObject } from "../objects.js";
import { boundText, ECHO_LIMIT } from "../text.js";
import { escapePointer, isPlainObject } from "./json.js";

/** What `allowed` lists for an object whose `additionalProperties` schema admits any key. */
export const ANY_STRING_KEY = "<any string key>";

/** How many unknown keys an answer lists (the rest are counted). */
export const MAX_LISTED = 10;

/** The unknown keys of one call. */
export interface UnknownKeys {
  /** How many unknown keys the call carried, in all. */
  count: number;
  /** The first {@link MAX_LISTED} data paths (JSON Pointers, each segment bounded) in sort order. */
  unknown: string[];
  /**
   * For each object that holds one of the listed keys, at any depth (`data`
   * itself, under `""`, always does): its data path → the names it admits,
   * sorted, with {@link ANY_STRING_KEY} where it admits any key
   * (`additionalProperties` a schema or `true`). The retry needs no help call.
   */
  allowed: Record<string, string[]>;
}

function segment(key: string): string {
  return `/${escapePointer(boundText(key, ECHO_LIMIT))}`;
}

function admitted(properties: JsonObject | undefined, additional: unknown): string[] {
  const names = properties ? Object.keys(properties).sort() : [];
  if (isPlainObject(additional) || additional === true) names.push(ANY_STRING_KEY);
  return names;
}

type Holder = { path: string; names: () => string[] };

/**
 * Reads `data` against the action's `properties` and lists every key the
 * closure rules refuse. Returns `undefined` when there is none.
 */
export function findUnknownKeys(data: JsonObject, properties: JsonObject): UnknownKeys | undefined {
  const found: { path: string; holders: Holder[] }[] = [];
  const visitObject = (value: JsonObject, path: string, props: JsonObject | undefined, additional: unknown, chain: Holder[]) => {
    const closed = props !== undefined ? additional === undefined || additional === false : additional === false;
    const here = [...chain, { path, names: () => admitted(props, additional) }];
    for (const key of Object.keys(value)) {
      const child = value[key];
      const childPath = path + segment(key);
      if (props !== undefined && Object.hasOwn(props, key)) {
        visit(child, childPath, props[key], here);
      } else if (isPlainObject(additional)) {
        visit(child, childPath, additional, here);
      } else if (closed) {
        found.push({ path: childPath, holders: here });
      }
    }
  };
  const visit = (value: unknown, path: string, schema: unknown, chain: Holder[]) => {
    if (!isPlainObject(schema)) return;
    if (Array.isArray(value)) {
      if (isPlainObject(schema.items)) {
        for (let i = 0; i < value.length; i++) visit(value[i], `${path}/${i}`, schema.items, chain);
      }
      return;
    }
    if (!isPlainObject(value)) return;
    const props = isPlainObject(schema.properties) ? schema.properties : undefined;
    if (props === undefined && schema.additionalProperties === undefined) return;
    visitObject(value, path, props, schema.additionalProperties, chain);
  };
  visitObject(data, "", properties, false, []);
  if (found.length === 0) return undefined;
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const listed = found.slice(0, MAX_LISTED);
  const allowed: Record<string, string[]> = {};
  for (const entry of listed) {
    for (const holder of entry.holders) allowed[holder.path] ??= holder.names();
  }
  return { count: found.length, unknown: listed.map((e) => e.path), allowed };
}

/**
 * Returns a copy of `properties` in which every nested object schema the
 * gate treats as closed says so: `additionalProperties: false` is added
 * where it was absent. Help and the `input_schema` digest publish this
 * copy, so the schema a caller reads states what the gate enforces.
 */
export function closeProperties(properties: JsonObject): JsonObject {
  const close = (schema: unknown): unknown => {
    if (!isPlainObject(schema)) return schema;
    const copy: JsonObject = { ...schema };
    if (isPlainObject(schema.properties)) {
      copy.properties = closeProperties(schema.properties);
      if (schema.additionalProperties === undefined) copy.additionalProperties = false;
    }
    if (isPlainObject(schema.additionalProperties)) copy.additionalProperties = close(schema.additionalProperties);
    if (isPlainObject(schema.items)) copy.items = close(schema.items);
    return copy;
  };
  const out: JsonObject = {};
  for (const [name, schema] of Object.entries(properties)) out[name] = close(schema);
  return out;
}

/**
 * The structural offences of an action's `properties` that the gate depends
 * on, at every depth it follows: `properties` must be a map (a plain object)
 * whose property schemas are booleans or maps, and `additionalProperties`
 * must be `true`, `false` or a schema (a map); an `items` that is a map is
 * read the same way.
 * @returns a description of the first offence with its schema path, or `undefined`.
 */
export function schemaOffence(properties: unknown, path = "properties"): string | undefined {
  if (!isPlainObject(properties)) return `${path} must be a map of property name to schema (a plain object)`;
  if (Object.getOwnPropertySymbols(properties).length > 0) return `${path} has a key that is not a string`;
  for (const [name, schema] of Object.entries(properties)) {
    const here = `${path}/${escapePointer(name)}`;
    const offence = schemaNodeOffence(schema, here);
    if (offence) return offence;
  }
  return undefined;
}

function schemaNodeOffence(schema: unknown, path: string): string | undefined {
  if (typeof schema === "boolean") return undefined;
  if (!isPlainObject(schema)) return `${path} must be a schema (a plain object or a boolean)`;
  if (Object.getOwnPropertySymbols(schema).length > 0) return `${path} has a key that is not a string`;
  if (schema.properties !== undefined) {
    const offence = schemaOffence(schema.properties, `${path}/properties`);
    if (offence) return offence;
  }
  const additional = schema.additionalProperties;
  if (additional !== undefined && typeof additional !== "boolean") {
    if (!isPlainObject(additional)) return `${path}/additionalProperties must be true, false or a schema (a plain object)`;
    const offence = schemaNodeOffence(additional, `${path}/additionalProperties`);
    if (offence) return offence;
  }
  if (isPlainObject(schema.items)) {
    const offence = schemaNodeOffence(schema.items, `${path}/items`);
    if (offence) return offence;
  }
  return undefined;
}
