/**
 * `@x/json-schema`: user JSON Schemas compiled, in the dialect each
 * declares, by the validator the caller names: ajv (`@x/json-schema/ajv`,
 * the default on Node, Bun and Deno, loaded on the first compile, never on
 * import) or `@cfworker/json-schema` (`@x/json-schema/cfworker`, which
 * generates no code: the default under workerd, worker and browser
 * conditions and wherever code generation is forbidden); the check of
 * protocol messages against the protocol's own schema documents
 * (`documentCheck`, no validator package); and the check for numbers JSON
 * cannot carry.
 *
 * @module @x/json-schema
 */
export { CFWORKER_FORMATS, cfworkerValidator } from "./cfworker.js";
export {
  type CompiledSchema,
  type CompileOptions,
  compileSchema,
  compileSchemaDetailed,
  DEFAULT_SCHEMA_LIMITS,
  formatProblems,
  SchemaCompileError,
  type SchemaLimits,
  type SchemaProblem,
  type SchemaRefusal,
  type UntrustedSchemas,
  untrustedSchemas,
} from "./compile.js";
export { defaultValidator } from "./default.js";
export { type Dialect, idKeyword, SUPPORTED_DIALECTS, schemaDialect } from "./dialect.js";
export { documentCheck } from "./document.js";
export { DOCUMENT_FORMATS } from "./formats.js";
export { DIALECT_KEYWORDS, type UnknownKeyword, unknownKeyword, walkSchemas } from "./keywords.js";
export { findNonFinite, NON_FINITE_MESSAGE, nonFiniteProblem } from "./non-finite.js";
export { MissingDependencyError, requireAtRunTime, runTimeRequire } from "./runtime.js";
export { precompiledMetaCheck } from "./meta.js";
export { checkShapes, shapeProblem } from "./shapes.js";
export {
  codeGenerationAllowed,
  type JsonSchemaValidator,
  type MetaSchemaCheck,
  type ValidatorCheck,
  type ValidatorCompileOptions,
  type ValidatorProblem,
} from "./validator.js";
