import { validate } from "@x/mcp-v2607";
import { expect } from "vitest";

/** Asserts that `value` is valid as the named schema definition, showing the problems when not. */
export function expectValid(definition: Parameters<typeof validate>[0], value: unknown): void {
  const outcome = validate(definition, value);
  expect(outcome.ok ? [] : outcome.problems).toEqual([]);
}
