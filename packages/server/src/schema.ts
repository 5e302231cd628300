/**
 * Compilation of user-supplied JSON Schemas (tool `inputSchema` and
 * `outputSchema`) in JSON Schema 2020-12 mode, formats asserted.
 * Schemas are compiled once, at registration; a `$ref` must resolve inside
 * the schema itself: remote references are never fetched.
 *
 * Every schema is compiled by ajv (with ajv-formats). Both are loaded on
 * first use, when the first schema is registered, not when the package is
 * imported (importing ajv costs tens of milliseconds). A bundler cannot see
 * that load: keep `ajv` and `ajv-formats` installed beside a bundled server.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import { requireAtRunTime } from "./runtime-deps.js";

type AddFormats = (ajv: Ajv2020) => unknown;

/** ajv's 2020-12 class and ajv-formats, loaded synchronously on first call (both are CommonJS). */
export function loadAjv(): { Ajv2020: typeof Ajv2020; addFormats: AddFormats } {
  if (!loaded) {
    const ajvModule = requireAtRunTime("ajv/dist/2020.js", "ajv") as { Ajv2020: typeof Ajv2020 };
    const formatsModule = requireAtRunTime("ajv-formats", "ajv-formats") as AddFormats & { default?: AddFormats };
    loaded = { Ajv2020: ajvModule.Ajv2020, addFormats: formatsModule.default ?? formatsModule };
  }
  return loaded;
}

let loaded: { Ajv2020: typeof Ajv2020; addFormats: AddFormats } | undefined;
let shared: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (!shared) {
    const { Ajv2020: Ajv, addFormats } = loadAjv();
    // strict: false lets schemas carry extension keywords (x-mcp-header, ...);
    // no loadSchema is given, so a remote $ref fails compilation, never fetches.
    shared = new Ajv({ strict: false, allErrors: true, validateFormats: true });
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
    if (e.keyword === "additionalProperties")
      message = `has unknown property ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
    if (e.keyword === "required")
      message = `is missing required property ${JSON.stringify((e.params as { missingProperty: string }).missingProperty)}`;
    return { path: e.instancePath, message };
  });
}

/** Renders problems as one line each: `/path: message` (`(root)` for the empty path). */
export function formatProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `${p.path === "" ? "(root)" : p.path}: ${p.message}`).join("\n");
}
