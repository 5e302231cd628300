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

export function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function escapePointer(token) {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}
