/**
 * Standard Schema (`@standard-schema/spec` 1.1) in place of a JSON Schema:
 * a tool's `inputSchema` and `outputSchema`, and an elicitation's
 * `requestedSchema`, may be a zod 4, valibot or arktype schema (any object or
 * function with a `~standard` property). Nothing here imports a schema
 * library: the interface is the contract. Two of its parts are used:
 *
 * - the Standard JSON Schema converter (`~standard.jsonSchema.input` and
 *   `.output`, target `"draft-2020-12"`), which gives the JSON Schema the
 *   server publishes (zod 4.2 and later and arktype have it built in; a
 *   valibot schema gets it from `toStandardJsonSchema` of
 *   `@valibot/to-json-schema`);
 * - the library's own validation (`~standard.validate`, which may answer
 *   with a promise), whose issues are reported as the server reports any
 *   schema problem (a JSON Pointer and a message), and whose output value
 *   (defaults filled, transforms applied) is what the handler receives.
 *
 * The schema is converted once, when it is registered or asked with; ajv
 * never sees a Standard Schema's values.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { boundText, ECHO_LIMIT, MESSAGE_LIMIT } from "./text.js";
import type { JsonObject } from "./objects.js";
import { nonFiniteProblem, type SchemaProblem } from "./schema.js";

export type { StandardJSONSchemaV1, StandardSchemaV1 };

/** The JSON Schema dialect asked of a Standard Schema's converter: MCP's default dialect. */
export const STANDARD_JSON_SCHEMA_TARGET = "draft-2020-12";

/**
 * What the library's validation concluded: the value to use (its output:
 * defaults filled, transforms applied), or the problems found, each a JSON
 * Pointer and the library's message.
 */
export type StandardOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problems: SchemaProblem[] };

/** The library's validation as the server runs it: synchronous when the library answers synchronously. */
export type StandardCheck = (value: unknown) => StandardOutcome | Promise<StandardOutcome>;

/**
 * True when `value` is a Standard Schema: an object or a function (an
 * arktype type is one) whose `~standard` holds `version: 1` and a `validate`
 * function. A JSON Schema has no `~standard` key, so the two never overlap.
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as { "~standard"?: unknown })["~standard"];
  return (
    typeof props === "object" &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === "function"
  );
}

/** How to give a library's schema a JSON Schema converter, by its `~standard.vendor`. */
function converterHint(vendor: unknown): string {
  switch (vendor) {
    case "valibot":
      return 'wrap it with toStandardJsonSchema(schema) from "@valibot/to-json-schema"';
    case "zod":
      return "use zod 4.2 or later, whose schemas convert themselves";
    case "arktype":
      return "use an arktype release whose types carry ~standard.jsonSchema (2.1.28 or later)";
    default:
      return "give an object whose ~standard.jsonSchema.input/output convert it (the Standard JSON Schema interface of @standard-schema/spec 1.1), or pass a JSON Schema";
  }
}

/**
 * The JSON Schema a Standard Schema converts itself to, for the side `io`
 * (`"input"`: what a client sends; `"output"`: what the validation gives
 * back), in dialect 2020-12. The result is a copy made through JSON, so
 * what is published is JSON whatever the converter returned.
 *
 * @param what the owner and role, e.g. `tool weather: inputSchema`, which starts every message.
 * @throws TypeError starting with `what` when the schema has no converter
 *   (saying how to give it one for its library), when the converter throws
 *   (a type JSON Schema cannot describe, such as a transform's output or a
 *   date: the library's message follows), or when it returns something that
 *   is not a JSON object.
 */
export function standardJsonSchema(schema: StandardSchemaV1, io: "input" | "output", what: string): JsonObject {
  const props = schema["~standard"] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  const convert = props.jsonSchema?.[io];
  if (typeof convert !== "function") {
    throw new TypeError(
      `${what} is a Standard Schema (vendor ${JSON.stringify(String(props.vendor))}) without a JSON Schema conversion (~standard.jsonSchema.${io}): ${converterHint(props.vendor)}`,
    );
  }
  let converted: unknown;
  try {
    converted = convert({ target: STANDARD_JSON_SCHEMA_TARGET, libraryOptions: libraryOptions(props.vendor) });
  } catch (error) {
    throw new TypeError(
      `${what}: the ${String(props.vendor)} schema cannot be converted to JSON Schema (${io} side): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  let copy: unknown;
  try {
    // JSON.stringify would turn an Infinity into a silent null.
    copy = nonFiniteProblem(converted) === undefined ? JSON.parse(JSON.stringify(converted)) : undefined;
  } catch {
    copy = undefined;
  }
  if (typeof copy !== "object" || copy === null || Array.isArray(copy)) {
    throw new TypeError(`${what}: the ${String(props.vendor)} schema's JSON Schema conversion did not give a JSON object`);
  }
  return copy as JsonObject;
}

/** arktype's fallbacks for the types its conversion cannot write, in the order its errors name them. */
const ARKTYPE_REFUSED = ["date", "proto", "domain", "symbolKey"] as const;

/**
 * Options passed to a library's converter (the interface's `libraryOptions`).
 * arktype's Standard JSON Schema conversion writes `{}` (any value) for a
 * type JSON cannot carry (a `Date`, a class instance, a `bigint`, a symbol
 * key) where its own `toJsonSchema` throws; a tool published that way
 * would refuse every call, so such a type is refused at registration here,
 * as zod refuses `z.date()`. Its other looser conversions (a `narrow`
 * predicate, a morph's output written as `{}`) stay: the library's
 * validation still checks those values.
 */
function libraryOptions(vendor: unknown): Record<string, unknown> | undefined {
  if (vendor !== "arktype") return undefined;
  const refuse = (context: { code?: unknown }) => {
    throw new TypeError(`a ${String(context.code)} type cannot be written as JSON Schema`);
  };
  return { fallback: Object.fromEntries(ARKTYPE_REFUSED.map((code) => [code, refuse])) };
}

/** One path segment as a JSON Pointer token (RFC 6901: `~` and `/` escaped), bounded in length. */
function pointerToken(segment: PropertyKey | StandardSchemaV1.PathSegment): string {
  const key = typeof segment === "object" && segment !== null ? segment.key : segment;
  const text = typeof key === "symbol" ? (key.description ?? "symbol") : String(key);
  return boundText(text, ECHO_LIMIT).replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * A Standard Schema's issues as the server's schema problems: the path as a
 * JSON Pointer (`""` for an issue without one), the library's message cut
 * at 500 characters (a message may quote the value it refused).
 */
export function issueProblems(issues: readonly StandardSchemaV1.Issue[]): SchemaProblem[] {
  return issues.map((issue) => ({
    path: issue.path && issue.path.length > 0 ? `/${issue.path.map(pointerToken).join("/")}` : "",
    message: boundText(typeof issue.message === "string" && issue.message !== "" ? issue.message : "is invalid", MESSAGE_LIMIT),
  }));
}

function outcomeOf(result: StandardSchemaV1.Result<unknown>): StandardOutcome {
  // A truthy `issues` is a failure even beside a `value` (valibot reports both).
  if (result.issues) return { ok: false, problems: issueProblems(result.issues) };
  return { ok: true, value: result.value };
}

/**
 * The library's validation of `schema` as a {@link StandardCheck}. A
 * library's number is a double: callers hand it values with `JSON.parse`'s
 * numbers (`asParsed` of `numbers.ts`), never a `bigint`. A validation that
 * throws (or rejects) is reported as one problem at the root with the
 * error's message, as the library's answer would be.
 */
export function standardCheck(schema: StandardSchemaV1): StandardCheck {
  const validate = schema["~standard"].validate;
  const thrown = (error: unknown): StandardOutcome => ({
    ok: false,
    problems: [
      { path: "", message: boundText(`validation failed: ${error instanceof Error ? error.message : String(error)}`, MESSAGE_LIMIT) },
    ],
  });
  return (value) => {
    let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
    try {
      result = validate(value);
    } catch (error) {
      return thrown(error);
    }
    return result instanceof Promise ? result.then(outcomeOf, thrown) : outcomeOf(result);
  };
}
