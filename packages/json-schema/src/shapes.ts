/**
 * What each keyword's value must be, by dialect: the check of a schema's
 * keywords that does not need its dialect's meta-schema. The cfworker
 * validator applies it to every schema (the library checks values, not
 * schemas), ajv to the schemas of a program's own (trusted: see
 * `ajvValidator`), so that a keyword written wrong is refused at compile,
 * with one wording, whichever validator compiles it.
 */
import type { Dialect } from "./dialect.js";
import { SchemaCompileError } from "./errors.js";
import { pointerToken, walkSchemas } from "./keywords.js";

const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isSchema = (v: unknown) => typeof v === "boolean" || isObject(v);
const isCount = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;
const isString = (v: unknown) => typeof v === "string";
const isBoolean = (v: unknown) => typeof v === "boolean";
const isNumber = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const isSchemaList = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every(isSchema);
const isSchemaMap = (v: unknown) => isObject(v) && Object.values(v).every(isSchema);
const isNames = (v: unknown) => Array.isArray(v) && v.every(isString) && new Set(v).size === v.length;
const isRegex = (v: unknown) => {
  if (typeof v !== "string") return false;
  try {
    new RegExp(v, "u");
    return true;
  } catch {
    return false;
  }
};

/** What a keyword's value must be, with its wording; `draft04` tells the rules of draft-04 apart. */
type Shape = [check: (value: unknown, dialect: Dialect) => boolean, expected: string];
const SCHEMA: Shape = [isSchema, "a schema (an object or a boolean)"];
const COUNT: Shape = [isCount, "a non-negative integer"];
const STRING: Shape = [isString, "a string"];
const BOOLEAN: Shape = [isBoolean, "a boolean"];
const NUMBER: Shape = [isNumber, "a number"];
const LIST: Shape = [isSchemaList, "a non-empty array of schemas"];
const MAP: Shape = [isSchemaMap, "an object whose values are schemas"];
const EXCLUSIVE: Shape = [(v, d) => (d === "draft-04" ? isBoolean(v) : isNumber(v)), "a number (a boolean in draft-04)"];
const SHAPES: Record<string, Shape> = {
  type: [
    (v) =>
      typeof v === "string"
        ? TYPES.has(v)
        : Array.isArray(v) && v.length > 0 && v.every((t) => TYPES.has(t)) && new Set(v).size === v.length,
    "a type name or a non-empty array of distinct type names",
  ],
  required: [isNames, "an array of distinct strings"],
  enum: [Array.isArray, "an array"],
  examples: [Array.isArray, "an array"],
  properties: MAP,
  patternProperties: [
    (v) => isSchemaMap(v) && Object.keys(v as object).every(isRegex),
    "an object of schemas keyed by regular expressions",
  ],
  $defs: MAP,
  definitions: MAP,
  dependentSchemas: MAP,
  dependentRequired: [(v) => isObject(v) && Object.values(v).every(isNames), "an object whose values are arrays of distinct strings"],
  dependencies: [
    (v) => isObject(v) && Object.values(v).every((d) => isSchema(d) || isNames(d)),
    "an object of schemas or arrays of strings",
  ],
  items: [
    (v, d) => isSchema(v) || (d !== "2020-12" && Array.isArray(v) && v.every(isSchema)),
    "a schema (or, before 2020-12, an array of schemas)",
  ],
  prefixItems: LIST,
  allOf: LIST,
  anyOf: LIST,
  oneOf: LIST,
  not: SCHEMA,
  if: SCHEMA,
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
  then: SCHEMA,
  else: SCHEMA,
  contains: SCHEMA,
  propertyNames: SCHEMA,
  additionalProperties: SCHEMA,
  additionalItems: SCHEMA,
  unevaluatedItems: SCHEMA,
  unevaluatedProperties: SCHEMA,
  contentSchema: SCHEMA,
  minLength: COUNT,
  maxLength: COUNT,
  minItems: COUNT,
  maxItems: COUNT,
  minProperties: COUNT,
  maxProperties: COUNT,
  minContains: COUNT,
  maxContains: COUNT,
  minimum: NUMBER,
  maximum: NUMBER,
  exclusiveMinimum: EXCLUSIVE,
  exclusiveMaximum: EXCLUSIVE,
  multipleOf: [(v) => isNumber(v) && (v as number) > 0, "a number greater than 0"],
  pattern: [isRegex, "a regular expression (with the u flag)"],
  format: STRING,
  $ref: STRING,
  $id: STRING,
  $anchor: STRING,
  $comment: STRING,
  $recursiveRef: STRING,
  title: STRING,
  description: STRING,
  contentMediaType: STRING,
  contentEncoding: STRING,
  uniqueItems: BOOLEAN,
  deprecated: BOOLEAN,
  readOnly: BOOLEAN,
  writeOnly: BOOLEAN,
  $recursiveAnchor: BOOLEAN,
};

/**
 * What a keyword's value must be, when `value` is not that (e.g. `"an array
 * of distinct strings"` for a `required` that is not); `undefined` when it
 * is, or when the keyword is not one this table knows (an annotation, an
 * extension).
 */
export function shapeProblem(keyword: string, value: unknown, dialect: Dialect): string | undefined {
  const shape = Object.hasOwn(SHAPES, keyword) ? SHAPES[keyword] : undefined;
  return shape && !shape[0](value, dialect) ? shape[1] : undefined;
}

/**
 * Checks every keyword of `schema` and its subschemas against
 * {@link shapeProblem}.
 * @throws SchemaCompileError `invalid` naming the first keyword written
 *   wrong and where, e.g. `schema is invalid: /properties/n/minimum must be a number`.
 */
export function checkShapes(schema: unknown, dialect: Dialect): void {
  walkSchemas(schema, (node, path) => {
    for (const [keyword, value] of Object.entries(node)) {
      const expected = shapeProblem(keyword, value, dialect);
      if (expected !== undefined)
        throw new SchemaCompileError("invalid", `schema is invalid: ${path}/${pointerToken(keyword)} must be ${expected}`);
    }
    return undefined;
  });
}
