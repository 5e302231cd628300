/**
 * How the `node:http` adapter writes an answer on Node's response: complete
 * answers together at the end of the event loop's turn, SSE answers chunk by
 * chunk as their queue fills, a fault of the handler as 500 (or a cut).
 */
import type * as AsyncHooks from "node:async_hooks";
import type { AsyncResource } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { atTurnEnd, nodeBuiltin } from "../../builtins.js";
import type { ChunkQueue } from "../sse.js";
import { errorAnswer } from "./answers.js";
import type { HttpAnswer } from "./exchange.js";
import { lingerAnswer, lingers } from "./linger.js";

/** What {@link writeStream} needs of the exchange: whether the client went away, and a hook for when it does. */
export interface StreamExchange {
  readonly gone: boolean;
  onGone: (() => void) | undefined;
}

/**
 * Complete answers are written at the end of the event loop's turn, all
 * together, not each as soon as it is ready. A write to a loopback or LAN
 * peer that sleeps waiting for it wakes the peer, and the wake-up is paid in
 * the writer's system call: answering each request of a burst at once woke
 * the client once per answer. Written together, the first write wakes it and
 * the others find it awake (bench/README.md, "Answers written together":
 * server CPU per request under 32 connections 41.8 -> 27.8 µs). An answer
 * waits at most for the rest of the turn's I/O callbacks: the requests that
 * arrived with it.
 */
let dueResponses: ServerResponse[] = [];
let dueAnswers: Extract<HttpAnswer, { body: string }>[] = [];
// Each answer is written in the async context of its own request (an
// AsyncLocalStorage store, a trace's active span), not in that of the
// request that happened to queue first: 'finish' and 'close' listeners and
// loggers read it.
let dueScopes: AsyncResource[] = [];
let Scope: typeof AsyncResource | undefined;

export function endAtTurnEnd(res: ServerResponse, answer: Extract<HttpAnswer, { body: string }>): void {
  Scope ??= nodeBuiltin<typeof AsyncHooks>("node:async_hooks").AsyncResource;
  if (dueResponses.length === 0) (atTurnEnd ?? setImmediate)(writeDue);
  dueResponses.push(res);
  dueAnswers.push(answer);
  dueScopes.push(new Scope("x-mcp.answer"));
}

function writeDue(): void {
  const responses = dueResponses;
  const answers = dueAnswers;
  const scopes = dueScopes;
  // Taken first: an answer queued while these are written goes in a turn of its own.
  dueResponses = [];
  dueAnswers = [];
  dueScopes = [];
  for (let i = 0; i < responses.length; i++) {
    const res = responses[i]!;
    if (!res.destroyed) scopes[i]!.runInAsyncScope(writeAnswer, null, res, answers[i]!);
  }
}

export function writeAnswer(res: ServerResponse, answer: Extract<HttpAnswer, { body: string }>): void {
  try {
    const req = res.req as IncomingMessage | undefined;
    // Answered before the body was all read (413, 415, 503, ...): the rest of it is read first.
    if (req !== undefined && lingers(req)) lingerAnswer(req, res, answer);
    else {
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    }
  } catch {
    answerFailure(res);
  }
}

/** A fault of the handler itself on `res`: 500 with -32603 while nothing was sent, else the connection is cut. */
export function answerFailure(res: ServerResponse): void {
  try {
    if (res.headersSent) res.destroy();
    else {
      const answer = errorAnswer(500, ErrorCode.InternalError, "Internal error");
      res.writeHead(answer.status, answer.headers).end(answer.body);
    }
  } catch {
    res.destroy();
  }
}
/**
 * Writes an SSE answer's chunks to `res` as they come, respecting the
 * socket's backpressure, and ends `res` after the last. Driven by the
 * queue's wake-up callback, not an async iterator: an idle stream (an open
 * `subscriptions/listen`) then holds no generator, promise or async frame.
 */
export function writeStream(answer: Extract<HttpAnswer, { stream: ChunkQueue }>, res: ServerResponse, exchange: StreamExchange): void {
  const queue = answer.stream;
  if (queue.ended) {
    // The whole stream is known (a request answered at once on an SSE response, as the
    // initialize era's tools/call is): one body with its length, no chunked encoding.
    let text = "";
    for (let chunk = queue.take(); chunk !== undefined; chunk = queue.take()) text += chunk;
    endAtTurnEnd(res, {
      status: answer.status,
      headers: { ...answer.headers, "content-length": String(Buffer.byteLength(text)) },
      body: text,
    });
    return;
  }
  res.writeHead(answer.status, answer.headers);
  // The client went away: drop what is unread and end the queue now (its reader wakes and stops).
  if (!exchange.gone) exchange.onGone = () => queue.abandon();
  // Past maxBufferedBytes the client is not keeping up: the writer may be parked on a 'drain'
  // that never comes, so the connection is cut (the client sees an error, not a clean end).
  const overflowed = queue.onOverflow;
  queue.onOverflow = () => {
    overflowed?.();
    res.destroy();
  };
  // The head leaves with the first chunk, or on its own when the stream has nothing to say yet
  // (an idle listen stream: the client must see the 200 at once).
  let flushed = false;
  const pump = () => {
    // What is ready leaves in one write: the head, a priming event, the answer and the end of a
    // stream answered at once were four system calls (and four wake-ups of the client) before.
    res.cork();
    try {
      for (;;) {
        if (res.destroyed) return;
        const chunk = queue.take();
        if (chunk === undefined) {
          if (queue.ended) res.end();
          else {
            if (!flushed) res.flushHeaders();
            queue.onceReady(later);
          }
          flushed = true;
          return;
        }
        flushed = true;
        // Respect the socket's backpressure: wait for 'drain' (or the end of the response).
        if (!res.write(chunk) && !res.destroyed) {
          const done = () => {
            res.off("drain", done);
            res.off("close", done);
            pump();
          };
          res.on("drain", done);
          res.on("close", done);
          return;
        }
      }
    } catch {
      res.destroy();
    } finally {
      // end() uncorks by itself.
      if (!res.writableEnded && !res.destroyed) res.uncork();
    }
  };
  // Chunks are written in a microtask after their push, never inside the pusher's call.
  const later = () => queueMicrotask(pump);
  pump();
}
