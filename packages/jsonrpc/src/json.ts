/**
 * JSON that keeps every digit of an integer. `JSON.parse` reads every number
 * as a double, so an integer beyond ±(2^53 − 1) comes out as a neighbour
 * (9007199254740993 as ...992), and `JSON.stringify` throws on a `bigint`.
 * Here such an integer is read as a `bigint` and a `bigint` is written as
 * its digits. Both run the built-in first; only the rare message that needs
 * it takes the slower path below (no dependency: a bundle stays small).
 */

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

/**
 * Reads text that `JSON.parse` has already accepted, so it needs no syntax
 * checks: strings go back to `JSON.parse` (escapes), numbers to
 * {@link readNumber}. Members are defined, not assigned, so that `__proto__`
 * stays an own key; a duplicate key keeps its first place and its last value,
 * as with `JSON.parse`. Nesting is bounded by the stack (a RangeError), as
 * callers bound depth before (`decodeJson`).
 */
const NUMBER_CHARS = "0123456789-+.eE";

function parseChecked(text: string): unknown {
  let at = 0;
  const skipSpace = () => {
    while (text.charCodeAt(at) <= 32 && at < text.length) at++;
  };
  const string = (): string => {
    const start = at++;
    while (text.charCodeAt(at) !== 34) at += text.charCodeAt(at) === 92 ? 2 : 1;
    return JSON.parse(text.slice(start, ++at)) as string;
  };
  const value = (): unknown => {
    skipSpace();
    const c = text.charCodeAt(at);
    if (c === 34) return string();
    if (c === 123 || c === 91) {
      at++;
      const list: unknown[] | undefined = c === 91 ? [] : undefined;
      const object: Record<string, unknown> = {};
      skipSpace();
      if (text.charCodeAt(at) === c + 2) {
        at++;
        return list ?? object;
      }
      for (;;) {
        if (list) list.push(value());
        else {
          skipSpace();
          const key = string();
          skipSpace();
          at++; // the colon
          Object.defineProperty(object, key, { value: value(), writable: true, enumerable: true, configurable: true });
        }
        skipSpace();
        if (text.charCodeAt(at++) !== 44) return list ?? object; // not a comma: the closing bracket
      }
    }
    const start = at;
    if (c === 116 || c === 110 || c === 102) {
      at += c === 102 ? 5 : 4;
      return c === 110 ? null : c === 116;
    }
    while (at < text.length && NUMBER_CHARS.includes(text.charAt(at))) at++;
    return readNumber(text.slice(start, at));
  };
  return value();
}

/**
 * Parses JSON text like `JSON.parse`, except that an integer outside
 * ±(2^53 − 1) written as an integer literal (`9007199254740993`, not
 * `9007199254740993.0` or `9.007199254740993e15`) becomes a `bigint` with exactly its
 * digits; a safe integer stays a `number`. Decimals and exponents keep IEEE
 * double semantics: rounded to the nearest double, `1e400` is `Infinity`,
 * `1e-400` is 0. Text with no run of 16 digits is parsed by `JSON.parse`
 * alone; other text is read a second time, keeping every digit.
 *
 * @returns the value.
 * @throws SyntaxError when the text is not JSON (the one `JSON.parse` throws);
 *   RangeError when such text nests thousands of levels deep.
 */
export function parseJson(text: string): unknown {
  return readJson(text).value;
}

/**
 * {@link parseJson}'s value, and whether it was read a second time, keeping
 * every digit (`lossless`): only then may
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
  return LONG_DIGIT_RUN.test(text) ? { ok: true, value: parseChecked(text), lossless: true } : { ok: true, value, lossless: false };
}

/**
 * A marker for the bigint pass: U+2063 (invisible separator) and 128 bits
 * from `crypto.getRandomValues` as base-36 text, drawn afresh for each pass,
 * so a value cannot hold it unless it guesses 128 random bits.
 */
function drawMarker(): string {
  const words = globalThis.crypto.getRandomValues(new Uint32Array(4));
  return `\u2063${Array.from(words, (word) => word.toString(36).padStart(7, "0")).join("")}`;
}

/** The most bigint passes one call runs: a second happens only when the value holds the first pass's marker. */
const MARKER_PASSES = 4;

/**
 * Writes a value as compact JSON like `JSON.stringify`, except that a
 * `bigint` is written as its digits (`2n ** 64n` as `18446744073709551616`)
 * where `JSON.stringify` throws. A value without one is written by
 * `JSON.stringify` once. A value with one is written by one more pass that
 * writes each bigint as it meets it, so a getter or `toJSON` runs once in that
 * pass; those met before the first bigint had also run in the attempt that
 * threw (running a replacer on every message instead would cost each one
 * about 1.6 times the built-in's time).
 *
 * @returns the text; `undefined` for `undefined`, a function or a symbol, as `JSON.stringify`.
 * @throws TypeError for a cycle (as `JSON.stringify`); any error a `toJSON` throws;
 *   Error when the value holds each of 4 fresh 128-bit random markers (never by chance).
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/bigint/i.test(error.message)) throw error;
  }
  // Each bigint is written as a string of the marker and its digits, then
  // the quotes and marker are taken out. A string of the value holding the
  // marker shows as one marker too many: only then is there another pass.
  for (let pass = 0; pass < MARKER_PASSES; pass++) {
    const marker = drawMarker();
    let written = 0;
    const text = JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item !== "bigint") return item;
      written++;
      return `${marker}${item}`;
    });
    if (text.split(marker).length - 1 === written) return text.replace(new RegExp(`"${marker}(-?\\d+)"`, "g"), "$1");
  }
  throw new Error("stringifyJson: the value holds every random marker drawn for its bigints");
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
