/**
 * `@x/mcp-v2411/types`: the generated types of every schema definition, and the
 * method table over them (`RequestMethods`, `ResultOf<M>`, ...), as types
 * only: importing this entry loads no code.
 *
 * @module @x/mcp-v2411/types
 */
export type * from "./generated/methods.js";
export type * from "./generated/types.js";
