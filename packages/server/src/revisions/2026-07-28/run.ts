/**
 * Runs a handler of an asking method (`tools/call`, `prompts/get`,
 * `resources/read`) as one round of a Multi Round-Trip Request (spec
 * 2026-07-28, basic/patterns/mrtr): the answers are read first (the sealed
 * `requestState`, then this round's `inputResponses` over it), the round is
 * put on the run's scope where the context's asks find it, and when the run
 * is over an ask that found no answer turns the round into an
 * `input_required` result with a freshly sealed `requestState`.
 */
import type { InputRequiredResult } from "@x/mcp-v2607";
import type { RequestContext, TransportInfo } from "../../context.js";
import type { RunScope } from "../../scope.js";
import type { MethodEntry } from "../../features/feature.js";
import type { KeyRing } from "../../keys.js";
import type { JsonObject } from "../../objects.js";
import { Round } from "./round.js";
import { openState, readInputResponses, type StateBinding, sealState } from "./state.js";

/** What the round runner needs from the server. */
export interface RoundSettings {
  readonly keys: KeyRing;
  /** Who is asking (`ServerOptions.principal`); the state is bound to it. */
  readonly principal: ((ctx: RequestContext) => string | undefined) | undefined;
  /** How long a sealed state stays valid, in milliseconds. */
  readonly ttlMs: number;
}

/** Marks "the handler returned" where a round's end is told its fault. */
const NO_FAULT: unique symbol = Symbol("no fault");
/** Key rings already warned about (once per server, whose ring it is). */
const warned = new WeakSet<KeyRing>();

/**
 * Runs `entry`'s handler as one round. A run that answers synchronously is
 * ended synchronously (no promise); otherwise the promise of its end. When
 * the client's retry may reach another instance (`transport.manyInstances`:
 * HTTP), sealing with a per-process key is worth a warning.
 * @throws McpError(-32602) when `requestState` or `inputResponses` is not acceptable;
 *   whatever the handler threw that does not end the round.
 */
export function runRound(
  settings: RoundSettings,
  entry: MethodEntry,
  params: JsonObject,
  ctx: RequestContext,
  transport: TransportInfo,
  scope: RunScope,
): unknown {
  const responses = readInputResponses(params.inputResponses);
  let answers: Readonly<JsonObject> = responses;
  if (params.requestState !== undefined) {
    answers = { ...openState(settings.keys, params.requestState, binding(settings, params, ctx)), ...responses };
  }
  const round = new Round(answers);
  scope.route = round;
  const manyInstances = transport.manyInstances === true;
  let running: unknown;
  try {
    running = entry.handle(params, ctx, transport, scope);
  } catch (error) {
    round.finished = true;
    return endRound(settings, round, params, ctx, manyInstances, undefined, error);
  }
  if (!(running instanceof Promise)) {
    round.finished = true;
    return endRound(settings, round, params, ctx, manyInstances, running, NO_FAULT);
  }
  return running.then(
    (result) => {
      round.finished = true;
      return endRound(settings, round, params, ctx, manyInstances, result, NO_FAULT);
    },
    (error) => {
      round.finished = true;
      return endRound(settings, round, params, ctx, manyInstances, undefined, error);
    },
  );
}

function binding(settings: RoundSettings, params: JsonObject, ctx: RequestContext): StateBinding {
  return { method: ctx.method, params, principal: settings.principal?.(ctx) };
}

/**
 * The end of a round's run: `input_required` when an ask found no answer
 * (even when the handler swallowed the signal), else the handler's result,
 * else its fault (`fault` is {@link NO_FAULT} when it returned), rethrown.
 * Sealing with a random per-process key is warned about once per key ring,
 * and only when the retry may reach another instance (`manyInstances`).
 */
function endRound(
  settings: RoundSettings,
  round: Round,
  params: JsonObject,
  ctx: RequestContext,
  manyInstances: boolean,
  result: unknown,
  fault: unknown,
): unknown {
  if (round.ended) {
    if (manyInstances && settings.keys.ephemeral && !warned.has(settings.keys)) {
      warned.add(settings.keys);
      process.emitWarning(
        "requestState is sealed with a random per-process key: several server instances need a shared key (requestStateKeys or MCP_REQUEST_STATE_KEYS)",
        { code: "X_MCP_EPHEMERAL_STATE_KEY" },
      );
    }
    return {
      resultType: "input_required",
      inputRequests: round.pending,
      requestState: sealState(settings.keys, round.used, binding(settings, params, ctx), settings.ttlMs),
    } satisfies InputRequiredResult;
  }
  if (fault !== NO_FAULT) throw fault;
  return result;
}
