/**
 * The answers the Streamable HTTP transport writes itself (internal): JSON
 * refusals with their status, the headers of JSON and SSE answers, and the
 * answer of a request whose outcome may still be running, shared by the
 * per-request call (`run.ts`) and a framing's calls on its sessions.
 */
import { errorResponse, stringifyJson } from "@x/jsonrpc";
import type { RequestId } from "@x/mcp-v2607";
import { type Inbound, type InboundRequest, internalErrorOutcome, type Outcome } from "../../dispatch.js";
import { publishRequestRejected, rejectionsObserved } from "../../telemetry.js";
import { type Exchange, type HttpAnswer, NO_CORS } from "./exchange.js";
import { statusOf } from "./status.js";

/** The headers of a JSON answer. */
export const JSON_HEADERS = { "content-type": "application/json" };

/** The headers of an SSE answer: no caching, and no buffering by a proxy (nginx reads `X-Accel-Buffering`). */
export const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" };

/** The headers of a JSON answer, with the exchange's CORS headers. */
export function jsonHeaders(cors: Readonly<Record<string, string>>): Record<string, string> {
  return cors === NO_CORS ? { "content-type": "application/json" } : { ...JSON_HEADERS, ...cors };
}

/** A transport refusal: `status` with a JSON-RPC error body (no id) and `extra` headers. */
export function errorAnswer(
  status: number,
  code: number,
  message: string,
  id?: RequestId,
  extra: Readonly<Record<string, string>> = {},
  method?: string,
): Extract<HttpAnswer, { body: string }> {
  const response = errorResponse(id, code, message);
  // Refusals decided by the transport (403, 405, 413, parse errors, header mismatches...) are observable too.
  if (rejectionsObserved()) publishRequestRejected({ requestId: id as RequestId | undefined, method, code, message, status });
  return { status, headers: { ...JSON_HEADERS, ...extra }, body: stringifyJson(response) };
}

/** The answer to a message refused as it was read (its outcome already published). */
export function refusal(ex: Exchange, inbound: Extract<Inbound, { kind: "error" }>): HttpAnswer {
  return { status: statusOf(inbound.outcome), headers: jsonHeaders(ex.cors), body: stringifyJson(inbound.outcome.response) };
}

/**
 * The HTTP answer of a request whose outcome may still be running, for both
 * eras' POST paths: `finish` ends the call and gives the JSON answer, or
 * `undefined` when the outcome went down the SSE stream `current()` names;
 * while it runs, `waitForStream` is handed the resolver the SSE answer is
 * given to as soon as a first message opens the stream. A rejected outcome
 * is an internal error. Never throws.
 */
export function settleAnswer(
  outcome: Outcome | Promise<Outcome>,
  inbound: InboundRequest,
  finish: (outcome: Outcome) => HttpAnswer | undefined,
  current: () => HttpAnswer | undefined,
  waitForStream: (resolve: (answer: HttpAnswer) => void) => void,
): HttpAnswer | Promise<HttpAnswer> {
  if (!(outcome instanceof Promise)) return finish(outcome) ?? (current() as HttpAnswer);
  // The callbacks below hold the request's id, not the request: they live as long as the outcome runs.
  const id = inbound.id;
  const open = current();
  if (open) {
    whenSettled(outcome, id, finish);
    return open;
  }
  return new Promise<HttpAnswer>((resolve) => {
    waitForStream(resolve);
    whenSettled(outcome, id, finish, resolve);
  });
}

/**
 * Runs `finish` on the outcome once it settles (a rejection as an internal
 * error), and gives a JSON answer to `resolve`. Apart from `settleAnswer` so
 * that its callbacks hold only these, not `settleAnswer`'s other arguments.
 */
function whenSettled(
  outcome: Promise<Outcome>,
  id: RequestId,
  finish: (outcome: Outcome) => HttpAnswer | undefined,
  resolve?: (answer: HttpAnswer) => void,
): void {
  const settle = (o: Outcome) => {
    const answer = finish(o);
    if (answer && resolve) resolve(answer);
  };
  outcome.then(settle, () => settle(internalErrorOutcome(id)));
}
