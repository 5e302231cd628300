/**
 * Answering the server: the input handlers (elicitation, sampling, roots;
 * spec: client/elicitation, client/sampling, client/roots), the suspension
 * bridge that turns an elicitation into a `Request` for `waitFor`, the
 * capabilities those handlers declare, and the bound on server requests
 * answered at once. How an ask arrives (a Multi Round-Trip round, a task's
 * input, a request on a session) is the revision's; what answers it is
 * here, the same for all.
 */
import { errorResponse, type JsonRpcErrorResponse, type JsonRpcResultResponse } from "@x/jsonrpc";
import type { ClientCapabilities, InputRequests, InputResponses, JSONRPCRequest, RequestId } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { transportError } from "../errors.js";
import { answerInputRequests, type InputContext, type InputHandlers } from "../mrtr.js";
import { type ClientOptions, MAX_SERVER_REQUESTS } from "../options.js";
import { answerToElicitResult, elicitationToRequest } from "../suspend.js";

/** A response to a server-to-client request, built with `@x/jsonrpc`. */
export type ServerResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/** The handlers, the capabilities they declare, and the server requests being answered. */
export class Answering {
  /** The handlers, with the suspension bridge's elicitation handler when `waitFor` is given. */
  readonly handlers: InputHandlers;
  /** Server-to-client requests being answered, by id, so that `notifications/cancelled` can stop them. */
  private readonly answering = new Map<RequestId, AbortController>();
  private readonly maxAnswering: number;
  /** Input requests (Multi Round-Trip rounds, a task's `inputRequests`) being answered. */
  private readonly inputs = new Set<AbortController>();

  constructor(options: ClientOptions) {
    const handlers: InputHandlers = { ...options.handlers };
    const waitFor = options.waitFor;
    if (!handlers.elicitation && waitFor) {
      handlers.elicitation = async (params, context) =>
        answerToElicitResult(await waitFor(elicitationToRequest(params), { signal: context.signal }));
    }
    this.handlers = handlers;
    this.maxAnswering = options.maxServerRequests ?? MAX_SERVER_REQUESTS;
  }

  /**
   * `capabilities` with those of the handlers given added when absent
   * (`elicitation` with the URL mode too when the bridge answers it).
   */
  declare(capabilities: ClientCapabilities, options: ClientOptions): ClientCapabilities {
    const declared: ClientCapabilities = structuredClone(capabilities);
    const handlers = this.handlers;
    if (handlers.elicitation && !declared.elicitation)
      declared.elicitation = options.waitFor && !options.handlers?.elicitation ? { form: {}, url: {} } : { form: {} };
    if (handlers.sampling && !declared.sampling) declared.sampling = {};
    if (handlers.roots && !declared.roots) declared.roots = {};
    return declared;
  }

  /** True when an input handler for `kind` is installed. */
  has(kind: keyof InputHandlers): boolean {
    return typeof this.handlers[kind] === "function";
  }

  /**
   * Fulfils `inputRequests` through the handlers (see `answerInputRequests`).
   * Tracked like a server request, so that closing the client cuts the
   * handlers short: no other bound runs while a person answers.
   */
  async answer(inputRequests: InputRequests | undefined, context: Omit<InputContext, "key">): Promise<InputResponses> {
    const caller = context.signal;
    const controller = new AbortController();
    const follow = () => controller.abort(caller.reason);
    if (caller.aborted) follow();
    else caller.addEventListener("abort", follow, { once: true });
    this.inputs.add(controller);
    try {
      return await answerInputRequests(inputRequests, this.handlers, { ...context, signal: controller.signal });
    } finally {
      caller.removeEventListener("abort", follow);
      this.inputs.delete(controller);
    }
  }

  /**
   * Answers one server-to-client request with `answer`, tracked so that
   * {@link cancel} can stop it; past `maxServerRequests` at once (or on an
   * id already being answered) the request is answered -32603 at once, so
   * that a server cannot make the client hold unbounded state.
   */
  async serve(
    request: JSONRPCRequest,
    answer: (signal: AbortSignal) => Promise<ServerResponse | undefined>,
  ): Promise<ServerResponse | undefined> {
    if (this.answering.size >= this.maxAnswering || this.answering.has(request.id)) {
      const message =
        this.answering.size >= this.maxAnswering
          ? `This client answers at most ${this.maxAnswering} server requests at a time`
          : `A request with id ${JSON.stringify(request.id)} is already being answered`;
      return errorResponse(request.id, ErrorCode.InternalError, message);
    }
    const controller = new AbortController();
    this.answering.set(request.id, controller);
    try {
      return await answer(controller.signal);
    } finally {
      if (this.answering.get(request.id) === controller) this.answering.delete(request.id);
    }
  }

  /** Stops answering the request `id` (the server cancelled it). */
  cancel(id: RequestId): void {
    this.answering.get(id)?.abort(new Error("The server cancelled the request"));
  }

  /** Stops every answer, to the server's requests and to input requests alike (the client closed). */
  abortAll(): void {
    const closed = transportError("closed", "The client was closed");
    for (const controller of [...this.answering.values(), ...this.inputs]) controller.abort(closed);
    this.answering.clear();
    this.inputs.clear();
  }
}
