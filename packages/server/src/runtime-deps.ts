/**
 * Packages `@x/server` loads at run time with `createRequire` (CommonJS,
 * loaded on first use so that importing the server stays cheap): `ajv` and
 * `ajv-formats` (the first JSON Schema compiled, through `@x/json-schema`)
 * and `uri-templates` (the first resource template). A bundler does not
 * follow `createRequire`, so a bundled server must find them installed
 * beside the bundle.
 */
import { runTimeRequire } from "@x/json-schema";

export { MissingDependencyError } from "@x/json-schema";

/**
 * Loads `specifier` with `require` from this package's location, where the
 * server's own dependencies resolve.
 * @throws MissingDependencyError naming `dependency` when it is not installed;
 *   any other error the module throws while loading, as it is.
 */
export const requireAtRunTime: (specifier: string, dependency: string) => unknown = runTimeRequire(import.meta.url);
