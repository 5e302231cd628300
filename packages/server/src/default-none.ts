/**
 * `#default-validator` (package.json "imports") on Node, Bun and Deno: no
 * validator imported. A server naming none finds ajv at run time
 * (`defaultValidator` of `schema.ts`), by a `require` no bundler follows,
 * so that a bundle carries only the validator its program names. See
 * `default-cfworker.ts` for the workerd, worker and browser conditions.
 *
 * @module
 */
import type { JsonSchemaValidator } from "@x/json-schema";

/** None: see the module comment. */
export const defaultValidator: JsonSchemaValidator | undefined = undefined;
