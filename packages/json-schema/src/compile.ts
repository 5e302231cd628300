/**
 * Compilation of user JSON Schemas with formats asserted. A schema is
 * compiled once, in the dialect its root `$schema` declares (2020-12 when
 * it declares none; see `dialect.ts`, the one rule for both uses); a `$ref`
 * must resolve inside the schema itself: no ajv instance here has a
 * `loadSchema`, so remote references are never fetched.
 *
 * Two uses differ only by options: a server compiles its own tools' schemas
 * (trusted), a client compiles schemas a server sent (untrusted: bounded in
 * size and depth before ajv sees them, validators kept by schema text). The
 * untrusted handling is a value built by `untrustedSchemas`, so a bundle
 * that never builds one leaves that code out.
 */
import { replaceBigInts, stringifyJson } from "@x/jsonrpc";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { type Dialect, idKeyword, newAjv, schemaDialect } from "./dialect.js";
import { SchemaCompileError } from "./errors.js";

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
 * it) is checked as the nearest double, since ajv knows only numbers: it
 * passes `type: "integer"` and `"number"`, and a bound (`maximum`,
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

/** How {@link compileSchema} treats a schema. With no options: a trusted schema. */
export interface CompileOptions {
  /**
   * Set for a schema from elsewhere (built by {@link untrustedSchemas}): it
   * is bounded, and every refusal is a SchemaCompileError. Absent, the
   * schema is trusted: its root `$id` (`id` in draft-04) is dropped (one
   * shared ajv instance per dialect collects no ids from many schemas), and
   * a schema ajv cannot compile throws ajv's own error. Either way the
   * schema is read in the dialect its `$schema` declares.
   */
  untrusted?: UntrustedSchemas;
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
  /** What {@link compileSchema} calls for such a schema (same contract). */
  compile(schema: unknown): CompiledSchema;
}

/** The instances trusted schemas share, one per dialect; untrusted ones have their own (they never share ids). */
const trusted = new Map<Dialect, Ajv>();

/**
 * Compiles a JSON Schema once (formats asserted, `$ref` resolved inside the
 * schema only), trusted or, with `options.untrusted`, untrusted, in the
 * dialect its root `$schema` declares: none is 2020-12; 2020-12, 2019-09,
 * draft-07, draft-06 and draft-04 are read by their own rules (draft-07 and
 * older ignore a `$ref`'s sibling keywords; an array `items` is a tuple
 * before 2020-12), spelt `http://` or `https://`, with or without the
 * trailing `#` (see `schemaDialect`).
 *
 * @returns a function giving the problems of a value (`[]` when valid).
 * @throws MissingDependencyError when `ajv` or `ajv-formats` (or, for
 *   draft-04, `ajv-draft-04`) is not installed. SchemaCompileError
 *   `unknown-dialect` for any other `$schema`. A trusted schema that is not
 *   valid or has a `$ref` that does not resolve locally: ajv's error, its
 *   message saying why. An untrusted one refused for those reasons or by
 *   {@link untrustedSchemas}' rules: SchemaCompileError.
 */
export function compileSchema(schema: unknown, options: CompileOptions = {}): CompiledSchema {
  if (options.untrusted) return options.untrusted.compile(schema);
  const dialect = schemaDialect(schema);
  const { [idKeyword(dialect)]: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  const validate = trustedAjv(dialect).compile(rest);
  return (value) => (validate(value) || validAsNumbers(validate, value) ? [] : toProblems(validate.errors));
}

/**
 * The one ajv instance of `dialect` that {@link compileSchema} compiles
 * trusted schemas on, made on first use. For callers that need ajv's own
 * error objects (keyword, params) rather than {@link SchemaProblem}s: a
 * schema compiled here shares the instance's compiled meta-schema and
 * formats, which cost more than a small schema's compile. Give it schemas
 * without `$id` and `$schema` (drop them, as compileSchema does), or ids
 * would collect on the shared instance.
 * @throws MissingDependencyError when `ajv` or `ajv-formats` (draft-04:
 *   `ajv-draft-04`) is not installed.
 */
export function trustedAjv(dialect: Dialect): Ajv {
  let ajv = trusted.get(dialect);
  if (!ajv) {
    ajv = newAjv(dialect);
    trusted.set(dialect, ajv);
  }
  return ajv;
}

/**
 * A value that failed is checked again with each bigint as the nearest double
 * (ajv fails a bigint on `type: "integer"`); the walk is paid on failure only.
 * The errors left on `validate` are those of this second check.
 */
function validAsNumbers(validate: ValidateFunction, value: unknown): boolean {
  const numbers = replaceBigInts(value, Number);
  return numbers !== value && validate(numbers);
}

/** The bounds {@link untrustedSchemas} applies when given none. */
export const DEFAULT_SCHEMA_LIMITS: Readonly<Required<SchemaLimits>> = { maxBytes: 131072, maxDepth: 32 };

const MAX_CACHED = 256;
const cached = new Map<string, CompiledSchema>();
const untrustedInstances = new Map<Dialect, Ajv>();

/**
 * Builds the `untrusted` option of {@link compileSchema}, for schemas from
 * elsewhere (a server's tool `outputSchema`, read by a client). Such a
 * schema must be a JSON object within `limits` (each omitted bound takes
 * its {@link DEFAULT_SCHEMA_LIMITS} value), checked on its JSON text before
 * ajv sees it; it is read in the dialect its root `$schema` declares (as
 * {@link compileSchema} says), any other refused; its root `$id` is kept
 * for the compile and forgotten afterwards (a schema whose `$id` is already
 * registered is compiled on an instance of its own). The validators of the
 * last 256 distinct schemas are kept by JSON text: the same text returns
 * the same function.
 */
export function untrustedSchemas(limits: SchemaLimits = {}): UntrustedSchemas {
  const bounds = {
    maxBytes: limits.maxBytes ?? DEFAULT_SCHEMA_LIMITS.maxBytes,
    maxDepth: limits.maxDepth ?? DEFAULT_SCHEMA_LIMITS.maxDepth,
  };
  return { limits: bounds, compile: (schema) => compileUntrusted(schema, bounds) };
}

function compileUntrusted(schema: unknown, limits: Required<SchemaLimits>): CompiledSchema {
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
  const known = cached.get(text);
  if (known) return known;

  // JSON.parse, not parseJson: ajv takes a schema's integers beyond 2^53 as doubles.
  const copy = JSON.parse(text) as Record<string, unknown>;
  const dialect = schemaDialect(copy);
  // The instance reads the dialect; ajv would look the $schema up by its exact spelling.
  delete copy.$schema;
  // A missing ajv is the installation's problem, not the schema's: thrown as it is, before any compile.
  let shared = untrustedInstances.get(dialect);
  if (!shared) {
    shared = newAjv(dialect);
    untrustedInstances.set(dialect, shared);
  }
  const declaredId = copy[idKeyword(dialect)];
  const id = typeof declaredId === "string" ? declaredId : undefined;
  let validate: ValidateFunction;
  try {
    validate = compileIn(shared, copy, id);
  } catch (error) {
    if (!(error instanceof Error) || !/already exists/.test(error.message)) throw refusal(error);
    // Another schema registered the same $id: compile this one on its own.
    try {
      validate = compileIn(newAjv(dialect), copy, id);
    } catch (again) {
      throw refusal(again);
    }
  }
  const check: CompiledSchema = (value) =>
    validate(value) || validAsNumbers(validate, value) ? [] : withAllowedValues(validate.errors, toProblems(validate.errors));
  cached.set(text, check);
  if (cached.size > MAX_CACHED) cached.delete(cached.keys().next().value as string);
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

function compileIn(ajv: Ajv, schema: object, id: string | undefined): ValidateFunction {
  try {
    return ajv.compile(schema);
  } finally {
    // A shared instance must not keep ids from untrusted schemas.
    if (id !== undefined) {
      try {
        ajv.removeSchema(id);
      } catch {
        // Nothing was registered.
      }
    }
  }
}

function refusal(error: unknown): SchemaCompileError {
  const message = error instanceof Error ? error.message : String(error);
  const ref = (error as { missingRef?: unknown } | null)?.missingRef;
  if (typeof ref === "string") return new SchemaCompileError("unresolved-ref", message, { ref }, error);
  return new SchemaCompileError("invalid", message, {}, error);
}

function toProblems(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  return (errors ?? []).map((e) => {
    let message = e.message ?? "is invalid";
    const params = e.params as Record<string, unknown>;
    if (e.keyword === "required") message = `is missing required property ${JSON.stringify(params.missingProperty)}`;
    else if (e.keyword === "additionalProperties") message = `has unknown property ${JSON.stringify(params.additionalProperty)}`;
    return { path: e.instancePath, message };
  });
}

/**
 * Problems of an untrusted schema also name the values an `enum` or `const`
 * allows: whoever reads them may never have seen the schema, which came
 * from elsewhere.
 */
function withAllowedValues(errors: ErrorObject[] | null | undefined, problems: SchemaProblem[]): SchemaProblem[] {
  (errors ?? []).forEach((e, i) => {
    const params = e.params as Record<string, unknown>;
    const problem = problems[i]!;
    if (e.keyword === "enum") problem.message += `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    else if (e.keyword === "const") problem.message += ` ${JSON.stringify(params.allowedValue)}`;
  });
  return problems;
}

/**
 * Renders problems one per line as `/path: message` (`(root)` for the empty
 * path), lines joined by `separator` (a newline by default).
 */
export function formatProblems(problems: readonly SchemaProblem[], separator = "\n"): string {
  return problems.map((p) => `${p.path === "" ? "(root)" : p.path}: ${p.message}`).join(separator);
}
