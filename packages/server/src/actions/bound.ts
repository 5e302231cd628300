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

import { boundValue, ECHO_LIMIT } from "../text.js";

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
