/**
 * The seam between this package's rules (dialects, bounds of untrusted
 * schemas, the problem format, integers beyond 2^53) and the code that
 * checks a value against a schema. Two implementations ship: ajv
 * (`@x/json-schema/ajv`, which generates code) and `@cfworker/json-schema`
 * (`@x/json-schema/cfworker`, which does not); see `defaultValidator`.
 */
import type { SchemaProblem } from "./compile.js";
import type { Dialect } from "./dialect.js";

/**
 * One problem a validator found: a {@link SchemaProblem} with, where the
 * validator knows them, the keyword that failed and its figures, named as
 * ajv names them (`type`: `{ type }`, the schema's value; `enum`:
 * `{ allowedValues }`; `const`: `{ allowedValue }`; `required`:
 * `{ missingProperty }`; `additionalProperties`: `{ additionalProperty }`).
 */
export interface ValidatorProblem extends SchemaProblem {
  /** The JSON Schema keyword that failed, e.g. `"type"`. */
  keyword?: string;
  /** The keyword's figures (see the interface comment). */
  params?: Record<string, unknown>;
}

/** A schema a validator compiled: the problems of a value, `[]` when it is valid. */
export type ValidatorCheck = (value: unknown) => ValidatorProblem[];

/**
 * A check of a schema against its dialect's meta-schema (ajv standalone
 * code): true when the schema is valid; after false, `errors` in ajv's
 * shape (`instancePath`, `keyword`, `params`, `message`).
 */
export interface MetaSchemaCheck {
  (schema: unknown): boolean;
  /** ajv's error objects of the last call that returned false. */
  errors?: readonly object[] | null;
}

/** How {@link JsonSchemaValidator.compile} is to treat a schema. */
export interface ValidatorCompileOptions {
  /**
   * True for a schema from elsewhere (a server's `outputSchema`, read by a
   * client): every refusal must then be a `SchemaCompileError` (`invalid`,
   * or `unresolved-ref` with `data.ref`), and the schema's root `$id`, kept
   * for the compile, must not be remembered for later schemas. False for a
   * program's own schema, whose root `$id` the caller has dropped; a refusal
   * may then be the validator's own error.
   */
  untrusted: boolean;
  /**
   * Given with an untrusted schema (by `untrustedSchemas`): the meta-schema
   * check of a dialect compiled ahead of time, `undefined` when there is
   * none, loaded when first asked for. A validator that checks schemas
   * against the meta-schema (ajv) uses it rather than compiling the
   * meta-schema; one that checks them another way need not ask.
   */
  metaSchemaCheck?: (dialect: Dialect) => MetaSchemaCheck | undefined;
}

/**
 * A JSON Schema validator (JSON Schema 2020-12, Core and Validation, and
 * the earlier dialects of `SUPPORTED_DIALECTS`): compiles one schema, read
 * by the rules of `dialect`, into a check. `compileSchema` calls it with the
 * root `$schema` already read (and removed) and the bounds of an untrusted
 * schema already checked; it wraps the check so that an integer beyond 2^53
 * (a `bigint`) is checked as its nearest double. Contract: formats are
 * asserted, a `$ref` resolves inside the schema only (nothing is fetched),
 * and `path` is a JSON Pointer into the value.
 */
export interface JsonSchemaValidator {
  /** A short name for messages: `"ajv"`, `"cfworker"`. */
  readonly name: string;
  /**
   * True when compiling generates code (`new Function`), which some runtimes
   * forbid (Cloudflare's workerd, `node --disallow-code-generation-from-strings`);
   * the default validator is not used there.
   */
  readonly generatesCode: boolean;
  /**
   * Compiles `schema` (an object, or a boolean schema).
   * @returns the check of a value.
   * @throws SchemaCompileError for a schema it cannot use (see
   *   {@link ValidatorCompileOptions.untrusted} for which error when trusted).
   */
  compile(schema: unknown, dialect: Dialect, options: ValidatorCompileOptions): ValidatorCheck;
}

/**
 * True unless this runtime forbids generating code from strings (workerd;
 * Node with `--disallow-code-generation-from-strings`), probed once with
 * `new Function`: where it is forbidden, a validator with `generatesCode`
 * cannot compile, and the defaults pick the cfworker one instead.
 * Packaging, not a protocol rule: no spec section.
 * @returns the probe's answer, the same for the life of the process; never throws.
 */
export function codeGenerationAllowed(): boolean {
  allowed ??= probe();
  return allowed;
}

let allowed: boolean | undefined;

function probe(): boolean {
  try {
    return new Function("return true")() === true;
  } catch {
    return false;
  }
}
