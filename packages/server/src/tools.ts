/**
 * Tool registration and `tools/call` execution (spec 2026-07-28, server/tools).
 */
import type { CallToolResult, ClientCapabilities, InputRequiredResult, Tool, ToolAnnotations } from "@x/mcp-v2607";
import { boundText, boundValue, MESSAGE_LIMIT } from "./actions/bound.js";
import { OWN_SIGNAL, type RequestContext } from "./context.js";
import { isProtocolError } from "./errors.js";
import { InputRequiredSignal } from "./mrtr.js";
import { type CompiledSchema, compileSchema, formatProblems } from "./schema.js";
import {
  dispatchError,
  isDispatchError,
  publishToolError,
  publishToolStart,
  publishToolStop,
  type ToolCallEvent,
  toolEventsObserved,
} from "./telemetry.js";
import { MissingDependencyError } from "./runtime-deps.js";

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

/** A tool-level error result: `isError: true` and one text block. */
export function toolErrorResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  const result: CallToolResult = { resultType: "complete", content: [{ type: "text", text }], isError: true };
  if (structured) result.structuredContent = structured as CallToolResult["structuredContent"];
  return result;
}

/** Options of {@link runTool}. */
export interface RunToolOptions {
  /** The server's run limit in milliseconds (0: none), used when the tool has no own `timeoutMs`. Default {@link DEFAULT_TOOL_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** The name a fault is reported under: the error's name (its class name when that says more), or `"throw"` for a thrown non-Error value. */
function exceptionName(fault: unknown): string {
  if (
    fault instanceof Error ||
    (typeof fault === "object" &&
      fault !== null &&
      typeof (fault as Error).message === "string" &&
      typeof (fault as Error).name === "string")
  ) {
    const name = (fault as Error).name;
    const ctor = (fault as object).constructor?.name;
    return boundText(name === "Error" && ctor && ctor !== "Object" ? ctor : name || "Error", 100);
  }
  return "throw";
}

function faultMessage(fault: unknown): string {
  if (fault instanceof Error || (typeof fault === "object" && fault !== null && typeof (fault as Error).message === "string")) {
    return boundText((fault as Error).message, MESSAGE_LIMIT);
  }
  return boundValue(fault, MESSAGE_LIMIT);
}

/**
 * The answer to a tool fault: `isError`, and the diagnostic body
 * `{ errorType: "tool_fault", tool, exception, message }` as JSON text and as
 * `structuredContent`. `message` is bounded (500 characters): the reader is
 * the client's model, and the body must not echo what the tool was handed.
 * Publishes `x-mcp:tool:error` with the fault itself as `crashReason`.
 */
function faultResult(
  tool: string,
  fault: unknown,
  event: ToolCallEvent | undefined,
  exception = exceptionName(fault),
  message = faultMessage(fault),
): CallToolResult {
  publishToolError(event, exception, message, fault);
  const body = { errorType: "tool_fault", tool, exception, message };
  const result = toolErrorResult(JSON.stringify(body), body);
  return result;
}

/**
 * The run limit of one handler run: while it is set on the request's context
 * (under OWN_SIGNAL), `ctx.signal` is the run's own signal, which fires when
 * the request's does or when the limit passes. The signal is made only when
 * the handler reads it, so a handler that never looks costs no
 * AbortController and no listener (and no derived context is built: making a
 * fresh object a prototype costs V8 more than the rest of the call).
 */
class RunLimit {
  #controller: AbortController | undefined = undefined;
  #expired: unknown = undefined;
  #outer: AbortSignal | undefined = undefined;
  #forward: (() => void) | undefined = undefined;

  /** The handler's signal, made on its first read; `outer` is the request's own signal (undefined when the transport has none). */
  signalOver(outer: AbortSignal | undefined): AbortSignal {
    if (!this.#controller) {
      const controller = new AbortController();
      this.#controller = controller;
      if (this.#expired !== undefined) {
        controller.abort(this.#expired);
      } else if (outer?.aborted) {
        controller.abort(outer.reason);
      } else if (outer) {
        this.#outer = outer;
        this.#forward = () => controller.abort(outer.reason);
        outer.addEventListener("abort", this.#forward, { once: true });
      }
    }
    return this.#controller.signal;
  }

  /** The limit passed: the handler's signal fires with `reason` (now, or as soon as it is read). */
  expire(reason: unknown): void {
    this.#expired = reason;
    this.#controller?.abort(reason);
  }

  /** The run is over: stop listening to the request's signal. */
  release(): void {
    if (this.#outer && this.#forward) this.#outer.removeEventListener("abort", this.#forward);
    this.#outer = undefined;
  }
}

/**
 * Runs one tool call: checks the arguments, runs the handler inside a fault
 * boundary under its run limit, checks `structuredContent` against
 * `outputSchema`, and publishes `x-mcp:tool:start`, `x-mcp:tool:error` and
 * `x-mcp:tool:stop` (see `telemetry.ts`).
 *
 * Bad arguments and content that fails the output schema become an `isError`
 * result saying what went wrong (bad arguments are classified `dispatch`).
 * A fault (a throw, a rejected promise, a thrown non-Error value, a return
 * that is no result, a run past the limit) becomes an `isError` result with
 * `{ errorType: "tool_fault", tool, exception, message }`, and the server
 * goes on serving. Past the limit (the tool's `timeoutMs`, else
 * `options.timeoutMs`, else 60 000 ms) the handler's `ctx.signal` is aborted
 * with a `TimeoutError`, and the call is answered at once. The one exception: a thrown
 * protocol error (an `McpError`, or any error with an integer `code` from
 * -32768 to -32000) is rethrown, so the request is answered with that
 * JSON-RPC error; so is the end of a Multi Round-Trip round.
 *
 * A handler that answers synchronously is finished synchronously: the
 * result comes back as a value, not a promise (no promise, microtask or
 * timer per call); a handler that returns a promise gets a promise back.
 * Either way a protocol error or the end of a round is thrown (synchronously
 * or as the rejection).
 */
export function runTool(
  tool: RegisteredTool,
  args: Record<string, unknown>,
  ctx: RequestContext,
  options: RunToolOptions = {},
): ToolRunResult | Promise<ToolRunResult> {
  const event = toolEventsObserved()
    ? publishToolStart(
        tool.name,
        () => tool.actionOf?.(args),
        ctx.requestId,
        () => ctx.trace,
      )
    : undefined;
  let running: ToolRunResult | Promise<ToolRunResult>;
  try {
    running = runGuarded(tool, args, ctx, options, event);
  } catch (thrown) {
    stoppedByThrow(event, thrown);
    throw thrown;
  }
  if (!(running instanceof Promise)) return stopped(event, running);
  return running.then(
    (result) => stopped(event, result),
    (thrown) => {
      stoppedByThrow(event, thrown);
      throw thrown;
    },
  );
}

/** What one tool run answers: a (normalised) `CallToolResult`, or the handler's own `InputRequiredResult`. */
export type ToolRunResult = CallToolResult | InputRequiredResult;

function stopped(event: ToolCallEvent | undefined, result: ToolRunResult): ToolRunResult {
  if (event === undefined) return result;
  if (result.resultType === "input_required") publishToolStop(event, "input_required");
  else publishToolStop(event, (result as CallToolResult).isError ? "error" : "ok", isDispatchError(result) ? "dispatch" : "tool");
  return result;
}

function stoppedByThrow(event: ToolCallEvent | undefined, thrown: unknown): void {
  publishToolStop(event, thrown instanceof InputRequiredSignal ? "input_required" : "protocol_error");
}

function runGuarded(
  tool: RegisteredTool,
  args: Record<string, unknown>,
  ctx: RequestContext,
  options: RunToolOptions,
  event: ToolCallEvent | undefined,
): ToolRunResult | Promise<ToolRunResult> {
  const inputProblems = tool.checkInput(args);
  if (inputProblems.length > 0) {
    return dispatchError(toolErrorResult(`Invalid arguments for tool ${tool.name}:\n${formatProblems(inputProblems)}`));
  }
  // The handler gets the request's context, whose `signal` reads this run's
  // from now on (see OWN_SIGNAL in context.ts): one tools/call, one run, and
  // no derived context to build.
  const run = new RunLimit();
  (ctx as RequestContext & { [OWN_SIGNAL]?: RunLimit })[OWN_SIGNAL] = run;
  let value: ToolHandlerResult | PromiseLike<ToolHandlerResult>;
  try {
    // Called at once (not a tick later), so the handler sees the request as it is now.
    value = tool.handler(args, ctx);
  } catch (fault) {
    run.release();
    return faultOrRethrow(tool, fault, event);
  }
  if (typeof (value as PromiseLike<unknown> | null)?.then !== "function") {
    // A handler that answered synchronously finished within any limit: no timer, no promise.
    run.release();
    return checkResult(tool, value as ToolHandlerResult, event);
  }
  return settleRun(
    tool,
    value as PromiseLike<ToolHandlerResult>,
    run,
    tool.timeoutMs ?? options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    event,
  );
}

/** Waits for a handler's promise under its run limit (`limit` ms; 0 = none), then checks what it returned. */
async function settleRun(
  tool: RegisteredTool,
  value: PromiseLike<ToolHandlerResult>,
  run: RunLimit,
  limit: number,
  event: ToolCallEvent | undefined,
): Promise<ToolRunResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let returned: ToolHandlerResult;
  try {
    if (limit > 0) {
      const running = Promise.resolve(value);
      returned = await new Promise<ToolHandlerResult>((resolve, reject) => {
        // Handling the run's outcome here also keeps a run that goes on past
        // its limit from leaving an unhandled rejection behind.
        running.then(resolve, reject);
        timer = setTimeout(() => {
          const reason = new DOMException(`tool ${tool.name} did not finish within ${limit} ms`, "TimeoutError");
          run.expire(reason);
          reject(reason);
        }, limit);
      });
    } else {
      returned = await value;
    }
  } catch (fault) {
    return faultOrRethrow(tool, fault, event);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    run.release();
  }
  return checkResult(tool, returned, event);
}

/**
 * A deliberate protocol error (e.g. McpError(-32021, ...)) is rethrown, to be
 * answered as a JSON-RPC error, and so is the end of a round (an unanswered
 * ask): neither is a fault. Anything else is a fault result.
 */
function faultOrRethrow(tool: RegisteredTool, fault: unknown, event: ToolCallEvent | undefined): CallToolResult {
  if (isProtocolError(fault) || fault instanceof InputRequiredSignal) throw fault;
  return faultResult(tool.name, fault, event);
}

/** Normalises what a handler returned and checks `structuredContent` against the tool's `outputSchema`. */
function checkResult(tool: RegisteredTool, returned: ToolHandlerResult, event: ToolCallEvent | undefined): ToolRunResult {
  const result = normaliseResult(returned);
  if (!result) {
    return faultResult(
      tool.name,
      returned,
      event,
      "TypeError",
      `tool returned a value that is not a CallToolResult: ${boundValue(returned, 200)}`,
    );
  }
  if (result !== returned && isDispatchError(returned)) dispatchError(result);
  if (result.resultType === "input_required") return result;
  if (tool.checkOutput && !result.isError) {
    if (result.structuredContent === undefined) {
      return toolErrorResult(`Tool ${tool.name} declares an outputSchema but returned no structuredContent`);
    }
    const problems = tool.checkOutput(result.structuredContent);
    if (problems.length > 0) {
      return toolErrorResult(
        `Tool ${tool.name} returned structuredContent that does not match its outputSchema:\n${formatProblems(problems)}`,
      );
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
  // Stamping the answer (resultType, server info) copies it: the handler's object stays as it was.
  return result;
}
