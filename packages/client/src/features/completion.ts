/**
 * Completion (spec: server/utilities/completion): suggestions for a prompt
 * or resource-template argument.
 */
import type { CompleteResult } from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import type { Channel } from "../channel.js";
import type { RequestArguments, RequestOptions } from "../options.js";
import { completed, invalidResult, isObject } from "../results.js";

/**
 * `completion/complete`.
 * @throws McpClientError -32094 when the result has no `completion.values` array.
 */
export async function complete(
  channel: Channel,
  params: RequestArguments<"completion/complete">,
  options: RequestOptions,
): Promise<CompleteResult> {
  const result = completed(await channel.request(Method.CompletionComplete, params, options), Method.CompletionComplete);
  if (!isObject(result.completion) || !Array.isArray(result.completion.values))
    throw invalidResult("The completion/complete result has no completion.values array");
  return result;
}
