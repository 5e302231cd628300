/**
 * `@x/json-schema/cfworker`: the `@cfworker/json-schema` validator, which
 * generates no code (for `compileSchema`'s `validator` option, or the
 * server's and client's). The default where code generation is forbidden.
 *
 * @module @x/json-schema/cfworker
 */
export { cfworkerValidator } from "./index.js";
