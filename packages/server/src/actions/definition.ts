/**
 * The checks of an action tool's definition, field by field, made once when
 * the tool is built (`new ActionTool`): a definition that passes is what the
 * tool serves, and one that does not throws a {@link ConfigurationError}
 * naming the field. The checks of each action's schema are `config.ts`'s.
 */
import type { ToolAnnotations } from "@x/mcp-v2607";
import type { OutputSchema } from "../features/tools/define.js";
import type { JsonObject } from "../objects.js";
import { MissingDependencyError } from "../runtime-deps.js";
import type { SchemaProblem } from "../schema.js";
import { type CheckedAction, ConfigurationError, checkAction, requireJson } from "./config.js";
import { HELP_TOOL } from "./gates.js";
import { compileStrict, isPlainObject } from "./json.js";
import { closeProperties } from "./keyset.js";

/** A checked action, with its properties' closure made explicit (what `help` and the unknown-key gate show). */
export type ClosedAction = CheckedAction & { closed: JsonObject };

/** A definition as checked: its fields as given (not yet copied), its actions checked, sorted by name. */
export interface CheckedTool {
  name: string;
  description: string;
  title: string | undefined;
  annotations: ToolAnnotations | undefined;
  outputSchema: OutputSchema | undefined;
  timeoutMs: number | undefined;
  /** Checks `structuredContent` against `outputSchema`; `undefined` without one. */
  checkOutput: ((value: unknown) => SchemaProblem[]) | undefined;
  /** Action names, sorted. */
  names: string[];
  actions: Map<string, ClosedAction>;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Checks an action tool's definition (given as anything: it comes from user code).
 * @throws ConfigurationError naming the tool, the definition field, what was
 *   wrong, the expected shape and the value found.
 */
export function checkDefinition(definition: unknown): CheckedTool {
  if (typeof definition !== "object" || definition === null) {
    throw new ConfigurationError(
      "(unnamed)",
      "definition",
      "an action tool definition is required",
      "an object with name, description, actions and runAction",
      definition,
    );
  }
  const d = definition as unknown as JsonObject;
  const name = d.name;
  if (typeof name !== "string" || name === "")
    throw new ConfigurationError("(unnamed)", "name", "the tool needs a name", "a non-empty string", name);
  if (name === HELP_TOOL)
    throw new ConfigurationError(name, "name", `"${HELP_TOOL}" is reserved for the introspection tool`, "another name", name);
  if (typeof d.description !== "string")
    throw new ConfigurationError(name, "description", "the tool needs a description", "a string", d.description);
  if (d.title !== undefined && typeof d.title !== "string")
    throw new ConfigurationError(name, "title", "title must be text when given", "a string or undefined", d.title);
  if (d.annotations !== undefined) {
    if (!isPlainObject(d.annotations))
      throw new ConfigurationError(
        name,
        "annotations",
        "annotations must be a map when given",
        "a plain object or undefined",
        d.annotations,
      );
    requireJson(name, "annotations", "annotations", d.annotations);
  }
  const timeout = d.timeoutMs;
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && (timeout as number) >= 0 && (timeout as number) <= 2_147_483_647)) {
    throw new ConfigurationError(
      name,
      "timeoutMs",
      "timeoutMs must be a whole number of milliseconds",
      "an integer from 0 (no limit) to 2147483647",
      timeout,
    );
  }
  for (const callback of ["runAction", "hints", "handleError", "actionContext"] as const) {
    const fn = d[callback];
    if (callback === "runAction" ? typeof fn !== "function" : fn !== undefined && typeof fn !== "function") {
      throw new ConfigurationError(
        name,
        callback,
        `${callback} must be a function${callback === "runAction" ? "" : " when given"}`,
        "a function",
        fn,
      );
    }
  }
  let checkOutput: CheckedTool["checkOutput"];
  if (d.outputSchema !== undefined) {
    const schema = d.outputSchema;
    if (!isPlainObject(schema))
      throw new ConfigurationError(
        name,
        "outputSchema",
        "outputSchema must be a JSON Schema object when given",
        "a plain object or undefined",
        schema,
      );
    requireJson(name, "outputSchema", "outputSchema", schema);
    if (schema.type !== undefined && schema.type !== "object") {
      throw new ConfigurationError(
        name,
        "outputSchema",
        "an output schema describes structuredContent, whose root is an object",
        'type "object" at the root',
        schema.type,
      );
    }
    try {
      const validate = compileStrict(schema);
      checkOutput = (value) =>
        validate(value) ? [] : (validate.errors ?? []).map((e) => ({ path: e.instancePath, message: e.message ?? `fails ${e.keyword}` }));
    } catch (cause) {
      if (cause instanceof MissingDependencyError) throw cause;
      throw new ConfigurationError(
        name,
        "outputSchema",
        `outputSchema does not build as JSON Schema 2020-12 (${(cause as Error).message})`,
        "a schema ajv can compile, local $ref only, known types and formats",
        schema,
      );
    }
  }
  const actions = d.actions;
  if (!isPlainObject(actions))
    throw new ConfigurationError(
      name,
      "actions",
      "actions must be a map of action name to action schema",
      "a plain object (a map, not a class instance)",
      actions,
    );
  if (Object.getOwnPropertySymbols(actions).length > 0)
    throw new ConfigurationError(name, "actions", "an action name is not a string", "string keys", actions);
  const names = Object.keys(actions).sort(compare);
  if (names.length === 0)
    throw new ConfigurationError(name, "actions", "an action tool needs at least one action", "a map with one action or more", actions);
  const checkedActions = new Map<string, ClosedAction>();
  for (const action of names) {
    const checked = checkAction(name, action, actions[action]);
    checkedActions.set(action, { ...checked, closed: closeProperties(checked.properties) });
  }
  return {
    name,
    description: d.description,
    title: d.title as string | undefined,
    annotations: d.annotations as ToolAnnotations | undefined,
    outputSchema: d.outputSchema as OutputSchema | undefined,
    timeoutMs: timeout as number | undefined,
    checkOutput,
    names,
    actions: checkedActions,
  };
}
