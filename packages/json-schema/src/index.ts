/**
 * `@x/json-schema`: user JSON Schemas compiled with ajv, which is loaded on
 * the first compile, never on import, in the dialect each declares; and the
 * check for numbers JSON cannot carry.
 */
export { type AddFormats, type AjvModules, loadAjv, loadAjvDraft07 } from "./ajv.js";
export {
  type CompiledSchema,
  type CompileOptions,
  compileSchema,
  DEFAULT_SCHEMA_LIMITS,
  formatProblems,
  SchemaCompileError,
  type SchemaLimits,
  type SchemaProblem,
  type SchemaRefusal,
  trustedAjv,
  type UntrustedSchemas,
  untrustedSchemas,
} from "./compile.js";
export { type Dialect, newAjv, SUPPORTED_DIALECTS, schemaDialect } from "./dialect.js";
export { type UnknownKeyword, unknownKeyword } from "./keywords.js";
export { findNonFinite, NON_FINITE_MESSAGE, nonFiniteProblem } from "./non-finite.js";
export { MissingDependencyError, requireAtRunTime, runTimeRequire } from "./runtime.js";
