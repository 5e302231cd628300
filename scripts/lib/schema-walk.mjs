// Helpers that walk a JSON Schema by keyword, so that property names and
// `const`/`enum` values are never mistaken for keywords.

/** Keywords whose value is a map from names to subschemas. */
export const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is one subschema. */
export const SCHEMA_KEYWORDS = new Set([
  "additionalProperties",
  "additionalItems",
  "items",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
]);
/** Keywords whose value is a list of subschemas. */
export const SCHEMA_LIST_KEYWORDS = new Set(["anyOf", "allOf", "oneOf", "prefixItems"]);

/**
 * Rebuilds `schema` bottom-up: every subschema (objects only; booleans are
 * kept) is first rebuilt from its rebuilt children, then passed to
 * `fn(schema, pointer)`, whose return value replaces it. Key order is kept.
 */
export function mapSchema(schema, fn, pointer = "#") {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    const at = `${pointer}/${escapePointer(key)}`;
    if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, mapSchema(sub, fn, `${at}/${escapePointer(name)}`)]));
    } else if (SCHEMA_KEYWORDS.has(key)) {
      out[key] = Array.isArray(value) ? value.map((sub, i) => mapSchema(sub, fn, `${at}/${i}`)) : mapSchema(value, fn, at);
    } else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
      out[key] = value.map((sub, i) => mapSchema(sub, fn, `${at}/${i}`));
    } else {
      out[key] = value;
    }
  }
  return fn(out, pointer);
}

/** Calls `fn(schema, pointer)` on every subschema (children before their parent). */
export function eachSchema(schema, fn, pointer = "#") {
  mapSchema(
    schema,
    (s, p) => {
      fn(s, p);
      return s;
    },
    pointer,
  );
}

/**
 * The schema with its definitions under `$defs`, as 2020-12 names them. The
 * schemas of 2025-06-18 and earlier are draft-07, which keeps them under
 * `definitions` and points at them with `#/definitions/<Name>`: both are
 * renamed (only where a keyword is, never inside a `const` or an `enum`).
 * The two names hold the same thing, and a `$ref` is a JSON Pointer either
 * way, so every draft-07 validator reads the renamed schema alike; the
 * dialect (`$schema`) is kept. The generator and its outputs then handle one
 * layout for every revision.
 */
export function definitionsAsDefs(schema) {
  if (!isObject(schema) || !("definitions" in schema)) return schema;
  if ("$defs" in schema) throw new Error("the schema has both definitions and $defs");
  const renamed = mapSchema(schema, (s) =>
    typeof s.$ref === "string" && s.$ref.startsWith("#/definitions/")
      ? { ...s, $ref: `#/$defs/${s.$ref.slice("#/definitions/".length)}` }
      : s,
  );
  const { definitions, ...rest } = renamed;
  const out = {};
  // Same key order as the file, `$defs` where `definitions` was.
  for (const key of Object.keys(schema)) {
    if (key === "definitions") out.$defs = definitions;
    else out[key] = rest[key];
  }
  return out;
}

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function escapePointer(token) {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}
