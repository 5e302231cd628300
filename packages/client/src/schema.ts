/**
 * Validation of a tool's `structuredContent` against its `outputSchema`
 * (spec 2026-07-28, server/tools "Output Schema": clients SHOULD validate
 * structured results; basic/index "JSON Schema Usage": 2020-12 unless
 * `$schema` says otherwise, `$ref` to a network URI never dereferenced,
 * schemas with an unresolved external `$ref` rejected).
 *
 * A schema from a server is untrusted input: its size and nesting are
 * checked before ajv sees it. Each distinct schema is compiled once and the
 * compiled validator kept in a bounded cache.
 */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { ClientErrorCode, McpClientError } from "./errors.js";

type AjvInstance = { compile(schema: object): ValidateFunction; removeSchema(key: string): unknown };
type AjvClass = new (options: object) => AjvInstance;
type AddFormats = (ajv: AjvInstance) => unknown;

/**
 * ajv (draft-07 and 2020-12 classes) and ajv-formats, loaded synchronously
 * on the first schema compiled, not when the package is imported (importing
 * ajv costs tens of milliseconds). A bundler cannot see this load: keep
 * `ajv` and `ajv-formats` installed beside a bundled client.
 */
function loadAjv(): { Ajv2020: AjvClass; AjvDraft07: AjvClass; addFormats: AddFormats } {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const load = (specifier: string, dependency: string): unknown => {
      try {
        return require(specifier);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === "MODULE_NOT_FOUND" && String((error as Error).message).includes(dependency))
          throw new MissingDependencyError(dependency, error);
        throw error;
      }
    };
    const draft07 = load("ajv", "ajv") as AjvClass & { default?: AjvClass };
    const ajv2020 = load("ajv/dist/2020.js", "ajv") as { Ajv2020: AjvClass };
    const formats = load("ajv-formats", "ajv-formats") as AddFormats & { default?: AddFormats };
    loaded = { Ajv2020: ajv2020.Ajv2020, AjvDraft07: draft07.default ?? draft07, addFormats: formats.default ?? formats };
  }
  return loaded;
}
let loaded: { Ajv2020: AjvClass; AjvDraft07: AjvClass; addFormats: AddFormats } | undefined;

/**
 * Thrown when `ajv` or `ajv-formats`, which the client loads at run time to
 * check `structuredContent` against a tool's `outputSchema`, is not
 * installed (for example beside a bundled client). A problem of this
 * program's installation, not of the server: it is never reported as
 * -32093 and never cached against the tool.
 */
export class MissingDependencyError extends Error {
  /** The package that could not be found, e.g. `"ajv"`. */
  readonly dependency: string;

  constructor(dependency: string, cause: unknown) {
    super(
      `@x/client needs the package "${dependency}" at run time to check tool output schemas and could not find it: install it (a bundler does not include it, since it is loaded with createRequire on first use)`,
      { cause },
    );
    this.name = "MissingDependencyError";
    this.dependency = dependency;
  }
}

/** Bounds applied to a schema before it is compiled. */
export interface SchemaLimits {
  /** Most bytes of the schema's JSON text. Default 131072 (128 KiB). */
  maxBytes?: number;
  /** Deepest nesting of objects and arrays in the schema. Default 32. */
  maxDepth?: number;
}

/** One reason a value does not match a schema: a JSON Pointer into the value (`""` is the root) and what is wrong. */
export interface SchemaProblem {
  path: string;
  message: string;
}

/** A compiled schema: `[]` for a valid value, else its problems. */
export type CompiledSchema = (value: unknown) => SchemaProblem[];

const DIALECT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;
const DIALECT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const MAX_COMPILED = 256;

const instances = new Map<string, AjvInstance>();
const compiled = new Map<string, CompiledSchema>();

function newInstance(dialect: "2020-12" | "draft-07"): AjvInstance {
  const options = { strict: false, allErrors: true, validateFormats: true };
  const { Ajv2020, AjvDraft07, addFormats } = loadAjv();
  const ajv: AjvInstance = dialect === "2020-12" ? new Ajv2020(options) : new AjvDraft07(options);
  addFormats(ajv);
  return ajv;
}

function shared(dialect: "2020-12" | "draft-07"): AjvInstance {
  let ajv = instances.get(dialect);
  if (!ajv) {
    ajv = newInstance(dialect);
    instances.set(dialect, ajv);
  }
  return ajv;
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

function unusable(message: string, data?: Record<string, unknown>): McpClientError {
  return new McpClientError(ClientErrorCode.OutputSchemaUnusable, message, data);
}

/**
 * Compiles an output schema, or returns the validator compiled before for
 * the same schema text.
 *
 * @throws MissingDependencyError when `ajv` or `ajv-formats` is not installed;
 *   McpClientError -32093 (`OutputSchemaUnusable`) when the schema is
 *   not an object, exceeds `limits`, names a dialect other than 2020-12 or
 *   draft-07, is not a valid schema, or has a `$ref` that does not resolve
 *   inside it (remote references are never fetched).
 */
export function compileOutputSchema(schema: unknown, limits: SchemaLimits = {}): CompiledSchema {
  const maxBytes = limits.maxBytes ?? 128 * 1024;
  const maxDepth = limits.maxDepth ?? 32;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw unusable("The outputSchema is not a JSON object");
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    throw unusable("The outputSchema cannot be serialized as JSON");
  }
  if (text.length > maxBytes)
    throw unusable(`The outputSchema is ${text.length} bytes, over the limit of ${maxBytes}`, { bytes: text.length, limit: maxBytes });
  const depth = depthOf(schema, maxDepth);
  if (depth > maxDepth) throw unusable(`The outputSchema is nested more than ${maxDepth} levels deep`, { limit: maxDepth });
  const known = compiled.get(text);
  if (known) return known;

  const declared = (schema as { $schema?: unknown }).$schema;
  let dialect: "2020-12" | "draft-07";
  if (declared === undefined || (typeof declared === "string" && DIALECT_2020.test(declared))) dialect = "2020-12";
  else if (typeof declared === "string" && DIALECT_07.test(declared)) dialect = "draft-07";
  else
    throw unusable(`The outputSchema's dialect ${JSON.stringify(declared)} is not supported (supported: 2020-12, draft-07)`, {
      dialect: declared,
    });

  // A missing ajv is this program's problem, not the schema's: thrown as it is, before the compile below.
  loadAjv();
  const copy = JSON.parse(text) as Record<string, unknown>;
  const id = typeof copy.$id === "string" ? copy.$id : undefined;
  let validate: ValidateFunction;
  try {
    validate = compileIn(shared(dialect), copy, id);
  } catch (error) {
    if (!(error instanceof Error) || !/already exists/.test(error.message)) throw toUnusable(error);
    // Another schema registered the same $id: compile this one on its own.
    try {
      validate = compileIn(newInstance(dialect), copy, id);
    } catch (again) {
      throw toUnusable(again);
    }
  }
  const check: CompiledSchema = (value) => (validate(value) ? [] : toProblems(validate.errors));
  compiled.set(text, check);
  if (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  return check;
}

function compileIn(ajv: AjvInstance, schema: object, id: string | undefined): ValidateFunction {
  try {
    return ajv.compile(schema);
  } finally {
    // The shared instance must not keep ids from untrusted schemas.
    if (id !== undefined) {
      try {
        ajv.removeSchema(id);
      } catch {
        // Nothing was registered.
      }
    }
  }
}

function toUnusable(error: unknown): McpClientError {
  const message = error instanceof Error ? error.message : String(error);
  const missing = (error as { missingRef?: unknown }).missingRef;
  if (typeof missing === "string") {
    return unusable(
      `The outputSchema has a $ref to ${missing}, which does not resolve inside the schema (remote references are not fetched)`,
      { ref: missing },
    );
  }
  return unusable(`The outputSchema is not a valid schema: ${message}`);
}

function toProblems(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  return (errors ?? []).map((e) => {
    let message = e.message ?? `fails ${e.keyword}`;
    const params = e.params as Record<string, unknown>;
    if (e.keyword === "required") message = `is missing required property ${JSON.stringify(params.missingProperty)}`;
    else if (e.keyword === "additionalProperties") message = `has unknown property ${JSON.stringify(params.additionalProperty)}`;
    else if (e.keyword === "enum") message = `${message}: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    else if (e.keyword === "const") message = `${message} ${JSON.stringify(params.allowedValue)}`;
    return { path: e.instancePath, message };
  });
}

/** Renders problems one per line as `/path: message` (`(root)` for the empty path). */
export function formatProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `${p.path === "" ? "(root)" : p.path}: ${p.message}`).join("; ");
}
