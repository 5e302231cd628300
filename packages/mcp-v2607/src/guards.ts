/**
 * Type guards on a result's `resultType` (spec 2026-07-28: basic/index,
 * "Result Responses" → "ResultType"; basic/patterns/mrtr).
 */
import type { InputRequiredResult } from "./generated/types.js";

function resultTypeOf(result: unknown): { present: boolean; value: unknown } | undefined {
  if (result === null || typeof result !== "object" || Array.isArray(result)) return undefined;
  const present = Object.hasOwn(result, "resultType");
  return { present, value: present ? (result as { resultType?: unknown }).resultType : undefined };
}

/**
 * Tells whether a result is final: its `resultType` is `"complete"`, or it
 * has no `resultType` at all. The spec has clients treat an absent
 * `resultType` as `"complete"` so that results from servers of earlier
 * revisions, which never send it, keep working; a server of this revision
 * always sends it (the schema requires it).
 *
 * Returns false for any other `resultType`, including one this revision does
 * not define (the spec has clients treat such a result as invalid), a
 * `resultType` that is present but `undefined` or not a string, and for
 * anything that is not a plain object. It checks nothing else: use
 * `validate` or a validator for the shape.
 *
 * Narrows a union with `InputRequiredResult` to its other members, e.g.
 * `CallToolResult | InputRequiredResult` to `CallToolResult`.
 *
 * @example
 * const result = response.result; // CallToolResult | InputRequiredResult
 * if (isInputRequiredResult(result)) answer(result.inputRequests);
 * else if (isCompleteResult(result)) show(result.content);
 * else throw new Error(`unknown resultType ${String(result.resultType)}`);
 */
export function isCompleteResult<R>(result: R | InputRequiredResult): result is R {
  const found = resultTypeOf(result);
  if (!found) return false;
  return found.present ? found.value === "complete" : true;
}

/**
 * Tells whether a result asks for more input before the request can finish:
 * its `resultType` is exactly `"input_required"`. The client then fulfils its
 * `inputRequests`, and retries the original request with `inputResponses`
 * and the `requestState` echoed unchanged (spec: basic/patterns/mrtr).
 *
 * Returns false for an absent `resultType` (which means `"complete"`), for
 * any other string, for a non-string, and for anything that is not a plain
 * object. It does not check that `inputRequests` or `requestState` is
 * present: use the `InputRequiredResult` validator for that.
 */
export function isInputRequiredResult(result: unknown): result is InputRequiredResult & { resultType: "input_required" } {
  return resultTypeOf(result)?.value === "input_required";
}
