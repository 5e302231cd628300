/**
 * What a tool is (spec 2026-07-28, server/tools): its configuration, the
 * handler's types, and the checks made once, at registration (name, schemas
 * compiled, `x-mcp-header` annotations, run limit).
 */
import type { CallToolResult, ClientCapabilities, Icon, InputRequiredResult, Tool, ToolAnnotations } from "@x/mcp-v2607";
import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import { type NoUnknownKeys, rejectUnknown } from "@x/jsonrpc";
import { type HeaderParam, toolHeaderParams } from "@x/mcp-v2607/wire";
import type { RequestContext } from "../../context.js";
import type { HandlerResult } from "../feature.js";
import type { JsonObject } from "../../objects.js";
import { MissingDependencyError } from "../../runtime-deps.js";
import { type CompiledSchema, compileSchema, type JsonSchemaValidator, schemaValidator, unknownKeyword } from "../../schema.js";
import { checkedScopes } from "../../authorization.js";
import { type BigIntegers, checkBigIntegers } from "../../numbers.js";
import { isStandardSchema, type StandardCheck, type StandardSchemaV1, standardCheck, standardJsonSchema } from "../../standard-schema.js";

/** A JSON Schema object for a tool's arguments; its root `type` must be `"object"`. */
export type InputSchema = { type: "object"; [key: string]: unknown };
/** A JSON Schema object describing a tool's `structuredContent`; its root `type` should be `"object"`. */
export type OutputSchema = { type?: "object"; [key: string]: unknown };

/**
 * What a tool handler may return: a `CallToolResult` (build one with
 * `@x/builders`' `callToolResult`; `resultType` may be left out, the server
 * adds it), a string, which becomes one text block,
 * or an `InputRequiredResult` it built itself (the explicit Multi Round-Trip
 * form; `ctx.elicit` is the usual one).
 */
export type ToolHandlerResult = HandlerResult<CallToolResult> | InputRequiredResult | string;

/**
 * A tool handler: receives the call's arguments (already checked against
 * `inputSchema`; for a Standard Schema, the value its validation gave back)
 * and the request context. Numbers are what `JSON.parse` gives: an integer
 * beyond ±(2^53 − 1) arrives as the nearest double, unless the tool opts in
 * with `bigIntegers` (then as a `bigint` with every digit, or its decimal
 * digits). A `bigint` it returns (in `structuredContent`, say) is written as
 * its digits. It may throw: the fault becomes an `isError` result and the
 * server goes on serving.
 */
export type ToolHandler<Args = JsonObject, Result = ToolHandlerResult> = (args: Args, ctx: RequestContext) => Result | Promise<Result>;

/**
 * The TypeScript type a literal JSON Schema describes (`as const`, or written
 * inline in `registerTool`'s config), through json-schema-to-ts' `FromSchema`;
 * a schema typed only as {@link InputSchema}/{@link OutputSchema} (not a
 * literal) gives `JsonObject`. A property with a `default` stays optional:
 * the server does not fill defaults in. `integer` is typed `number`, which is
 * what a handler receives unless its tool opts in with `bigIntegers` (see
 * {@link WithBigIntegers}).
 */
export type SchemaType<S> = [S] extends [never]
  ? JsonObject
  : S extends object
    ? string extends keyof S
      ? JsonObject
      : S extends JSONSchema
        ? FromSchema<S, { keepDefaultedPropertiesOptional: true }>
        : JsonObject
    : JsonObject;

/**
 * What a handler of a tool with a literal `outputSchema` may return: a result
 * whose `structuredContent` has the schema's type, an error result
 * (`isError: true`, which the output check skips), or an `InputRequiredResult`.
 * A plain string is not among them: such a tool must answer `structuredContent`.
 */
export type TypedToolResult<Out> =
  | (Pick<CallToolResult, "_meta" | "content"> & { resultType?: string; structuredContent: Out; isError?: false })
  | (HandlerResult<CallToolResult> & { isError: true })
  | (InputRequiredResult & { resultType: "input_required" });

/**
 * `T` with every `number` position (a number literal included) widened to
 * take what `bigIntegers: B` hands a handler for an integer beyond
 * ±(2^53 − 1): `number | bigint` for `"bigint"`, `number | string` for
 * `"string"`, both for the union. Arrays, tuples and nested objects are
 * widened throughout; other types stay. Use it to declare the arguments of
 * `registerTool<Args>` for a tool that opts in.
 */
export type WithBigIntegers<T, B extends BigIntegers | undefined> = T extends number
  ? T | (B extends "bigint" ? bigint : B extends "string" ? string : never)
  : T extends readonly unknown[]
    ? { [K in keyof T]: WithBigIntegers<T[K], B> }
    : T extends object
      ? { [K in keyof T]: WithBigIntegers<T[K], B> }
      : T;

/**
 * The handler's argument type for a config: for a Standard Schema
 * `inputSchema`, the type its validation gives back
 * (`StandardSchemaV1.InferOutput`: defaults filled, transforms applied);
 * for a literal JSON Schema, {@link SchemaType}; `JsonObject` when there is
 * none. The Standard Schema test comes first: a library's schema object may
 * look like a JSON Schema too (a zod object has `type: "object"`). With
 * `bigIntegers`, every number position is widened (see {@link WithBigIntegers}).
 */
export type ToolArguments<C> = C extends { inputSchema: infer S }
  ? S extends StandardSchemaV1
    ? StandardSchemaV1.InferOutput<S>
    : "bigIntegers" extends keyof C
      ? WithBigIntegers<SchemaType<S>, Extract<C["bigIntegers" & keyof C], BigIntegers>>
      : SchemaType<S>
  : JsonObject;

/**
 * The handler's result type for a config: {@link TypedToolResult} of what a
 * Standard Schema `outputSchema` accepts (`StandardSchemaV1.InferInput`: the
 * server validates it and sends the validation's output) or of a literal
 * JSON Schema's type (for a tool that opts in with `bigIntegers`, a number
 * position may hold a `bigint` too, which is written with every digit); else
 * {@link ToolHandlerResult}.
 */
export type ToolResultOf<C> = C extends { outputSchema: infer S }
  ? [S] extends [never]
    ? ToolHandlerResult
    : S extends StandardSchemaV1
      ? TypedToolResult<StandardSchemaV1.InferInput<S>>
      : S extends object
        ? string extends keyof S
          ? ToolHandlerResult
          : TypedToolResult<"bigIntegers" extends keyof C ? WithBigIntegers<SchemaType<S>, "bigint"> : SchemaType<S>>
        : ToolHandlerResult
  : ToolHandlerResult;

/**
 * What `registerTool` adds to its config's type: a member {@link ToolConfig}
 * does not have (a misspelt `icon`) does not compile, even beside valid ones
 * (the config is a type parameter, which TypeScript does not check for
 * excess members); nor does `bigIntegers` beside a Standard Schema
 * `inputSchema` (its library reads numbers as doubles, and its output type
 * is what the handler gets).
 */
export type ToolConfigCheck<C> = NoUnknownKeys<C, ToolConfig> &
  (C extends {
    inputSchema: StandardSchemaV1;
    bigIntegers: BigIntegers;
  }
    ? { bigIntegers?: never }
    : unknown);

/** The definition of a tool, as given to `McpServer.registerTool`. */
export interface ToolConfig {
  /** Human-readable display name. */
  title?: string;
  /** What the tool does, for the model. */
  description?: string;
  /**
   * The arguments' schema; default `{ type: "object" }`. A JSON Schema
   * (2020-12 unless its `$schema` declares 2019-09, draft-07, -06 or -04),
   * checked with the server's validator; or a Standard Schema (zod 4.2+,
   * arktype, valibot wrapped with `toStandardJsonSchema` of
   * `@valibot/to-json-schema`), published as its own conversion
   * (`~standard.jsonSchema.input`, dialect 2020-12) and checked with its own
   * `~standard.validate`, whose output the handler receives. Either way its
   * root must be `type: "object"` (for a Standard Schema whose input type is
   * not an object, such as `z.string()`, this fails to compile).
   */
  inputSchema?: InputSchema | StandardSchemaV1<JsonObject, unknown>;
  /**
   * The schema of `structuredContent` (JSON Schema in the dialects of
   * `inputSchema`, or a Standard Schema, published as
   * `~standard.jsonSchema.output`); when given, every non-error result must
   * carry conforming `structuredContent`. For a Standard Schema, what is
   * sent is the validation's output value (defaults filled, transforms applied).
   */
  outputSchema?: OutputSchema | StandardSchemaV1;
  /** Behaviour hints for clients (`readOnlyHint`, `destructiveHint`, ...). */
  annotations?: ToolAnnotations;
  /**
   * Icons a client may show for the tool (spec 2025-11-25 on, `Tool.icons`:
   * each a `src` URI, optional `mimeType`, `sizes` and `theme`). Published
   * as given, like a prompt's or a resource's; a client of a version before
   * 2025-11-25 gets the tool without them.
   */
  icons?: Icon[];
  /** Extra `_meta` published with the tool definition. */
  _meta?: JsonObject;
  /** Client capabilities a call must declare; otherwise it is answered with -32021 (HTTP 400) before the handler runs. */
  requiredClientCapabilities?: ClientCapabilities;
  /** This tool's run limit in milliseconds, overriding the server's `toolTimeoutMs`; 0 turns the limit off. */
  timeoutMs?: number;
  /**
   * OAuth scopes a call's access token must hold (HTTP `auth` option only):
   * otherwise 403 with `WWW-Authenticate: Bearer error="insufficient_scope"`
   * naming them, before the handler runs. The tool is still listed. Ignored without `auth`.
   */
  requiredScopes?: readonly string[];
  /**
   * Whether a call may run as a task (tasks extension,
   * `io.modelcontextprotocol/tasks`): `"forbidden"` (default) never;
   * `"optional"` when the request's client capabilities declare the
   * extension, else as a plain call; `"required"` always, a client that
   * does not declare the extension is refused with -32021 (HTTP 400). The
   * extension is announced in `server/discover` once a tool allows tasks.
   * On an `initialize`-era session the call is a task of revision 2025-11-25
   * when it carries `params.task` (`"required"` without it: -32601), and the
   * tool is listed with `execution.taskSupport`. `"optional"` and
   * `"required"` need the tasks plug-in (`tasks()` of `@x/server/tasks` in
   * `ServerOptions.tasks`): without it `registerTool` throws a TypeError.
   */
  taskSupport?: "forbidden" | "optional" | "required";
  /**
   * When a task call becomes a task: `"immediate"` (default) before the
   * handler runs, so the whole handler runs in the task; `"deferred"` when
   * the handler calls `ctx.startTask()`, so asks before it are Multi
   * Round-Trip asks of the call (answered before any task exists).
   */
  taskStart?: "immediate" | "deferred";
  /**
   * Opts in to exact integers: how the handler receives an integer beyond
   * ±(2^53 − 1) in its arguments, which a `number` cannot hold exactly
   * (`9007199254740993` would be `...992`): `"bigint"`, a `bigint` with
   * every digit; `"string"`, its decimal digits (`"9007199254740993"`). The
   * arguments are checked against `inputSchema` first, the integer as sent
   * (it passes `type: "integer"`; a bound compares its nearest double). The
   * handler's argument type says so: every number position becomes
   * `number | bigint` (or `number | string`; see {@link WithBigIntegers}),
   * and with a literal `outputSchema` its `structuredContent` may hold a
   * `bigint` where a number is declared. Default: none, the double
   * `JSON.parse` gives. Needs a JSON Schema `inputSchema` (or none): a
   * Standard Schema's library reads numbers as doubles. A safe integer is
   * always a `number`. (Spec 2026-07-28, server/tools "Calling Tools"; the
   * spec sets no precision.)
   */
  bigIntegers?: BigIntegers;
}

/** Every member of {@link ToolConfig}: a member added there must be added here to compile. */
const TOOL_CONFIG: Record<keyof ToolConfig, true> = {
  title: true,
  description: true,
  inputSchema: true,
  outputSchema: true,
  annotations: true,
  icons: true,
  _meta: true,
  requiredClientCapabilities: true,
  timeoutMs: true,
  requiredScopes: true,
  taskSupport: true,
  taskStart: true,
  bigIntegers: true,
};
const TOOL_CONFIG_KEYS = Object.keys(TOOL_CONFIG);

/** A tool as held by the server: its published definition and its compiled checks. */
export interface RegisteredTool {
  readonly name: string;
  readonly definition: Tool;
  readonly handler: ToolHandler<any>;
  /** The JSON Schema check of the arguments (not used when {@link RegisteredTool.parseInput} is set). */
  readonly checkInput: CompiledSchema;
  /** The JSON Schema check of `structuredContent` (not used when {@link RegisteredTool.parseOutput} is set). */
  readonly checkOutput: CompiledSchema | undefined;
  /** For a Standard Schema `inputSchema`: its library's validation, whose output value the handler receives. */
  readonly parseInput?: StandardCheck | undefined;
  /** For a Standard Schema `outputSchema`: its library's validation, whose output value is sent as `structuredContent`. */
  readonly parseOutput?: StandardCheck | undefined;
  readonly requiredClientCapabilities: ClientCapabilities | undefined;
  /** The scopes a call's token must hold (HTTP `auth` only); `undefined` for none. */
  readonly requiredScopes?: readonly string[] | undefined;
  /** Its `x-mcp-header` parameters, mirrored in `Mcp-Param-*` headers over Streamable HTTP (found once, at registration). */
  readonly headerParams: readonly HeaderParam[];
  /** The tool's own run limit in milliseconds (0: none); `undefined` uses the server's. */
  readonly timeoutMs?: number | undefined;
  /** For telemetry: the action a call addresses (action tools and `help`). */
  readonly actionOf?: ((args: JsonObject) => string | undefined) | undefined;
  /** `ToolConfig.taskSupport` (`undefined`: forbidden). */
  readonly taskSupport?: "optional" | "required" | undefined;
  /** `ToolConfig.taskStart` (`undefined`: immediate). */
  readonly taskStart?: "deferred" | undefined;
  /** `ToolConfig.bigIntegers` (`undefined`: the handler gets `JSON.parse`'s numbers). */
  readonly bigIntegers?: BigIntegers | undefined;
}

/** How {@link defineTool} checks the schemas. */
export interface DefineToolOptions {
  /** Refuse a keyword the schema's dialect does not define (except `x-` extensions); default true (`ServerOptions.strictSchemas`). */
  strictSchemas?: boolean;
  /** The validator that compiles the schemas (`ServerOptions.validator`); default the default one (`defaultValidator` of schema.ts). */
  validator?: JsonSchemaValidator | undefined;
}

/**
 * Builds a {@link RegisteredTool}: checks the name and compiles both schemas
 * (a Standard Schema is converted to the JSON Schema it publishes instead,
 * and keeps its library's validation).
 *
 * @throws TypeError when the name is empty, the config has a member that is not an option, the input schema's root type is not `"object"`,
 *   `taskSupport`, `taskStart` or `bigIntegers` is not one of its values, `bigIntegers` is set beside a
 *   Standard Schema `inputSchema`, or an `x-mcp-header` annotation breaks a rule; Error naming the tool and schema when a schema does not compile,
 *   also when its `$schema` names a dialect that is not supported (the message
 *   names it), a keyword's value is not what the dialect's meta-schema allows
 *   (`required` not an array: the message gives its path), or a `$ref` does not resolve;
 *   TypeError naming the tool, the schema, the keyword and where it is when a schema
 *   has a keyword its dialect does not define (unless `strictSchemas: false`);
 *   TypeError naming the tool and schema when a Standard Schema has no JSON Schema
 *   conversion (the message says how to give it one), its conversion fails, or the
 *   input side's conversion is not `type: "object"`;
 *   TypeError naming the tool, the schema and `ServerOptions.validator` when a schema is a JSON Schema and
 *   the server has no validator (none named, none found: a bundle naming none);
 *   MissingDependencyError when the validator's package is not installed (and a schema is a JSON Schema).
 */
export function defineTool(name: string, config: ToolConfig, handler: ToolHandler<any>, options: DefineToolOptions = {}): RegisteredTool {
  if (typeof name !== "string" || name.length === 0) throw new TypeError("tool name must be a non-empty string");
  if (typeof handler !== "function") throw new TypeError(`tool ${name}: handler must be a function`);
  // Refused, not ignored: a misspelt `inputSchema` would turn argument checks off.
  rejectUnknown(`tool ${name}: the config`, config, TOOL_CONFIG_KEYS);
  const standardIn = isStandardSchema(config.inputSchema) ? config.inputSchema : undefined;
  const inputSchema = (
    standardIn ? standardJsonSchema(standardIn, "input", `tool ${name}: inputSchema`) : (config.inputSchema ?? { type: "object" })
  ) as InputSchema;
  if (inputSchema.type !== "object") {
    // The spec's rule for every tool, however the schema was written: the arguments are an object.
    const converted = standardIn
      ? ` (the ${String(standardIn["~standard"].vendor)} schema converts to type ${JSON.stringify(inputSchema.type ?? null)}: use an object schema)`
      : "";
    throw new TypeError(`tool ${name}: inputSchema must have type "object"${converted}`);
  }
  const standardOut = isStandardSchema(config.outputSchema) ? config.outputSchema : undefined;
  const outputSchema = standardOut
    ? (standardJsonSchema(standardOut, "output", `tool ${name}: outputSchema`) as OutputSchema)
    : (config.outputSchema as OutputSchema | undefined);
  // The walker clients run on tools/list: a tool they would drop is refused
  // here. No depth bound: that guards a client against a server's schema.
  const headers = toolHeaderParams({ inputSchema }, Number.POSITIVE_INFINITY);
  if (!headers.ok) throw new TypeError(`tool ${name}: ${headers.reason}`);
  if (config.timeoutMs !== undefined) checkTimeout(`tool ${name}: timeoutMs`, config.timeoutMs);
  const support = config.taskSupport;
  if (support !== undefined && support !== "forbidden" && support !== "optional" && support !== "required") {
    throw new TypeError(`tool ${name}: taskSupport must be "forbidden", "optional" or "required", got ${String(support)}`);
  }
  if (config.taskStart !== undefined && config.taskStart !== "immediate" && config.taskStart !== "deferred") {
    throw new TypeError(`tool ${name}: taskStart must be "immediate" or "deferred", got ${String(config.taskStart)}`);
  }
  const bigIntegers = checkBigIntegers(`tool ${name}: bigIntegers`, config.bigIntegers);
  if (bigIntegers !== undefined && standardIn) {
    throw new TypeError(
      `tool ${name}: bigIntegers needs a JSON Schema inputSchema (the ${String(standardIn["~standard"].vendor)} schema's library reads numbers as doubles)`,
    );
  }
  const strict = options.strictSchemas !== false;
  const definition: Tool = { name, inputSchema } as Tool;
  if (config.title !== undefined) definition.title = config.title;
  if (config.description !== undefined) definition.description = config.description;
  if (outputSchema !== undefined) definition.outputSchema = outputSchema as Tool["outputSchema"];
  if (config.annotations !== undefined) definition.annotations = config.annotations;
  if (config.icons !== undefined) definition.icons = config.icons;
  if (config._meta !== undefined) definition._meta = config._meta as Tool["_meta"];
  return {
    name,
    definition,
    handler,
    // A Standard Schema's values are its library's to check: its conversion is only published.
    checkInput: standardIn ? NOT_USED : compileFor(name, "inputSchema", inputSchema, strict, options.validator),
    checkOutput:
      outputSchema === undefined
        ? undefined
        : standardOut
          ? NOT_USED
          : compileFor(name, "outputSchema", outputSchema, strict, options.validator),
    parseInput: standardIn ? standardCheck(standardIn) : undefined,
    parseOutput: standardOut ? standardCheck(standardOut) : undefined,
    requiredClientCapabilities: config.requiredClientCapabilities,
    requiredScopes: checkedScopes(`tool ${name}`, config.requiredScopes),
    headerParams: headers.params,
    timeoutMs: config.timeoutMs,
    taskSupport: support === "forbidden" ? undefined : support,
    taskStart: config.taskStart === "deferred" ? "deferred" : undefined,
    bigIntegers,
  };
}

/** The JSON Schema check of a side whose Standard Schema checks it instead (never called for that side). */
const NOT_USED: CompiledSchema = () => [];

/** The default run limit of a tool call, in milliseconds (one minute). */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/**
 * Checks a run limit: a whole number of milliseconds from 0 (no limit) to
 * 2 147 483 647 (the longest timer Node keeps).
 * @throws RangeError naming `what` otherwise.
 */
export function checkTimeout(what: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > 2_147_483_647) {
    throw new RangeError(`${what} must be an integer number of milliseconds from 0 (no limit) to 2147483647, got ${String(value)}`);
  }
}

function compileFor(
  tool: string,
  which: string,
  schema: object,
  strict: boolean,
  validator: JsonSchemaValidator | undefined,
): CompiledSchema {
  const chosen = schemaValidator(validator, `tool ${tool}: ${which}`);
  let check: CompiledSchema;
  try {
    check = compileSchema(schema, { validator: chosen });
  } catch (error) {
    if (error instanceof MissingDependencyError) throw error;
    throw new Error(`tool ${tool}: ${which} does not compile: ${(error as Error).message}`, { cause: error });
  }
  // After the compile, which has read the dialect: JSON Schema ignores an
  // unknown keyword, so a misspelt one would leave its check undone, silently.
  const unknown = strict ? unknownKeyword(schema) : undefined;
  if (unknown) {
    throw new TypeError(
      `tool ${tool}: ${which} has unknown keyword ${JSON.stringify(unknown.keyword)} at ${unknown.path === "" ? "(root)" : unknown.path} (a typo? extension keywords start with "x-"; set strictSchemas: false to allow it)`,
    );
  }
  return check;
}
