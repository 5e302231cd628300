/**
 * Packages `@x/server` loads at run time with `createRequire` (CommonJS,
 * loaded on first use so that importing the server stays cheap): `ajv` and
 * `ajv-formats` (the first JSON Schema compiled) and `uri-templates` (the
 * first resource template). A bundler does not follow `createRequire`, so a
 * bundled server must find them installed beside the bundle.
 */
import { createRequire } from "node:module";

/**
 * Thrown when a package `@x/server` loads at run time is not installed, for
 * example beside a bundled server. Its message names the package; it is
 * never wrapped into a schema or template error.
 */
export class MissingDependencyError extends Error {
  /** The package that could not be found, e.g. `"ajv"`. */
  readonly dependency: string;

  constructor(dependency: string, cause: unknown) {
    super(
      `@x/server needs the package "${dependency}" at run time and could not find it: install it (a bundler does not include it, since it is loaded with createRequire on first use)`,
      { cause },
    );
    this.name = "MissingDependencyError";
    this.dependency = dependency;
  }
}

let load: NodeJS.Require | undefined;

/**
 * Loads `specifier` with `require` from this package's location.
 * @throws MissingDependencyError naming `dependency` when it is not installed; any other
 *   error the module throws while loading, as it is.
 */
export function requireAtRunTime(specifier: string, dependency: string): unknown {
  load ??= createRequire(import.meta.url);
  try {
    return load(specifier);
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND" && String((error as Error).message).includes(dependency)) {
      throw new MissingDependencyError(dependency, error);
    }
    throw error;
  }
}
