/**
 * Option bags checked where they are given: a member that is not an option
 * (a misspelling, or another SDK's name for it) is refused with a TypeError
 * naming it and the nearest known name, instead of being ignored. Shared by
 * the server and the client so that both word the refusal alike.
 */

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

/**
 * What a function whose options object is a type parameter `C` (to infer
 * from it) adds to that parameter's type so that a member `Known` does not
 * have still fails to compile: TypeScript checks excess members only
 * against a declared type, not an inferred one. Use as `config: C & NoUnknownKeys<C, Known>`.
 */
export type NoUnknownKeys<C, Known> = { [K in Exclude<keyof C, keyof Known>]: never };
