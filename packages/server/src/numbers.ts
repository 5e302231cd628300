/**
 * What user code receives of the numbers a client sent (README "Numbers").
 * Messages are read with `parseJson`, which keeps an integer beyond
 * ±(2^53 − 1) as a `bigint` so that a request id or a progress token is
 * answered with every digit. A handler is typed from its schema, whose
 * `number` and `integer` are a JavaScript `number`: a `bigint` there would
 * break that type (`a + 1` throws "Cannot mix BigInt and other types"). So
 * every value a handler receives (tool arguments, elicitation, sampling and
 * roots answers) is what `JSON.parse` gives, unless the tool opted in to
 * exact integers with `ToolConfig.bigIntegers`, whose type says so.
 * Prompt arguments, completion values and resource URIs are strings, which
 * their features check.
 */
import { replaceBigInts } from "@x/jsonrpc";

/** How a tool that opts in receives an integer beyond ±(2^53 − 1): a `bigint` with every digit, or its decimal digits. */
export type BigIntegers = "bigint" | "string";

/**
 * `value` as `JSON.parse` reads it: each `bigint` in it the nearest double
 * (`Infinity` past the double range), as `JSON.parse` rounds the same
 * literal. Returns `value` itself when it holds no `bigint`.
 */
export function asParsed<T>(value: T): T {
  return replaceBigInts(value, Number) as T;
}

/** `value` with each `bigint` in it as its decimal digits (`bigIntegers: "string"`). */
export function asDigits<T>(value: T): T {
  return replaceBigInts(value, String) as T;
}

/**
 * Checks a `bigIntegers` choice.
 * @throws TypeError starting with `what` when it is neither `"bigint"` nor `"string"`.
 */
export function checkBigIntegers(what: string, value: unknown): BigIntegers | undefined {
  if (value !== undefined && value !== "bigint" && value !== "string") {
    throw new TypeError(`${what} must be "bigint" or "string", got ${String(value)}`);
  }
  return value;
}
