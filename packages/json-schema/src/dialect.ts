/**
 * The dialects a user schema may declare with its root `$schema`, and the
 * ajv instance that reads each: the one rule for trusted and untrusted
 * schemas alike. No `$schema` means 2020-12; an unknown one is refused,
 * never read as some other dialect.
 */
import type { Ajv, AnySchemaObject, Logger, Options } from "ajv";
import { type AjvClass, loadAjv, loadAjvDraft07, loadOnce } from "./ajv.js";
import { SchemaCompileError } from "./errors.js";

/** A JSON Schema dialect {@link schemaDialect} knows. */
export type Dialect = "2020-12" | "2019-09" | "draft-07" | "draft-06" | "draft-04";

/** Every dialect a schema may declare, newest first. */
export const SUPPORTED_DIALECTS: readonly Dialect[] = Object.freeze(["2020-12", "2019-09", "draft-07", "draft-06", "draft-04"]);

// http or https, with or without the empty fragment: all four spellings are in use.
const DECLARED = /^https?:\/\/json-schema\.org\/(?:draft\/(2020-12|2019-09)|(draft-0[764]))\/schema#?$/;
const DRAFT_06_META = "http://json-schema.org/draft-06/schema#";

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

// Before 2019-09 a $ref's siblings are ignored. ajv does that under an option
// it calls deprecated and then warns for each such $ref: expected here, so silent.
const refNotices = /^(DEPRECATED: option ignoreKeywordsWithRef|\$ref: keywords ignored)/;
const logger: Logger = {
  log: (...args: unknown[]) => console.log(...args),
  warn: (...args: unknown[]) => {
    if (!refNotices.test(String(args[0]))) console.warn(...args);
  },
  error: (...args: unknown[]) => console.error(...args),
};

function classOf(dialect: Dialect): AjvClass {
  if (dialect === "2020-12") return loadAjv().Ajv2020;
  if (dialect === "2019-09") return loadOnce("ajv/dist/2019.js", "ajv", "Ajv2019");
  // ajv-draft-04's class: `id`, and a boolean exclusiveMaximum/exclusiveMinimum.
  if (dialect === "draft-04") return loadOnce("ajv-draft-04", "ajv-draft-04", "default");
  return loadAjvDraft07();
}

/**
 * A new ajv instance that reads schemas of `dialect` with no `$schema` of
 * their own (callers drop it once {@link schemaDialect} has read it):
 * formats asserted, all errors reported, extension keywords allowed.
 * draft-06 is read by ajv's draft-07 class with the draft-06 meta-schema
 * and without `if`/`then`/`else`, which draft-07 added.
 * @throws MissingDependencyError when `ajv`, `ajv-formats` or (draft-04) `ajv-draft-04` is not installed.
 */
export function newAjv(dialect: Dialect): Ajv {
  const { addFormats } = loadAjv();
  // strict: false lets schemas carry extension keywords (x-mcp-header, ...).
  const options: Options = { strict: false, allErrors: true, validateFormats: true };
  if (dialect === "draft-07" || dialect === "draft-06" || dialect === "draft-04") {
    options.ignoreKeywordsWithRef = true;
    options.logger = logger;
  }
  if (dialect === "draft-06") options.defaultMeta = DRAFT_06_META;
  const ajv = new (classOf(dialect))(options) as Ajv;
  if (dialect === "draft-06") {
    ajv.addMetaSchema(loadOnce<AnySchemaObject>("ajv/dist/refs/json-schema-draft-06.json", "ajv", ""));
    for (const keyword of ["if", "then", "else"]) ajv.removeKeyword(keyword);
  }
  addFormats(ajv);
  return ajv;
}
