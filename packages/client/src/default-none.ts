/**
 * `#default-validator` (package.json "imports") under the `workerd`,
 * `worker` and `browser` conditions: no default that generates code, so the
 * `@cfworker/json-schema` validator is the default and a bundle built for
 * those targets carries no ajv.
 *
 * @module
 */
import type { JsonSchemaValidator } from "@x/json-schema";

/** None: see the module comment. */
export const defaultValidator: JsonSchemaValidator | undefined = undefined;
