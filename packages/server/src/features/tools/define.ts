/**
 * What a tool is (spec 2026-07-28, server/tools): its configuration, the
 * handler's types, and the checks made once, at registration (name, schemas
 * compiled, `x-mcp-header` annotations, run limit).
 */
import type { CallToolResult, ClientCapabilities, InputRequiredResult, Tool, ToolAnnotations } from "@x/mcp-v2607";
import type { RequestContext } from "../../context.js";
import { MissingDependencyError } from "../../runtime-deps.js";
import { type CompiledSchema, compileSchema } from "../../schema.js";
import { type HeaderParam, headerParams } from "../../transports/headers.js";

export type { HeaderParam };

/** A JSON Schema object for a tool's arguments; its root `type` must be `"object"`. */
export type InputSchema = { type: "object"; [key: string]: unknown };
/** A JSON Schema object describing a tool's `structuredContent`; its root `type` should be `"object"`. */
export type OutputSchema = { type?: "object"; [key: string]: unknown };

/**
 * What a tool handler may return: a full `CallToolResult` (build one with
 * `@x/builders`' `callToolResult`), a string, which becomes one text block,
 * or an `InputRequiredResult` it built itself (the explicit Multi Round-Trip
 * form; `ctx.elicit` is the usual one).
 */
export type ToolHandlerResult = CallToolResult | InputRequiredResult | string;

/**
 * A tool handler: receives the call's arguments (already checked against
 * `inputSchema`) and the request context. An integer beyond ±(2^53 − 1)
 * arrives as a `bigint` with every digit (a decimal string with the server
 * option `bigIntegers: "string"`); a safe integer is a `number`, a decimal a
 * double. A `bigint` it returns (in `structuredContent`, say) is written as
 * its digits. It may throw: the fault becomes an `isError` result and the
 * server goes on serving.
 */
export type ToolHandler<Args = Record<string, unknown>> = (
  args: Args,
  ctx: RequestContext,
) => ToolHandlerResult | Promise<ToolHandlerResult>;

/** The definition of a tool, as given to `McpServer.registerTool`. */
export interface ToolConfig {
  /** Human-readable display name. */
  title?: string;
  /** What the tool does, for the model. */
  description?: string;
  /** JSON Schema (2020-12) of the arguments; default `{ type: "object" }`. */
  inputSchema?: InputSchema;
  /** JSON Schema (2020-12) of `structuredContent`; when given, every non-error result must carry conforming `structuredContent`. */
  outputSchema?: OutputSchema;
  /** Behaviour hints for clients (`readOnlyHint`, `destructiveHint`, ...). */
  annotations?: ToolAnnotations;
  /** Extra `_meta` published with the tool definition. */
  _meta?: Record<string, unknown>;
  /** Client capabilities a call must declare; otherwise it is answered with -32021 (HTTP 400) before the handler runs. */
  requiredClientCapabilities?: ClientCapabilities;
  /** This tool's run limit in milliseconds, overriding the server's `toolTimeoutMs`; 0 turns the limit off. */
  timeoutMs?: number;
}

/** A tool as held by the server: its published definition and its compiled checks. */
export interface RegisteredTool {
  readonly name: string;
  readonly definition: Tool;
  readonly handler: ToolHandler<any>;
  readonly checkInput: CompiledSchema;
  readonly checkOutput: CompiledSchema | undefined;
  readonly requiredClientCapabilities: ClientCapabilities | undefined;
  /** Its `x-mcp-header` parameters, mirrored in `Mcp-Param-*` headers over Streamable HTTP (found once, at registration). */
  readonly headerParams: readonly HeaderParam[];
  /** The tool's own run limit in milliseconds (0: none); `undefined` uses the server's. */
  readonly timeoutMs?: number | undefined;
  /** For telemetry: the action a call addresses (action tools and `help`). */
  readonly actionOf?: ((args: Record<string, unknown>) => string | undefined) | undefined;
}

/**
 * Builds a {@link RegisteredTool}: checks the name and compiles both schemas.
 *
 * @throws TypeError when the name is empty or the input schema's root type is not `"object"`;
 *   Error naming the tool and schema when a schema does not compile.
 */
export function defineTool(name: string, config: ToolConfig, handler: ToolHandler<any>): RegisteredTool {
  if (typeof name !== "string" || name.length === 0) throw new TypeError("tool name must be a non-empty string");
  if (typeof handler !== "function") throw new TypeError(`tool ${name}: handler must be a function`);
  const inputSchema: InputSchema = config.inputSchema ?? { type: "object" };
  if (inputSchema.type !== "object") {
    throw new TypeError(`tool ${name}: inputSchema must have type "object"`);
  }
  checkHeaderAnnotations(name, inputSchema);
  if (config.timeoutMs !== undefined) checkTimeout(`tool ${name}: timeoutMs`, config.timeoutMs);
  const definition: Tool = { name, inputSchema } as Tool;
  if (config.title !== undefined) definition.title = config.title;
  if (config.description !== undefined) definition.description = config.description;
  if (config.outputSchema !== undefined) definition.outputSchema = config.outputSchema as Tool["outputSchema"];
  if (config.annotations !== undefined) definition.annotations = config.annotations;
  if (config._meta !== undefined) definition._meta = config._meta as Tool["_meta"];
  return {
    name,
    definition,
    handler,
    checkInput: compileFor(name, "inputSchema", inputSchema),
    checkOutput: config.outputSchema ? compileFor(name, "outputSchema", config.outputSchema) : undefined,
    requiredClientCapabilities: config.requiredClientCapabilities,
    headerParams: headerParams(inputSchema),
    timeoutMs: config.timeoutMs,
  };
}

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

/** RFC 9110 token characters: what an `x-mcp-header` name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COMPOSITION = [
  "items",
  "prefixItems",
  "additionalProperties",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
  "patternProperties",
  "dependentSchemas",
  "contains",
];

/**
 * Checks the `x-mcp-header` annotations of an input schema against the
 * spec's constraints (basic/transports/streamable-http, "Custom Headers from
 * Tool Parameters"): a non-empty token name, unique without regard to case,
 * on a property of type string, integer or boolean, reachable from the root
 * through `properties` keys only.
 * @throws TypeError naming the tool and the annotation that breaks a rule.
 */
export function checkHeaderAnnotations(tool: string, schema: Record<string, unknown>): void {
  const seen = new Set<string>();
  const walk = (node: unknown, path: string, reachable: boolean) => {
    if (typeof node !== "object" || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, path, false);
      return;
    }
    const n = node as Record<string, unknown>;
    if ("x-mcp-header" in n) {
      const header = n["x-mcp-header"];
      const where = `tool ${tool}: x-mcp-header at ${path || "(root)"}`;
      if (!reachable || path === "") throw new TypeError(`${where} must sit on a property reachable through properties only`);
      if (typeof header !== "string" || header === "" || !TOKEN.test(header))
        throw new TypeError(`${where} must be a non-empty HTTP token`);
      const type = n.type;
      if (type !== "string" && type !== "integer" && type !== "boolean")
        throw new TypeError(`${where} must be on a string, integer or boolean property`);
      const key = header.toLowerCase();
      if (seen.has(key)) throw new TypeError(`${where}: ${header} is used twice (names are case-insensitive)`);
      seen.add(key);
    }
    for (const [key, child] of Object.entries(n)) {
      if (key === "properties" && typeof child === "object" && child !== null && !Array.isArray(child)) {
        for (const [prop, sub] of Object.entries(child)) walk(sub, `${path}/${prop}`, reachable);
      } else if (COMPOSITION.includes(key) || key === "$ref") {
        walk(child, `${path}/${key}`, false);
      }
    }
  };
  walk(schema, "", true);
}

function compileFor(tool: string, which: string, schema: object): CompiledSchema {
  try {
    return compileSchema(schema);
  } catch (error) {
    if (error instanceof MissingDependencyError) throw error;
    throw new Error(`tool ${tool}: ${which} does not compile: ${(error as Error).message}`);
  }
}
