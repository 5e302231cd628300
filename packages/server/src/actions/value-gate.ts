/**
 * The value gate of action tools: the last dispatch gate. It checks every
 * value of a call's `data`, as the caller sent it and before `defaults` are
 * applied, against the action's property schemas (JSON Schema 2020-12,
 * formats asserted). An explicit `null` is a value like any other: a
 * property a caller may clear says so with `"type": ["string", "null"]`.
 *
 * Wording: each problem is ajv's message for the keyword, which names what
 * the schema expects and never the value the caller sent; where the schema
 * itself holds the expectation (`enum`, `const`) the expected values are
 * listed; where a keyword's finding is a key (`additionalProperties`,
 * `propertyNames`), the key is quoted, bounded. Every problem then goes
 * through `Bound.echo`. Why no sent value is quoted: the reader is the
 * client's model, the value is already in its context, and a large value
 * would be paid for twice.
 *
 * Cost: ajv runs once with `allErrors`; building the answer sorts the
 * distinct paths of the failures and keeps the first ten.
 *
 * Numbers: JSON has one number type, and a JSON parser reads `2.0` as the
 * number 2, which `"type": "integer"` accepts; so a whole-number float sent
 * for an integer property reaches the action as an integer (`Number.isInteger`
 * holds), and data that passes reaches `runAction` exactly as the gate read it.
 */
import type { ErrorObject } from "ajv";
import type { JsonObject } from "../objects.js";
import { boundText, ECHO_LIMIT } from "../text.js";
import { Bound } from "./bound.js";
import { compileStrict, escapePointer, type StrictCheck, unescapePointer } from "./json.js";
import { MAX_LISTED } from "./keyset.js";

/** One refused value: its data path and what its schema expects there. */
export interface InvalidValue {
  /** JSON Pointer into `data` (each segment bounded); `""` is `data` itself. */
  path: string;
  /** What is wrong, one line each, never quoting the sent value. */
  problems: string[];
}

/** The value gate's finding for one call. */
export interface InvalidValues {
  /** How many data paths carry a refused value, in all. */
  count: number;
  /** The first ten of them in sort order, each with its problems. */
  invalid: InvalidValue[];
}

/** A compiled value gate: `undefined` when every value passes. */
export type ValueGate = (data: JsonObject) => InvalidValues | undefined;

/**
 * Builds the value gate of one action from its `properties`.
 * @throws Error saying what the schema build stopped on (an unknown format or
 *   type, an unresolvable or remote `$ref`, an invalid keyword value).
 */
export function buildValueGate(properties: JsonObject): ValueGate {
  const validate: StrictCheck = compileStrict({ type: "object", properties });
  return (data) => (validate(data) ? undefined : collect(validate.errors ?? []));
}

function boundPath(instancePath: string): string {
  if (instancePath === "") return "";
  return instancePath
    .split("/")
    .slice(1)
    .map((s) => `/${escapePointer(boundText(unescapePointer(s), ECHO_LIMIT))}`)
    .join("");
}

function list(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(", ") : JSON.stringify(values);
}

/** Words one ajv error without quoting the caller's value. */
export function wordProblem(error: ErrorObject): string {
  const params = error.params as JsonObject;
  switch (error.keyword) {
    case "enum":
      return `must be one of: ${list(params.allowedValues)}`;
    case "const":
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case "additionalProperties":
      return `has unknown property ${JSON.stringify(Bound.echo(params.additionalProperty))}`;
    case "unevaluatedProperties":
      return `has unevaluated property ${JSON.stringify(Bound.echo(params.unevaluatedProperty))}`;
    case "required":
      return `must have required property ${JSON.stringify(params.missingProperty)}`;
    case "propertyNames":
      return `property name ${JSON.stringify(Bound.echo(params.propertyName))} is not allowed`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

function collect(errors: ErrorObject[]): InvalidValues {
  const byPath = new Map<string, string[]>();
  for (const error of errors) {
    // A propertyNames failure reports the inner keyword too, marked with the name; the outer one says it all.
    if ((error as { propertyName?: unknown }).propertyName !== undefined) continue;
    const path = boundPath(error.instancePath);
    const problem = Bound.echo(wordProblem(error));
    const problems = byPath.get(path);
    if (!problems) byPath.set(path, [problem]);
    else if (!problems.includes(problem)) problems.push(problem);
  }
  const paths = [...byPath.keys()].sort();
  return {
    count: paths.length,
    invalid: paths.slice(0, MAX_LISTED).map((path) => ({ path, problems: byPath.get(path)! })),
  };
}
