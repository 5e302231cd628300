/**
 * The call at the top of the ladder (internal): the opening request goes to
 * the core's framing, a request on a session to its framing, and any other
 * request is run per request: it takes a slot in the core's calls in flight,
 * and its answer is JSON, or an SSE stream from its first notification on.
 */
import { stringifyJson } from "@x/jsonrpc";
import type { JSONRPCNotification, RequestId } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { type InboundRequest, type Outcome, responseText } from "../../dispatch.js";
import type { JsonObject } from "../../objects.js";
import { answerNow } from "../../server.js";
import { Call } from "../call.js";
import { ChunkQueue, sseEventOf } from "../sse.js";
import { errorAnswer, jsonHeaders, SSE_HEADERS, settleAnswer } from "./answers.js";
import type { Core } from "./core.js";
import type { Exchange, HttpAnswer } from "./exchange.js";
import { statusOf } from "./status.js";

export function runCall(core: Core, ex: Exchange): HttpAnswer | Promise<HttpAnswer> {
  const first = ex.inbound!;
  if (first.kind === "initialize") return open(core, ex, first.id, first.params);
  const inbound = first as InboundRequest;
  if (ex.session) return core.framing!.call(ex, inbound);
  // The exchange lives as long as its response (a listen stream's, for long): it need not hold the request too.
  ex.inbound = undefined;
  const cors = ex.cors;
  const accepts = ex.accepts;
  const call = new Call("http");
  // The client's retry of an input_required answer may reach another instance.
  call.manyInstances = true;
  call.status = statusOf;
  if (ex.assigns) call.assigns = ex.assigns;
  if (ex.auth) call.auth = ex.auth;
  core.inFlight.add(call);
  ex.watch(call);

  // The answer is a value when the handler answered at once (most tools),
  // a promise otherwise; an SSE answer as soon as a first notification is sent.
  let resolveAnswer: ((a: HttpAnswer) => void) | undefined;
  let streamAnswer: HttpAnswer | undefined;
  let stream: ChunkQueue | undefined;
  const deliver = (json: string): boolean => {
    if (call.done || !accepts.sse || call.aborted) return false;
    if (!stream) {
      stream = new ChunkQueue(core.options.maxBufferedBytes);
      const abort = () => call.abort();
      stream.onCancel = abort;
      stream.onOverflow = abort;
      core.keepAlive?.add(stream);
      streamAnswer = { status: 200, headers: { ...SSE_HEADERS, ...cors }, stream };
      resolveAnswer?.(streamAnswer);
    }
    return stream.push(sseEventOf(json));
  };
  // Checked first: a notification that cannot be sent is not serialised.
  call.streamsTo(
    (note: JSONRPCNotification): boolean => !call.done && accepts.sse && !call.aborted && deliver(stringifyJson(note)),
    deliver,
  );
  /** Ends the call; the JSON answer, or undefined when the outcome went down the SSE stream. */
  const finish = (outcome: Outcome): HttpAnswer | undefined => {
    call.done = true;
    if (stream) core.keepAlive?.delete(stream);
    ex.unwatch();
    core.finished(call);
    if (stream) {
      if (!call.aborted) stream.push(sseEventOf(responseText(outcome)));
      stream.end();
      return undefined;
    }
    return { status: statusOf(outcome), headers: jsonHeaders(cors), body: responseText(outcome) };
  };
  const outcome = answerNow(core.server, inbound, call);
  return settleAnswer(
    outcome,
    inbound,
    finish,
    // Read once: the stream's answer is not kept for the rest of its life.
    () => {
      const answer = streamAnswer;
      streamAnswer = undefined;
      return answer;
    },
    (resolve) => {
      resolveAnswer = resolve;
    },
  );
}

/** The opening request: the framing's (only a revision plug-in opens sessions, and it frames them). */
function open(core: Core, ex: Exchange, id: RequestId, params: JsonObject): HttpAnswer | Promise<HttpAnswer> {
  if (core.framing) return core.framing.open(ex, id, params);
  return errorAnswer(500, ErrorCode.InternalError, "Internal error", id, ex.cors, "initialize");
}
