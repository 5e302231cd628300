/**
 * The dialects a user schema may declare with its root `$schema`: the one
 * rule for trusted and untrusted schemas, and for every validator, alike.
 * No `$schema` means 2020-12; an unknown one is refused, never read as some
 * other dialect.
 */
import { SchemaCompileError } from "./errors.js";

/** A JSON Schema dialect {@link schemaDialect} knows. */
export type Dialect = "2020-12" | "2019-09" | "draft-07" | "draft-06" | "draft-04";

/** Every dialect a schema may declare, newest first. */
export const SUPPORTED_DIALECTS: readonly Dialect[] = Object.freeze(["2020-12", "2019-09", "draft-07", "draft-06", "draft-04"]);

// http or https, with or without the empty fragment: all four spellings are in use.
const DECLARED = /^https?:\/\/json-schema\.org\/(?:draft\/(2020-12|2019-09)|(draft-0[764]))\/schema#?$/;

/**
 * The dialect a schema declares with its root `$schema`:
 * `http(s)://json-schema.org/draft/2020-12/schema`, `.../draft/2019-09/schema`,
 * `.../draft-07/schema`, `.../draft-06/schema` or `.../draft-04/schema`,
 * each with or without a trailing `#`. A schema without `$schema` (or a
 * value that is not an object, such as a boolean schema) is 2020-12.
 * @throws SchemaCompileError `unknown-dialect` (its `data.dialect` the value
 *   as given) for any other `$schema`, its message naming the value and the
 *   supported dialects.
 */
export function schemaDialect(schema: unknown): Dialect {
  const declared = typeof schema === "object" && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined;
  if (declared === undefined) return "2020-12";
  const match = typeof declared === "string" ? DECLARED.exec(declared) : null;
  if (match) return (match[1] ?? match[2]) as Dialect;
  throw new SchemaCompileError(
    "unknown-dialect",
    `The schema's dialect ${JSON.stringify(declared)} is not supported (supported: ${SUPPORTED_DIALECTS.join(", ")})`,
    { dialect: declared },
  );
}

/** The keyword a dialect names a schema's id with: `id` in draft-04, `$id` from draft-06 on. */
export function idKeyword(dialect: Dialect): "id" | "$id" {
  return dialect === "draft-04" ? "id" : "$id";
}
