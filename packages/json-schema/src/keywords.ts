/**
 * The keywords each dialect defines, and the strict keyword check of a
 * schema: a keyword that its dialect does not define is almost always a
 * typo (`properies`, `require`), and JSON Schema ignores it, so the check it
 * was meant to make silently never happens. The tables are written out here
 * (rather than read from a validator) so that the check loads no validator;
 * they are the keywords ajv's instance of each dialect knows, which a test
 * keeps them equal to.
 */
import { type Dialect, schemaDialect } from "./dialect.js";

const COMMON = [
  "$async",
  "$comment",
  "$defs",
  "$ref",
  "$schema",
  "additionalItems",
  "additionalProperties",
  "allOf",
  "anyOf",
  "const",
  "contains",
  "default",
  "definitions",
  "dependencies",
  "description",
  "enum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "format",
  "formatExclusiveMaximum",
  "formatExclusiveMinimum",
  "formatMaximum",
  "formatMinimum",
  "id",
  "items",
  "maxItems",
  "maxLength",
  "maxProperties",
  "maximum",
  "minItems",
  "minLength",
  "minProperties",
  "minimum",
  "multipleOf",
  "not",
  "nullable",
  "oneOf",
  "pattern",
  "patternProperties",
  "properties",
  "propertyNames",
  "required",
  "title",
  "type",
  "uniqueItems",
];
const DRAFT_06 = [
  ...COMMON,
  "$id",
  "$vocabulary",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "deprecated",
  "examples",
  "readOnly",
  "writeOnly",
];
const DRAFT_07 = [...DRAFT_06, "if", "then", "else"];
const DRAFT_2019 = [
  ...DRAFT_07,
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveAnchor",
  "$recursiveRef",
  "dependentRequired",
  "dependentSchemas",
  "maxContains",
  "minContains",
  "unevaluatedItems",
  "unevaluatedProperties",
];
// 2020-12 replaced the array form of `items` and `additionalItems` with `prefixItems`.
const DRAFT_2020 = [...DRAFT_2019.filter((k) => k !== "additionalItems"), "prefixItems"];

/**
 * The keywords a schema of each dialect may use (besides `x-` extensions):
 * validation, applicators, core, meta-data, content, and the few ajv adds
 * (`nullable`, `$async`, the `format*` bounds of ajv-formats). draft-04 has
 * `if`/`then`/`else` and `const` here because ajv-draft-04 accepts them.
 */
export const DIALECT_KEYWORDS: Readonly<Record<Dialect, ReadonlySet<string>>> = Object.freeze({
  "2020-12": new Set(DRAFT_2020),
  "2019-09": new Set(DRAFT_2019),
  "draft-07": new Set(DRAFT_07),
  "draft-06": new Set(DRAFT_06),
  "draft-04": new Set([...COMMON, "if", "then", "else"]),
});

/** A keyword {@link unknownKeyword} found: its name and the JSON Pointer of the schema object holding it (`""` for the root). */
export interface UnknownKeyword {
  keyword: string;
  path: string;
}

/** Keywords whose value is a map of schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);
/** Keywords whose value is a schema or an array of schemas. */
const SCHEMA_VALUES = new Set([
  "items",
  "prefixItems",
  "additionalItems",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);

/** Escapes one JSON Pointer segment (RFC 6901). */
export function pointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Calls `visit` with each schema object inside `schema` (itself included)
 * and its JSON Pointer, once per object, walking the keywords that hold
 * schemas (not `const`, `enum`, `default` or `examples`, which are data) with
 * an explicit stack. `visit` returning a value stops the walk with it.
 */
export function walkSchemas<T>(schema: unknown, visit: (node: Record<string, unknown>, path: string) => T | undefined): T | undefined {
  const seen = new Set<object>();
  const stack: Array<[unknown, string]> = [[schema, ""]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node !== "object" || node === null || Array.isArray(node) || seen.has(node)) continue;
    seen.add(node);
    const found = visit(node as Record<string, unknown>, path);
    if (found !== undefined) return found;
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${pointerToken(key)}`;
      if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
        // `dependencies` maps to a schema or (a property list) an array of names: only objects are walked.
        for (const [name, sub] of Object.entries(value)) stack.push([sub, `${at}/${pointerToken(name)}`]);
      } else if (SCHEMA_VALUES.has(key)) {
        if (Array.isArray(value)) {
          for (const [i, sub] of value.entries()) stack.push([sub, `${at}/${i}`]);
        } else stack.push([value, at]);
      }
    }
  }
  return undefined;
}

/**
 * Finds the first keyword of `schema`, at any depth of subschemas, that the
 * dialect its root `$schema` declares does not define (see
 * {@link DIALECT_KEYWORDS}). Keywords starting with `x-` are extensions (as
 * `x-mcp-header`) and pass. The values of `const`, `enum`, `default` and
 * `examples` are data, not schemas, and are not walked. The walk uses an
 * explicit stack (no recursion limit) and visits each object once. Loads no
 * validator.
 *
 * @returns the keyword and where it is, or `undefined` when every keyword is known.
 * @throws SchemaCompileError `unknown-dialect` for a `$schema` that is not supported (see `schemaDialect`).
 */
export function unknownKeyword(schema: unknown): UnknownKeyword | undefined {
  const known = DIALECT_KEYWORDS[schemaDialect(schema)];
  return walkSchemas(schema, (node, path) => {
    for (const key of Object.keys(node)) if (!key.startsWith("x-") && !known.has(key)) return { keyword: key, path };
    return undefined;
  });
}
