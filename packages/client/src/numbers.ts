/**
 * What user code receives of the numbers a server sent (README "Numbers").
 * `readJson` of `@x/jsonrpc` keeps an integer beyond ±(2^53 − 1) as a
 * `bigint`, which is what a request id needs to be answered or matched with
 * every digit. Everywhere else the revision's types say `number` (a sampling
 * request's `maxTokens`, a progress notification's `progress`, a schema's
 * `maximum`), and a `bigint` there breaks them (`maxTokens - 1` throws). So
 * every message a built-in transport reads is handed on as `JSON.parse`
 * gives it, except the identifiers whose types admit `bigint`.
 */
import { isObject, readJson, replaceBigInts } from "@x/jsonrpc";
import { META_SUBSCRIPTION_ID } from "@x/mcp-v2607/constants";

/** Where an identifier sits in a message: `true` keeps the member as read, an object looks inside it. */
interface Kept {
  readonly [member: string]: true | Kept;
}

/**
 * The members of a message that keep every digit: the JSON-RPC `id`; in
 * `params` a cancellation's `requestId`, a progress notification's
 * `progressToken`, a request's `_meta.progressToken` and a notification's
 * subscription id; the subscription id in a `subscriptions/listen` result's
 * `_meta`. These are the schema's `RequestId` and `ProgressToken`, both
 * `string | number | bigint`.
 */
const IDENTIFIERS: Kept = {
  id: true,
  params: { requestId: true, progressToken: true, _meta: { progressToken: true, [META_SUBSCRIPTION_ID]: true } },
  result: { _meta: { [META_SUBSCRIPTION_ID]: true } },
};

/**
 * Reads one message as the client hands it on: each integer beyond
 * ±(2^53 − 1) is the double `JSON.parse` reads (`9007199254740993` as
 * `9007199254740992`, `Infinity` past the double range), but in
 * {@link IDENTIFIERS}, where it is a `bigint` with every digit. A message
 * without a run of 16 digits is `JSON.parse`'s value, not walked at all.
 *
 * @throws what `parseJson` of `@x/jsonrpc` throws (SyntaxError, RangeError).
 */
export function readMessage(text: string): unknown {
  const read = readJson(text);
  return read.lossless ? asParsed(read.value, IDENTIFIERS) : read.value;
}

/** `value` with its `bigint`s as doubles outside `kept`; `value` itself when nothing changed. */
function asParsed(value: unknown, kept: Kept): unknown {
  if (!isObject(value)) return replaceBigInts(value, Number);
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const rule = Object.hasOwn(kept, key) ? kept[key] : undefined;
    if (rule === true) continue;
    const item = value[key];
    const next = rule === undefined ? replaceBigInts(item, Number) : asParsed(item, rule);
    if (!Object.is(next, item)) {
      copy ??= { ...value };
      // Defined, not assigned: a "__proto__" key stays an own property.
      Object.defineProperty(copy, key, { value: next, writable: true, enumerable: true, configurable: true });
    }
  }
  return copy ?? value;
}
