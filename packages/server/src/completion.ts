/**
 * Argument completion (spec 2026-07-28, server/utilities/completion).
 */

/**
 * Suggests values for one argument of a prompt or one variable of a resource
 * template. `value` is what the user typed so far; `context.arguments` holds
 * the other arguments already filled in. Return at most 100 values (more are
 * cut, and `hasMore` is set).
 */
export type Completer = (
  value: string,
  context: { arguments: Readonly<Record<string, string>> },
) => readonly string[] | Promise<readonly string[]>;

/** Largest number of values one completion result may carry (the schema's `maxItems`). */
export const MAX_COMPLETION_VALUES = 100;

/** Runs a completer and shapes its answer as the `completion` of a `CompleteResult`. */
export async function complete(
  completer: Completer | undefined,
  value: string,
  args: Readonly<Record<string, string>>,
): Promise<{ values: string[]; total: number; hasMore: boolean }> {
  if (!completer) return { values: [], total: 0, hasMore: false };
  const all = (await completer(value, { arguments: args })).filter((v): v is string => typeof v === "string");
  return { values: all.slice(0, MAX_COMPLETION_VALUES), total: all.length, hasMore: all.length > MAX_COMPLETION_VALUES };
}
