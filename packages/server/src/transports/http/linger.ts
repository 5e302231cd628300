/**
 * What the `node:http` adapter does after answering a request before its
 * body was all read (a 413 for a declared length, a 415, a 405, a 503, ...):
 * it reads the rest of the body and throws it away before the response
 * ends. A connection closed with unread bytes in its receive buffer is
 * closed with a reset (TCP), and a client still sending its body then loses
 * the answer before it reads it; with the body read, the close is orderly.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpAnswer } from "./exchange.js";

/** Most bytes of a body read and thrown away after an answer given before it was read (see {@link lingerAnswer}): 16 MiB. */
const LINGER_BYTES = 16 * 1024 * 1024;
/** Most time spent reading them, in milliseconds: 10 s. */
const LINGER_MS = 10_000;
/** Requests whose body read passed `bodyTimeoutMs`: the client stalls, so nothing is waited for after the 408. */
const timedOut = new WeakSet<IncomingMessage>();

/** The body of `req` stopped coming (its read passed `bodyTimeoutMs`): its answer does not linger. */
export function stalled(req: IncomingMessage): void {
  timedOut.add(req);
}

/** True when `req`'s answer must linger: HTTP/1, its body not all received, and not given up on as stalled. */
export function lingers(req: IncomingMessage): boolean {
  return !req.complete && req.httpVersionMajor === 1 && !timedOut.has(req);
}

/**
 * Writes an answer given before the request's body was all read, then reads
 * the rest of the body and throws it away before ending the response. The
 * whole answer goes out at once (with its Content-Length, so the client
 * has it all); the response ends once the body ended, after
 * {@link LINGER_BYTES} more bytes or after {@link LINGER_MS}, whichever
 * comes first. A body declared longer than {@link LINGER_BYTES}, or of no
 * declared length, gets `Connection: close`: it may not be read to its end.
 */
export function lingerAnswer(req: IncomingMessage, res: ServerResponse, answer: Extract<HttpAnswer, { body: string }>): void {
  const declared = Number(req.headers["content-length"]);
  const headers: Record<string, string> = { ...answer.headers, "content-length": String(Buffer.byteLength(answer.body)) };
  if (!(declared <= LINGER_BYTES)) headers.connection = "close";
  res.writeHead(answer.status, headers);
  res.write(answer.body);
  let read = 0;
  const done = () => {
    clearTimeout(timer);
    req.off("data", onData);
    req.off("end", done);
    req.off("close", done);
    if (!res.writableEnded && !res.destroyed) res.end();
  };
  const onData = (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) done();
  };
  const timer = setTimeout(() => {
    // A body that stopped coming: a kept-alive connection would wait for it; close it once the answer is out.
    res.once("finish", () => req.socket?.destroy());
    done();
  }, LINGER_MS);
  timer.unref?.();
  req.on("data", onData);
  req.on("end", done);
  req.on("close", done);
  req.resume();
}
