/**
 * Tool registration and `tools/call` execution (spec 2026-07-28, server/tools).
 */
import type { CallToolResult, ClientCapabilities, InputRequiredResult, Tool, ToolAnnotations } from "@x/mcp-v2607";
import type { RequestContext } from "./context.js";
import { isProtocolError } from "./errors.js";
import { InputRequiredSignal } from "./mrtr.js";
import { type CompiledSchema, compileSchema, formatProblems } from "./schema.js";

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
 * `inputSchema`) and the request context. It may throw: the fault becomes
 * an `isError` result and the server goes on serving.
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
}

/** A tool as held by the server: its published definition and its compiled checks. */
export interface RegisteredTool {
  readonly name: string;
  readonly definition: Tool;
  readonly handler: ToolHandler<any>;
  readonly checkInput: CompiledSchema;
  readonly checkOutput: CompiledSchema | undefined;
  readonly requiredClientCapabilities: ClientCapabilities | undefined;
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
  };
}

/** RFC 9110 token characters: what an `x-mcp-header` name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COMPOSITION = ["items", "prefixItems", "additionalProperties", "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "$defs", "definitions", "patternProperties", "dependentSchemas", "contains"];

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
      if (typeof header !== "string" || header === "" || !TOKEN.test(header)) throw new TypeError(`${where} must be a non-empty HTTP token`);
      const type = n.type;
      if (type !== "string" && type !== "integer" && type !== "boolean") throw new TypeError(`${where} must be on a string, integer or boolean property`);
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
    throw new Error(`tool ${tool}: ${which} does not compile: ${(error as Error).message}`);
  }
}

/** A tool-level error result: `isError: true` and one text block. */
export function toolErrorResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  const result: CallToolResult = { resultType: "complete", content: [{ type: "text", text }], isError: true };
  if (structured) result.structuredContent = structured as CallToolResult["structuredContent"];
  return result;
}

const MAX_FAULT_MESSAGE = 500;

function faultMessage(fault: unknown): string {
  let message: string;
  if (fault instanceof Error) message = fault.message;
  else if (typeof fault === "string") message = fault;
  else {
    try {
      message = JSON.stringify(fault) ?? String(fault);
    } catch {
      message = String(fault);
    }
  }
  return message.length > MAX_FAULT_MESSAGE ? `${message.slice(0, MAX_FAULT_MESSAGE)}...` : message;
}

/**
 * Runs one tool call: checks the arguments, runs the handler inside a fault
 * boundary, checks `structuredContent` against `outputSchema`.
 *
 * Bad arguments, a thrown value or rejected promise, a malformed return and
 * content that fails the output schema all become an `isError` result that
 * says what went wrong. The one exception: a thrown protocol error (an
 * `McpError`, or any error with an integer `code` from -32768 to -32000) is
 * rethrown, so the request is answered with that JSON-RPC error.
 */
export async function runTool(tool: RegisteredTool, args: Record<string, unknown>, ctx: RequestContext): Promise<CallToolResult | InputRequiredResult> {
  const inputProblems = tool.checkInput(args);
  if (inputProblems.length > 0) {
    return toolErrorResult(`Invalid arguments for tool ${tool.name}:\n${formatProblems(inputProblems)}`);
  }
  let returned: ToolHandlerResult;
  try {
    returned = await tool.handler(args, ctx);
  } catch (fault) {
    // A deliberate protocol error (e.g. McpError(-32021, ...)) is answered as a
    // JSON-RPC error; the end of a round (an unanswered ask) is not a fault.
    if (isProtocolError(fault) || fault instanceof InputRequiredSignal) throw fault;
    return toolErrorResult(`Tool ${tool.name} failed: ${faultMessage(fault)}`, {
      errorType: "tool_fault",
      tool: tool.name,
      message: faultMessage(fault),
    });
  }
  const result = normaliseResult(returned);
  if (!result) {
    return toolErrorResult(`Tool ${tool.name} returned a value that is not a CallToolResult`);
  }
  if (result.resultType === "input_required") return result;
  if (tool.checkOutput && !result.isError) {
    if (result.structuredContent === undefined) {
      return toolErrorResult(`Tool ${tool.name} declares an outputSchema but returned no structuredContent`);
    }
    const problems = tool.checkOutput(result.structuredContent);
    if (problems.length > 0) {
      return toolErrorResult(`Tool ${tool.name} returned structuredContent that does not match its outputSchema:\n${formatProblems(problems)}`);
    }
  }
  return result;
}

function normaliseResult(value: unknown): CallToolResult | undefined {
  if (typeof value === "string") return { resultType: "complete", content: [{ type: "text", text: value }] };
  if (typeof value === "object" && value !== null && (value as { resultType?: unknown }).resultType === "input_required") {
    return value as CallToolResult;
  }
  if (typeof value !== "object" || value === null || !Array.isArray((value as CallToolResult).content)) return undefined;
  const result = value as CallToolResult;
  return result.resultType === undefined ? { ...result, resultType: "complete" } : result;
}
