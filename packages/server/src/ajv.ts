/**
 * `@x/server/ajv`: the ajv validator, for `ServerOptions.validator`. A
 * server naming none uses ajv on Node, Bun and Deno too, found at run time
 * beside the package; a bundle carries ajv only when its program names it
 * here.
 *
 * @module @x/server/ajv
 */
export { ajvValidator } from "@x/json-schema/ajv";
