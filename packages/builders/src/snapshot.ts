/**
 * The snapshot every builder takes of what it is given, before checking it:
 * a copy made of plain JSON data only, each member read once. The checks
 * and the result then see the copy alone, so what a builder checked is what
 * `JSON.stringify` (or `stringifyJson` of `@x/jsonrpc`) writes later: no
 * `toJSON` can swap a block for another, no getter or Proxy can answer
 * differently on a second read. The rules are in the README ("Plain data").
 */

/** The deepest nesting taken: well below the depth at which `JSON.stringify` runs out of stack (a few thousand levels). */
export const MAX_SNAPSHOT_DEPTH = 1000;
/** The longest array taken (2^24 items): a longer one, such as a sparse array of a huge length, is no message anyone reads. */
export const MAX_SNAPSHOT_ITEMS = 16_777_216;

/** Marks an object whose copy is under way: meeting it again is a cycle. */
const IN_PROGRESS = Symbol("in progress");

/** What the snapshot refuses: thrown with the path of the value, then rewritten at the top with the argument's name. */
class Refused extends Error {
  constructor(
    readonly what: string,
    readonly range: boolean,
  ) {
    super(what);
  }
}

/** What a refused value is, for the message: read only on the way to an error. */
function kind(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return "a symbol";
  try {
    const name: unknown = Object.getPrototypeOf(value)?.constructor?.name;
    if (typeof name === "string" && name !== "") return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
  } catch {
    // A Proxy's trap may throw: the message does without the name.
  }
  return "an object of another prototype";
}

class Snapshot {
  /** The keys and indexes down to the value being copied, for the message of a refusal. */
  readonly path: (string | number)[] = [];
  /** Each object met and its copy: a value shared by two members is copied (and read) once. */
  readonly copies = new Map<object, unknown>();

  copy(value: unknown, depth: number): unknown {
    switch (typeof value) {
      case "string":
      case "boolean":
      case "bigint":
      case "undefined":
        return value;
      case "number":
        if (Number.isFinite(value)) return value;
        throw new Refused(`is ${value}, which JSON cannot carry (it would be sent as null)`, false);
      case "object":
        if (value === null) return null;
        break;
      default:
        throw new Refused(`is ${kind(value)}, not JSON data`, false);
    }
    const known = this.copies.get(value);
    if (known === IN_PROGRESS) throw new Refused("holds itself (a cycle), which JSON cannot carry", false);
    if (known !== undefined) return known;
    if (depth >= MAX_SNAPSHOT_DEPTH) throw new Refused(`is nested deeper than ${MAX_SNAPSHOT_DEPTH} levels`, true);
    this.copies.set(value, IN_PROGRESS);
    const out = Array.isArray(value) ? this.array(value, depth + 1) : this.object(value, depth + 1);
    this.copies.set(value, out);
    return out;
  }

  private array(value: readonly unknown[], depth: number): unknown[] {
    const length = value.length;
    if (length > MAX_SNAPSHOT_ITEMS) throw new Refused(`has ${length} items, more than ${MAX_SNAPSHOT_ITEMS}`, true);
    const out: unknown[] = [];
    for (let i = 0; i < length; i++) {
      this.path.push(i);
      const item = this.copy(value[i], depth);
      // As JSON writes it: a hole or an undefined item is null.
      out.push(item === undefined ? null : item);
      this.path.pop();
    }
    return out;
  }

  private object(value: object, depth: number): Record<string, unknown> {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new Refused(`is ${kind(value)}, not a plain object`, false);
    // Object.keys leaves out what JSON leaves out: symbol keys, members that are not enumerable.
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      this.path.push(key);
      const member = this.copy((value as Record<string, unknown>)[key], depth);
      // An undefined member is an absent one, as JSON leaves it out.
      if (member !== undefined) {
        if (key === "__proto__") Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
        else out[key] = member;
      }
      this.path.pop();
    }
    return out;
  }
}

/** `where` and the path below it, as the builders' messages write a member: `entries[0].annotations.priority`. */
function at(where: string, path: readonly (string | number)[]): string {
  let text = where;
  for (const step of path) text += typeof step === "number" ? `[${step}]` : `.${step}`;
  return text;
}

/**
 * A copy of `value` made of plain JSON data, each member read once:
 * strings, finite numbers, booleans, `null`, `bigint`s (written with their
 * digits), arrays, and objects whose prototype is `Object.prototype` or
 * `null`, with their own enumerable string-keyed members. What JSON leaves
 * out is left out (an `undefined` member, a symbol-keyed or non-enumerable
 * one) and an `undefined` item (or a hole) becomes `null`, as JSON writes
 * them; an object met twice is copied once (the copy is shared).
 *
 * @throws TypeError naming `where` and the path to the value for a function
 *   (a `toJSON` or any method), a symbol, a number that is not finite, an
 *   object of another prototype (a `Date`, a `Map`, a class instance), or a
 *   cycle; the same for an error thrown while reading a member (a getter's,
 *   a Proxy trap's), with it as `cause`.
 * @throws RangeError naming the path for nesting deeper than
 *   {@link MAX_SNAPSHOT_DEPTH} or an array longer than {@link MAX_SNAPSHOT_ITEMS}.
 */
export function plainData<T>(value: T, where: string): T {
  if (typeof value === "string") return value;
  const snapshot = new Snapshot();
  try {
    return snapshot.copy(value, 0) as T;
  } catch (error) {
    const path = at(where, snapshot.path);
    if (error instanceof Refused) {
      if (error.range) throw new RangeError(`${path} ${error.what}`);
      throw new TypeError(`${path} ${error.what}; the builders take plain JSON data (see the README, "Plain data")`);
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new TypeError(`${path} could not be read: ${message}`, { cause: error });
  }
}
