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
 * The very text `JSON.stringify(result)` gives, for a result whose own
 * enumerable members are only these, in any order: `content`, an array of
 * text blocks `{ type: "text", text }` (exactly those two keys, in that
 * order, `text` a string); `isError`, a boolean; `structuredContent`, an
 * object without `toJSON` (written by `JSON.stringify`); `resultType`, a
 * string. `result` itself must have no `toJSON` (the caller checks).
 *
 * @returns the text, or `undefined` for any other shape (another member, a
 *   block with annotations or its keys in another order, an inherited
 *   member): the caller then writes `JSON.stringify(result)`. Reads each
 *   member once, as `JSON.stringify` does.
 * @throws what `JSON.stringify` of `structuredContent` throws (a bigint, a cycle).
 */
export function resultText(result: object): string | undefined {
  let out = "{";
  for (const key in result) {
    if (!Object.hasOwn(result, key)) return undefined;
    const value: unknown = (result as Record<string, unknown>)[key];
    let text: string | undefined;
    if (key === "content") text = contentText(value);
    else if (key === "isError") text = value === true ? "true" : value === false ? "false" : undefined;
    else if (key === "structuredContent") text = objectText(value);
    else if (key === "resultType") text = typeof value === "string" ? JSON.stringify(value) : undefined;
    if (text === undefined) return undefined;
    out += out.length === 1 ? `"${key}":${text}` : `,"${key}":${text}`;
  }
  return `${out}}`;
}

/** `JSON.stringify` of an object without `toJSON` (which would be called with another key than nested); else `undefined`. */
function objectText(value: unknown): string | undefined {
  return typeof value === "object" && value !== null && (value as { toJSON?: unknown }).toJSON === undefined
    ? JSON.stringify(value)
    : undefined;
}

/** `JSON.stringify` of an array of plain text blocks; `undefined` for anything else. */
function contentText(value: unknown): string | undefined {
  if (!Array.isArray(value) || (value as { toJSON?: unknown }).toJSON !== undefined) return undefined;
  let out = "[";
  for (let i = 0; i < value.length; i++) {
    const block: unknown = value[i];
    if (typeof block !== "object" || block === null || (block as { toJSON?: unknown }).toJSON !== undefined) return undefined;
    // Exactly `type` then `text`, both own: JSON.stringify writes keys in the object's own order.
    let keys = 0;
    for (const key in block) {
      if (key !== (keys === 0 ? "type" : keys === 1 ? "text" : undefined) || !Object.hasOwn(block, key)) return undefined;
      keys++;
    }
    if (keys !== 2) return undefined;
    const { type, text } = block as { type: unknown; text: unknown };
    if (type !== "text" || typeof text !== "string") return undefined;
    out += `${i === 0 ? TEXT_BLOCK : `,${TEXT_BLOCK}`}${JSON.stringify(text)}}`;
  }
  return `${out}]`;
}
