/**
 * `validate(definition, value)`: checks a value against any definition of the
 * 2025-11-25 schema by name.
 *
 * This module imports every validator (it has to, to find one by name), so a
 * bundle that uses it carries all of them. A program that cares about size
 * imports the few it needs from `@x/mcp-v2511/validators` instead, e.g.
 * `import { CallToolResult } from "@x/mcp-v2511/validators"`, and a bundler
 * keeps only those.
 */
import type { ErrorObject } from "ajv";
import type { Validator } from "./generated/validators.js";
import * as validators from "./generated/validators.js";

/** The name of a schema definition, e.g. `"CallToolResult"`: one of the 145 `$defs` keys. */
export type DefinitionName = keyof typeof validators;

/** The TypeScript type of the definition called `Name`, e.g. `DefinitionType<"CallToolResult">` is `CallToolResult`. */
export type DefinitionType<Name extends DefinitionName> = (typeof validators)[Name] extends Validator<infer T> ? T : never;

/**
 * One reason a value does not match a definition.
 * - `path`: where in the value, as a JSON Pointer (RFC 6901): `""` is the
 *   value itself, `"/content/0/type"` a nested member. For a missing
 *   property it points at the object that lacks it.
 * - `message`: what is wrong there, e.g. `must have required property 'content'`.
 */
export interface ValidationProblem {
  path: string;
  message: string;
}

/**
 * What {@link validate} returns: `{ ok: true, value }` with the value typed as
 * the definition (the same object, not a copy), or `{ ok: false, problems }`
 * with at least one problem.
 */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; problems: ValidationProblem[] };

function describe(error: ErrorObject): string {
  const message = error.message ?? `fails ${error.keyword}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "const":
      return `${message} ${JSON.stringify(params.allowedValue)}`;
    case "enum":
      return `${message}: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "additionalProperties":
      return `${message}: '${String(params.additionalProperty)}'`;
    default:
      return message;
  }
}

/**
 * Checks `value` against the schema definition `definition` (spec
 * 2025-11-25, schema.json `#/$defs/<definition>`), with formats (`uri`,
 * `byte`, `uri-template`) asserted.
 *
 * @returns `{ ok: true, value }`, where `value` is narrowed to the
 *   definition's type (`validate("CallToolResult", x)` gives a
 *   `CallToolResult`), or `{ ok: false, problems }`. The validators stop at
 *   the first failing keyword, except that every branch of an `anyOf` that
 *   was tried reports its own problem, followed by the `anyOf` itself.
 * @throws TypeError when `definition` is not a definition name (only
 *   possible from untyped code).
 *
 * @example
 * const checked = validate("CallToolResult", JSON.parse(body));
 * if (!checked.ok) console.error(checked.problems); // [{ path: "", message: "must have required property 'content'" }]
 * else checked.value.content;
 */
export function validate<Name extends DefinitionName>(definition: Name, value: unknown): ValidationResult<DefinitionType<Name>> {
  const check = Object.hasOwn(validators, definition)
    ? (validators as unknown as Record<string, Validator<DefinitionType<Name>>>)[definition]
    : undefined;
  if (typeof check !== "function") {
    throw new TypeError(`validate: unknown definition ${JSON.stringify(definition)}`);
  }
  if (check(value)) return { ok: true, value };
  const seen = new Set<string>();
  const problems: ValidationProblem[] = [];
  for (const error of check.errors ?? []) {
    const problem = { path: error.instancePath, message: describe(error) };
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  if (problems.length === 0) problems.push({ path: "", message: `does not match ${definition}` });
  return { ok: false, problems };
}
