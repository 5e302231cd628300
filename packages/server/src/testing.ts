/**
 * Test helpers for handlers that ask (spec 2026-07-28, basic/patterns/mrtr):
 * build a context by hand with declared capabilities and preset answers,
 * run a handler through one round, and see the question it stopped on.
 * Import from `@x/server/testing`.
 *
 * @example
 * const ctx = buildContext({ capabilities: { elicitation: {} }, answers: { "elicit-1": { action: "accept", content: { name: "Ada" } } } });
 * const outcome = await runHandler(myTool, {}, ctx);
 * // outcome.status === "complete": the first elicit was answered at once
 *
 * @module @x/server/testing
 */
import type { ClientCapabilities, InputRequest, InputRequests, RequestMetaObject } from "@x/mcp-v2607";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, Method, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { createContext, type RequestContext, type TransportInfo } from "./context.js";
import { type RunScope, runScope } from "./scope.js";
import { isAskingMethod } from "./methods.js";
import type { JsonObject } from "./objects.js";
import { Round } from "./revisions/2026-07-28/round.js";
import { type AskRoute, NO_ROUTE, presetRoute } from "./route.js";

/** Options of {@link buildContext}. */
export interface BuildContextOptions {
  /** The request's `_meta`; its client capabilities are taken from here unless `capabilities` is given. */
  meta?: Partial<RequestMetaObject>;
  /** The client capabilities the request declares. Default: those in `meta`, else none. */
  capabilities?: ClientCapabilities;
  /** Answers by ask key, standing in for a retry (`{ "elicit-1": { action: "accept", content: {...} } }`). */
  answers?: JsonObject;
  /** The method the handler serves. Default `"tools/call"`. */
  method?: string;
  /** `ctx.assigns`. Default `{}`. */
  assigns?: JsonObject;
  /** Aborts `ctx.signal`. */
  signal?: AbortSignal;
}

/** The scope of each context {@link buildContext} made, and its preset answers. */
const states = new WeakMap<RequestContext, { scope: RunScope; preset: AskRoute }>();

/**
 * Builds a context as a transport would, without a transport. Asks made on
 * it outside {@link runHandler} throw (there is no open round), except that an
 * ask whose capability is missing still answers "not supported".
 */
export function buildContext(options: BuildContextOptions = {}): RequestContext {
  const metaCaps = options.meta?.[META_CLIENT_CAPABILITIES] as ClientCapabilities | undefined;
  const clientCapabilities = options.capabilities ?? metaCaps ?? {};
  const meta = {
    [META_PROTOCOL_VERSION]: PROTOCOL_VERSION,
    ...options.meta,
    [META_CLIENT_CAPABILITIES]: clientCapabilities,
  } as RequestMetaObject;
  const state = runScope(undefined, undefined, undefined);
  // The answers wait for a run to open its round; asks outside one are refused.
  const preset = options.answers ? presetRoute(options.answers) : NO_ROUTE;
  state.route = preset;
  const transport: TransportInfo = {};
  if (options.signal) transport.signal = options.signal;
  if (options.assigns) transport.assigns = options.assigns;
  const method = options.method ?? Method.ToolsCall;
  const ctx = createContext({
    requestId: "test",
    method,
    meta,
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities,
    clientInfo: undefined,
    transport,
    loggingEnabled: false,
    asks: isAskingMethod(method),
    scope: state,
  });
  states.set(ctx, { scope: state, preset });
  return ctx;
}

/** The outcome of one round of a handler run by {@link runHandler}. */
export type RunOutcome<R> =
  | { status: "complete"; result: R }
  | {
      status: "input_required";
      /** Every question this round asked, by key. */
      inputRequests: InputRequests;
      /** The first question the run stopped on. */
      question: { key: string; request: InputRequest };
      /** The answers the run used before it stopped. */
      used: JsonObject;
    };

/**
 * Runs `handler(args, ctx)` as one round: asks find the context's preset
 * answers by key; the first unanswered one ends the round.
 * @throws whatever the handler throws (other than the end of a round);
 *   Error when `ctx` was not made by {@link buildContext}.
 */
export async function runHandler<A, R>(
  handler: (args: A, ctx: RequestContext) => R | Promise<R>,
  args: A,
  ctx: RequestContext,
): Promise<RunOutcome<R>> {
  const made = states.get(ctx);
  if (!made) throw new Error("runHandler needs a context made by buildContext");
  const { scope: state, preset } = made;
  const round = new Round(preset.answers);
  state.route = round;
  let result: R | undefined;
  try {
    result = await handler(args, ctx);
  } catch (error) {
    // An ask that found no answer ended the round; anything else is the handler's own fault.
    if (!round.ended) throw error;
  } finally {
    round.finished = true;
    state.route = preset;
  }
  if (round.ended) {
    const [key, request] = Object.entries(round.pending)[0]!;
    return { status: "input_required", inputRequests: round.pending, question: { key, request }, used: round.used };
  }
  return { status: "complete", result: result as R };
}
