/**
 * An example action tool: `units`, one tool name with two actions
 * (`convert` and `units`). A model that calls it wrongly gets an `isError`
 * answer that says what to change: the dispatch gates check the call before
 * `runAction` runs, and the server adds the `help` tool that describes it.
 * See ACTIONS.md for a wrong call and its answer.
 */
import type { McpServer } from "@x/server";
import { defineActionTool, error, hint, ok, registerActionTool } from "@x/server/actions";

type Kind = "length" | "mass" | "temperature";

/** Each unit's kind and its conversion to and from the kind's base unit (metre, kilogram, kelvin). */
const UNITS: Record<string, { kind: Kind; toBase: (v: number) => number; fromBase: (v: number) => number }> = {
  m: { kind: "length", toBase: (v) => v, fromBase: (v) => v },
  km: { kind: "length", toBase: (v) => v * 1000, fromBase: (v) => v / 1000 },
  mi: { kind: "length", toBase: (v) => v * 1609.344, fromBase: (v) => v / 1609.344 },
  ft: { kind: "length", toBase: (v) => v * 0.3048, fromBase: (v) => v / 0.3048 },
  kg: { kind: "mass", toBase: (v) => v, fromBase: (v) => v },
  g: { kind: "mass", toBase: (v) => v / 1000, fromBase: (v) => v * 1000 },
  lb: { kind: "mass", toBase: (v) => v * 0.45359237, fromBase: (v) => v / 0.45359237 },
  K: { kind: "temperature", toBase: (v) => v, fromBase: (v) => v },
  C: { kind: "temperature", toBase: (v) => v + 273.15, fromBase: (v) => v - 273.15 },
  F: { kind: "temperature", toBase: (v) => ((v - 32) * 5) / 9 + 273.15, fromBase: (v) => ((v - 273.15) * 9) / 5 + 32 },
};
const NAMES = Object.keys(UNITS);
const KINDS: Kind[] = ["length", "mass", "temperature"];

/** The `units` action tool. */
export const unitsTool = defineActionTool({
  name: "units",
  title: "Unit converter",
  description: "Converts values between units of length, mass and temperature.",
  annotations: { readOnlyHint: true, openWorldHint: false },
  actions: {
    convert: {
      description: "Convert a value from one unit to another of the same kind",
      properties: {
        value: { type: "number", description: "The amount to convert" },
        from: { type: "string", enum: NAMES, description: "The unit of value" },
        to: { type: "string", enum: NAMES, description: "The unit to convert to" },
        precision: { type: "integer", minimum: 0, maximum: 10, description: "Decimal places in the result" },
      },
      required: ["value", "from", "to"],
      defaults: { precision: 2 },
      notes: "Both units must be of the same kind.\nCall the units action to see which units share a kind.",
      related: ["units"],
      examples: [
        { value: 5, from: "km", to: "mi" },
        { value: 20, from: "C", to: "F", precision: 1 },
      ],
    },
    units: {
      description: "List the units of one kind, or of every kind",
      properties: { kind: { type: "string", enum: KINDS } },
      examples: [{ kind: "mass" }, {}],
    },
  },
  runAction(action, data) {
    if (action === "units") {
      const kinds = data.kind === undefined ? KINDS : [data.kind as Kind];
      return ok(Object.fromEntries(kinds.map((kind) => [kind, NAMES.filter((n) => UNITS[n]!.kind === kind)])));
    }
    const from = UNITS[data.from as string]!;
    const to = UNITS[data.to as string]!;
    if (from.kind !== to.kind) {
      return error(`cannot convert ${from.kind} (${data.from}) to ${to.kind} (${data.to})`, { kind: from.kind });
    }
    const factor = 10 ** (data.precision as number);
    const result = Math.round(to.fromBase(from.toBase(data.value as number)) * factor) / factor;
    return ok(
      { value: data.value, from: data.from, to: data.to, result },
      { kind: from.kind, back: { value: result, from: data.to, to: data.from } },
    );
  },
  hints(action, hintContext) {
    const { kind, back } = hintContext as { kind: Kind; back?: Record<string, unknown> };
    const hints = [hint({ tool: "units", action: "units", description: `Every ${kind} unit`, example: { kind } })];
    if (action === "convert" && back)
      hints.unshift(hint({ tool: "units", action: "convert", description: "Convert the result back", example: back }));
    return hints;
  },
  handleError(reason) {
    return `Conversion failed: ${String(reason)}`;
  },
});

/** Registers the example action tool on `server` (the server adds `help` with it). */
export function registerExampleActions(server: McpServer): McpServer {
  return registerActionTool(server, unitsTool);
}
