/**
 * Compilation of user-supplied JSON Schemas (tool `inputSchema` and
 * `outputSchema`) with ajv in JSON Schema 2020-12 mode, formats asserted.
 * Schemas are compiled once, at registration; a `$ref` must resolve inside
 * the schema itself: remote references are never fetched.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

type AddFormats = (ajv: Ajv2020) => unknown;
const addFormats: AddFormats =
  ((addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats));

let shared: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (!shared) {
    // strict: false lets schemas carry extension keywords (x-mcp-header, ...);
    // no loadSchema is given, so a remote $ref fails compilation, never fetches.
    shared = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(shared);
  }
  return shared;
}

/** One problem found by a schema check: a JSON Pointer into the value and what is wrong there. */
export interface SchemaProblem {
  /** JSON Pointer of the offending value (`""` for the root). */
  path: string;
  /** What the schema expected. */
  message: string;
}

/** A compiled schema: returns `[]` when the value is valid, else its problems. */
export type CompiledSchema = (value: unknown) => SchemaProblem[];

/**
 * Compiles a JSON Schema (2020-12) once.
 *
 * @throws Error (with the ajv reason) when the schema is not valid, uses an
 *   unknown format, or has a `$ref` that does not resolve locally.
 */
export function compileSchema(schema: object): CompiledSchema {
  // The root `$id` and `$schema` are dropped: every schema is read as 2020-12,
  // and one shared ajv instance must not collect ids from many tools.
  const { $id: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  const validate: ValidateFunction = ajv().compile(rest);
  return (value) => (validate(value) ? [] : toProblems(validate.errors));
}

function toProblems(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  return (errors ?? []).map((e) => {
    let message = e.message ?? "is invalid";
    if (e.keyword === "additionalProperties") message = `has unknown property ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
    if (e.keyword === "required") message = `is missing required property ${JSON.stringify((e.params as { missingProperty: string }).missingProperty)}`;
    return { path: e.instancePath, message };
  });
}

/** Renders problems as one line each: `/path: message` (`(root)` for the empty path). */
export function formatProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `${p.path === "" ? "(root)" : p.path}: ${p.message}`).join("\n");
}
