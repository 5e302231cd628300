import { asMissingDependency } from "@x/jsonrpc";

/**
 * A value made on first use and then kept, for modules that `@x/client`
 * imports only when a feature needs them (`import()` of oauth4webapi,
 * eventsource-parser, node:http, the generated validators), so that
 * importing the package stays cheap.
 * @param load makes the value; it runs once, and again on the next `get()`
 *   after it rejected (a failed import is not kept).
 * @returns `get()`, the promise of the value, and `now()`, the value once a
 *   `get()` has resolved, else `undefined`.
 */
export function loadOnce<T>(load: () => Promise<T>): { get(): Promise<T>; now(): T | undefined } {
  let value: T | undefined;
  let loaded = false;
  let pending: Promise<T> | undefined;
  return {
    get() {
      if (loaded) return Promise.resolve(value as T);
      if (pending === undefined) {
        pending = load().then(
          (made) => {
            value = made;
            loaded = true;
            return made;
          },
          (error: unknown) => {
            pending = undefined;
            throw error;
          },
        );
      }
      return pending;
    },
    now: () => value,
  };
}

/**
 * {@link loadOnce} for an `import()` of a package: a package that is not
 * installed (a bundle built with it left out, say) rejects with a
 * `MissingDependencyError` naming it, as `@x/jsonrpc`'s lazy `require`s do,
 * not with the loader's error.
 * @param load `() => import("<package>")`
 * @param dependency the package's name, e.g. `"oauth4webapi"`
 */
export function importOnce<T>(load: () => Promise<T>, dependency: string): { get(): Promise<T>; now(): T | undefined } {
  return loadOnce(() =>
    load().catch((error: unknown) => {
      throw asMissingDependency(error, dependency);
    }),
  );
}
