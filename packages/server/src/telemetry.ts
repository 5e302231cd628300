/**
 * Telemetry: what the server publishes on `node:diagnostics_channel`, and the
 * W3C trace context a request carries in `_meta` (spec 2026-07-28,
 * basic/index "OpenTelemetry trace context").
 *
 * This module is the one place where every channel is named and its message
 * is described. Nothing is published unless someone subscribes (each publish
 * first checks `hasSubscribers`), so a server with no subscriber pays one
 * property read per event. The server depends on no telemetry library: an
 * OpenTelemetry user subscribes to these channels and starts and ends spans
 * from the messages, using `trace` (the caller's `traceparent`) as the parent.
 *
 * | channel | published when | message |
 * | --- | --- | --- |
 * | `x-mcp:tool:start` | a `tools/call` reached a registered tool, before any check of its arguments | {@link ToolCallEvent} |
 * | `x-mcp:tool:error` | the tool faulted: a throw, a rejected promise, a thrown non-Error value, a return that is no result, a run past its timeout | the same {@link ToolCallEvent}, with `exception`, `error` and `crashReason` set |
 * | `x-mcp:tool:stop` | the call is over, whatever its outcome (once per start) | the same {@link ToolCallEvent}, with `durationMs`, `outcome`, `isError` and `errorKind` set (and `errorCode` and `error` for a `protocol_error`) |
 * | `x-mcp:help` | the reserved `help` tool answered, errors included | {@link HelpEvent} |
 * | `x-mcp:request:rejected` | the server answered a request with a JSON-RPC error | {@link RequestRejectedEvent} |
 * | `x-mcp:traffic` | every message the server reads from a client or writes to one, a stream opened or closed, a task made or changed (nothing is built without a subscriber) | {@link TrafficEvent} |
 * | `x-mcp:message:ignored` | the server read a message it does not answer and cannot use: a JSON-RPC response it did not ask for, or a malformed one (over Streamable HTTP refused with 400 and an error without id) | {@link MessageIgnoredEvent} |
 *
 * One object travels through start, error and stop (the way Node's own
 * `TracingChannel` passes one context object), so a subscriber may stash a
 * span on it at start and end that span at stop; by setting its `within`
 * at start, it also runs the handler inside its own async context.
 * `@x/otel` is such a subscriber for OpenTelemetry.
 *
 * @example
 * import { subscribe } from "node:diagnostics_channel";
 * import { CHANNELS, type ToolCallEvent } from "@x/server";
 * subscribe(CHANNELS.toolStop, (message) => {
 *   const e = message as ToolCallEvent;
 *   console.error(`${e.tool} ${e.action ?? ""} ${e.outcome} ${e.errorKind ?? ""} ${e.durationMs.toFixed(1)} ms`);
 * });
 */
import { channel } from "node:diagnostics_channel";
import type { RequestId } from "@x/mcp-v2607";
import { isObject, type JsonObject } from "./objects.js";
import type { TrafficEvent } from "./traffic.js";

/** The names of every channel the server publishes on. */
export const CHANNELS = Object.freeze({
  /** A tool call starts: {@link ToolCallEvent}. */
  toolStart: "x-mcp:tool:start",
  /** A tool call is over: {@link ToolCallEvent} with its outcome. */
  toolStop: "x-mcp:tool:stop",
  /** A tool faulted: {@link ToolCallEvent} with `exception`, `error` and `crashReason`. */
  toolError: "x-mcp:tool:error",
  /** The `help` tool answered: {@link HelpEvent}. */
  help: "x-mcp:help",
  /** A request was answered with a JSON-RPC error: {@link RequestRejectedEvent}. */
  requestRejected: "x-mcp:request:rejected",
  /** A message was dropped unanswered (a JSON-RPC response, or a malformed one): {@link MessageIgnoredEvent}. */
  messageIgnored: "x-mcp:message:ignored",
  /** Every message read from a client or written to one (see `traffic.ts`): {@link TrafficEvent}. */
  traffic: "x-mcp:traffic",
} as const);

/**
 * Which side an `isError` tool result is on.
 * - `"dispatch"`: a check refused the call before the tool's own code ran
 *   (a dispatch gate of an action tool, the `inputSchema` check of a plain
 *   tool, or a result a handler marked with `dispatchError`).
 * - `"tool"`: the tool ran and answered with an error, or faulted.
 */
export type ErrorKind = "dispatch" | "tool";

/**
 * How a tool call ended: `"ok"` (a result without `isError`), `"error"` (an
 * `isError` result, faults included), `"input_required"` (the round ended on an
 * unanswered ask) or `"protocol_error"` (the tool threw a JSON-RPC error on purpose).
 */
export type ToolOutcome = "ok" | "error" | "input_required" | "protocol_error";

/**
 * The W3C trace context of a request, read from its `_meta` keys
 * `traceparent`, `tracestate` and `baggage`.
 */
export interface TraceContext {
  /** The `traceparent` value as sent (`version-traceId-parentId-flags`). */
  readonly traceparent: string;
  /** The `tracestate` value as sent, when there was one. */
  readonly tracestate?: string;
  /** The `baggage` value as sent, when there was one. */
  readonly baggage?: string;
  /** 32 lower-case hex digits. */
  readonly traceId: string;
  /** The caller's span id: 16 lower-case hex digits. */
  readonly parentId: string;
  /** The trace flags byte (bit 0 is "sampled"). */
  readonly traceFlags: number;
  /** True when the caller sampled this trace. */
  readonly sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Reads the W3C trace context from a request's `_meta`.
 *
 * Returns `undefined` when `traceparent` is absent or invalid (the W3C rule:
 * a receiver ignores a malformed `traceparent`, and then `tracestate` too):
 * not 4 dash-separated lower-case hex fields of 2, 32, 16 and 2 digits,
 * version `ff`, an all-zero trace or parent id, or version `00` with extra
 * fields. A `tracestate` or `baggage` that is not a string is left out.
 */
export function readTraceContext(meta: Readonly<JsonObject> | undefined): TraceContext | undefined {
  const traceparent = meta?.traceparent;
  if (typeof traceparent !== "string" || traceparent.length > 512) return undefined;
  const match = TRACEPARENT.exec(traceparent);
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  const traceFlags = Number.parseInt(flags, 16);
  const context: { -readonly [K in keyof TraceContext]: TraceContext[K] } = {
    traceparent,
    traceId,
    parentId,
    traceFlags,
    sampled: (traceFlags & 1) === 1,
  };
  if (typeof meta?.tracestate === "string") context.tracestate = meta.tracestate;
  if (typeof meta?.baggage === "string") context.baggage = meta.baggage;
  return Object.freeze(context);
}

/**
 * The message of one tool call. Published on `x-mcp:tool:start`, then (for a
 * fault) on `x-mcp:tool:error`, then on `x-mcp:tool:stop`: the same object,
 * filled in as the call goes. Subscribers may add their own keys (a span).
 */
export interface ToolCallEvent {
  /** The tool's name. */
  readonly tool: string;
  /**
   * For an action tool, the `action` argument as the client sent it (when a
   * string); for `help`, the target action. `undefined` otherwise.
   */
  readonly action: string | undefined;
  /** The JSON-RPC id of the `tools/call` request. */
  readonly requestId: RequestId;
  /** The caller's trace context from `_meta`, when it sent a valid one. */
  readonly trace: TraceContext | undefined;
  /** The protocol version the call is served in: the request's (2026-07-28) or its session's (`initialize` era). */
  readonly protocolVersion: string;
  /** The `Mcp-Session-Id` of the `initialize`-era session the call came on; `undefined` in 2026-07-28 and on stdio. */
  readonly sessionId: string | undefined;
  /** `performance.now()` at the start, in milliseconds. */
  readonly startTime: number;
  /** Set at stop: milliseconds from start to stop. */
  durationMs: number;
  /** Set at stop: how the call ended. */
  outcome: ToolOutcome | undefined;
  /** Set at stop: the result's `isError` (false for `input_required`, true for a protocol error). */
  isError: boolean;
  /** Set at stop when `isError` is true for a tool result: which side the error is on. */
  errorKind: ErrorKind | undefined;
  /** Set on a fault: the error's `name` (`"TypeError"`, `"TimeoutError"`, ...) or `"throw"` for a thrown non-Error value. */
  exception: string | undefined;
  /**
   * Set on a fault: the bounded rendering of the fault, as sent in the
   * result's `message`. Set at stop for a `protocol_error`: the JSON-RPC
   * error's message (bounded to 500 characters).
   */
  error: string | undefined;
  /** Set on a fault: the thrown value itself, whole (never sent to the client). */
  crashReason: unknown;
  /** Set at stop for a `protocol_error`: the JSON-RPC error code the request is answered with. */
  errorCode: number | undefined;
  /**
   * May be set by an `x-mcp:tool:start` subscriber: the tool's handler is
   * then called as `within(() => handler(args, ctx))`, so that the subscriber
   * can run it inside its own async context (a tracer makes its span the
   * active one, and the spans the handler starts become its children).
   * `within` must call `run` once, synchronously, and return what it
   * returns; what it throws counts as the handler's fault. A second
   * subscriber that sets it wraps the first one's.
   */
  within?: <T>(run: () => T) => T;
  [key: string]: unknown;
}

/** The message published on `x-mcp:help` once the `help` tool has its answer. */
export interface HelpEvent {
  /** The `tool` argument, when a string. */
  readonly tool: string | undefined;
  /** The `action` argument, when a string. */
  readonly action: string | undefined;
  /** Which level the arguments addressed: the index (no tool), one tool, or one action. */
  readonly level: "index" | "tool" | "action";
  /** True when help answered with an error (an unknown target, a bad argument). */
  readonly isError: boolean;
  /** The JSON-RPC id of the `tools/call` request. */
  readonly requestId: RequestId;
}

/** The message published on `x-mcp:request:rejected`. */
export interface RequestRejectedEvent {
  /** The JSON-RPC id, when the request had a usable one. */
  readonly requestId: RequestId | undefined;
  /** The method, when the message named one. */
  readonly method: string | undefined;
  /** The JSON-RPC error code, e.g. -32602. */
  readonly code: number;
  /** The error message sent. */
  readonly message: string;
  /**
   * The HTTP status it was answered with, when the transport that answered
   * is Streamable HTTP; `undefined` over stdio and for `McpServer.handle`,
   * which have none.
   */
  readonly status: number | undefined;
}

/**
 * The message published on `x-mcp:message:ignored`. Not on
 * `x-mcp:request:rejected`: nothing was answered, so there is no error code or
 * status to report (over Streamable HTTP an `"invalid-response"` body is
 * refused with 400, -32600 and no id, reported here only).
 */
export interface MessageIgnoredEvent {
  /**
   * Why:
   * - `"unsolicited-response"`: a well-formed JSON-RPC response (result or
   *   error) that answers no request the server is waiting on (a 2026-07-28
   *   server sends none);
   * - `"invalid-response"`: a message shaped as a response (`result` or
   *   `error`, no `method`) that is not a well-formed one (both members, an
   *   `error` that is no object with an integer `code` and a string
   *   `message`, a result without a valid id, no `jsonrpc: "2.0"`).
   *
   * Neither is ever answered: an answer would hand its id back to the
   * client as if answering a request of its own.
   */
  readonly reason: "unsolicited-response" | "invalid-response";
  /** The message's id when it is a valid one; `undefined` otherwise (an error response with a `null` or no id). */
  readonly requestId: RequestId | undefined;
  /** The code of its `error` member, when an integer (a safe one); `undefined` otherwise. */
  readonly code: number | undefined;
}

/** {@link MessageIgnoredEvent.code} of a response-shaped message: its `error.code` when a safe integer. */
export function errorCodeOf(message: unknown): number | undefined {
  const error = isObject(message) ? message.error : undefined;
  const code = isObject(error) ? error.code : undefined;
  return Number.isSafeInteger(code) ? (code as number) : undefined;
}

const toolStart = channel(CHANNELS.toolStart);
const toolStop = channel(CHANNELS.toolStop);
const toolError = channel(CHANNELS.toolError);
const help = channel(CHANNELS.help);
const requestRejected = channel(CHANNELS.requestRejected);
const messageIgnored = channel(CHANNELS.messageIgnored);

/** True when some tool channel (`x-mcp:tool:start`, `:stop` or `:error`) has a subscriber. */
export function toolEventsObserved(): boolean {
  return toolStart.hasSubscribers || toolStop.hasSubscribers || toolError.hasSubscribers;
}

/**
 * Starts the record of one tool call and publishes it on `x-mcp:tool:start`.
 * Returns the event to pass to {@link publishToolError} and {@link publishToolStop},
 * or `undefined` when no tool channel has a subscriber (then a call costs no
 * allocation; a subscriber that arrives during a call sees the next one).
 * `action` and `trace` are read only when the event is made.
 */
export function publishToolStart(
  tool: string,
  action: () => string | undefined,
  requestId: RequestId,
  trace: () => TraceContext | undefined,
  protocolVersion: string,
  sessionId: string | undefined,
): ToolCallEvent | undefined {
  if (!toolStart.hasSubscribers && !toolStop.hasSubscribers && !toolError.hasSubscribers) return undefined;
  const event: ToolCallEvent = {
    tool,
    action: action(),
    requestId,
    trace: trace(),
    protocolVersion,
    sessionId: sessionId || undefined,
    startTime: performance.now(),
    durationMs: 0,
    outcome: undefined,
    isError: false,
    errorKind: undefined,
    exception: undefined,
    error: undefined,
    crashReason: undefined,
    errorCode: undefined,
  };
  if (toolStart.hasSubscribers) toolStart.publish(event);
  return event;
}

/** Records a fault on the event and publishes it on `x-mcp:tool:error`. */
export function publishToolError(event: ToolCallEvent | undefined, exception: string, error: string, crashReason: unknown): void {
  if (!event) return;
  event.exception = exception;
  event.error = error;
  event.crashReason = crashReason;
  if (toolError.hasSubscribers) toolError.publish(event);
}

/**
 * Records how the call ended and publishes the event on `x-mcp:tool:stop`.
 * For a `protocol_error`, `protocolError` is the error thrown, its message
 * already bounded: recorded as `errorCode` and `error`.
 */
export function publishToolStop(
  event: ToolCallEvent | undefined,
  outcome: ToolOutcome,
  errorKind?: ErrorKind,
  protocolError?: { code: number; message: string },
): void {
  if (!event) return;
  event.durationMs = performance.now() - event.startTime;
  event.outcome = outcome;
  event.isError = outcome === "error" || outcome === "protocol_error";
  event.errorKind = outcome === "error" ? (errorKind ?? "tool") : undefined;
  if (outcome === "protocol_error" && protocolError) {
    event.errorCode = protocolError.code;
    event.error = protocolError.message;
  }
  if (toolStop.hasSubscribers) toolStop.publish(event);
}

/** Calls a tool's handler: through the `within` a start subscriber set on the event, else directly. */
export function runWithin<T>(event: ToolCallEvent | undefined, run: () => T): T {
  return event?.within ? event.within(run) : run();
}

/** Publishes a {@link HelpEvent} on `x-mcp:help`. */
export function publishHelp(event: HelpEvent): void {
  if (help.hasSubscribers) help.publish(event);
}

/** True when `x-mcp:request:rejected` has a subscriber (a caller may skip building the event otherwise). */
export function rejectionsObserved(): boolean {
  return requestRejected.hasSubscribers;
}

/** Publishes a {@link RequestRejectedEvent} on `x-mcp:request:rejected` (a transport may publish its own rejections here too). */
export function publishRequestRejected(event: RequestRejectedEvent): void {
  if (requestRejected.hasSubscribers) requestRejected.publish(event);
}

/** Publishes a {@link MessageIgnoredEvent} on `x-mcp:message:ignored`. */
export function publishMessageIgnored(event: MessageIgnoredEvent): void {
  if (messageIgnored.hasSubscribers) messageIgnored.publish(event);
}

const dispatchErrors = new WeakSet<object>();

/**
 * Marks an `isError` result a handler built as a dispatch rejection (its own
 * check of the arguments refused the call before any work), so that
 * `x-mcp:tool:stop` reports `errorKind: "dispatch"` for it. The mark does not
 * travel on the wire. Any other `isError` result is classified `"tool"`.
 * Returns `result` itself.
 */
export function dispatchError<T extends object>(result: T): T {
  dispatchErrors.add(result);
  return result;
}

/** True when `result` was marked with {@link dispatchError}. */
export function isDispatchError(result: unknown): boolean {
  return typeof result === "object" && result !== null && dispatchErrors.has(result);
}
