/**
 * `#default-validator` (package.json "imports") under the `workerd`,
 * `worker` and `browser` conditions: the `@cfworker/json-schema` validator,
 * which generates no code, and which a bundle built for those runtimes
 * carries (nothing can be found beside it at run time there).
 *
 * @module
 */
export { cfworkerValidator as defaultValidator } from "@x/json-schema";
