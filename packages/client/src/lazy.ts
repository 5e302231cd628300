/**
 * A value made on first use and then kept, for modules that `@x/client`
 * imports only when a feature needs them (`import()` of oauth4webapi,
 * eventsource-parser, node:crypto, node:http), so that importing the package
 * stays cheap.
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
