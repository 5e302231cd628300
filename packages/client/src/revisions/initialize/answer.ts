/**
 * Answering the requests a server sends on an `initialize`-era session
 * (`ping`, `elicitation/create`, `sampling/createMessage`, `roots/list`)
 * through the same handlers the Multi Round-Trip loop uses. What the server
 * sends is checked with `@x/mcp-v2511`'s validators; what a handler returns
 * with the ones the Multi Round-Trip loop uses; every response is built
 * with `@x/jsonrpc`.
 */
import { errorResponse, isObject, JsonRpcErrorCode, resultResponse } from "@x/jsonrpc";
import type { JSONRPCRequest } from "@x/mcp-v2607";
import type { ServerResponse } from "../../features/answering.js";
import { checkAnswer, type InputContext, type InputHandlers } from "../../mrtr.js";
import { loadLegacyValidate } from "./handshake.js";

const REQUESTS = {
  "elicitation/create": { handler: "elicitation", params: "ElicitRequestParams", result: "ElicitResult" },
  "sampling/createMessage": { handler: "sampling", params: "CreateMessageRequestParams", result: "CreateMessageResult" },
  "roots/list": { handler: "roots", params: undefined, result: "ListRootsResult" },
} as const;

/**
 * Answers one server-to-client request of an `initialize`-era session:
 * `ping` with an empty result (spec 2025-11-25: utilities/ping); the three
 * input requests through `handlers` (spec: client/elicitation,
 * client/sampling, client/roots), their params checked with the 2025-11-25
 * validators and the handler's result as the Multi Round-Trip loop checks it.
 *
 * @returns the response to send back, or `undefined` when `signal` aborted
 *   (the server cancelled the request, which then gets no answer: spec
 *   utilities/cancellation). Never rejects. Errors: -32601 for a method this
 *   client does not serve or has no handler for (its capability was then
 *   never declared), -32602 for params the schema rejects, -32603 when the
 *   handler throws or returns a result the schema rejects.
 */
export async function answerServerRequest(
  request: JSONRPCRequest,
  handlers: InputHandlers,
  signal: AbortSignal,
): Promise<ServerResponse | undefined> {
  const { id, method } = request;
  if (method === "ping") return resultResponse(id, {});
  const kind = REQUESTS[method as keyof typeof REQUESTS];
  if (!kind) return errorResponse(id, JsonRpcErrorCode.MethodNotFound, `Method not found: this client does not serve ${method}`);
  const handler = handlers[kind.handler] as ((params: unknown, context: InputContext) => unknown) | undefined;
  if (!handler) {
    return errorResponse(id, JsonRpcErrorCode.MethodNotFound, `Method not found: this client has no ${kind.handler} handler for ${method}`);
  }
  const validate = await loadLegacyValidate();
  const raw = isObject(request.params) ? request.params : {};
  const { _meta: _, ...params } = raw;
  if (kind.params !== undefined) {
    const checked = validate(kind.params, params);
    if (!checked.ok) {
      const where = checked.problems
        .slice(0, 5)
        .map((p) => `${p.path || "(root)"}: ${p.message}`)
        .join("; ");
      return errorResponse(id, JsonRpcErrorCode.InvalidParams, `Invalid params of ${method}: ${where}`);
    }
  }
  let result: unknown;
  try {
    result = await handler(params, { key: String(id), method, params, round: 1, signal });
  } catch (error) {
    if (signal.aborted) return undefined;
    return errorResponse(
      id,
      JsonRpcErrorCode.InternalError,
      `The ${kind.handler} handler failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (signal.aborted) return undefined;
  const checked = await checkAnswer(kind.result, result);
  if (!checked.ok) {
    return errorResponse(id, JsonRpcErrorCode.InternalError, `The ${kind.handler} handler returned an invalid ${kind.result}`, {
      problems: checked.problems,
    });
  }
  return resultResponse(id, checked.value);
}
