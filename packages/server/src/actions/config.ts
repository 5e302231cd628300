/**
 * The configuration check of action tools: what a definition must look like,
 * run when the tool is defined (`defineActionTool`) and again when it is
 * registered (`McpServer.registerActionTool`), so a rule holds identically at
 * both moments and a definition that was never passed through
 * `defineActionTool` (an object literal, a class instance) is still checked
 * before any request is served.
 *
 * The action-schema invariant: a key outside the action schema vocabulary
 * (`description`, `properties`, `required`, `requiredOneOf`, `defaults`,
 * `notes`, `related`, `examples`) is refused; every key inside it is checked
 * here. The check refuses dead configuration it can pin to a pair of
 * declarations (a `requiredOneOf` group that contains another, a default that
 * is also required) and computes no global property of a schema.
 */

import type { JsonObject } from "../objects.js";
import { MissingDependencyError } from "../runtime-deps.js";
import { Bound } from "./bound.js";
import { describeValue, findNonJson, isPlainObject } from "./json.js";
import { findUnknownKeys, schemaOffence } from "./keyset.js";
import { buildValueGate, type ValueGate } from "./value-gate.js";

/**
 * A tool definition that breaks a rule, found when the tool is defined or
 * registered (never while serving).
 *
 * The message names the tool, the callback (the definition field: `name`,
 * `description`, `title`, `annotations`, `outputSchema`, `timeoutMs`,
 * `actions`, `runAction`, `hints`, `handleError`, `actionContext`), what was
 * wrong, the shape expected and the value found (bounded).
 */
export class ConfigurationError extends Error {
  /** The tool's name, or `"(unnamed)"` when the name itself is the problem. */
  readonly tool: string;
  /** The definition field the problem is in. */
  readonly callback: string;
  /** The shape that was expected. */
  readonly expected: string;
  /** A bounded description of the value found. */
  readonly value: string;
  /** Made by `defineActionTool` and `registerActionTool` when they refuse a definition; the value is described, not kept. */
  constructor(tool: string, callback: string, problem: string, expected: string, value: unknown) {
    const found = describeValue(value);
    super(`tool ${JSON.stringify(tool)}, ${callback}: ${problem}; expected ${expected}, got ${found}`);
    this.name = "ConfigurationError";
    this.tool = tool;
    this.callback = callback;
    this.expected = expected;
    this.value = found;
  }
}

/** The keys an action schema may hold. */
export const ACTION_SCHEMA_KEYS = Object.freeze([
  "description",
  "properties",
  "required",
  "requiredOneOf",
  "defaults",
  "notes",
  "related",
  "examples",
] as const);

/** One action as the server holds it once checked: a snapshot of its schema and its compiled value gate. */
export interface CheckedAction {
  readonly name: string;
  readonly description: string;
  readonly properties: JsonObject;
  readonly required: readonly string[];
  readonly requiredOneOf: readonly (readonly string[])[] | undefined;
  readonly defaults: Readonly<JsonObject>;
  readonly notes: string | undefined;
  readonly related: readonly string[] | undefined;
  readonly examples: readonly JsonObject[] | undefined;
  readonly valueGate: ValueGate;
}

const LINE_BREAK = /[\n\r]/;

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

/** Refuses anything JSON cannot carry, naming where it is. */
export function requireJson(tool: string, callback: string, where: string, value: unknown): void {
  const found = findNonJson(value);
  if (found) {
    throw new ConfigurationError(
      tool,
      callback,
      `${where}${found.path ? ` at ${found.path}` : ""} holds a value JSON cannot carry`,
      "JSON values only (plain objects, arrays, strings, finite numbers, booleans, null)",
      found.value,
    );
  }
}

/**
 * Checks one action schema and builds what dispatch needs from a snapshot of it.
 * @throws ConfigurationError naming the tool, `actions`, the action and the offence.
 */
export function checkAction(tool: string, name: string, schema: unknown): CheckedAction {
  const cb = "actions";
  const at = `action ${JSON.stringify(Bound.echo(name))}`;
  if (name === "" || LINE_BREAK.test(name)) {
    throw new ConfigurationError(
      tool,
      cb,
      `${at}: an action name must be non-empty and hold no newline (summaries are joined with newlines)`,
      "a name without line breaks",
      name,
    );
  }
  if (!isPlainObject(schema))
    throw new ConfigurationError(tool, cb, `${at} must be an action schema`, "a plain object (a map, not a class instance)", schema);
  for (const key of Object.keys(schema)) {
    if (!(ACTION_SCHEMA_KEYS as readonly string[]).includes(key)) {
      throw new ConfigurationError(
        tool,
        cb,
        `${at} has the key ${JSON.stringify(Bound.echo(key))}, which is not an action schema key`,
        `only ${ACTION_SCHEMA_KEYS.join(", ")}`,
        key,
      );
    }
  }
  if (Object.getOwnPropertySymbols(schema).length > 0)
    throw new ConfigurationError(tool, cb, `${at} has a key that is not a string`, "string keys", schema);
  const { description, properties, required, requiredOneOf, defaults, notes, related, examples } = schema as JsonObject;
  if (typeof description !== "string") throw new ConfigurationError(tool, cb, `${at}: description is required`, "a string", description);
  if (LINE_BREAK.test(description)) {
    throw new ConfigurationError(
      tool,
      cb,
      `${at}: description holds a newline (summaries are joined with newlines)`,
      "a single-line string",
      description,
    );
  }
  if (properties === undefined)
    throw new ConfigurationError(tool, cb, `${at}: properties is required`, "a map of property name to JSON Schema", properties);
  const offence = schemaOffence(properties);
  if (offence)
    throw new ConfigurationError(
      tool,
      cb,
      `${at}: ${offence}`,
      "maps with string keys; additionalProperties true, false or a schema",
      properties,
    );
  requireJson(tool, cb, `${at}: properties`, properties);
  const props = structuredClone(properties) as JsonObject;
  let valueGate: ValueGate;
  try {
    valueGate = buildValueGate(props);
  } catch (error) {
    if (error instanceof MissingDependencyError) throw error;
    throw new ConfigurationError(
      tool,
      cb,
      `${at}: properties do not build as JSON Schema 2020-12 with formats asserted (${(error as Error).message})`,
      "schemas ajv can compile, local $ref only, known formats",
      properties,
    );
  }
  const declared = (key: string) => Object.hasOwn(props, key);

  let req: string[] = [];
  if (required !== undefined) {
    if (!isStringArray(required))
      throw new ConfigurationError(tool, cb, `${at}: required must list property names`, "an array of strings", required);
    for (const key of required) {
      if (!declared(key))
        throw new ConfigurationError(
          tool,
          cb,
          `${at}: required names ${JSON.stringify(key)}, which properties does not declare`,
          "declared property names",
          required,
        );
    }
    if (new Set(required).size !== required.length)
      throw new ConfigurationError(tool, cb, `${at}: required lists a name twice`, "unique names", required);
    req = [...required];
  }

  let groups: string[][] | undefined;
  if (requiredOneOf !== undefined) {
    if (!Array.isArray(requiredOneOf) || !requiredOneOf.every((g) => isStringArray(g) && g.length > 0)) {
      throw new ConfigurationError(
        tool,
        cb,
        `${at}: requiredOneOf must be a list of groups of property names`,
        "an array of non-empty arrays of strings",
        requiredOneOf,
      );
    }
    groups = (requiredOneOf as string[][]).map((g) => [...g]);
    for (const group of groups) {
      for (const key of group) {
        if (!declared(key))
          throw new ConfigurationError(
            tool,
            cb,
            `${at}: a requiredOneOf group names ${JSON.stringify(key)}, which properties does not declare`,
            "declared property names",
            group,
          );
      }
      if (new Set(group).size !== group.length)
        throw new ConfigurationError(tool, cb, `${at}: a requiredOneOf group lists a name twice`, "unique names in a group", group);
    }
    for (let i = 0; i < groups.length; i++) {
      for (let j = 0; j < groups.length; j++) {
        if (i === j) continue;
        const a = groups[i]!;
        const b = groups[j]!;
        if (b.every((k) => a.includes(k)) && (a.length > b.length || i > j)) {
          const why =
            a.length > b.length ? "contains every name of another group, so it can never be the one that decides" : "repeats another group";
          throw new ConfigurationError(
            tool,
            cb,
            `${at}: the requiredOneOf group ${JSON.stringify(a)} ${why} (${JSON.stringify(b)})`,
            "groups none of which contains another",
            requiredOneOf,
          );
        }
      }
    }
  }

  let defs: JsonObject = {};
  if (defaults !== undefined) {
    if (!isPlainObject(defaults))
      throw new ConfigurationError(
        tool,
        cb,
        `${at}: defaults must be a map of property name to value`,
        "a plain object (a map, not a class instance)",
        defaults,
      );
    requireJson(tool, cb, `${at}: defaults`, defaults);
    for (const key of Object.keys(defaults)) {
      if (!declared(key))
        throw new ConfigurationError(
          tool,
          cb,
          `${at}: defaults has ${JSON.stringify(key)}, which properties does not declare`,
          "declared property names",
          defaults,
        );
      if (req.includes(key)) {
        throw new ConfigurationError(
          tool,
          cb,
          `${at}: ${JSON.stringify(key)} has a default and is required, so the default can never apply`,
          "a default only for an optional property",
          defaults,
        );
      }
    }
    const unknown = findUnknownKeys(defaults, props);
    if (unknown) {
      throw new ConfigurationError(
        tool,
        cb,
        `${at}: defaults carry keys the unknown-key gate refuses from a caller (${unknown.unknown.join(", ")})`,
        "defaults shaped as a caller may send them",
        defaults,
      );
    }
    const invalid = valueGate(defaults);
    if (invalid) {
      const first = invalid.invalid[0]!;
      throw new ConfigurationError(
        tool,
        cb,
        `${at}: the default at ${first.path} does not satisfy its schema (${first.problems.join("; ")})`,
        "defaults their property schemas accept",
        defaults,
      );
    }
    defs = structuredClone(defaults);
  }

  if (notes !== undefined && typeof notes !== "string")
    throw new ConfigurationError(tool, cb, `${at}: notes must be text`, "a string", notes);
  if (related !== undefined && !isStringArray(related))
    throw new ConfigurationError(tool, cb, `${at}: related must list action names`, "an array of strings", related);
  if (examples !== undefined) {
    if (!Array.isArray(examples) || !examples.every(isPlainObject)) {
      throw new ConfigurationError(tool, cb, `${at}: examples must list example data payloads`, "an array of plain objects", examples);
    }
    requireJson(tool, cb, `${at}: examples`, examples);
  }

  return Object.freeze({
    name,
    description,
    properties: props,
    required: Object.freeze(req),
    requiredOneOf: groups,
    defaults: defs,
    notes: notes as string | undefined,
    related: related === undefined ? undefined : [...(related as string[])],
    examples: examples === undefined ? undefined : (structuredClone(examples) as JsonObject[]),
    valueGate,
  });
}
