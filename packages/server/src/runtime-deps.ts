/**
 * Packages `@x/server` loads on first use (CommonJS, so that importing the
 * server stays cheap): the JSON Schema validator (the first schema
 * compiled, through `@x/json-schema`) and `uri-templates` (the first
 * resource template). Each is loaded by a literal `require` a bundler
 * follows (`requireLazily` of `@x/jsonrpc`), so a bundled server carries
 * them; when one is missing (a bundle built with it left out), the error
 * names it.
 */
export { MissingDependencyError } from "@x/json-schema";
