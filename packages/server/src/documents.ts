/**
 * Checks of protocol messages the server reads from clients (initialize
 * params, answers to its asks), compiled at run time from a revision's
 * generated schema documents (`@x/mcp-v2607/schemas`, `@x/mcp-v2511/schemas`)
 * on the shared ajv instance of their dialect. The documents are a fraction
 * of the size of the standalone validators, so a bundled server carries only
 * them; each is compiled when the module that needs it first loads.
 */
import { nonFiniteProblem, schemaDialect, trustedAjv } from "@x/json-schema";
import { replaceBigInts } from "@x/jsonrpc";
import type { ErrorObject } from "ajv";

/** A generated schema document: `{ $schema, $ref, $defs }` (see `schemas.d.ts` of a revision package). */
export interface SchemaDocument {
  readonly $schema: string;
  readonly $ref: string;
  readonly $defs: { readonly [name: string]: object };
}

/**
 * A type guard compiled from one schema document. `errors` holds ajv's error
 * objects after a call that returned false (empty when the value was refused
 * for a non-finite number only), and `null` after one that returned true.
 */
export interface DocumentCheck<T> {
  (value: unknown): value is T;
  readonly errors: ErrorObject[] | null;
}

/**
 * Compiles `document`. A bigint (an integer beyond 2^53) is checked as its
 * nearest double, and Infinity or NaN anywhere fails the check, which ajv's
 * number types would pass and JSON cannot carry.
 * @throws MissingDependencyError when `ajv` or `ajv-formats` is not installed.
 */
export function compileDocument<T>(document: SchemaDocument): DocumentCheck<T> {
  const { $schema: _dialect, ...rest } = document;
  const validate = trustedAjv(schemaDialect(document)).compile(rest);
  let errors: ErrorObject[] | null = null;
  const check = (value: unknown): value is T => {
    let valid = validate(value);
    if (!valid) {
      const numbers = replaceBigInts(value, Number);
      valid = numbers !== value && validate(numbers);
    }
    errors = valid ? null : (validate.errors ?? []);
    if (valid && nonFiniteProblem(value) !== undefined) {
      errors = [];
      return false;
    }
    return valid;
  };
  Object.defineProperty(check, "errors", { get: () => errors });
  return check as DocumentCheck<T>;
}
