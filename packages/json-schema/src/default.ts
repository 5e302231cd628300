/**
 * The default validator, for a caller that names none (`@x/client`, a
 * program compiling its own schemas): picked by package.json conditions and
 * a code-generation probe. Kept apart from the compile itself so that a
 * program naming its validator (`@x/server` does, per server) carries no
 * other: only this file imports `#default-validator` and the cfworker
 * validator.
 */
// Resolved by package.json conditions: ajv (Node, Bun, Deno), or none under workerd, worker and browser.
import { defaultValidator as conditioned } from "#default-validator";
import { cfworkerValidator } from "./cfworker.js";
import { codeGenerationAllowed, type JsonSchemaValidator } from "./validator.js";

let chosen: JsonSchemaValidator | undefined;

/**
 * The validator to use when none is named, chosen once: the one package.json
 * conditions pick for `#default-validator` (ajv by default, so on Node, Bun
 * and Deno; none under the `workerd`, `worker` and `browser` conditions, so
 * that a bundle built for them does not carry ajv), and the
 * `@cfworker/json-schema` validator, which needs no code generation, where
 * that pick is none or generates code and this runtime forbids it
 * ({@link codeGenerationAllowed}). Pass it as `compileSchema`'s `validator`.
 * Packaging, not a protocol rule: no spec section.
 * @returns the same validator on every call; never throws (its package is loaded on its first compile).
 */
export function defaultValidator(): JsonSchemaValidator {
  chosen ??= conditioned !== undefined && (!conditioned.generatesCode || codeGenerationAllowed()) ? conditioned : cfworkerValidator;
  return chosen;
}
