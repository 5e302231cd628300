/**
 * `completion/complete` results (spec 2026-07-28, server/utilities/completion).
 */
import type { CompleteResult } from "@x/mcp-v2607";
import { plainData } from "./snapshot.js";
import { describeValue, isGiven, optionsObject } from "./util.js";

/** The most values one `CompleteResult` may carry (schema: `completion.values` `maxItems`). */
export const MAX_COMPLETION_VALUES = 100;

/** Options of {@link completeResult}. */
export interface CompleteResultOptions {
  /**
   * Total number of matches, which may exceed the values sent: an integer
   * >= `values.length`. Absent (or `null`): the key is left out.
   */
  total?: number | null;
  /** Whether more matches exist than were sent. Absent (or `null`): the key is left out. */
  hasMore?: boolean | null;
}

/**
 * Builds the `CompleteResult` answered to `completion/complete` (spec:
 * server/utilities/completion, "Completion Results"):
 * `{ resultType: "complete", completion: { values, total?, hasMore? } }`.
 * `values` is copied into a new array, in the order given.
 *
 * `total`, when given, must be a whole number no smaller than
 * `values.length` (a total below the count sent is a contradiction; the
 * schema only says "integer").
 *
 * @throws TypeError naming `values` / `values[i]` when it is not an array of
 *   strings, naming `hasMore` when it is not a boolean; RangeError naming
 *   `values` when there are more than 100 (the spec's maximum), naming
 *   `total` when it is not an integer >= `values.length`. The arguments are
 *   read once, into a copy of plain JSON data (see the README, "Plain data").
 *
 * @example
 * completeResult(["python", "pytorch", "pyside"], { total: 10, hasMore: true });
 * // { resultType: "complete", completion: { values: ["python", "pytorch", "pyside"], total: 10, hasMore: true } }
 */
export function completeResult(values: readonly string[], options?: CompleteResultOptions): CompleteResult {
  const opts = optionsObject(plainData(options, "options"));
  const list = plainData(values, "values");
  if (!Array.isArray(list)) throw new TypeError(`values must be an array of strings, got ${describeValue(list)}`);
  if (list.length > MAX_COMPLETION_VALUES) {
    throw new RangeError(`values must hold at most ${MAX_COMPLETION_VALUES} items, got ${list.length}`);
  }
  list.forEach((value, index) => {
    if (typeof value !== "string") throw new TypeError(`values[${index}] must be a string, got ${describeValue(value)}`);
  });
  const completion: CompleteResult["completion"] = { values: list };
  if (isGiven(opts.total)) {
    const total: unknown = opts.total;
    if (typeof total !== "number" || !Number.isSafeInteger(total) || total < list.length) {
      throw new RangeError(`total must be an integer >= values.length (${list.length}), got ${describeValue(total)}`);
    }
    completion.total = total;
  }
  if (isGiven(opts.hasMore)) {
    if (typeof opts.hasMore !== "boolean") throw new TypeError(`hasMore must be a boolean, got ${describeValue(opts.hasMore)}`);
    completion.hasMore = opts.hasMore;
  }
  return { resultType: "complete", completion };
}
