/**
 * JSON that keeps every digit of an integer. `JSON.parse` reads every number
 * as a double, so an integer beyond ±(2^53 − 1) comes out as a neighbour
 * (9007199254740993 as ...992), and `JSON.stringify` throws on a `bigint`.
 * Here such an integer is read as a `bigint` and a `bigint` is written as
 * its digits. Both run the built-in first and call lossless-json (loaded on
 * first need, never at import) only for the rare message that needs it.
 */
import type * as LosslessJson from "lossless-json";
import { requireLazily } from "./runtime.js";

let lossless: typeof LosslessJson | undefined;

function losslessJson(): typeof LosslessJson {
  lossless ??= requireLazily(() => require("lossless-json"), "lossless-json", "lossless-json", import.meta.url) as typeof LosslessJson;
  return lossless;
}

const INTEGER_LITERAL = /^-?\d+$/;

/**
 * A run of 16 digits. Only an integer literal beyond ±(2^53 − 1) reads
 * differently from JSON.parse, and it has at least 16 digits; decimals and
 * exponents read as the same double either way (1e400 is Infinity in both).
 * Written out rather than as \d{16}: V8 skips ahead through text only for the
 * written-out form, which makes it 4 to 13 times faster (bench/micro/json.mjs).
 * A run inside a string is a false alarm that costs a second parse, no more.
 */
const LONG_DIGIT_RUN = /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d/;

/** A number literal as `JSON.parse` reads it, except an integer literal outside the safe range, read as a `bigint`. */
function readNumber(literal: string): number | bigint {
  const value = Number(literal);
  return Number.isSafeInteger(value) || !INTEGER_LITERAL.test(literal) ? value : BigInt(literal);
}

// JSON.parse keeps the last of duplicate keys; lossless-json would throw.
const PARSE_OPTIONS = { parseNumber: readNumber, onDuplicateKey: ({ newValue }: { newValue: unknown }) => newValue };

/**
 * Parses JSON text like `JSON.parse`, except that an integer outside
 * ±(2^53 − 1) written as an integer literal (`9007199254740993`, not
 * `9007199254740993.0` or `9.007199254740993e15`) becomes a `bigint` with exactly its
 * digits; a safe integer stays a `number`. Decimals and exponents keep IEEE
 * double semantics: rounded to the nearest double, `1e400` is `Infinity`,
 * `1e-400` is 0. Text with no run of 16 digits is parsed by `JSON.parse`
 * alone; other text is parsed again by lossless-json, loaded on that first need.
 *
 * @returns the value.
 * @throws SyntaxError when the text is not JSON (the one `JSON.parse` throws);
 *   MissingDependencyError when the text needs lossless-json and it is not
 *   installed; RangeError when such text nests thousands of levels deep.
 */
export function parseJson(text: string): unknown {
  return readJson(text).value;
}

/**
 * {@link parseJson}'s value, and whether lossless-json read it: only then may
 * the value hold a `bigint`. `lossless: false` is a value `JSON.parse` gave,
 * which a reader may hand on as it is, without looking for a `bigint` in it.
 * For text read without `decodeJson`'s UTF-8 and depth checks (the
 * client reads its messages this way).
 *
 * @returns `{ ok: true, value, lossless }`.
 * @throws what {@link parseJson} throws.
 */
export function readJson(text: string): { ok: true; value: unknown; lossless: boolean } {
  const value: unknown = JSON.parse(text);
  return LONG_DIGIT_RUN.test(text)
    ? { ok: true, value: losslessJson().parse(text, null, PARSE_OPTIONS), lossless: true }
    : { ok: true, value, lossless: false };
}

/**
 * Writes a value as compact JSON like `JSON.stringify`, except that a
 * `bigint` is written as its digits (`2n ** 64n` as `18446744073709551616`)
 * where `JSON.stringify` throws. A value without one never loads lossless-json.
 *
 * @returns the text; `undefined` for `undefined`, a function or a symbol, as `JSON.stringify`.
 * @throws TypeError for a cycle (as `JSON.stringify`); MissingDependencyError when
 *   the value holds a `bigint` and lossless-json is not installed; any error a `toJSON` throws.
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/bigint/i.test(error.message)) throw error;
  }
  return losslessJson().stringify(value) as string;
}

/**
 * Replaces each `bigint` in a JSON value (nested in arrays and objects) by
 * what `replace` returns: `Number` for a check that knows only numbers (a
 * JSON Schema validator), `String` for code that wants decimal text.
 *
 * @returns `value` itself when it holds no `bigint`; otherwise a copy of the
 *   arrays and objects on the way to each one (the rest shared). Never throws
 *   unless `replace` does.
 */
export function replaceBigInts(value: unknown, replace: (value: bigint) => unknown): unknown {
  if (typeof value === "bigint") return replace(value);
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = replaceBigInts(value[i], replace);
      if (!Object.is(next, value[i])) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const next = replaceBigInts(item, replace);
    if (!Object.is(next, item)) {
      copy ??= { ...value };
      // Defined, not assigned: a "__proto__" key stays an own property.
      Object.defineProperty(copy, key, { value: next, writable: true, enumerable: true, configurable: true });
    }
  }
  return copy ?? value;
}
