/**
 * Packages loaded at run time with `createRequire` rather than imported, so
 * that importing a package does not pay for them: lossless-json here (the
 * first message with an integer beyond 2^53), ajv in `@x/json-schema` (the
 * first schema compiled). A bundler does not follow `createRequire`, so a
 * bundled program must find these packages installed beside the bundle;
 * when it does not, the error names them.
 */
import { createRequire } from "node:module";

/**
 * Thrown when a package loaded at run time is not installed, for example
 * beside a bundled program. Its message names the package; callers pass it
 * on as it is, never as a schema or parse error, since it is a problem of
 * the installation, not of any schema or message.
 */
export class MissingDependencyError extends Error {
  /** The package that could not be found, e.g. `"ajv"`. */
  readonly dependency: string;

  /**
   * @param dependency the package that could not be found
   * @param cause the error `require` threw
   */
  constructor(dependency: string, cause: unknown) {
    super(
      `This program needs the package "${dependency}" at run time and could not find it: install it (a bundler leaves it out: it is loaded on first use)`,
      { cause },
    );
    this.name = "MissingDependencyError";
    this.dependency = dependency;
  }
}

/**
 * Builds a loader like {@link requireAtRunTime} that resolves from `from`
 * (an `import.meta.url`). A package that loads its own dependencies builds
 * one with its `import.meta.url`: with a strict node_modules layout only a
 * package's own dependencies resolve from its folder.
 * @returns `(specifier, dependency) => exports`, throwing MissingDependencyError naming
 *   `dependency` when it is not installed, and any other error the module throws while loading, as it is.
 */
export function runTimeRequire(from: string | URL): (specifier: string, dependency: string) => unknown {
  // Not kept between calls: callers keep what they load, so each package is required once.
  return (specifier, dependency) => {
    try {
      return createRequire(from)(specifier);
    } catch (error) {
      if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND" && String((error as Error).message).includes(dependency)) {
        throw new MissingDependencyError(dependency, error);
      }
      throw error;
    }
  };
}

/** Loads a module with `require` from this package's location, where lossless-json resolves (internal). */
export const requireAtRunTime: (specifier: string, dependency: string) => unknown = runTimeRequire(import.meta.url);
