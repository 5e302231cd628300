/**
 * Plain JSON values and the strict JSON Schema compiler of action tools.
 *
 * Action schemas and output schemas of action tools are compiled by their own
 * ajv instance (JSON Schema 2020-12, formats asserted): unlike the shared
 * instance of plain tools, a `format` it does not know is refused when the
 * schema is built rather than ignored, so the value gate never silently
 * skips a check the schema asked for. A `$ref` must resolve inside the
 * schema: remote references are never fetched.
 */
import { CFWORKER_FORMATS, cfworkerValidator, compileSchemaDetailed, type JsonSchemaValidator, walkSchemas } from "@x/json-schema";
import { loadAjv } from "@x/json-schema/ajv";
import type { ErrorObject } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonObject } from "../objects.js";
import { defaultIsInterpreted } from "../schema.js";
import { boundValue } from "../text.js";

/** True for an object whose prototype is `Object.prototype` or `null`: a map, never a class instance or an array. */
export function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A short description of a value for configuration errors: its kind and a bounded rendering. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array ${boundValue(value, 80)}`;
  if (typeof value === "function") return `a function${value.name ? ` ${value.name}` : ""}`;
  if (typeof value === "object") {
    if (!isPlainObject(value)) return `an instance of ${(value as object).constructor?.name ?? "a class"}`;
    return `an object ${boundValue(value, 80)}`;
  }
  if (typeof value === "string") return `the string ${JSON.stringify(boundValue(value, 80))}`;
  return `${typeof value} ${String(value)}`;
}

/**
 * Finds the first part of `value` that JSON cannot carry: `undefined`, a
 * function, a symbol, a bigint, a non-finite number, a sparse array, an
 * object with symbol keys, or an object that is not plain (a `RegExp`, a
 * `Date`, a `Map`, a class instance).
 * @returns `undefined` when all of it is JSON, else `{ path, value }` (path as a JSON Pointer).
 */
export function findNonJson(value: unknown, path = ""): { path: string; value: unknown } | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : { path, value };
    case "object": {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) return { path: `${path}/${i}`, value: undefined };
          const found = findNonJson(value[i], `${path}/${i}`);
          if (found) return found;
        }
        return undefined;
      }
      if (!isPlainObject(value) || Object.getOwnPropertySymbols(value).length > 0) return { path, value };
      for (const [key, item] of Object.entries(value)) {
        const found = findNonJson(item, `${path}/${escapePointer(key)}`);
        if (found) return found;
      }
      return undefined;
    }
    default:
      return { path, value };
  }
}

/** Escapes one JSON Pointer segment (RFC 6901: `~` as `~0`, `/` as `~1`). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Reads one JSON Pointer segment back (the inverse of {@link escapePointer}). */
export function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

class UnknownFormatError extends Error {}

let strict: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (!strict) {
    // ajv is loaded on first use (importing it costs tens of milliseconds).
    const { Ajv2020, addFormats } = loadAjv();
    // strict: false admits annotation keywords (x-..., examples, ...); an
    // unknown format is only logged in that mode, so the logger turns that
    // one warning into a refusal.
    strict = new Ajv2020({
      strict: false,
      allErrors: true,
      validateFormats: true,
      logger: {
        log() {},
        warn(...args: unknown[]) {
          const text = args.map(String).join(" ");
          if (/unknown format/.test(text)) throw new UnknownFormatError(text);
        },
        error() {},
      },
    });
    addFormats(strict);
  }
  return strict;
}

/** A compiled strict schema: true when the value is valid; `errors` (ajv's shape) after a call that returned false. */
export interface StrictCheck {
  (value: unknown): boolean;
  readonly errors?: ErrorObject[] | null | undefined;
}

/**
 * Compiles a JSON Schema (2020-12) with formats asserted: by ajv, or, where
 * the runtime's default validator generates no code (workerd, worker and
 * browser builds, or code generation forbidden), by the cfworker validator,
 * with its problems in ajv's error shape and a format it does not assert
 * refused the same way.
 * @throws Error saying what the build stopped on: an invalid keyword value,
 *   an unknown `type` or `format`, an unresolvable or remote `$ref`.
 */
export function compileStrict(schema: object | boolean): StrictCheck {
  if (defaultIsInterpreted()) return compileInterpreted(schema, cfworkerValidator);
  if (typeof schema === "boolean") return ajv().compile(schema);
  const { $id: _id, $schema: _dialect, ...rest } = schema as JsonObject;
  return ajv().compile(rest);
}

function compileInterpreted(schema: object | boolean, validator: JsonSchemaValidator): StrictCheck {
  const unknown = walkSchemas(schema, (node) =>
    typeof node.format === "string" && !CFWORKER_FORMATS.includes(node.format) ? node.format : undefined,
  );
  if (unknown !== undefined) throw new UnknownFormatError(`unknown format "${unknown}" ignored in schema`);
  const body = typeof schema === "boolean" ? schema : (({ $id: _id, $schema: _dialect, ...rest }) => rest)(schema as JsonObject);
  const check = compileSchemaDetailed(body, validator);
  let errors: ErrorObject[] | null = null;
  const strict = (value: unknown): boolean => {
    const problems = check(value);
    errors =
      problems.length === 0
        ? null
        : problems.map((p) => ({
            instancePath: p.path,
            schemaPath: "",
            keyword: p.keyword ?? "",
            params: p.params ?? {},
            message: p.message,
          }));
    return errors === null;
  };
  Object.defineProperty(strict, "errors", { get: () => errors });
  return strict as StrictCheck;
}

/** The ajv errors of the last run of `validate`. */
export type SchemaErrors = ErrorObject[];
