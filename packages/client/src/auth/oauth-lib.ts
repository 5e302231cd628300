/**
 * oauth4webapi, imported on the first authorization step rather than with
 * `@x/client`: a client that never authorizes (stdio, a static header, no
 * OAuth server) does not pay for loading and compiling it at start-up.
 */
import type * as OAuth from "oauth4webapi";
import { importOnce } from "../lazy.js";

const oauth = importOnce((): Promise<typeof OAuth> => import("oauth4webapi"), "oauth4webapi");

/**
 * The oauth4webapi module, imported once.
 * @returns a promise of the module; it rejects with a MissingDependencyError
 *   when oauth4webapi is not installed, else the import's error (the next
 *   call tries again).
 */
export const loadOAuth = (): Promise<typeof OAuth> => oauth.get();

/**
 * The module if {@link loadOAuth} has resolved, else `undefined`: for the
 * synchronous checks (`instanceof` of its error classes), which meet its
 * errors only after it was loaded.
 */
export const loadedOAuth = (): typeof OAuth | undefined => oauth.now();

/**
 * The loaded module, for synchronous code that runs only inside a step that
 * awaited {@link loadOAuth} first.
 * @throws Error when it was not loaded (a bug in the caller's order).
 */
export function oauthNow(): typeof OAuth {
  const loaded = oauth.now();
  if (!loaded) throw new Error("internal: oauth4webapi used before it was loaded");
  return loaded;
}
