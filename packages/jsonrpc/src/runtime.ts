/**
 * CommonJS packages loaded on first use rather than imported, so that
 * importing a package does not pay for them: ajv in `@x/json-schema` (the
 * first schema compiled). Each is loaded by a literal `require("…")` call inside a
 * function, which a bundler (esbuild, for one) follows: the bundle carries
 * the package and evaluates it at that call, not at start-up. Run unbundled
 * as an ES module (Node, Deno), where no `require` is defined, the same
 * package is loaded with `createRequire` from the caller's location; when it
 * is not installed there, the error names it.
 */

/**
 * A Node built-in module by name (`"node:fs/promises"`), loaded when asked
 * for through `process.getBuiltinModule` (Node 20.16 and later, Bun, Deno,
 * workerd with `nodejs_compat`). No `import` of it stands in the module, so
 * a browser bundle of a package that uses it builds and loads, and nothing
 * is loaded until a feature that needs it runs.
 *
 * Packaging, not a protocol rule: no spec section.
 *
 * @param id the module, e.g. `"node:child_process"`
 * @returns its exports.
 * @throws Error naming the module when this runtime has no Node built-ins
 *   (a browser, workerd without `nodejs_compat`).
 */
export function nodeBuiltin<T>(id: string): T {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const module = typeof host?.getBuiltinModule === "function" ? host.getBuiltinModule(id) : undefined;
  if (module === undefined) throw new Error(`This needs the Node built-in module ${id}, which this runtime does not have`);
  return module as T;
}

type NodeModule = typeof import("node:module");

/**
 * Makes `value instanceof cls` true for an instance of any copy of `cls`
 * (the class of another copy of the same package's code, branded with the
 * same `key`), not only of this one. `@x/server` and `@x/client` carry
 * their own copies of this package and of `@x/json-schema` (fewer packages
 * for Node to resolve on a cold start), so an error one copy throws must
 * still be recognised by a check written against another. The brand is a
 * `Symbol.for(key)` property on the prototype; `instanceof` a subclass of
 * `cls` keeps its ordinary meaning.
 *
 * Packaging, not a protocol rule: no spec section.
 *
 * @param cls the class, branded once (call it right after the class declaration).
 * @param key the name the copies share, e.g. `"@x/jsonrpc/MissingDependencyError"`.
 * @returns nothing; `cls` and its prototype are changed in place.
 * @throws TypeError when `cls` was branded already, or it or its prototype is frozen.
 */
export function brandAcrossCopies(cls: abstract new (...args: never[]) => object, key: string): void {
  const brand = Symbol.for(key);
  Object.defineProperty(cls.prototype, brand, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      if (this !== cls) return Function.prototype[Symbol.hasInstance].call(this, value);
      return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
    },
  });
}

/**
 * Thrown when a package loaded on first use is not installed (for example
 * beside a bundle built with that package left out). Its message names the
 * package; callers pass it on as it is, never as a schema or parse error,
 * since it is a problem of the installation, not of any schema or message.
 */
export class MissingDependencyError extends Error {
  /** The package that could not be found, e.g. `"ajv"`. */
  readonly dependency: string;

  /**
   * An error that names the missing package in its message.
   * @param dependency the package that could not be found
   * @param cause the error `require` threw
   */
  constructor(dependency: string, cause: unknown) {
    super(
      `This program needs the package "${dependency}" at run time and could not find it: install it (it is loaded on first use, so a bundle built with it left out needs it beside it)`,
      { cause },
    );
    this.name = "MissingDependencyError";
    this.dependency = dependency;
  }
}
// After the class, not in a static block: a class that names itself inside its body is renamed
// by esbuild (`class _MissingDependencyError`), and its name is what stack traces print.
brandAcrossCopies(MissingDependencyError, "@x/jsonrpc/MissingDependencyError");

/**
 * The error to throw for a failed `require` or `import()` of `dependency`: a
 * {@link MissingDependencyError} naming it when the error says that very
 * package was not found (`MODULE_NOT_FOUND`, `ERR_MODULE_NOT_FOUND`), else
 * the error as it is (the module was found and threw while loading).
 *
 * Packaging, not a protocol rule: no spec section.
 *
 * @param error what the `require` or `import()` threw
 * @param dependency the package it loads, e.g. `"eventsource-parser"`
 * @returns the error to throw; never throws itself.
 */
export function asMissingDependency(error: unknown, dependency: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const notFound = code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND";
  return notFound && String((error as Error).message).includes(dependency) ? new MissingDependencyError(dependency, error) : error;
}

const missing = asMissingDependency;

/**
 * Builds a loader like `requireAtRunTime` (this package's own) that resolves from `from`
 * (an `import.meta.url`). A package that loads its own dependencies builds
 * one with its `import.meta.url`: with a strict node_modules layout only a
 * package's own dependencies resolve from its folder. A bundler does not
 * follow it: prefer {@link requireLazily}.
 * @returns `(specifier, dependency) => exports`, throwing MissingDependencyError naming
 *   `dependency` when it is not installed, and any other error the module throws while loading, as it is.
 */
export function runTimeRequire(from: string | URL): (specifier: string, dependency: string) => unknown {
  // Not kept between calls: callers keep what they load, so each package is required once.
  return (specifier, dependency) => {
    try {
      return nodeBuiltin<NodeModule>("node:module").createRequire(from)(specifier);
    } catch (error) {
      throw missing(error, dependency);
    }
  };
}

/**
 * True for the error of a `require` that cannot run here: an ES module has
 * no `require` (a ReferenceError), and esbuild's stand-in for a `require` it
 * left out of an ES module bundle says "Dynamic require of".
 */
function noRequire(error: unknown): boolean {
  if (error instanceof ReferenceError) return /\brequire\b/.test(error.message);
  return error instanceof Error && error.message.startsWith("Dynamic require of");
}

/**
 * Loads a CommonJS module on first use so that a bundler sees it: `load` is
 * a function made of one literal `require("<specifier>")` call (the only
 * form a bundler follows), which a bundle answers with the module it
 * carries. Where no `require` is defined (an ES module run as it is, on Node
 * or Deno), the module is loaded with `createRequire(from)` instead. Callers
 * keep what it returns: each call loads again. The packages' builds
 * (scripts/bundle.mjs) keep such `require` calls literal in `dist/`.
 *
 * @param load `() => require("<specifier>")`
 * @param specifier what `load` requires, for the `createRequire` path
 * @param dependency the package that provides it, named by the error
 * @param from the caller's `import.meta.url`, where the package resolves
 * @returns the module's exports.
 * @throws MissingDependencyError naming `dependency` when it is not installed;
 *   any other error the module throws while loading, as it is.
 */
export function requireLazily(load: () => unknown, specifier: string, dependency: string, from: string | URL): unknown {
  try {
    return load();
  } catch (error) {
    if (!noRequire(error)) throw missing(error, dependency);
  }
  return runTimeRequire(from)(specifier, dependency);
}

/** Loads a module with `require` from this package's location (internal). */
export const requireAtRunTime: (specifier: string, dependency: string) => unknown = runTimeRequire(import.meta.url);
