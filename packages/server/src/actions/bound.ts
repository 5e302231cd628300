/**
 * Bounded quoting of what a caller sent.
 *
 * What a refusal quotes: a dispatch gate that names something from the call
 * (an unknown argument key, an unknown action name, the data path of an
 * unknown key or of a refused value) quotes it through {@link Bound.echo}, so
 * an answer stays small however large the input was. The reader of an error
 * is the client's model, and its context budget is better spent on the
 * correction than on an echo of a megabyte key. Values the caller sent are
 * never quoted at all (see the value gate); names are quoted, bounded.
 */

import { stringifyJson } from "@x/jsonrpc";

/** Longest quoted text, in UTF-16 code units, before it is cut. */
export const ECHO_LIMIT = 100;

/** Longest fault message carried in a `tool_fault` body, in UTF-16 code units. */
export const MESSAGE_LIMIT = 500;

/**
 * Cuts `text` to at most `limit` code units (never inside a surrogate pair)
 * and, when it cut, appends `…(N more characters)` saying how much was left out.
 */
export function boundText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let cut = limit;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}…(${text.length - cut} more characters)`;
}

/**
 * Renders any value as bounded text: a string as itself, anything else as
 * its JSON (or `String(value)` when it has none), cut at `limit`.
 */
export function boundValue(value: unknown, limit: number = ECHO_LIMIT): string {
  if (typeof value === "string") return boundText(value, limit);
  let text: string | undefined;
  try {
    text = stringifyJson(value);
  } catch {
    text = undefined;
  }
  return boundText(text ?? String(value), limit);
}

/** The quoting rule of dispatch refusals. */
export const Bound = Object.freeze({
  /** The longest quote, in UTF-16 code units. */
  limit: ECHO_LIMIT,
  /**
   * Quotes one name or value from a call: strings as themselves, other
   * values as JSON, cut to `limit` (100) code units with a note of how
   * much was left out.
   */
  echo(value: unknown): string {
    return boundValue(value, ECHO_LIMIT);
  },
});
