/**
 * Answering the input requests of an `InputRequiredResult` (spec 2026-07-28,
 * basic/patterns/mrtr): each entry of `inputRequests` is an
 * `elicitation/create`, `sampling/createMessage` or `roots/list` request that
 * the client fulfils through a handler; the answers form the `inputResponses`
 * of the retry, under the same keys.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  InputResponses,
  ListRootsResult,
} from "@x/mcp-v2607";
import { isObject } from "@x/jsonrpc";
import { Method } from "@x/mcp-v2607/constants";
import { loadOnce } from "./lazy.js";

type Validate = typeof import("@x/mcp-v2607").validate;
const validateModule = loadOnce(() => import("@x/mcp-v2607").then((m): Validate => m.validate));
/**
 * The generated `validate`, loaded when the first answer is checked: the
 * module holds every definition's validator and costs tens of milliseconds
 * to load, which a client that never answers input requests should not pay.
 */
function loadValidate(): Promise<Validate> {
  return validateModule.get();
}
import { ClientErrorCode, McpClientError } from "./errors.js";

/** What an input handler receives besides the request's params. */
export interface InputContext {
  /** The key of this input request in `inputRequests`. */
  key: string;
  /** The method of the request being retried, e.g. `tools/call`. */
  method: string;
  /** The params of that request (without `_meta`, `inputResponses`, `requestState`). */
  params: Record<string, unknown>;
  /** Which round of the exchange asks (1 for the first `InputRequiredResult`). */
  round: number;
  /**
   * Aborts when the call stops waiting for this answer: the caller's
   * `signal`, and in a task also the wait's bound (`maxWaitMs`,
   * `maxTaskWaitMs`). The call rejects at that moment without waiting for
   * the handler; whatever the handler settles with later is ignored.
   */
  signal: AbortSignal;
  /** The task that asks, when the input request came from an `input_required` task (tasks extension) rather than a Multi Round-Trip result. */
  taskId?: string;
}

/**
 * Handlers for the requests a server may embed in an `InputRequiredResult`
 * (spec: client/elicitation, client/sampling, client/roots). Each returns
 * the result the spec defines for its request, which is checked against the
 * schema before it is sent.
 */
export interface InputHandlers {
  /** Answers `elicitation/create` (form or URL mode) with an `ElicitResult`. */
  elicitation?: (params: ElicitRequestParams, context: InputContext) => Promise<ElicitResult> | ElicitResult;
  /** Answers `sampling/createMessage` with a `CreateMessageResult`. */
  sampling?: (params: CreateMessageRequestParams, context: InputContext) => Promise<CreateMessageResult> | CreateMessageResult;
  /** Answers `roots/list` with a `ListRootsResult`. */
  roots?: (params: Record<string, unknown>, context: InputContext) => Promise<ListRootsResult> | ListRootsResult;
}

/**
 * Checks a handler's answer against the schema, as both eras do before it is
 * sent. An `ElicitResult`'s `content` may hold any finite number (95.5
 * included): the generator corrects the published schema's narrowing to
 * integers (an erratum in schema/revisions.json), so the server reads the
 * same rule. On success the value is returned as given.
 */
export async function checkAnswer(
  result: "ElicitResult" | "CreateMessageResult" | "ListRootsResult",
  value: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; problems: { path: string; message: string }[] }> {
  const validate = await loadValidate();
  const outcome = validate(result, value);
  return outcome.ok ? { ok: true, value } : { ok: false, problems: outcome.problems };
}

/**
 * Runs `run` (a user's handler) and settles with it, or rejects with the
 * signal's reason as soon as `signal` aborts, whichever comes first. A
 * handler's own promise is not awaited past the abort: its late outcome is
 * swallowed so that it cannot surface as an unhandled rejection.
 */
function untilAborted<T>(run: () => T | PromiseLike<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    // Listening before the handler starts: it may abort the signal itself, synchronously.
    signal.addEventListener("abort", onAbort, { once: true });
    new Promise<T>((settle) => settle(run())).then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const KINDS = {
  [Method.ElicitationCreate]: { handler: "elicitation", result: "ElicitResult" },
  [Method.SamplingCreateMessage]: { handler: "sampling", result: "CreateMessageResult" },
  [Method.RootsList]: { handler: "roots", result: "ListRootsResult" },
} as const;

function unhandled(message: string, data: Record<string, unknown>, cause?: unknown): McpClientError {
  return new McpClientError(ClientErrorCode.InputRequestUnhandled, message, data, "client", { cause });
}

/**
 * Fulfils every entry of `inputRequests`, one after the other in the order
 * the server listed them, and returns the `inputResponses` under the same
 * keys.
 *
 * Each handler is raced against `context.signal`: when it aborts, this
 * rejects at once with the signal's reason, even if the handler never
 * settles (a user who never answers); the handler's later result or
 * rejection is dropped, never an unhandled rejection.
 *
 * @throws McpClientError -32091 (`InputRequestUnhandled`) when an entry is
 *   not a request object, names a method other than the three above, has no
 *   handler, or its handler throws or returns a result the schema rejects;
 *   `data` holds the `key` and `method`. An abort of `context.signal`
 *   rejects with its reason.
 */
export async function answerInputRequests(
  inputRequests: unknown,
  handlers: InputHandlers,
  context: Omit<InputContext, "key">,
): Promise<InputResponses> {
  if (!isObject(inputRequests)) throw unhandled("The server's inputRequests is not an object", {});
  const responses: InputResponses = {};
  for (const [key, request] of Object.entries(inputRequests)) {
    context.signal.throwIfAborted();
    if (!isObject(request) || typeof request.method !== "string") {
      throw unhandled(`Input request ${JSON.stringify(key)} is not a request object`, { key });
    }
    const method = request.method;
    const kind = KINDS[method as keyof typeof KINDS];
    if (!kind)
      throw unhandled(
        `The server asked for ${method} (input request ${JSON.stringify(key)}), which is not an input request this client knows`,
        { key, method },
      );
    const handler = handlers[kind.handler] as ((params: unknown, ctx: InputContext) => unknown) | undefined;
    if (!handler) {
      throw unhandled(
        `The server asked for ${method} (input request ${JSON.stringify(key)}) but this client has no ${kind.handler} handler`,
        { key, method },
      );
    }
    const params = isObject(request.params) ? request.params : {};
    let result: unknown;
    try {
      result = await untilAborted(() => handler(params, { ...context, key }), context.signal);
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      const reason = error instanceof Error ? error.message : String(error);
      throw unhandled(`The ${kind.handler} handler failed on input request ${JSON.stringify(key)}: ${reason}`, { key, method }, error);
    }
    const checked = await checkAnswer(kind.result, result);
    if (!checked.ok) {
      const where = checked.problems.map((p) => `${p.path || "(root)"}: ${p.message}`).join("; ");
      throw unhandled(`The ${kind.handler} handler returned an invalid ${kind.result} for input request ${JSON.stringify(key)}: ${where}`, {
        key,
        method,
        problems: checked.problems,
      });
    }
    // Checked against the schema just above.
    responses[key] = checked.value as InputResponses[string];
  }
  return responses;
}
