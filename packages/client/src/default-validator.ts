/**
 * `#default-validator` (package.json "imports") on Node, Bun and Deno: ajv.
 * The copy of `@x/json-schema` built into this package imports that name,
 * which resolves against this package's own "imports"; see
 * `default-none.ts` for the worker, workerd and browser conditions.
 *
 * @module
 */
export { defaultValidator } from "@x/json-schema/ajv";
