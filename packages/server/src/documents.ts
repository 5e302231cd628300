/**
 * Checks of protocol messages the server reads from clients (initialize
 * params, answers to its asks) against a revision's generated schema
 * documents (`@x/mcp-v2607/schemas`, `@x/mcp-v2511/schemas`), by
 * `documentCheck` of `@x/json-schema`: no JSON Schema validator package, so
 * the protocol is checked the same way whichever validator the server's
 * options name, or none. The documents are a fraction of the size of the
 * standalone validators, so a bundled server carries only them; each is
 * compiled when it first checks a value.
 */
import { documentCheck, nonFiniteProblem, type ValidatorCheck, type ValidatorProblem } from "@x/json-schema";

/** A generated schema document: `{ $schema, $ref, $defs }` (see `schemas.d.ts` of a revision package). */
export interface SchemaDocument {
  readonly $schema: string;
  readonly $ref: string;
  readonly $defs: { readonly [name: string]: object };
}

/**
 * A type guard compiled from one schema document. `errors` holds the
 * problems after a call that returned false (empty when the value was
 * refused for a non-finite number only), and `null` after one that returned true.
 */
export interface DocumentCheck<T> {
  (value: unknown): value is T;
  readonly errors: ValidatorProblem[] | null;
}

/**
 * The check of `document`, compiled on its first call. A bigint (an integer
 * beyond 2^53) is checked as its nearest double, and Infinity or NaN
 * anywhere fails the check, which JSON Schema's number types would pass and
 * JSON cannot carry.
 * @throws (when called first) SchemaCompileError when the document uses a keyword `documentCheck` does not apply.
 */
export function compileDocument<T>(document: SchemaDocument): DocumentCheck<T> {
  let validate: ValidatorCheck | undefined;
  let errors: ValidatorProblem[] | null = null;
  const check = (value: unknown): value is T => {
    validate ??= documentCheck(document);
    const problems = validate(value);
    errors = problems.length === 0 ? null : problems;
    if (errors === null && nonFiniteProblem(value) !== undefined) {
      errors = [];
      return false;
    }
    return errors === null;
  };
  Object.defineProperty(check, "errors", { get: () => errors });
  return check as DocumentCheck<T>;
}
