/**
 * One `tools/call` run (spec 2026-07-28, server/tools): arguments checked,
 * the handler run inside a fault boundary under its run limit, the result
 * normalised and checked against `outputSchema`, telemetry published.
 */
import type { CallToolResult, InputRequiredResult } from "@x/mcp-v2607";
import { boundText, boundValue, MESSAGE_LIMIT } from "../../text.js";
import type { RequestContext } from "../../context.js";
import type { RunScope } from "../../scope.js";
import { isProtocolError } from "../../errors.js";
import { runEnded } from "../../route.js";
import { asDigits, asParsed } from "../../numbers.js";
import { copyOwn, type JsonObject } from "../../objects.js";
import { formatProblems, nonFiniteProblem, type SchemaProblem } from "../../schema.js";
import type { StandardOutcome } from "../../standard-schema.js";
import {
  dispatchError,
  isDispatchError,
  publishToolError,
  publishToolStart,
  publishToolStop,
  runWithin,
  type ToolCallEvent,
  toolEventsObserved,
} from "../../telemetry.js";
import { DEFAULT_TOOL_TIMEOUT_MS, type RegisteredTool, type ToolHandlerResult } from "./define.js";

/** A tool-level error result: `isError: true` and one text block. */
export function toolErrorResult(text: string, structured?: CallToolResult["structuredContent"]): CallToolResult {
  const result: CallToolResult = { resultType: "complete", content: [{ type: "text", text }], isError: true };
  if (structured) result.structuredContent = structured;
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
 * The run limit of one handler run: while it is the limit of the run's scope
 * (`RunScope.limit`), `ctx.signal` is the run's own signal, which fires when
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
  /** The limit's timer while it runs; its callback; when it is due; what is left of it while held. */
  #timer: ReturnType<typeof setTimeout> | undefined = undefined;
  #onExpire: (() => void) | undefined = undefined;
  #due = 0;
  #left = 0;
  /** Waits on the client in progress: while any is, the limit does not run. */
  #holds = 0;

  /**
   * Starts the limit: `onExpire` runs once `ms` of the run's own time has
   * passed. Time the run spends waiting on the client (see
   * {@link RunLimit.hold}) does not count: that wait has its own limit
   * (`clientRequestTimeoutMs`), which then fails the ask and names it.
   */
  start(ms: number, onExpire: () => void): void {
    this.#left = ms;
    this.#onExpire = onExpire;
    if (this.#holds === 0) this.#arm();
  }

  /** The run waits on the client until the returned function is called (once; several waits may overlap). */
  hold(): () => void {
    if (this.#holds++ === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#left = Math.max(0, this.#due - performance.now());
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds === 0 && this.#onExpire !== undefined) this.#arm();
    };
  }

  /** The run is over: the limit no longer runs. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#onExpire = undefined;
  }

  #arm(): void {
    this.#due = performance.now() + this.#left;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const expire = this.#onExpire;
      this.#onExpire = undefined;
      expire?.();
    }, this.#left);
  }

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

  /**
   * The run became a task (`ctx.startTask`): a signal the handler already
   * holds fires when the task's does, no longer when the request's does
   * (the request is answered; its connection may close).
   */
  follow(signal: AbortSignal): void {
    this.release();
    if (signal.aborted) this.expire(signal.reason);
    else signal.addEventListener("abort", () => this.expire(signal.reason), { once: true });
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
 * Bad arguments (a non-finite number anywhere in them included) and
 * `structuredContent` that fails the output schema or holds a non-finite
 * number (with or without an `outputSchema`) become an `isError` result
 * saying what went wrong and where (bad arguments are classified `dispatch`).
 * A fault (a throw, a rejected promise, a thrown non-Error value, a return
 * that is no result, a run past the limit) becomes an `isError` result with
 * `{ errorType: "tool_fault", tool, exception, message }`, and the server
 * goes on serving. Past the limit (the tool's `timeoutMs`, else
 * `options.timeoutMs`, else 60 000 ms) the handler's `ctx.signal` is aborted
 * with a `TimeoutError`, and the call is answered at once. The limit counts
 * the run's own time: while the run waits on the client (a `ctx.elicit`
 * sent as a request on a session, ...) it is held, as that wait is bounded by
 * `clientRequestTimeoutMs`, whose failure names the question. The one exception: a thrown
 * protocol error (an `McpError`, or any error with an integer `code` from
 * -32768 to -32000) is rethrown, so the request is answered with that
 * JSON-RPC error; so is the end of a Multi Round-Trip round.
 *
 * The handler gets the arguments' numbers as `JSON.parse` reads them (an
 * integer beyond 2^53 as the nearest double, checked as such: one past the
 * double range is a non-finite number), unless the tool opted in with
 * `bigIntegers`: then they are checked as sent and handed on exactly (as
 * `bigint`s, or as their digits). A message `JSON.parse` alone read
 * (`scope.lossless === false`) holds no `bigint`, and is not walked for one.
 *
 * A tool whose `inputSchema` is a Standard Schema has its arguments checked
 * by the library (`~standard.validate`) instead, and the handler gets the
 * value the library gives back; its problems are reported in the same
 * result. A Standard Schema `outputSchema` likewise checks
 * `structuredContent`, and its output value is what is sent.
 *
 * A handler that answers synchronously is finished synchronously: the
 * result comes back as a value, not a promise (no promise, microtask or
 * timer per call), unless a Standard Schema's validation answered with a
 * promise; a handler that returns a promise gets a promise back.
 * Either way a protocol error or the end of a round is thrown (synchronously
 * or as the rejection).
 */
export function runTool(
  tool: RegisteredTool,
  args: JsonObject,
  ctx: RequestContext,
  scope: RunScope,
  options: RunToolOptions = {},
): ToolRunResult | Promise<ToolRunResult> {
  const event = toolEventsObserved()
    ? publishToolStart(
        tool.name,
        () => tool.actionOf?.(args),
        ctx.requestId,
        () => ctx.trace,
        ctx.protocolVersion,
        scope.binding?.id,
      )
    : undefined;
  let running: ToolRunResult | Promise<ToolRunResult>;
  try {
    running = runGuarded(tool, args, ctx, scope, options, event);
  } catch (thrown) {
    stoppedByThrow(event, scope, thrown);
    throw thrown;
  }
  if (!(running instanceof Promise)) return stopped(event, running);
  return running.then(
    (result) => stopped(event, result),
    (thrown) => {
      stoppedByThrow(event, scope, thrown);
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

function stoppedByThrow(event: ToolCallEvent | undefined, scope: RunScope, thrown: unknown): void {
  if (event === undefined) return;
  if (runEnded(scope)) publishToolStop(event, "input_required");
  else if (isProtocolError(thrown)) {
    publishToolStop(event, "protocol_error", undefined, { code: thrown.code, message: boundText(String(thrown.message), MESSAGE_LIMIT) });
  } else publishToolStop(event, "protocol_error");
}

function runGuarded(
  tool: RegisteredTool,
  args: JsonObject,
  ctx: RequestContext,
  scope: RunScope,
  options: RunToolOptions,
  event: ToolCallEvent | undefined,
): ToolRunResult | Promise<ToolRunResult> {
  // What the handler is typed for: JSON.parse's numbers, unless it opted in (README "Numbers").
  const exact = tool.bigIntegers !== undefined;
  const given = exact || scope.lossless === false ? args : asParsed(args);
  // A schema's number check passes Infinity and NaN, and an overflowing
  // literal such as -1e400 parses to one: reported first, beside the schema's problems.
  const nonFinite = nonFiniteProblem(given);
  if (tool.parseInput !== undefined) {
    // A Standard Schema: its library checks, and its output is what the handler gets.
    const parsed = tool.parseInput(given);
    const proceed = (outcome: StandardOutcome) =>
      outcome.ok && !nonFinite
        ? invoke(tool, outcome.value, ctx, scope, options, event)
        : invalidArguments(tool, nonFinite, outcome.ok ? [] : outcome.problems);
    return parsed instanceof Promise ? parsed.then(proceed) : proceed(parsed);
  }
  const inputProblems = tool.checkInput(given);
  if (nonFinite || inputProblems.length > 0) return invalidArguments(tool, nonFinite, inputProblems);
  // "string": checked as the integers sent, handed on as their digits.
  const digits = tool.bigIntegers === "string" && scope.lossless !== false;
  return invoke(tool, digits ? asDigits(given) : given, ctx, scope, options, event);
}

/** The answer to arguments that fail the tool's input check (classified `dispatch`). */
function invalidArguments(tool: RegisteredTool, nonFinite: SchemaProblem | undefined, problems: SchemaProblem[]): CallToolResult {
  const all = nonFinite ? [nonFinite, ...problems] : problems;
  return dispatchError(toolErrorResult(`Invalid arguments for tool ${tool.name}:\n${formatProblems(all)}`));
}

/** Runs the handler on checked arguments inside the fault boundary, under its run limit. */
function invoke(
  tool: RegisteredTool,
  args: unknown,
  ctx: RequestContext,
  scope: RunScope,
  options: RunToolOptions,
  event: ToolCallEvent | undefined,
): ToolRunResult | Promise<ToolRunResult> {
  // The handler gets the request's context, whose `signal` reads this run's
  // from now on (through the scope): one tools/call, one run, and no derived
  // context to build.
  const run = new RunLimit();
  scope.limit = run;
  let value: ToolHandlerResult | PromiseLike<ToolHandlerResult>;
  try {
    // Called at once (not a tick later), so the handler sees the request as it is now.
    value = event === undefined ? tool.handler(args, ctx) : runWithin(event, () => tool.handler(args, ctx));
  } catch (fault) {
    run.release();
    return faultOrRethrow(tool, fault, scope, event);
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
    scope,
    event,
  );
}

/** Waits for a handler's promise under its run limit (`limit` ms; 0 = none), then checks what it returned. */
async function settleRun(
  tool: RegisteredTool,
  value: PromiseLike<ToolHandlerResult>,
  run: RunLimit,
  limit: number,
  scope: RunScope,
  event: ToolCallEvent | undefined,
): Promise<ToolRunResult> {
  let returned: ToolHandlerResult;
  try {
    if (limit > 0) {
      const running = Promise.resolve(value);
      returned = await new Promise<ToolHandlerResult>((resolve, reject) => {
        // Handling the run's outcome here also keeps a run that goes on past
        // its limit from leaving an unhandled rejection behind.
        running.then(resolve, reject);
        run.start(limit, () => {
          // A run that became a task (`ctx.startTask`) is past the call's limit: the task's time to live bounds it.
          if (scope.task !== undefined) return;
          const reason = new DOMException(`tool ${tool.name} did not finish within ${limit} ms`, "TimeoutError");
          run.expire(reason);
          reject(reason);
        });
      });
    } else {
      returned = await value;
    }
  } catch (fault) {
    return faultOrRethrow(tool, fault, scope, event);
  } finally {
    run.stop();
    run.release();
  }
  return checkResult(tool, returned, event);
}

/**
 * A deliberate protocol error (e.g. McpError(-32021, ...)) is rethrown, to be
 * answered as a JSON-RPC error, and so is the end of a round (an unanswered
 * ask): neither is a fault. Anything else is a fault result.
 */
function faultOrRethrow(tool: RegisteredTool, fault: unknown, scope: RunScope, event: ToolCallEvent | undefined): CallToolResult {
  if (isProtocolError(fault) || runEnded(scope)) throw fault;
  return faultResult(tool.name, fault, event);
}

/**
 * Normalises what a handler returned and checks its `structuredContent`:
 * first for numbers JSON cannot carry (any result, with or without an
 * `outputSchema`: serialised, Infinity and NaN would turn into a silent
 * `null`), then against the tool's `outputSchema`. A Standard Schema
 * `outputSchema` is checked by its library (perhaps asynchronously), and its
 * output value is sent in place of what the handler returned.
 */
function checkResult(
  tool: RegisteredTool,
  returned: ToolHandlerResult,
  event: ToolCallEvent | undefined,
): ToolRunResult | Promise<ToolRunResult> {
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
  if (result.structuredContent !== undefined) {
    const nonFinite = nonFiniteProblem(result.structuredContent);
    if (nonFinite) {
      return toolErrorResult(`Tool ${tool.name} returned structuredContent that JSON cannot carry:\n${formatProblems([nonFinite])}`);
    }
  }
  if (tool.checkOutput && !result.isError) {
    if (result.structuredContent === undefined) {
      return toolErrorResult(`Tool ${tool.name} declares an outputSchema but returned no structuredContent`);
    }
    if (tool.parseOutput !== undefined) {
      // A bigint the handler returned reaches the library as the nearest double, as arguments do.
      const parsed = tool.parseOutput(asParsed(result.structuredContent));
      return parsed instanceof Promise ? parsed.then((outcome) => parsedResult(tool, result, outcome)) : parsedResult(tool, result, parsed);
    }
    const problems = tool.checkOutput(result.structuredContent);
    if (problems.length > 0) return outputMismatch(tool, problems);
  }
  return result;
}

/** A result whose `structuredContent` a Standard Schema checked: refused with its problems, or carrying its output value. */
function parsedResult(tool: RegisteredTool, result: CallToolResult, outcome: StandardOutcome): CallToolResult {
  if (!outcome.ok) return outputMismatch(tool, outcome.problems);
  if (outcome.value === result.structuredContent) return result;
  // A transform may give what JSON cannot carry.
  const nonFinite = nonFiniteProblem(outcome.value);
  if (nonFinite)
    return toolErrorResult(`Tool ${tool.name} returned structuredContent that JSON cannot carry:\n${formatProblems([nonFinite])}`);
  // A copy: the handler's result object stays as it was.
  const sent = copyOwn(result) as CallToolResult;
  sent.structuredContent = outcome.value as CallToolResult["structuredContent"];
  return sent;
}

function outputMismatch(tool: RegisteredTool, problems: readonly SchemaProblem[]): CallToolResult {
  return toolErrorResult(`Tool ${tool.name} returned structuredContent that does not match its outputSchema:\n${formatProblems(problems)}`);
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
