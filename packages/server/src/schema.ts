/**
 * Compilation of user-supplied JSON Schemas (tool `inputSchema` and
 * `outputSchema`, elicitation schemas), through `@x/json-schema`: each is
 * read in the dialect its root `$schema` declares (2020-12 when none;
 * 2019-09, draft-07, draft-06 and draft-04 too; any other refused), the
 * root `$id` dropped, formats asserted. Schemas are compiled once, at
 * registration; a `$ref` must resolve inside the schema itself: remote
 * references are never fetched.
 *
 * ajv and ajv-formats are loaded on first use, when the first schema is
 * registered, not when the package is imported (importing ajv costs tens of
 * milliseconds). A bundler cannot see that load: keep `ajv` and
 * `ajv-formats` (and `ajv-draft-04` for draft-04 schemas) installed beside
 * a bundled server.
 */
export { type CompiledSchema, compileSchema, formatProblems, loadAjv, type SchemaProblem } from "@x/json-schema";
/** The check for Infinity, -Infinity and NaN, which JSON cannot carry, in tool arguments and results. */
export { nonFiniteProblem } from "@x/json-schema";
/** The strict keyword check of tool schemas (unknown keywords are refused at registration). */
export { unknownKeyword } from "@x/json-schema";
