/**
 * `@x/json-schema/ajv`: the ajv validator (ajv with ajv-formats; for
 * draft-04, ajv-draft-04), the default on Node, Bun and Deno. ajv compiles
 * each schema to JavaScript (`new Function`), which makes checks fast and is
 * refused where code generation is forbidden.
 *
 * ajv is loaded on the first compile, never on import (loading it costs
 * tens of milliseconds), by literal `require` calls that a bundler follows:
 * a bundled program carries ajv and evaluates it on first use.
 *
 * @module @x/json-schema/ajv
 */
import { requireLazily } from "@x/jsonrpc";
import type { Ajv, AnySchemaObject, ErrorObject, Logger, Options, ValidateFunction } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
// Through the package's entry, so that this file imports it rather than carrying a copy.
import {
  checkShapes,
  type Dialect,
  idKeyword,
  type JsonSchemaValidator,
  type MetaSchemaCheck,
  precompiledMetaCheck,
  SchemaCompileError,
  type ValidatorCompileOptions,
  type ValidatorProblem,
} from "./index.js";

/** ajv-formats' plugin: adds the formats it knows to an ajv instance. */
export type AddFormats = (ajv: Ajv2020 | Ajv) => unknown;

/** What {@link loadAjv} returns. */
export interface AjvModules {
  /** ajv's JSON Schema 2020-12 class. */
  Ajv2020: typeof Ajv2020;
  /** ajv-formats' plugin. */
  addFormats: AddFormats;
}

/** An ajv class: ajv's 2020-12, 2019-09 or draft-07 class (ajv-draft-04's has the draft-07 class's shape). */
export type AjvClass = typeof Ajv | typeof Ajv2019 | typeof Ajv2020;

type Exports = Record<string, unknown>;
const url = import.meta.url;
// One literal require per module, so that a bundler sees each one.
const MODULES = {
  "ajv/dist/2020.js": () => requireLazily(() => require("ajv/dist/2020.js"), "ajv/dist/2020.js", "ajv", url),
  "ajv/dist/2019.js": () => requireLazily(() => require("ajv/dist/2019.js"), "ajv/dist/2019.js", "ajv", url),
  ajv: () => requireLazily(() => require("ajv"), "ajv", "ajv", url),
  "ajv-formats": () => requireLazily(() => require("ajv-formats"), "ajv-formats", "ajv-formats", url),
  "ajv-draft-04": () => requireLazily(() => require("ajv-draft-04"), "ajv-draft-04", "ajv-draft-04", url),
  "ajv/dist/refs/json-schema-draft-06.json": () =>
    requireLazily(() => require("ajv/dist/refs/json-schema-draft-06.json"), "ajv/dist/refs/json-schema-draft-06.json", "ajv", url),
} as const;

const modules = new Map<string, unknown>();

/** The `pick` export of one of {@link MODULES}, or the module itself when it has none (a JSON file: `""`), loaded once. */
function loadOnce<T>(specifier: keyof typeof MODULES, pick: string): T {
  let found = modules.get(specifier);
  if (found === undefined) {
    const module = MODULES[specifier]() as Exports;
    found = module[pick] ?? module;
    modules.set(specifier, found);
  }
  return found as T;
}

let loaded: AjvModules | undefined;

/**
 * Loads ajv's 2020-12 class and ajv-formats on the first call and returns
 * the same modules afterwards; a caller that needs an ajv instance with
 * options of its own builds it from them.
 * @throws MissingDependencyError when `ajv` or `ajv-formats` is not installed (nothing is
 *   remembered: a later call tries again).
 */
export function loadAjv(): AjvModules {
  loaded ??= { Ajv2020: loadOnce("ajv/dist/2020.js", "Ajv2020"), addFormats: loadOnce("ajv-formats", "default") };
  return loaded;
}

/**
 * Loads ajv's JSON Schema draft-07 class (ajv's main module) on the first call.
 * @throws MissingDependencyError when `ajv` is not installed.
 */
export function loadAjvDraft07(): typeof Ajv {
  return loadOnce("ajv", "default");
}

// Before 2019-09 a $ref's siblings are ignored. ajv does that under an option
// it calls deprecated and then warns for each such $ref: expected here, so silent.
const refNotices = /^(DEPRECATED: option ignoreKeywordsWithRef|\$ref: keywords ignored)/;
// A compile that fails (code generation forbidden, say) is thrown, and its error says why;
// ajv also prints the whole generated function to stderr, which tells a user nothing more.
const compileFailures = /^Error compiling schema/;
const logger: Logger = {
  log: (...args: unknown[]) => console.log(...args),
  warn: (...args: unknown[]) => {
    if (!refNotices.test(String(args[0]))) console.warn(...args);
  },
  error: (...args: unknown[]) => {
    if (!compileFailures.test(String(args[0]))) console.error(...args);
  },
};

function classOf(dialect: Dialect): AjvClass {
  if (dialect === "2020-12") return loadAjv().Ajv2020;
  if (dialect === "2019-09") return loadOnce("ajv/dist/2019.js", "Ajv2019");
  // ajv-draft-04's class: `id`, and a boolean exclusiveMaximum/exclusiveMinimum.
  if (dialect === "draft-04") return loadOnce("ajv-draft-04", "default");
  return loadAjvDraft07();
}

const DRAFT_06_META = "http://json-schema.org/draft-06/schema#";

/**
 * A new ajv instance that reads schemas of `dialect` with no `$schema` of
 * their own (callers drop it once `schemaDialect` has read it):
 * formats asserted, all errors reported, extension keywords allowed.
 * draft-06 is read by ajv's draft-07 class with the draft-06 meta-schema
 * and without `if`/`then`/`else`, which draft-07 added. Its
 * `validateSchema` (which `compile` calls first) uses the meta-schema check
 * this package's build compiled ahead of time (2020-12 and draft-07), else
 * one instance per dialect shared by every instance made here, so the
 * meta-schema is not compiled for each instance (2020-12's costs tens of
 * milliseconds); its result, its `errors` and the error it throws are what
 * the instance's own would be. A schema with a `$schema` of its own is
 * checked by the instance itself, which may know meta-schemas added to it
 * alone. ({@link ajvValidator} compiles on instances of its own, which
 * check a trusted schema without the meta-schema: see there.)
 * @throws MissingDependencyError when `ajv`, `ajv-formats` or (draft-04) `ajv-draft-04` is not installed.
 */
export function newAjv(dialect: Dialect): Ajv {
  const ajv = makeAjv(dialect);
  const own = ajv.validateSchema;
  ajv.validateSchema = function validateSchema(this: Ajv, schema, throwOrLogError) {
    // A boolean is valid (ajv's own answer); a schema naming its meta-schema may name one added to this instance only.
    if (typeof schema !== "object" || schema === null || "$schema" in schema) return own.call(this, schema, throwOrLogError);
    const valid = checkMeta(schema, dialect, precompiledMetaCheck(dialect));
    this.errors = valid ? null : (lastMetaErrors as ErrorObject[] | null);
    if (!valid && throwOrLogError) throw new Error(`schema is invalid: ${this.errorsText(this.errors)}`);
    return valid;
  };
  return ajv;
}

/** The instances that check schemas against their dialect's meta-schema when no precompiled check is there. */
const metaCheckers = new Map<Dialect, Ajv>();

function metaChecker(dialect: Dialect): Ajv {
  let checker = metaCheckers.get(dialect);
  if (!checker) {
    checker = makeAjv(dialect);
    metaCheckers.set(dialect, checker);
  }
  return checker;
}

/** The errors of the last {@link checkMeta} that answered false (ajv's objects). */
let lastMetaErrors: readonly object[] | null = null;

/**
 * Checks `schema` (without a `$schema`) against `dialect`'s meta-schema:
 * with `precompiled` when given, else on the dialect's shared checker,
 * which compiles the meta-schema once per process. Leaves its errors in
 * {@link lastMetaErrors}.
 */
function checkMeta(schema: object, dialect: Dialect, precompiled: MetaSchemaCheck | undefined): boolean {
  if (precompiled) {
    const valid = precompiled(schema) === true;
    lastMetaErrors = valid ? null : (precompiled.errors ?? null);
    return valid;
  }
  const shared = metaChecker(dialect);
  const valid = shared.validateSchema(schema as AnySchemaObject) === true;
  lastMetaErrors = valid ? null : (shared.errors ?? null);
  return valid;
}

/**
 * The options {@link newAjv} gives ajv's class of `dialect` (besides a
 * logger that drops ajv's expected notices): formats asserted, all errors
 * reported, extension keywords allowed (`strict: false`: `x-mcp-header`
 * and the like). Also what this package's build compiles the precompiled
 * meta-schema checks with (scripts/meta-validators.mjs). Packaging of
 * JSON Schema, not an MCP rule: no spec section.
 * @returns a new options object each call; never throws.
 */
export function ajvOptions(dialect: Dialect): Options {
  const options: Options = { strict: false, allErrors: true, validateFormats: true };
  if (dialect === "draft-07" || dialect === "draft-06" || dialect === "draft-04") options.ignoreKeywordsWithRef = true;
  if (dialect === "draft-06") options.defaultMeta = DRAFT_06_META;
  return options;
}

/** An instance of `dialect`'s class with {@link ajvOptions}; with `validateSchema: false` its `compile` skips the meta-schema. */
function makeAjv(dialect: Dialect, validateSchema = true): Ajv {
  const { addFormats } = loadAjv();
  const ajv = new (classOf(dialect))({ ...ajvOptions(dialect), logger, validateSchema }) as Ajv;
  if (dialect === "draft-06") {
    ajv.addMetaSchema(loadOnce<AnySchemaObject>("ajv/dist/refs/json-schema-draft-06.json", ""));
    for (const keyword of ["if", "then", "else"]) ajv.removeKeyword(keyword);
  }
  addFormats(ajv);
  return ajv;
}

/** The instances trusted schemas share, one per dialect; untrusted ones have their own (they never share ids). */
const trusted = new Map<Dialect, Ajv>();
const untrustedInstances = new Map<Dialect, Ajv>();

/**
 * The ajv instance of `dialect` that {@link ajvValidator} compiles
 * trusted schemas on, made on first use and replaced by a fresh one every
 * {@link AJV_COMPILES_PER_INSTANCE} compiles (formats added with
 * `addFormat` carry over; keywords added with `addKeyword` do not). For callers that need ajv's own
 * error objects (keyword, params) rather than problems: a schema compiled
 * here shares the instance's formats, which cost more than a small
 * schema's compile. It does not check schemas against the meta-schema
 * (`ajvValidator` checks a trusted schema's keyword values first:
 * `checkShapes`); ajv still refuses a keyword value of the wrong type. Give
 * it schemas without `$id` and `$schema` (drop them, as `compileSchema`
 * does), or ids would collect on the shared instance.
 * @throws MissingDependencyError when `ajv` or `ajv-formats` (draft-04:
 *   `ajv-draft-04`) is not installed.
 */
export function trustedAjv(dialect: Dialect): Ajv {
  let ajv = trusted.get(dialect);
  if (!ajv) {
    ajv = makeAjv(dialect, false);
    trusted.set(dialect, ajv);
  }
  return ajv;
}

/**
 * Compiles on one shared instance before it is replaced by a fresh one.
 * ajv keeps a reference to every schema and function it ever compiled (its
 * code-generation scope only grows), so a long-lived instance would hold
 * each registration's compiled code (about 3 KB) for the life of the
 * process, tools removed or not. A replaced instance is collected once the
 * checks compiled on it are no longer used; formats added to it
 * (`addFormat`) are carried over to the next one.
 */
export const AJV_COMPILES_PER_INSTANCE = 256;

const compiles = new Map<Map<Dialect, Ajv>, Map<Dialect, number>>();

/** The instance of `instances` to compile the next schema of `dialect` on, renewed every {@link AJV_COMPILES_PER_INSTANCE} compiles. */
function instanceFor(instances: Map<Dialect, Ajv>, dialect: Dialect): Ajv {
  let counts = compiles.get(instances);
  if (!counts) {
    counts = new Map();
    compiles.set(instances, counts);
  }
  const count = (counts.get(dialect) ?? 0) + 1;
  const current = instances.get(dialect);
  if (current && count <= AJV_COMPILES_PER_INSTANCE) {
    counts.set(dialect, count);
    return current;
  }
  const fresh = makeAjv(dialect, false);
  for (const [name, format] of Object.entries(current?.formats ?? {})) {
    // A format the caller added, or one of ajv-formats' that the caller replaced.
    if (format !== undefined && fresh.formats[name] !== format) fresh.addFormat(name, format);
  }
  instances.set(dialect, fresh);
  counts.set(dialect, 1);
  return fresh;
}

function checkOf(validate: ValidateFunction): (value: unknown) => ValidatorProblem[] {
  return (value) => (validate(value) ? [] : toProblems(validate.errors));
}

function toProblems(errors: ErrorObject[] | null | undefined): ValidatorProblem[] {
  return (errors ?? []).map((e) => {
    let message = e.message ?? "is invalid";
    const params = e.params as Record<string, unknown>;
    if (e.keyword === "required") message = `is missing required property ${JSON.stringify(params.missingProperty)}`;
    else if (e.keyword === "additionalProperties") message = `has unknown property ${JSON.stringify(params.additionalProperty)}`;
    return { path: e.instancePath, message, keyword: e.keyword, params };
  });
}

/**
 * Compiles on a long-lived instance without leaving the schema in its
 * cache: ajv keys that cache by the schema object and never drops an entry,
 * and every compile here gets a fresh copy, so each registration (a tool
 * added and removed, say) would keep its compiled code for the life of the
 * process. The returned function holds what it needs itself.
 */
function compileUncached(ajv: Ajv, schema: object | boolean): ValidateFunction {
  try {
    return ajv.compile(schema);
  } finally {
    if (typeof schema === "object" && schema !== null) ajv.removeSchema(schema);
  }
}

function compileIn(ajv: Ajv, schema: object | boolean, id: string | undefined): ValidateFunction {
  try {
    return compileUncached(ajv, schema);
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

function compileUntrusted(
  schema: object | boolean,
  dialect: Dialect,
  metaSchemaCheck: ValidatorCompileOptions["metaSchemaCheck"],
): ValidateFunction {
  // A missing ajv is the installation's problem, not the schema's: thrown as it is, before any compile.
  const shared = instanceFor(untrustedInstances, dialect);
  if (typeof schema === "object" && !checkMeta(schema, dialect, metaSchemaCheck?.(dialect)))
    throw refusal(new Error(`schema is invalid: ${shared.errorsText(lastMetaErrors as ErrorObject[])}`));
  const declaredId = typeof schema === "object" ? (schema as Record<string, unknown>)[idKeyword(dialect)] : undefined;
  const id = typeof declaredId === "string" ? declaredId : undefined;
  try {
    return compileIn(shared, schema, id);
  } catch (error) {
    if (!(error instanceof Error) || !/already exists/.test(error.message)) throw refusal(error);
    // Another schema registered the same $id: compile this one on its own.
    try {
      return compileIn(makeAjv(dialect, false), schema, id);
    } catch (again) {
      throw refusal(again);
    }
  }
}

/**
 * The ajv validator: trusted schemas (a program's own) compiled on
 * {@link trustedAjv}'s instance of their dialect once their keyword values
 * are checked (`checkShapes`: a `required` that is not an array of
 * distinct strings, a negative `minLength`... refused with a
 * SchemaCompileError), without the meta-schema, whose check such a program
 * then neither loads nor carries; any other schema ajv cannot compile (a
 * `$ref` that does not resolve) throws ajv's own error. Untrusted ones are
 * checked against the meta-schema first (with the check `untrustedSchemas`
 * gives, else one compiled at run time) and compiled on an instance of
 * their own kind whose ids are removed after each compile (refusals are
 * SchemaCompileErrors). Every format of ajv-formats is asserted.
 */
export const ajvValidator: JsonSchemaValidator = {
  name: "ajv",
  generatesCode: true,
  compile(schema, dialect, { untrusted, metaSchemaCheck }) {
    const body = schema as object | boolean;
    if (untrusted) return checkOf(compileUntrusted(body, dialect, metaSchemaCheck));
    checkShapes(body, dialect);
    return checkOf(compileUncached(instanceFor(trusted, dialect), body));
  },
};

/** The default validator where package.json conditions pick this file (`#default-validator`: Node, Bun, Deno). */
export const defaultValidator: JsonSchemaValidator | undefined = ajvValidator;
