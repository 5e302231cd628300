/**
 * The JSON text of a tool result of the usual shape, written without
 * `JSON.stringify`'s walk of the whole result. On Node 20 that walk costs
 * about 110 ns per object level even for a tiny result (340 ns for
 * `{ content: [{ type: "text", text: "hello" }] }`, against some 70 ns here),
 * which was 7% of the instructions of a stdio `tools/call` echo
 * (bench/README.md, "The result's text written by its shape").
 */

const TEXT_BLOCK = '{"type":"text","text":';

/**
 * A character `JSON.stringify` may escape in a string: a quote, a
 * backslash, a control character, or any surrogate (it escapes lone ones;
 * a text with a pair takes the slower path, unchanged).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes.
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)`: the text between quotes when it holds none of
 * {@link ESCAPED}. The regular expression looks at each character in about
 * half the instructions `JSON.stringify` spends copying it (bench/README.md,
 * "Large results on a steady ruler").
 */
export function quoted(text: string): string {
  return ESCAPED.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * The very text `JSON.stringify(result)` gives, for a result whose own
 * enumerable members are only these, in any order: `content`, an array of
 * text blocks (plain objects with exactly the keys `type` and `text`, in
 * that order, both strings); `isError`, a boolean; `structuredContent`, an
 * object without `toJSON` (written by `JSON.stringify`); `resultType`, a
 * string. `result` is a plain object without `toJSON` (the caller's copy).
 *
 * @returns the text, or `undefined` for any other shape (another member, a
 *   block with annotations, keys in another order, an array, a boxed value
 *   or a class instance as a block, an inherited member): the caller then
 *   writes `JSON.stringify(result)`. The shapes are checked before any
 *   member is read, so a getter runs once, as under `JSON.stringify`, but
 *   for a block whose `type` or `text` getter gives something other than a
 *   string (it runs again in the caller's `JSON.stringify`).
 * @throws what `JSON.stringify` of `structuredContent` throws (a bigint, a cycle).
 */
export function resultText(result: object): string | undefined {
  const members = resultMembers(result);
  return members === undefined ? undefined : `{${members}}`;
}

/**
 * {@link resultText} without its braces: the members' text, `""` for none.
 * A caller that appends members splices them here, where slicing the brace
 * off the whole text would first copy all of it into one flat string.
 */
export function resultMembers(result: object): string | undefined {
  if (!isPlain(result)) return undefined;
  let out = "";
  for (const key in result) {
    if (!Object.hasOwn(result, key)) return undefined;
    const value: unknown = (result as Record<string, unknown>)[key];
    let text: string | undefined;
    if (key === "content") text = contentText(value);
    else if (key === "isError") text = value === true ? "true" : value === false ? "false" : undefined;
    else if (key === "structuredContent") text = objectText(value);
    else if (key === "resultType") text = typeof value === "string" ? JSON.stringify(value) : undefined;
    if (text === undefined) return undefined;
    out += out.length === 0 ? `"${key}":${text}` : `,"${key}":${text}`;
  }
  return out;
}

/** An object of `Object.prototype` or none, not an array: what `JSON.stringify` writes as `{...}` of its own keys. */
function isPlain(value: object): boolean {
  if (Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `JSON.stringify` of an object without `toJSON` (which would be called with another key than nested); else `undefined`. */
function objectText(value: unknown): string | undefined {
  // `in`, not a read: a toJSON getter runs once, in JSON.stringify, as it would nested.
  return typeof value === "object" && value !== null && !("toJSON" in value) ? JSON.stringify(value) : undefined;
}

/** A plain object whose own enumerable keys are exactly `type` then `text` (JSON.stringify writes them in that order), read without reading them. */
function isTextBlock(block: unknown): block is { type: unknown; text: unknown } {
  if (typeof block !== "object" || block === null || !isPlain(block) || "toJSON" in block) return false;
  let keys = 0;
  for (const key in block) {
    if (key !== (keys === 0 ? "type" : keys === 1 ? "text" : undefined) || !Object.hasOwn(block, key)) return false;
    keys++;
  }
  return keys === 2;
}

/** `JSON.stringify` of an array of text blocks; `undefined` for anything else. */
function contentText(value: unknown): string | undefined {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype || "toJSON" in value) return undefined;
  // Read once, as JSON.stringify does (a getter of a block may change the array).
  const length = value.length;
  for (let i = 0; i < length; i++) if (!isTextBlock(value[i])) return undefined;
  let out = "[";
  for (let i = 0; i < length; i++) {
    const block = value[i];
    if (typeof block !== "object" || block === null) return undefined;
    const { type, text } = block as { type: unknown; text: unknown };
    if (typeof type !== "string" || typeof text !== "string") return undefined;
    const head = type === "text" ? TEXT_BLOCK : `{"type":${JSON.stringify(type)},"text":`;
    out += `${i === 0 ? head : `,${head}`}${quoted(text)}}`;
  }
  return `${out}]`;
}
