/**
 * Hints: follow-up calls an action tool suggests with its answer, so the
 * model's next step is a concrete call rather than a guess.
 */

import type { JsonObject } from "../objects.js";
import { describeValue, findNonJson, isPlainObject } from "./json.js";

/** One suggested next call: `tools/call` of `tool` with `{ action, data: example }`. */
export interface Hint {
  /** The tool to call, e.g. `"tasks"`. */
  tool: string;
  /** The action to call on it, e.g. `"get"`. */
  action: string;
  /** Why this call is relevant now (consumer-written, sent unchanged). */
  description: string;
  /** An example `data` payload for the call. */
  example?: JsonObject;
}

/**
 * Builds a {@link Hint}, checking its fields.
 * @throws TypeError when `tool`, `action` or `description` is not a string,
 *   or `example` is not a plain object holding JSON values only.
 */
export function hint(fields: Hint): Hint {
  return checkHint(fields, "hint");
}

/** Checks one hint returned by a tool's `hints` callback; returns a copy holding only the hint's own keys. */
export function checkHint(value: unknown, where: string): Hint {
  if (!isPlainObject(value))
    throw new TypeError(`${where} must be a plain object {tool, action, description, example?}, got ${describeValue(value)}`);
  for (const key of ["tool", "action", "description"] as const) {
    if (typeof value[key] !== "string") throw new TypeError(`${where}.${key} must be a string, got ${describeValue(value[key])}`);
  }
  const out: Hint = { tool: value.tool as string, action: value.action as string, description: value.description as string };
  if (value.example !== undefined) {
    if (!isPlainObject(value.example) || findNonJson(value.example)) {
      throw new TypeError(`${where}.example must be a plain object of JSON values (a data payload), got ${describeValue(value.example)}`);
    }
    out.example = value.example;
  }
  return out;
}
