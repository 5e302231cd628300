/**
 * Non-finite numbers in values bound for, or read from, JSON. JSON has no
 * Infinity, -Infinity or NaN: `JSON.stringify` writes them as `null`, and
 * `JSON.parse` turns an overflowing literal such as `1e400` into Infinity.
 * A schema's `type: "number"` check passes them either way, so the
 * server and client look for them with this one walk.
 */
import type { SchemaProblem } from "./compile.js";

/** The message of the problem {@link nonFiniteProblem} reports. */
export const NON_FINITE_MESSAGE = "is not a finite number (JSON has no Infinity, -Infinity or NaN)";

/**
 * Looks for Infinity, -Infinity or NaN anywhere in `value`: the value
 * itself, array items, and the enumerable properties of objects, depth
 * first in key order. Other values (strings, booleans, `null`, `undefined`)
 * are not numbers and pass. A cycle ends the walk of its branch (no JSON
 * text holds one: serialising it fails on its own). One pass that
 * allocates nothing unless it finds one, for values of up to 250 000
 * objects and arrays and 64 levels; a larger, deeper or cyclic value is
 * walked a second time, tracking the objects it is inside, to 1 000 levels.
 * @returns the JSON Pointer of the first non-finite number (`""` for the
 *   value itself, `/a/0` for `value.a[0]`, `~` and `/` in keys escaped as
 *   `~0` and `~1`), or `undefined` when there is none.
 * @throws only what a getter of `value` throws (a JSON value has none).
 */
export function findNonFinite(value: unknown): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : "";
  if (typeof value !== "object" || value === null) return undefined;
  budget = UNTRACKED_NODES;
  let keys = walk(value, 0, undefined);
  // Too much for the quick walk (a cycle, or a large or deep value): walked again, tracking ancestors.
  if (keys === CUT) keys = walk(value, 0, new Set());
  if (keys === undefined || keys === CUT) return undefined;
  let pointer = "";
  for (let i = keys.length - 1; i >= 0; i--) pointer += `/${String(keys[i]).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  return pointer;
}

/**
 * {@link findNonFinite} as a schema problem, worded once for every check
 * that reports one.
 * @returns `{ path, message: NON_FINITE_MESSAGE }` for the first non-finite
 *   number in `value`, or `undefined` when there is none.
 * @throws what {@link findNonFinite} throws.
 */
export function nonFiniteProblem(value: unknown): SchemaProblem | undefined {
  const path = findNonFinite(value);
  return path === undefined ? undefined : { path, message: NON_FINITE_MESSAGE };
}

// The quick walk keeps no record of where it has been, so it allocates
// nothing; it gives up after this many objects and arrays, or this deep,
// which a cycle reaches at once and a tool call's arguments or result seldom
// does. The node bound is set for results of a few MB (1 MB of small objects
// is about 20 000): at 10 000 such a result was walked twice, the second time
// adding and deleting each object in a Set (2.4 -> 0.85 ms for 1 MB); a cycle
// that branches wastes at most this many visits before the tracked walk cuts it.
const UNTRACKED_NODES = 250_000;
const UNTRACKED_DEPTH = 64;
// The tracked walk reads no deeper, to keep its stack small: no JSON message nests that deep.
const MAX_DEPTH = 1_000;
const CUT: unique symbol = Symbol("cut");
let budget = 0;

type Found = Array<string | number> | undefined | typeof CUT;

/**
 * The keys to the first non-finite number under `node` (at `depth`),
 * innermost first; `undefined` when none. With `ancestors` (the objects
 * above `node`) a cycle is cut where it closes, and nothing deeper than
 * MAX_DEPTH is read; without, the walk returns CUT once it has met
 * UNTRACKED_NODES objects and arrays or gone UNTRACKED_DEPTH deep.
 */
function walk(node: object, depth: number, ancestors: Set<object> | undefined): Found {
  if (ancestors) {
    if (ancestors.has(node) || depth > MAX_DEPTH) return undefined;
    ancestors.add(node);
  } else if (--budget < 0 || depth > UNTRACKED_DEPTH) {
    return CUT;
  }
  let found: Found;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length && !found; i++) found = visit(node[i], i, depth, ancestors);
  } else {
    for (const key in node) {
      found = visit((node as Record<string, unknown>)[key], key, depth, ancestors);
      if (found) break;
    }
  }
  ancestors?.delete(node);
  return found;
}

/** {@link walk}'s step into one child, `key` naming it. */
function visit(child: unknown, key: string | number, depth: number, ancestors: Set<object> | undefined): Found {
  if (typeof child === "number") return Number.isFinite(child) ? undefined : [key];
  if (typeof child !== "object" || child === null) return undefined;
  const found = walk(child, depth + 1, ancestors);
  if (found && found !== CUT) found.push(key);
  return found;
}
