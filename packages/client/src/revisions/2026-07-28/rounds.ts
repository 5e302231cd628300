/**
 * Multi Round-Trip Requests (spec 2026-07-28: basic/patterns/mrtr): a
 * request answered `input_required` is retried with the handlers' answers
 * until its result is complete.
 */
import type { ResponseResultOf } from "@x/mcp-v2607";
import { cancelled } from "../../channel.js";
import { ClientErrorCode, McpClientError } from "../../errors.js";
import type { Answering } from "../../features/answering.js";
import type { InputMethod, InputOptions, RequestArguments } from "../../options.js";
import { invalidResult, isInputRequired } from "../../results.js";

/**
 * Sends a request that may answer `input_required` and resolves it:
 * `resultType` is read first; the input requests are fulfilled through the
 * handlers and the request retried with a new id, the same params, the
 * `inputResponses` under the keys asked, and the `requestState` echoed
 * byte for byte (left out when none came), up to `maxInputRounds` retries.
 */
export async function resolveRounds<M extends InputMethod>(
  answering: Answering,
  defaultMaxRounds: number,
  method: M,
  params: RequestArguments<M>,
  options: InputOptions,
  send: (params: RequestArguments<M>) => Promise<ResponseResultOf<M>>,
  tasksDeclared = false,
): Promise<{ result: ResponseResultOf<M>; rounds: number }> {
  const maxRounds = options.maxInputRounds ?? defaultMaxRounds;
  let current: RequestArguments<M> = { ...params };
  if (options.inputResponses !== undefined) current.inputResponses = options.inputResponses;
  if (options.requestState !== undefined) current.requestState = options.requestState;
  for (let rounds = 0; ; rounds++) {
    const result = await send(current);
    if (!isInputRequired(result, method, tasksDeclared)) return { result, rounds };
    const inputRequests = result.inputRequests;
    const requestState = result.requestState;
    if (inputRequests === undefined && requestState === undefined) {
      throw invalidResult(`The server answered ${method} with input_required but neither inputRequests nor requestState`);
    }
    if (requestState !== undefined && typeof requestState !== "string")
      throw invalidResult(`The requestState of ${method}'s input_required result is not a string`);
    if (options.inputRequired === "return") return { result, rounds };
    if (rounds >= maxRounds) {
      throw new McpClientError(
        ClientErrorCode.InputRoundsExceeded,
        `The server still asked for input on ${method} after ${maxRounds} rounds`,
        { rounds: maxRounds, lastResult: result },
      );
    }
    const next: RequestArguments<M> = { ...params };
    if (inputRequests !== undefined) {
      // Only the caller's signal cuts a handler short: `timeout` bounds each round trip, not the
      // time a person takes to answer (as with the pause for an authorization in a browser).
      const signal = options.signal ?? new AbortController().signal;
      try {
        next.inputResponses = await answering.answer(inputRequests, { method, params, round: rounds + 1, signal });
      } catch (error) {
        if (signal.aborted) throw cancelled(method, signal.reason);
        throw error;
      }
    }
    if (requestState !== undefined) next.requestState = requestState;
    current = next;
  }
}
