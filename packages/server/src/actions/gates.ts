/**
 * The answers of the dispatch gates, shared by action tools and the `help`
 * tool so the two surfaces speak one error dialect.
 *
 * Every refusal is a `CallToolResult` with `isError: true` whose one text
 * block holds the JSON body also carried as `structuredContent`, never a
 * JSON-RPC error: the spec files input validation under tool execution
 * errors, and a client shows the model an `isError` result. Each body has
 * `error` (a stable code), `message` (one sentence for the model) and `help`,
 * the exact `help` call that explains the surface just refused.
 */
import type { CallToolResult } from "@x/mcp-v2607";
import type { JsonObject } from "../objects.js";
import { dispatchError } from "../telemetry.js";
import { Bound } from "./bound.js";
import { isPlainObject } from "./json.js";
import { MAX_LISTED } from "./keyset.js";

/** The reserved name of the introspection tool. */
export const HELP_TOOL = "help";

/** The exact call to the `help` tool that explains a surface: `tools/call` with this name and these arguments. */
export interface HelpPointer {
  tool: typeof HELP_TOOL;
  arguments: { tool?: string; action?: string };
}

/** The `help` call for the index (no target), one tool, or one action of a tool. */
export function helpPointer(tool?: string, action?: string): HelpPointer {
  const args: HelpPointer["arguments"] = {};
  if (tool !== undefined) args.tool = tool;
  if (action !== undefined) args.action = action;
  return { tool: HELP_TOOL, arguments: args };
}

/** The JSON type of a value: `null`, `boolean`, `number`, `string`, `array` or `object`. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The JSON types an argument may be declared with in a vocabulary. */
export type ArgumentType = "string" | "object";

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Builds a refusal result: `isError`, the body as JSON text and as `structuredContent`, classified as a dispatch error. */
export function refusal(body: JsonObject): CallToolResult {
  return dispatchError({
    resultType: "complete",
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body as CallToolResult["structuredContent"],
    isError: true,
  } as CallToolResult);
}

/**
 * The arguments-level gates (1 and 2 of the dispatch order): a key outside
 * the vocabulary, then an argument of the wrong JSON type. Names are checked
 * before types, so a caller making both mistakes learns of the stray key
 * first. Used by action tools (`{action, data}`) and by `help` (`{tool, action}`).
 *
 * @param subject how the answer names what was called (`tool tasks`, `help`)
 * @returns the refusal body, or `undefined` when the arguments pass.
 */
export function checkArguments(
  args: JsonObject,
  vocabulary: Readonly<Record<string, ArgumentType>>,
  pointer: HelpPointer,
  subject: string,
): JsonObject | undefined {
  const names = Object.keys(vocabulary);
  const unknown = Object.keys(args)
    .filter((key) => !Object.hasOwn(vocabulary, key))
    .sort();
  if (unknown.length > 0) {
    const listed = unknown.slice(0, MAX_LISTED).map((key) => Bound.echo(key));
    return {
      error: "unknown_arguments",
      message: `${subject} takes the arguments ${names.join(", ")}; it does not know ${listed.map((k) => JSON.stringify(k)).join(", ")}${unknown.length > MAX_LISTED ? ` and ${unknown.length - MAX_LISTED} more` : ""}.`,
      unknown: listed,
      unknown_count: unknown.length,
      allowed: names,
      help: pointer,
    };
  }
  for (const name of names) {
    if (!Object.hasOwn(args, name)) continue;
    const expected = vocabulary[name]!;
    const value = args[name];
    const ok = expected === "object" ? isPlainObject(value) : typeof value === expected;
    if (!ok) {
      const got = jsonType(value);
      return {
        error: "invalid_argument_type",
        message: `${subject}: the argument ${name} must be ${article(expected)}, got ${article(got)}.`,
        argument: name,
        expected,
        got,
        help: pointer,
      };
    }
  }
  return undefined;
}

/** The answer to a call that names no action (gate 3). */
export function missingActionBody(tool: string, valid: readonly string[]): JsonObject {
  return {
    error: "missing_action",
    message: `Call ${tool} with an action, one of: ${valid.join(", ")}.`,
    valid_actions: valid,
    help: helpPointer(tool),
  };
}

/** The answer to a call (or a help lookup) naming an action the tool does not have (gate 4). */
export function unknownActionBody(tool: string, action: string, valid: readonly string[]): JsonObject {
  const quoted = Bound.echo(action);
  return {
    error: "unknown_action",
    message:
      valid.length > 0
        ? `Tool ${tool} has no action ${JSON.stringify(quoted)}. Valid actions: ${valid.join(", ")}.`
        : `Tool ${tool} has no actions: call it with the arguments its inputSchema describes.`,
    action: quoted,
    valid_actions: valid,
    help: helpPointer(tool),
  };
}
