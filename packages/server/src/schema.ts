/**
 * Compilation of user-supplied JSON Schemas (tool `inputSchema` and
 * `outputSchema`, elicitation schemas), through `@x/json-schema`: each is
 * read in the dialect its root `$schema` declares (2020-12 when none;
 * 2019-09, draft-07, draft-06 and draft-04 too; any other refused), the
 * root `$id` dropped, formats asserted. Schemas are compiled once, at
 * registration; a `$ref` must resolve inside the schema itself: remote
 * references are never fetched.
 *
 * The validator is `ServerOptions.validator`, else the default one: ajv on
 * Node, Bun and Deno (loaded when the first schema is registered, never
 * when the package is imported: importing ajv costs tens of milliseconds),
 * `@cfworker/json-schema` under the workerd, worker and browser conditions
 * and wherever code generation is forbidden. Both are loaded by literal
 * `require` calls, so a bundled server carries its validator.
 */
export {
  type CompiledSchema,
  compileSchema,
  defaultValidator,
  formatProblems,
  type JsonSchemaValidator,
  type SchemaProblem,
} from "@x/json-schema";
/** The check for Infinity, -Infinity and NaN, which JSON cannot carry, in tool arguments and results. */
export { nonFiniteProblem } from "@x/json-schema";
/** The strict keyword check of tool schemas (unknown keywords are refused at registration). */
export { unknownKeyword } from "@x/json-schema";
