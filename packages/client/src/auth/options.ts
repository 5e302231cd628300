/**
 * The tuning options of the OAuth client, their defaults and their checks,
 * in one place: a misspelt or out-of-range option fails where it is given,
 * with a TypeError naming it, rather than being ignored.
 */

/** Default of `requestTimeoutMs` (provider, `clientCredentials`, `jwtBearer`): 10 s per OAuth request. */
export const DEFAULT_AUTH_REQUEST_TIMEOUT_MS = 10_000;
/** Default of `refreshMarginSeconds` (provider, `clientCredentials`, `jwtBearer`): 60 s. */
export const DEFAULT_REFRESH_MARGIN_SECONDS = 60;
/** Default of `LoopbackOptions.timeoutMs`: 5 minutes for the user to sign in. */
export const DEFAULT_REDIRECT_WAIT_MS = 300_000;
/** Default of `FileTokenStoreOptions.maxFileBytes`: 1 MiB. */
export const DEFAULT_MAX_TOKEN_FILE_BYTES = 1024 * 1024;

/** Longest delay a timer takes (2^31 - 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `value`, or `fallback` when it is `undefined`.
 * @throws TypeError naming `name` unless the result is an integer from `min` to `max`.
 */
export function integerOption(name: string, value: unknown, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const chosen = value ?? fallback;
  if (typeof chosen !== "number" || !Number.isSafeInteger(chosen) || chosen < min || chosen > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new TypeError(`${name} must be an integer ${range}, got ${typeof chosen === "number" ? chosen : JSON.stringify(chosen)}`);
  }
  return chosen;
}

/** A timer's length in milliseconds: a positive integer a timer can take. @throws TypeError naming `name`. */
export const timerOption = (name: string, value: unknown, fallback: number): number =>
  integerOption(name, value, fallback, 1, MAX_TIMER_MS);

// One rule for both sides: the server refuses its misspelt options with the same helpers.
export { rejectMisspelt, rejectUnknown } from "@x/jsonrpc";
