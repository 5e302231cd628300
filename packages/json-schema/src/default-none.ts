/**
 * `#default-validator` under the `workerd`, `worker` and `browser`
 * conditions: no default that generates code, so `defaultValidator` is the
 * `@cfworker/json-schema` one and a bundle built for those targets carries
 * no ajv.
 */
import type { JsonSchemaValidator } from "./validator.js";

/** None: see the module comment. */
export const defaultValidator: JsonSchemaValidator | undefined = undefined;
