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

/**
 * Refuses a member of an options object that is not one of `known`, naming
 * it (and the option it is closest to). For option bags, where every member
 * is ours.
 * @throws TypeError for the first unknown member.
 */
export function rejectUnknown(what: string, options: object | undefined, known: readonly string[]): void {
  for (const name of Object.keys(options ?? {})) {
    if (!known.includes(name)) throw new TypeError(`${what} has no option ${JSON.stringify(name)}${hint(name, known)}`);
  }
}

/**
 * Refuses a member that is a near miss of one of `known` (same letters in
 * another case, or two edits away): for objects that may carry members of
 * their own, like an app's provider, where only a misspelling can be told
 * from an extra member.
 * @throws TypeError for the first misspelt member.
 */
export function rejectMisspelt(what: string, options: object, known: readonly string[]): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const near = closest(name, known);
    if (near !== undefined) throw new TypeError(`${what} has no option ${JSON.stringify(name)}; did you mean ${JSON.stringify(near)}?`);
  }
}

function hint(name: string, known: readonly string[]): string {
  const near = closest(name, known);
  return near === undefined ? ` (options: ${known.join(", ")})` : `; did you mean ${JSON.stringify(near)}?`;
}

/** The known name within two edits of `name` (ignoring case), if any; names under 5 characters must match but for case. */
function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    if (other === lower) return candidate;
    if (Math.min(lower.length, other.length) >= 5 && withinTwoEdits(lower, other)) return candidate;
  }
  return undefined;
}

/** Levenshtein distance at most 2; bounded by the names' lengths. */
function withinTwoEdits(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 2) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return (previous[b.length] as number) <= 2;
}
