/**
 * Compilation of user JSON Schemas with formats asserted. A schema is
 * compiled once, in the dialect its root `$schema` declares (2020-12 when
 * it declares none; see `dialect.ts`, the one rule for both uses), by the
 * {@link JsonSchemaValidator} the caller names: nothing here imports one,
 * so a program carries only the validator it chose (`default.ts` holds the
 * convenience of a default); a `$ref` must resolve inside the schema
 * itself: remote references are never fetched.
 *
 * Two uses differ only by options: a server compiles its own tools' schemas
 * (trusted), a client compiles schemas a server sent (untrusted: bounded in
 * size and depth before any validator sees them, checks kept by schema
 * text, against its dialect's meta-schema). The untrusted handling is a
 * value built by `untrustedSchemas`, so a bundle that never builds one
 * leaves that code out, the meta-schema checks compiled at build time
 * (`meta.ts`, about 66 KB minified) with it.
 */
import { replaceBigInts, stringifyJson } from "@x/jsonrpc";
import { idKeyword, schemaDialect } from "./dialect.js";
import { SchemaCompileError } from "./errors.js";
import { precompiledMetaCheck } from "./meta.js";
import type { JsonSchemaValidator, ValidatorCheck, ValidatorProblem } from "./validator.js";

export { SchemaCompileError, type SchemaRefusal } from "./errors.js";

/** One problem found by a schema check: a JSON Pointer into the value and what is wrong there. */
export interface SchemaProblem {
  /** JSON Pointer of the offending value (`""` for the root). */
  path: string;
  /** What the schema expected. */
  message: string;
}

/**
 * A compiled schema: returns `[]` when the value is valid, else its problems.
 * A `bigint` (an integer beyond 2^53, as `parseJson` of `@x/jsonrpc` reads
 * it) is checked as the nearest double, since validators know only numbers:
 * it passes `type: "integer"` and `"number"`, and a bound (`maximum`,
 * `multipleOf`...) compares that double, so one within a unit or so of a
 * bound beyond 2^53 may pass it.
 */
export type CompiledSchema = (value: unknown) => SchemaProblem[];

/** Bounds applied to an untrusted schema before it is compiled. */
export interface SchemaLimits {
  /** Most bytes of the schema's JSON text. Default 131072 (128 KiB). */
  maxBytes?: number;
  /** Deepest nesting of objects and arrays in the schema. Default 32. */
  maxDepth?: number;
}

/** How {@link compileSchema} treats a schema: by which validator, and whether it is trusted. */
export interface CompileOptions {
  /**
   * Set for a schema from elsewhere (built by {@link untrustedSchemas}): it
   * is bounded, and every refusal is a SchemaCompileError. Absent, the
   * schema is trusted: its root `$id` (`id` in draft-04) is dropped, and a
   * schema the validator cannot compile throws the validator's own error
   * (ajv's; the cfworker validator's is a SchemaCompileError). Either way
   * the schema is read in the dialect its `$schema` declares.
   */
  untrusted?: UntrustedSchemas;
  /** The validator that compiles the schema (`defaultValidator()` for this runtime's default, `cfworkerValidator`, `ajvValidator`...). */
  validator: JsonSchemaValidator;
}

/**
 * The handling of untrusted schemas {@link untrustedSchemas} builds, passed
 * as `untrusted` to {@link compileSchema}. A separate value rather than a
 * flag, so that a program compiling only its own schemas does not carry
 * (or bundle) this code.
 */
export interface UntrustedSchemas {
  /** The bounds checked, defaults filled in. */
  readonly limits: Readonly<Required<SchemaLimits>>;
  /** What {@link compileSchema} calls for such a schema (same contract), with the validator to use. */
  compile(schema: unknown, validator: JsonSchemaValidator): CompiledSchema;
}

/**
 * A check that reads a failing value again with each bigint as the nearest
 * double (validators fail or refuse a bigint); the walk is paid on failure
 * only, and the problems are those of the second check.
 */
export function withNumbers(check: ValidatorCheck): ValidatorCheck {
  return (value) => {
    const problems = check(value);
    if (problems.length === 0) return problems;
    const numbers = replaceBigInts(value, Number);
    return numbers === value ? problems : check(numbers);
  };
}

/**
 * Compiles a JSON Schema once (formats asserted, `$ref` resolved inside the
 * schema only), trusted or, with `options.untrusted`, untrusted, in the
 * dialect its root `$schema` declares: none is 2020-12; 2020-12, 2019-09,
 * draft-07, draft-06 and draft-04 are read by their own rules (draft-07 and
 * older ignore a `$ref`'s sibling keywords; an array `items` is a tuple
 * before 2020-12), spelt `http://` or `https://`, with or without the
 * trailing `#` (see `schemaDialect`), by `options.validator`.
 *
 * @returns a function giving the problems of a value (`[]` when valid).
 * @throws MissingDependencyError when the validator's package (ajv and
 *   ajv-formats, or for draft-04 ajv-draft-04; `@cfworker/json-schema`) is
 *   not installed. SchemaCompileError `unknown-dialect` for any other
 *   `$schema`. A trusted schema that is not valid or has a `$ref` that does
 *   not resolve locally: the validator's error, its message saying why. An
 *   untrusted one refused for those reasons or by {@link untrustedSchemas}'
 *   rules: SchemaCompileError.
 */
export function compileSchema(schema: unknown, options: CompileOptions): CompiledSchema {
  const { validator } = options;
  if (options.untrusted) return options.untrusted.compile(schema, validator);
  const check = compileDetailed(schema, validator);
  return (value) => problemsOf(check(value), false);
}

/**
 * {@link compileSchema} for a trusted schema, each problem also naming the
 * keyword that failed and its figures ({@link ValidatorProblem}), for a
 * caller that words its own messages.
 * @throws what {@link compileSchema} throws for a trusted schema.
 */
export function compileSchemaDetailed(schema: unknown, validator: JsonSchemaValidator): ValidatorCheck {
  return compileDetailed(schema, validator);
}

function compileDetailed(schema: unknown, validator: JsonSchemaValidator): ValidatorCheck {
  const dialect = schemaDialect(schema);
  if (typeof schema !== "object" || schema === null) return withNumbers(validator.compile(schema, dialect, { untrusted: false }));
  const { [idKeyword(dialect)]: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return withNumbers(validator.compile(rest, dialect, { untrusted: false }));
}

/**
 * The problems as {@link SchemaProblem}s; for an untrusted schema they also
 * name the values an `enum` or `const` allows: whoever reads them may never
 * have seen the schema, which came from elsewhere.
 */
function problemsOf(found: ValidatorProblem[], untrusted: boolean): SchemaProblem[] {
  return found.map(({ path, message, keyword, params }) => {
    if (untrusted && keyword === "enum" && Array.isArray(params?.allowedValues))
      message += `: ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
    else if (untrusted && keyword === "const" && params !== undefined && "allowedValue" in params)
      message += ` ${JSON.stringify(params.allowedValue)}`;
    return { path, message };
  });
}

/** The bounds {@link untrustedSchemas} applies when given none. */
export const DEFAULT_SCHEMA_LIMITS: Readonly<Required<SchemaLimits>> = { maxBytes: 131072, maxDepth: 32 };

const MAX_CACHED = 256;
/** The checks of the last MAX_CACHED untrusted schema texts, per validator. */
const cached = new WeakMap<JsonSchemaValidator, Map<string, CompiledSchema>>();

/**
 * Builds the `untrusted` option of {@link compileSchema}, for schemas from
 * elsewhere (a server's tool `outputSchema`, read by a client). Such a
 * schema must be a JSON object within `limits` (each omitted bound takes
 * its {@link DEFAULT_SCHEMA_LIMITS} value), checked on its JSON text before
 * any validator sees it; it is read in the dialect its root `$schema`
 * declares (as {@link compileSchema} says), any other refused; it is
 * checked against that dialect's meta-schema (by ajv: with the check this
 * package's build compiled for 2020-12 and draft-07, loaded on the first
 * such compile; the cfworker validator checks keyword values itself); its
 * root `$id` is kept for the compile and forgotten afterwards. The checks of
 * the last 256 distinct schemas are kept by JSON text (per validator): the
 * same text returns the same function.
 */
export function untrustedSchemas(limits: SchemaLimits = {}): UntrustedSchemas {
  const bounds = {
    maxBytes: limits.maxBytes ?? DEFAULT_SCHEMA_LIMITS.maxBytes,
    maxDepth: limits.maxDepth ?? DEFAULT_SCHEMA_LIMITS.maxDepth,
  };
  return { limits: bounds, compile: (schema, validator) => compileUntrusted(schema, bounds, validator) };
}

function compileUntrusted(schema: unknown, limits: Required<SchemaLimits>, validator: JsonSchemaValidator): CompiledSchema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new SchemaCompileError("not-an-object", "The schema is not a JSON object");
  let text: string;
  try {
    text = stringifyJson(schema);
  } catch (error) {
    throw new SchemaCompileError("not-json", "The schema cannot be serialized as JSON", {}, error);
  }
  if (text.length > limits.maxBytes)
    throw new SchemaCompileError("too-large", `The schema is ${text.length} bytes, over the limit of ${limits.maxBytes}`, {
      bytes: text.length,
      limit: limits.maxBytes,
    });
  if (depthOf(schema, limits.maxDepth) > limits.maxDepth)
    throw new SchemaCompileError("too-deep", `The schema is nested more than ${limits.maxDepth} levels deep`, { limit: limits.maxDepth });
  let kept = cached.get(validator);
  if (!kept) {
    kept = new Map();
    cached.set(validator, kept);
  }
  const known = kept.get(text);
  if (known) return known;

  // JSON.parse, not parseJson: validators take a schema's integers beyond 2^53 as doubles.
  const copy = JSON.parse(text) as Record<string, unknown>;
  const dialect = schemaDialect(copy);
  // The validator is told the dialect; ajv would look the $schema up by its exact spelling.
  delete copy.$schema;
  const validate = withNumbers(validator.compile(copy, dialect, { untrusted: true, metaSchemaCheck: precompiledMetaCheck }));
  const check: CompiledSchema = (value) => problemsOf(validate(value), true);
  kept.set(text, check);
  if (kept.size > MAX_CACHED) kept.delete(kept.keys().next().value as string);
  return check;
}

/** The deepest nesting of objects/arrays in a JSON value (1 for `{}`), walked without recursion. */
function depthOf(value: unknown, stopAt: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > stopAt) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Renders problems one per line as `/path: message` (`(root)` for the empty
 * path), lines joined by `separator` (a newline by default).
 */
export function formatProblems(problems: readonly SchemaProblem[], separator = "\n"): string {
  return problems.map((p) => `${p.path === "" ? "(root)" : p.path}: ${p.message}`).join(separator);
}
