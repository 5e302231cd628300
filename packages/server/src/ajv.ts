/**
 * `@x/server/ajv`: the ajv validator, for `ServerOptions.validator` where
 * the default is another (it is the default on Node, Bun and Deno).
 *
 * @module @x/server/ajv
 */
export { ajvValidator } from "@x/json-schema/ajv";
