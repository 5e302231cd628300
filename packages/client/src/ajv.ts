/**
 * `@x/client/ajv`: the ajv validator, for the client's `validator` option
 * where the default is another (it is the default on Node, Bun and Deno).
 *
 * @module @x/client/ajv
 */
export { ajvValidator } from "@x/json-schema/ajv";
