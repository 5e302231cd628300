/**
 * Reduces a message to what one protocol version defines, driven by that
 * version's member lists (`@x/mcp-v*\/members`, generated from the strict
 * form of its schema by `scripts/lib/members.mjs`): a member a closed object does not list is left out,
 * an array's items and a map's values are reduced by their shape, a union
 * takes the alternative the value fits best. A value that fits no
 * alternative of a union is a content block the version lacks when the
 * union has `TextContent` among its alternatives: it becomes a text block
 * holding the block's JSON (the spec gives no rule for it; a model still
 * reads what the block said). Anywhere else it is left out. Values that are
 * kept are never changed.
 *
 * One rule for both sides: `@x/server` reduces what it sends a session of
 * an older version, `@x/client` what it sends a server it negotiated an
 * older version with. It holds no list of its own, so every version's
 * member lists (the same {@link Shape} format) go through it.
 *
 * @module @x/json-schema/reduce
 */
import { isObject, stringifyJson } from "@x/jsonrpc";

/**
 * How one place of a message is read, the format of every revision's member
 * lists (`Shape` of `@x/mcp-v*\/members`, the same type): `0` anything, kept
 * as it is; a string, the definition of that name; `{ p, r, x }` an object
 * with the members `p` (their shapes), requiring `r`, whose other members
 * are not of the version (`x` absent), kept (`x: 0`) or of shape `x`;
 * `{ i }` an array of `i`; `{ u }` one of `u`; `{ c }` the constant `c`;
 * `{ e }` one of the values `e`.
 */
export type Shape =
  | 0
  | string
  | { readonly p: { readonly [member: string]: Shape }; readonly r?: readonly string[]; readonly x?: Shape }
  | { readonly i: Shape }
  | { readonly u: readonly Shape[] }
  | { readonly c: string | number | boolean | null }
  | { readonly e: readonly (string | number | boolean | null)[] };

type JsonObject = Record<string, unknown>;

/** A version's definitions by name, as the member lists give them. */
export type Definitions = { readonly [name: string]: Shape };

type ObjectShape = Extract<Shape, { readonly p: unknown }>;

/** What a reduction left out in place of a value. */
const LEFT_OUT: unique symbol = Symbol("left out");

/** The definition a content block the version lacks becomes, when its union has it. */
const TEXT_CONTENT = "TextContent";

/** Most definitions one shape may alias in a row (`EmptyResult` is `Result`): a bound, never reached by the schemas. */
const MAX_ALIASES = 16;

/** Nesting a reduction follows before keeping the rest as it is: deeper than any message either side writes. */
const MAX_DEPTH = 64;

/** The outcome of one reduction: the reduced value, and whether the value fitted the shape (nothing required missing, no union unmatched, no constant unequal). */
export interface Reduced<T = unknown> {
  value: T;
  fits: boolean;
}

/**
 * A union whose every alternative is an object requiring one member `key`
 * of a constant shape, each constant its own (`ContentBlock` by `type`):
 * only the alternative holding the value's constant can fit it, so it is
 * looked up rather than every alternative scored.
 */
interface Tagged {
  readonly key: string;
  readonly byTag: ReadonlyMap<unknown, Shape>;
}

/** The {@link Tagged} reading of each union of each version's definitions, `null` for a union that has none; built on first use. */
const TAGGED = new WeakMap<Definitions, WeakMap<readonly Shape[], Tagged | null>>();

/** One reduction over the definitions of a version. */
class Reduction {
  fits = true;
  constructor(readonly defs: Definitions) {}

  /** `alternatives` as a {@link Tagged} union over these definitions, or `null`. */
  tagged(alternatives: readonly Shape[]): Tagged | null {
    let unions = TAGGED.get(this.defs);
    if (unions === undefined) {
      unions = new WeakMap();
      TAGGED.set(this.defs, unions);
    }
    let found = unions.get(alternatives);
    if (found === undefined) {
      found = this.tagOf(alternatives);
      unions.set(alternatives, found);
    }
    return found;
  }

  tagOf(alternatives: readonly Shape[]): Tagged | null {
    const objects = alternatives.map((a) => this.resolve(a));
    const first = objects[0];
    if (first === undefined || first === 0 || !("p" in first)) return null;
    for (const key of first.r ?? []) {
      const byTag = new Map<unknown, Shape>();
      for (const [i, shape] of objects.entries()) {
        if (shape === 0 || !("p" in shape) || !shape.r?.includes(key) || !Object.hasOwn(shape.p, key)) break;
        const member = this.resolve(shape.p[key]!);
        if (member === 0 || !("c" in member) || byTag.has(member.c)) break;
        byTag.set(member.c, alternatives[i]!);
      }
      if (byTag.size === alternatives.length) return { key, byTag };
    }
    return null;
  }

  /** The one alternative of a {@link Tagged} union `value` may be of, by its tag; `undefined` when it holds no tag of the union. */
  byTag(value: unknown, tagged: Tagged): Shape | undefined {
    return isObject(value) && Object.hasOwn(value, tagged.key) ? tagged.byTag.get(value[tagged.key]) : undefined;
  }

  /** `shape` with definition names followed to what they stand for. */
  resolve(shape: Shape): Exclude<Shape, string> {
    for (let i = 0; typeof shape === "string" && i < MAX_ALIASES; i++) shape = this.defs[shape] ?? 0;
    return typeof shape === "string" ? 0 : shape;
  }

  run(value: unknown, at: Shape, depth: number): unknown {
    const shape = this.resolve(at);
    if (shape === 0 || depth > MAX_DEPTH) return value;
    if ("c" in shape) {
      if (value !== shape.c) this.fits = false;
      return value;
    }
    if ("e" in shape) {
      if (!shape.e.includes(value as string)) this.fits = false;
      return value;
    }
    if ("i" in shape) {
      if (!Array.isArray(value)) {
        this.fits = false;
        return value;
      }
      const out: unknown[] = [];
      for (const item of value) {
        const kept = this.run(item, shape.i, depth + 1);
        if (kept !== LEFT_OUT) out.push(kept);
      }
      return out;
    }
    if ("u" in shape) {
      const chosen = this.choose(value, shape.u);
      if (chosen !== undefined) return this.run(value, chosen, depth);
      if (shape.u.includes(TEXT_CONTENT)) return { type: "text", text: stringifyJson(value) };
      this.fits = false;
      return LEFT_OUT;
    }
    if (!isObject(value)) {
      this.fits = false;
      return value;
    }
    return this.object(value, shape, depth);
  }

  object(value: JsonObject, shape: ObjectShape, depth: number): JsonObject {
    const out: JsonObject = {};
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const member = Object.hasOwn(shape.p, key) ? shape.p[key] : shape.x;
      // Not a member of this version's definition: left out.
      if (member === undefined) continue;
      const kept = this.run(value[key], member, depth + 1);
      if (kept === LEFT_OUT) continue;
      if (key === "__proto__") Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
      else out[key] = kept;
    }
    if (shape.r !== undefined) for (const name of shape.r) if (!Object.hasOwn(out, name)) this.fits = false;
    return out;
  }

  /** The alternative `value` fits best: of those it fits (see {@link Reduction.score}), the one that lists most of its members (the first on a tie). */
  choose(value: unknown, alternatives: readonly Shape[]): Shape | undefined {
    const tagged = this.tagged(alternatives);
    if (tagged !== null) {
      const only = this.byTag(value, tagged);
      return only !== undefined && this.score(value, only, 0) >= 0 ? only : undefined;
    }
    let best: Shape | undefined;
    let bestScore = -1;
    for (const alternative of alternatives) {
      const score = this.score(value, alternative, 0);
      if (score > bestScore) {
        best = alternative;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * How well `value` fits `at`: -1 when it cannot be of it (a constant
   * unequal, a required member missing, here or in what its members hold),
   * else how many of its own members `at` lists. A union with `TextContent`
   * fits anything (what fits none of it becomes text); past the depth bound
   * everything fits.
   */
  score(value: unknown, at: Shape, depth: number): number {
    const shape = this.resolve(at);
    if (shape === 0 || depth > MAX_DEPTH) return 0;
    if ("c" in shape) return value === shape.c ? 0 : -1;
    if ("e" in shape) return shape.e.includes(value as string) ? 0 : -1;
    if ("i" in shape) {
      if (!Array.isArray(value)) return -1;
      for (const item of value) if (this.score(item, shape.i, depth + 1) < 0) return -1;
      return 0;
    }
    if ("u" in shape) {
      let best = -1;
      const tagged = this.tagged(shape.u);
      if (tagged !== null) {
        const only = this.byTag(value, tagged);
        if (only !== undefined) best = this.score(value, only, depth + 1);
      } else for (const alternative of shape.u) best = Math.max(best, this.score(value, alternative, depth + 1));
      return best < 0 && shape.u.includes(TEXT_CONTENT) ? 0 : best;
    }
    if (!isObject(value)) return -1;
    if (shape.r !== undefined) for (const name of shape.r) if (!Object.hasOwn(value, name)) return -1;
    let listed = 0;
    for (const key in value) {
      if (!Object.hasOwn(value, key) || !Object.hasOwn(shape.p, key)) continue;
      if (this.score(value[key], shape.p[key]!, depth + 1) < 0) return -1;
      listed++;
    }
    return listed;
  }
}

/**
 * `value` reduced to `shape` over `defs` (see the module comment).
 * @returns the reduced copy (`value` itself where nothing is reduced) and whether `value` fitted.
 */
export function reduce<T = unknown>(value: unknown, shape: Shape, defs: Definitions): Reduced<T> {
  const reduction = new Reduction(defs);
  const out = reduction.run(value, shape, 0);
  return { value: (out === LEFT_OUT ? undefined : out) as T, fits: reduction.fits && out !== LEFT_OUT };
}

/** True when `value` fits `shape` (its constants and required members, all the way down), as a union picks its alternative by. Never throws. */
export function fitsShape(value: unknown, shape: Shape, defs: Definitions): boolean {
  return new Reduction(defs).score(value, shape, 0) >= 0;
}

/** True when `shape` stands for an object that requires some member (not the open base `Result`). */
export function requiresMembers(shape: Shape, defs: Definitions): boolean {
  const resolved = new Reduction(defs).resolve(shape);
  return resolved !== 0 && "p" in resolved && resolved.r !== undefined && resolved.r.length > 0;
}

/**
 * Client capabilities `declared` as a version whose `ClientCapabilities` is
 * `own` (over `defs`) means them: reduced to the members it defines, and a
 * capability it defines as an object with no members of its own, where
 * `newest` (a later version's `ClientCapabilities`: the server reads by
 * 2026-07-28's, the client writes by 2025-11-25's) lists some, kept
 * without them. So before 2025-11-25 an `elicitation` capability holds no
 * `form` or `url` (form elicitation is that version's only mode: spec
 * 2025-06-18, client/elicitation "Capabilities"), and a `sampling`
 * capability no `tools` or `context`. The server reads a client's
 * declaration by it, the client writes its own by it. Never throws.
 * @returns a reduced copy; `declared` is not changed.
 */
export function reduceCapabilities<T extends object>(declared: T, own: Shape, defs: Definitions, newest: Shape): T {
  const reduced = reduce<JsonObject>(declared, own, defs).value ?? {};
  if (typeof own !== "object" || !("p" in own) || typeof newest !== "object" || !("p" in newest)) return reduced as T;
  for (const name of Object.keys(own.p)) {
    const read = newest.p[name];
    const listsMembers = typeof read === "object" && "p" in read && Object.keys(read.p).length > 0;
    if (own.p[name] === 0 && listsMembers && isObject(reduced[name])) reduced[name] = {};
  }
  return reduced as T;
}
