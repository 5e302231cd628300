/**
 * Action tools: one tool name, many actions. The tool's `inputSchema` is
 * generated (`{ action, data }`), a call goes through the dispatch gates
 * before the tool's own code runs, and a model that calls it wrongly learns
 * the right call from the error alone (spec 2026-07-28, server/tools: input
 * problems are tool execution errors, answered with `isError`).
 *
 * The dispatch gates, in order; the first to refuse answers:
 * 1. a key outside `{action, data}` (`unknown_arguments`)
 * 2. an argument of the wrong JSON type (`invalid_argument_type`)
 * 3. no `action` (`missing_action`)
 * 4. an action the tool does not have (`unknown_action`)
 * 5. a `required` property not supplied (`missing_required_fields`)
 * 6. no `requiredOneOf` group fully supplied (`required_one_of_unsatisfied`)
 * 7. an unknown key anywhere in `data` (`unknown_params`, see `keyset.ts`)
 * 8. a value its schema refuses (`invalid_values`, see `value-gate.ts`)
 *
 * Gates 1 and 2 point at `help {tool}` and list no schema (the vocabulary is
 * the whole contract there); gates 3 and 4 list the valid actions; gates 5 to
 * 8 point at `help {tool, action}` and carry the `input_schema` digest
 * `{properties, required, defaults, required_one_of?}`. Gates 5 to 8 are
 * `data-gates.ts`'s; the checks of a definition, `definition.ts`'s.
 *
 * A property counts as supplied when `data` carries its key, whatever the
 * value, `null` included. `defaults` are applied after every gate and fill
 * only the properties the caller left out, so a default never satisfies
 * `required` or `requiredOneOf`.
 *
 * Consumer-written text (the tool and action descriptions, notes, related,
 * examples, property descriptions, hint descriptions) is sent exactly as
 * written. The framework adds structure around it: each action's summary is
 * `<action>: <description>`, summaries are sorted by action name and, in the
 * `action` enum's description, joined with `"\n"`; that is why an action
 * name or description may hold no newline.
 */
import { inspect } from "node:util";
import { stringifyJson } from "@x/jsonrpc";
import type { CallToolResult, Tool, ToolAnnotations } from "@x/mcp-v2607";
import type { RequestContext } from "../context.js";
import type { InputSchema, OutputSchema } from "../features/tools/define.js";
import type { JsonObject } from "../objects.js";
import type { SchemaProblem } from "../schema.js";
import { boundText, MESSAGE_LIMIT } from "../text.js";
import { checkArguments, helpPointer, missingActionBody, refusal, unknownActionBody } from "./gates.js";
import { checkHint, type Hint } from "./hints.js";
import { describeValue, isPlainObject } from "./json.js";
import { type ClosedAction, checkDefinition } from "./definition.js";
import { dataRefusal } from "./data-gates.js";

/** A JSON Schema: a boolean or an object of keywords. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/**
 * One action of an action tool. Every key other than these is a configuration error.
 */
export interface ActionSchema {
  /** What the action does, one line (no newline): emitted verbatim into the summaries and help. */
  description: string;
  /**
   * JSON Schema (2020-12) of each property of the action's `data`, by name.
   * Read by the unknown-key gate (closure rules in `keyset.ts`) and compiled,
   * formats asserted, for the value gate.
   */
  properties: Readonly<Record<string, JsonSchema>>;
  /** Property names that must all be supplied (default none). */
  required?: readonly string[];
  /** Groups of property names; at least one group must be supplied in full. Checked together with `required`. */
  requiredOneOf?: readonly (readonly string[])[];
  /** Values filled in for properties the caller left out, after the gates. Never for a `required` property. */
  defaults?: Readonly<JsonObject>;
  /** Long-form notes, surfaced by `help` (newlines allowed). */
  notes?: string;
  /** Names of related actions, surfaced by `help`. */
  related?: readonly string[];
  /** Example `data` payloads, surfaced by `help`. */
  examples?: readonly Readonly<JsonObject>[];
}

/** What `runAction` returns on success: see {@link ok}. */
export interface ActionOk {
  readonly kind: "ok";
  readonly data: unknown;
  readonly hintContext?: unknown;
}

/** What `runAction` returns on failure: see {@link error}. */
export interface ActionError {
  readonly kind: "error";
  readonly reason: unknown;
  readonly hintContext?: unknown;
}

/** The result of `runAction`: build it with {@link ok} or {@link error}. */
export type ActionResult = ActionOk | ActionError;

/**
 * A successful action.
 * - `ok(data)`: the answer is `data` as JSON text (and as `structuredContent`
 *   when the tool declares an `outputSchema`), with the tool's
 *   `actionContext` under `context` when it gives one.
 * - `ok(data, hintContext)`: the same, with `hints(action, hintContext)` under `hints`.
 *
 * When `data` is not a plain object and a `hints` or `context` key must be
 * added, the answer is `{ data, hints?, context? }`.
 */
export function ok(data: unknown, ...hint: [hintContext?: unknown]): ActionOk {
  return hint.length > 0 ? { kind: "ok", data, hintContext: hint[0] } : { kind: "ok", data };
}

/**
 * A failed action: an `isError` result.
 * - `error(reason)`: one text block, `handleError(reason)`.
 * - `error(reason, hintContext)`: JSON text `{ error: handleError(reason), hints, context? }`,
 *   also sent as `structuredContent`.
 */
export function error(reason: unknown, ...hint: [hintContext?: unknown]): ActionError {
  return hint.length > 0 ? { kind: "error", reason, hintContext: hint[0] } : { kind: "error", reason };
}

/**
 * The definition of an action tool: an object literal or a class instance
 * (methods are called with `this` as the definition).
 */
export interface ActionToolDefinition<A extends string = string> {
  /** The tool name (the spec's rule: 1 to 128 of `A-Z a-z 0-9 _ - .`); `help` is reserved. */
  name: string;
  /** What the tool does, for the model (newlines allowed). */
  description: string;
  /** Display title; no `title` key is published without it. */
  title?: string;
  /** Behaviour hints for clients; no `annotations` key is published without them. */
  annotations?: ToolAnnotations;
  /**
   * JSON Schema (2020-12) of the tool's successful answers. When given, each
   * `ok` answer (hints and context included) is sent as `structuredContent`
   * and checked against it; an answer that fails is an `isError` result.
   */
  outputSchema?: OutputSchema;
  /** This tool's run limit in milliseconds; overrides the server's `toolTimeoutMs`. 0 turns the limit off. */
  timeoutMs?: number;
  /** The actions, by name (at least one). */
  actions: { readonly [K in A]: ActionSchema };
  /**
   * Runs one action with `data` that passed every gate, defaults applied.
   * Return {@link ok} or {@link error}; a throw, a rejection or any other
   * return is a tool fault (an `isError` result with `errorType: "tool_fault"`).
   */
  runAction(action: A, data: JsonObject, ctx: RequestContext): ActionResult | Promise<ActionResult>;
  /** Follow-up calls to suggest; called for the hint forms of {@link ok} and {@link error}. Default: none (`[]`). */
  hints?(action: A, hintContext: unknown): readonly Hint[] | Promise<readonly Hint[]>;
  /** Words an error reason for the model. Default: `"Operation failed: " + util.inspect(reason)`. */
  handleError?(reason: unknown): string;
  /**
   * Run-time context for an action (read per-request data from `ctx.assigns`),
   * sent under `context` with successful answers, with `error(reason, hintContext)`
   * answers and by `help` at action level. Must return a plain object, `null`
   * or `undefined` (no `context` key); anything else is a fault.
   */
  actionContext?(action: A, ctx: RequestContext): JsonObject | null | undefined | Promise<JsonObject | null | undefined>;
}

const ARGUMENTS = Object.freeze({ action: "string", data: "object" } as const);
const DATA_DESCRIPTION = "The action's parameters, an object. For the parameters of one action, call the help tool with {tool, action}.";
const BRAND = Symbol.for("x-mcp.ActionTool");

/** Default of `handleError`: `Operation failed: <inspect(reason)>`, bounded. */
export function defaultHandleError(reason: unknown): string {
  return boundText(`Operation failed: ${inspect(reason, { depth: 4, breakLength: Number.POSITIVE_INFINITY })}`, MESSAGE_LIMIT);
}

/** True for an {@link ActionTool} built by this package (recognised by brand, across copies of the package). */
export function isActionTool(value: unknown): value is ActionTool {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * A checked action tool. Build one with {@link defineActionTool} and register
 * it with `McpServer.registerActionTool`. It holds a snapshot of its
 * definition's schemas as checked, so what was validated is what is served.
 * It implements `describe(): Tool`, so `listToolsResult` of `@x/builders`
 * accepts it.
 */
export class ActionTool<A extends string = string> {
  /** The definition it was built from; its methods are called on it. */
  readonly source: ActionToolDefinition<A>;
  /** The tool name. */
  readonly name: string;
  /** The tool description, as written. */
  readonly description: string;
  /** The display title, when given. */
  readonly title: string | undefined;
  /** The annotations, when given (a copy). */
  readonly annotations: ToolAnnotations | undefined;
  /** The output schema, when given (a copy). */
  readonly outputSchema: OutputSchema | undefined;
  /** The tool's own run limit in milliseconds, when given. */
  readonly timeoutMs: number | undefined;
  /** The generated `inputSchema`: `{ action: enum of names, with the summaries; data: object }`. */
  readonly inputSchema: InputSchema;
  /** Action names, sorted. */
  readonly actionNames: readonly string[];
  /** `<action>: <description>` for each action, sorted by action name. */
  readonly summaries: readonly string[];
  /** Checks `structuredContent` against `outputSchema`; `undefined` without one. */
  readonly checkOutput: ((value: unknown) => SchemaProblem[]) | undefined;
  readonly #actions: ReadonlyMap<string, ClosedAction>;

  /**
   * Checks `definition` and builds the tool.
   * @throws ConfigurationError naming the tool, the definition field, what was
   *   wrong, the expected shape and the value found.
   */
  constructor(definition: ActionToolDefinition<A>) {
    const checked = checkDefinition(definition);
    const names = checked.names;
    this.#actions = checked.actions;
    this.source = definition;
    this.name = checked.name;
    this.description = checked.description;
    this.title = checked.title;
    this.annotations = checked.annotations === undefined ? undefined : structuredClone(checked.annotations);
    this.outputSchema = checked.outputSchema === undefined ? undefined : structuredClone(checked.outputSchema);
    this.timeoutMs = checked.timeoutMs;
    this.checkOutput = checked.checkOutput;
    this.actionNames = Object.freeze(names);
    this.summaries = Object.freeze(names.map((n) => `${n}: ${this.#actions.get(n)!.description}`));
    this.inputSchema = {
      type: "object",
      properties: {
        action: { type: "string", enum: [...names], description: this.summaries.join("\n") },
        data: { type: "object", description: DATA_DESCRIPTION },
      },
      required: ["action"],
      additionalProperties: false,
    };
    Object.defineProperty(this, BRAND, { value: true });
    Object.freeze(this);
  }

  /** The `tools/list` definition: `name`, `description`, `inputSchema`, and `title`, `outputSchema`, `annotations` only when given. */
  describe(): Tool {
    const tool: Tool = { name: this.name } as Tool;
    if (this.title !== undefined) tool.title = this.title;
    tool.description = this.description;
    tool.inputSchema = this.inputSchema as Tool["inputSchema"];
    if (this.outputSchema !== undefined) tool.outputSchema = this.outputSchema as Tool["outputSchema"];
    if (this.annotations !== undefined) tool.annotations = this.annotations;
    return tool;
  }

  /**
   * Runs one call: the dispatch gates, then `runAction` with the defaults
   * applied, then the answer's shape. A refusal is an `isError` result
   * classified `dispatch`; a throw from the tool's callbacks is left to the
   * caller's fault boundary (`runTool` turns it into a `tool_fault` result).
   */
  async run(args: JsonObject, ctx: RequestContext): Promise<CallToolResult> {
    const argumentsRefused = checkArguments(args, ARGUMENTS, helpPointer(this.name), `tool ${this.name}`);
    if (argumentsRefused) return refusal(argumentsRefused);
    if (!Object.hasOwn(args, "action")) return refusal(missingActionBody(this.name, this.actionNames));
    const name = args.action as string;
    const action = this.#actions.get(name);
    if (!action) return refusal(unknownActionBody(this.name, name, this.actionNames));
    const data = (Object.hasOwn(args, "data") ? args.data : {}) as JsonObject;
    const dataRefused = dataRefusal(this.name, action, this.digest(name), data);
    if (dataRefused) return refusal(dataRefused);
    const merged: JsonObject = { ...data };
    for (const [key, value] of Object.entries(action.defaults)) {
      // defineProperty, not assignment: a property may be named __proto__.
      if (!Object.hasOwn(merged, key))
        Object.defineProperty(merged, key, { value: structuredClone(value), enumerable: true, writable: true, configurable: true });
    }
    const returned = await this.source.runAction(name as A, merged, ctx);
    return this.#answer(name as A, returned, ctx);
  }

  /** The `input_schema` digest of an action: `{properties, required, defaults, required_one_of?}`. */
  digest(action: string): JsonObject | undefined {
    const a = this.#actions.get(action);
    if (!a) return undefined;
    const digest: JsonObject = { properties: a.closed, required: [...a.required], defaults: a.defaults };
    if (a.requiredOneOf) digest.required_one_of = a.requiredOneOf;
    return digest;
  }

  /**
   * One action as `help` shows it: `description`, `properties` (closure made
   * explicit), `required`, `required_one_of` (when declared), `defaults`, and
   * `notes`, `related`, `examples` when declared. `undefined` for an unknown action.
   */
  renderAction(action: string): JsonObject | undefined {
    const a = this.#actions.get(action);
    if (!a) return undefined;
    const out: JsonObject = { description: a.description, properties: a.closed, required: [...a.required] };
    if (a.requiredOneOf) out.required_one_of = a.requiredOneOf;
    out.defaults = a.defaults;
    if (a.notes !== undefined) out.notes = a.notes;
    if (a.related !== undefined) out.related = a.related;
    if (a.examples !== undefined) out.examples = a.examples;
    return out;
  }

  /**
   * Calls `actionContext(action, ctx)` when the definition has it.
   * @returns the map, or `undefined` for none (no callback, `null` or `undefined`).
   * @throws TypeError when it returns anything else.
   */
  async contextFor(action: string, ctx: RequestContext): Promise<JsonObject | undefined> {
    if (typeof this.source.actionContext !== "function") return undefined;
    const context = await this.source.actionContext(action as A, ctx);
    if (context === null || context === undefined) return undefined;
    if (!isPlainObject(context))
      throw new TypeError(`tool ${this.name}: actionContext must return a plain object, null or undefined, got ${describeValue(context)}`);
    return context;
  }

  async #hints(action: A, hintContext: unknown): Promise<Hint[]> {
    if (typeof this.source.hints !== "function") return [];
    const hints = await this.source.hints(action, hintContext);
    if (!Array.isArray(hints)) throw new TypeError(`tool ${this.name}: hints must return an array of hints, got ${describeValue(hints)}`);
    return hints.map((h, i) => checkHint(h, `tool ${this.name}: hints()[${i}]`));
  }

  #handleError(reason: unknown): string {
    if (typeof this.source.handleError !== "function") return defaultHandleError(reason);
    const message = this.source.handleError(reason);
    if (typeof message !== "string")
      throw new TypeError(`tool ${this.name}: handleError must return a string, got ${describeValue(message)}`);
    return message;
  }

  async #answer(action: A, returned: unknown, ctx: RequestContext): Promise<CallToolResult> {
    if (!isPlainObject(returned) || (returned.kind !== "ok" && returned.kind !== "error")) {
      throw new TypeError(`tool ${this.name}: runAction must return ok(...) or error(...), got ${describeValue(returned)}`);
    }
    const withHints = Object.hasOwn(returned, "hintContext");
    if (returned.kind === "ok") {
      const extra: JsonObject = {};
      if (withHints) extra.hints = await this.#hints(action, returned.hintContext);
      const context = await this.contextFor(action, ctx);
      if (context !== undefined) extra.context = context;
      const data = returned.data === undefined ? null : returned.data;
      const body = Object.keys(extra).length === 0 ? data : isPlainObject(data) ? { ...data, ...extra } : { data, ...extra };
      const result: CallToolResult = { resultType: "complete", content: [{ type: "text", text: stringifyJson(body) }] };
      if (this.outputSchema !== undefined && isPlainObject(body)) result.structuredContent = body as CallToolResult["structuredContent"];
      return result;
    }
    const message = this.#handleError(returned.reason);
    if (!withHints) return { resultType: "complete", content: [{ type: "text", text: message }], isError: true };
    const body: JsonObject = { error: message, hints: await this.#hints(action, returned.hintContext) };
    const context = await this.contextFor(action, ctx);
    if (context !== undefined) body.context = context;
    return {
      resultType: "complete",
      content: [{ type: "text", text: JSON.stringify(body) }],
      structuredContent: body as CallToolResult["structuredContent"],
      isError: true,
    };
  }
}

/**
 * Defines an action tool: checks the definition now (the definition moment;
 * registration checks it again) and returns the built {@link ActionTool}.
 *
 * @example
 * const tasks = defineActionTool({
 *   name: "tasks",
 *   description: "Task management",
 *   actions: {
 *     create: { description: "Create a task", properties: { name: { type: "string" } }, required: ["name"] },
 *   },
 *   runAction(action, data) {
 *     return ok({ message: `Created ${data.name}` }, { id: 1 });
 *   },
 * });
 * server.registerActionTool(tasks);
 *
 * @throws ConfigurationError naming the tool, the definition field, what was
 *   wrong, the expected shape and the value found: a schema that does not
 *   build (unknown type or format, unresolvable or remote `$ref`, a value JSON
 *   cannot carry), a newline in an action name or description, an action
 *   schema key outside the vocabulary, a default that is required, undeclared,
 *   refused by its schema or by the unknown-key gate, a `requiredOneOf` group
 *   naming an undeclared property or containing another group, an output
 *   schema that does not build, a class instance where a map belongs.
 */
export function defineActionTool<const A extends string>(definition: ActionToolDefinition<A>): ActionTool<A> {
  return new ActionTool(definition);
}
