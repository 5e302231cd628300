/**
 * Bounded text: what the server quotes of a caller's input, or of a fault,
 * in an answer or a telemetry event is cut to a known length, so that a
 * megabyte key or exception message never becomes a megabyte answer. Used
 * by the tool runner, the Standard Schema issues and the action tools alike.
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
