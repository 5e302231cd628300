/**
 * Compilation of user-supplied JSON Schemas (tool `inputSchema` and
 * `outputSchema`, elicitation schemas), through `@x/json-schema`: with no
 * options every schema is read as JSON Schema 2020-12 (the root `$id` and
 * `$schema` dropped), formats asserted. Schemas are compiled once, at
 * registration; a `$ref` must resolve inside the schema itself: remote
 * references are never fetched.
 *
 * ajv and ajv-formats are loaded on first use, when the first schema is
 * registered, not when the package is imported (importing ajv costs tens of
 * milliseconds). A bundler cannot see that load: keep `ajv` and
 * `ajv-formats` installed beside a bundled server.
 */
export { type CompiledSchema, compileSchema, formatProblems, loadAjv, type SchemaProblem } from "@x/json-schema";
