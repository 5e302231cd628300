/**
 * Gates 5 to 8 of an action tool's call (see `tool.ts`): what the `data` of
 * a known action must satisfy. Each refusal carries the action's
 * `input_schema` digest and points at `help {tool, action}`.
 */
import type { JsonObject } from "../objects.js";
import type { ClosedAction } from "./definition.js";
import { helpPointer } from "./gates.js";
import { findUnknownKeys } from "./keyset.js";

/**
 * The refusal body of the first data gate `data` fails (required
 * properties, `requiredOneOf`, unknown keys, values), or `undefined` when it
 * passes them all. `digest` is the action's `input_schema` digest.
 */
export function dataRefusal(tool: string, action: ClosedAction, digest: JsonObject | undefined, data: JsonObject): JsonObject | undefined {
  const base = { action: action.name, input_schema: digest, help: helpPointer(tool, action.name) };
  const missing = action.required.filter((key) => !Object.hasOwn(data, key));
  if (missing.length > 0) {
    return {
      error: "missing_required_fields",
      message: `Action ${action.name} of tool ${tool} needs ${missing.join(", ")} in data.`,
      missing,
      ...base,
    };
  }
  const groups = action.requiredOneOf;
  if (groups && !groups.some((group) => group.every((key) => Object.hasOwn(data, key)))) {
    return {
      error: "required_one_of_unsatisfied",
      message: `Action ${action.name} of tool ${tool} needs every property of at least one group in data: ${groups.map((g) => `[${g.join(", ")}]`).join(" or ")}.`,
      required_one_of: groups,
      ...base,
    };
  }
  const unknown = findUnknownKeys(data, action.properties);
  if (unknown) {
    return {
      error: "unknown_params",
      message: `Action ${action.name} of tool ${tool} does not take ${unknown.count === 1 ? "the key" : `${unknown.count} keys`} in data: ${unknown.unknown.join(", ")}${unknown.count > unknown.unknown.length ? ", ..." : ""}. allowed lists what each object takes, by its path.`,
      unknown: unknown.unknown,
      unknown_count: unknown.count,
      allowed: unknown.allowed,
      ...base,
    };
  }
  const invalid = action.valueGate(data);
  if (invalid) {
    return {
      error: "invalid_values",
      message: `Action ${action.name} of tool ${tool}: ${invalid.count === 1 ? "a value" : `${invalid.count} values`} in data ${invalid.count === 1 ? "does" : "do"} not match the schema: ${invalid.invalid.map((i) => i.path || "(data)").join(", ")}${invalid.count > invalid.invalid.length ? ", ..." : ""}.`,
      invalid: invalid.invalid,
      invalid_count: invalid.count,
      ...base,
    };
  }
  return undefined;
}
