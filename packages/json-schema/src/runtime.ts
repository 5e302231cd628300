/**
 * Packages loaded at run time with `createRequire` rather than imported:
 * importing ajv costs tens of milliseconds, so it is loaded when the first
 * schema is compiled, not when a package is imported. A bundler does not
 * follow `createRequire`, so a bundled program must find these packages
 * installed beside the bundle; when it does not, the error names them.
 * The loader and its error live in `@x/jsonrpc`, so that every package
 * throws the same class.
 */
import { runTimeRequire } from "@x/jsonrpc";

export { MissingDependencyError, runTimeRequire } from "@x/jsonrpc";

/**
 * Loads the CommonJS module `specifier` synchronously with `require`, from
 * this package's location (where `ajv` and `ajv-formats` resolve).
 * @returns the module's exports.
 * @throws MissingDependencyError naming `dependency` when it is not installed; any other
 *   error the module throws while loading, as it is.
 */
export const requireAtRunTime: (specifier: string, dependency: string) => unknown = runTimeRequire(import.meta.url);
