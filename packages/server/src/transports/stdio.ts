/**
 * stdio transport (spec 2026-07-28, basic/transports/stdio): one JSON-RPC
 * message per line on stdin and stdout, split only on `\n`; nothing but
 * protocol messages on stdout; diagnostics go to stderr. A revision with
 * sessions frames the connection through `stdio-framing.ts`.
 */
import { atTurnEnd, nodeBuiltin } from "../builtins.js";
import type { Readable, Writable } from "node:stream";
import { errorResponse, rejectUnknown, stringifyJson } from "@x/jsonrpc";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import type { Binding } from "../revisions/revision.js";
import { type Inbound, type InboundRequest, internalErrorOutcome, type Outcome, responseText } from "../dispatch.js";
import { answerNow, type McpServer, partsOf } from "../server.js";
import { Call } from "./call.js";
import { decodeMessage, inspectDecoded, isRequestBatch, readMessage } from "./messages.js";
import type { StdioConnection, StdioFraming } from "./stdio-framing.js";

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** Where requests come from. Default `process.stdin`. */
  input?: Readable;
  /** Where responses go. Default `process.stdout`. */
  output?: Writable;
  /** Where diagnostics go. Default `process.stderr`. */
  errors?: Writable;
  /** Longest accepted line, in bytes; a longer one is answered with -32600 and dropped. Default 4 MiB. */
  maxLineBytes?: number;
  /** Deepest accepted JSON nesting (objects and arrays); deeper is answered with -32600. Default 64. */
  maxJsonDepth?: number;
}

/** Every member of {@link StdioOptions}: a member added there must be added here to compile. */
const STDIO_OPTIONS: Record<keyof StdioOptions, true> = { input: true, output: true, errors: true, maxLineBytes: true, maxJsonDepth: true };
const STDIO_OPTION_NAMES = Object.keys(STDIO_OPTIONS);

/**
 * Serves `server` over stdio until the input ends. Requests are handled
 * concurrently; each response is written as one line in the turn of the
 * event loop in which it is ready, after the notifications its handler sent
 * (progress, log, listen). Lines ready in the same turn leave in one write.
 * `notifications/cancelled` aborts the named request's `signal`, and nothing
 * more is written for it.
 *
 * One connection speaks one revision, pinned by its opening exchange: any
 * 2026-07-28 request but `server/discover` pins 2026-07-28 (a probe does not
 * pin). With the `McpServer` of `@x/server`, an `initialize` pins the
 * `initialize` era instead (spec 2025-11-25: the connection is the session;
 * server-to-client requests go out on stdout and their answers are read from
 * stdin), and a message of the other era afterwards is refused with -32600;
 * a `ping` without the 2026-07-28 envelope before any era is pinned is
 * answered with an empty result and pins nothing (spec 2025-11-25:
 * basic/utilities/ping, allowed before `initialize` is answered); what is
 * read after `initialize` and before its answer waits for that answer, then
 * is handled in the order read, in the era it opened (at most
 * `MAX_EARLY_MESSAGES`; past it a request is refused with -32000). When the
 * input ends, open `subscriptions/listen` requests are ended (the server is
 * closed) and the promise resolves once every request has been answered.
 *
 * @throws TypeError at once when `options` carries `auth`: stdio takes no
 *   OAuth (spec: basic/authorization), the process gets its credentials from its environment.
 * @returns a promise that resolves when the input has ended and every
 *   request that was read has been answered. It never rejects for bad input:
 *   a line that is not JSON gets a -32700 response, a non-request -32600; a
 *   JSON-RPC response gets none.
 */
export function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  // The spec keeps OAuth off stdio (basic/authorization: credentials come from the environment);
  // an `auth` carried over from HTTP options would protect nothing, so it is refused, not ignored.
  if ((options as { auth?: unknown }).auth !== undefined) {
    throw new TypeError("serveStdio: stdio takes no OAuth (`auth`); read credentials from the environment instead");
  }
  rejectUnknown("serveStdio", options, STDIO_OPTION_NAMES);
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const errors = options.errors ?? process.stderr;
  const maxLine = options.maxLineBytes ?? 4 * 1024 * 1024;
  const maxDepth = options.maxJsonDepth ?? 64;
  // Set when stdout can no longer be written (the client closed it: EPIPE).
  let outputClosed = false;
  let stop: (() => void) | undefined;
  // Keyed by the id itself: a Map tells 1 from "1", as JSON-RPC does.
  const inFlight = new Map<unknown, Call>();
  let running = 0;
  let onIdle: (() => void) | undefined;
  let buffered: Buffer[] = [];
  let bufferedSize = 0;
  let discarding = false;
  const isAscii = asciiCheck();
  /** True once a request of the per-request revision (but a probe) pinned the connection to it. */
  let pinned = false;
  // Lines written in one turn of the event loop leave in one write, in order
  // (a pipe write is a system call; answering a burst of pipelined requests
  // one write each would cost more than the answers).
  let pendingOut = "";
  let flushScheduled = false;
  const flush = (): void => {
    flushScheduled = false;
    if (pendingOut === "") return;
    const text = pendingOut;
    pendingOut = "";
    if (!outputClosed) output.write(text);
  };
  const write = (message: unknown): void => {
    if (!outputClosed) writeText(stringifyJson(message));
  };
  const writeText = (json: string): void => {
    if (outputClosed) return;
    pendingOut += `${json}\n`;
    if (!flushScheduled) {
      flushScheduled = true;
      (atTurnEnd ?? setImmediate)(flush);
    }
  };
  /** An answer's text as a line of its own; none when there is no answer. */
  const writeAnswer = (text: string | undefined): void => {
    if (text !== undefined) writeText(text);
  };

  // The connection's framing, when the server has a revision with sessions: built once `handleLine` exists.
  let framing: StdioFraming | undefined;

  /** `reply`: where the answer's text goes (a batch collects it; `undefined` when none is sent). */
  const serve = (inbound: InboundRequest, call: Call, reply: (text: string | undefined) => void): void => {
    running++;
    call.streamsTo(
      (notification: unknown) => {
        if (call.done || call.aborted) return false;
        write(notification);
        return true;
      },
      (json: string) => {
        if (call.done || call.aborted) return false;
        writeText(json);
        return true;
      },
    );
    let outcome: Outcome | Promise<Outcome>;
    try {
      outcome = answerNow(server, inbound, call);
    } catch (error) {
      // answerNow answers every failure itself; this is a last line of defence.
      outcome = Promise.reject(error);
    }
    // A request answered at once is written at once (into this turn's batch).
    if (outcome instanceof Promise) {
      // Only a request still running can be cancelled: one answered at once
      // never enters the map (a Map set and delete per request cost more
      // than the rest of the transport's work for it).
      inFlight.set(inbound.id, call);
      outcome.then(
        (o) => answered(inbound, call, o, reply),
        (error) => {
          // answerNow never rejects; should it, the request still gets an answer.
          errors.write(`mcp stdio: unexpected failure: ${String(error)}\n`);
          answered(inbound, call, internalErrorOutcome(inbound.id), reply);
        },
      );
    } else {
      answered(inbound, call, outcome, reply);
    }
  };

  const answered = (inbound: InboundRequest, call: Call, outcome: Outcome | undefined, reply: (text: string | undefined) => void): void => {
    call.done = true;
    reply(outcome?.response && !call.aborted ? responseText(outcome) : undefined);
    if (inFlight.size > 0 && inFlight.get(inbound.id) === call) inFlight.delete(inbound.id);
    if (--running === 0) onIdle?.();
  };

  const handleLine = (line: Buffer | string) => {
    // A blank line (only white space) carries no message.
    if (isBlank(line)) return;
    // While an opening is answered nothing is read yet: the revision of what follows is not known.
    if (framing?.opening) {
      framing.hold(line);
      return;
    }
    const binding = framing?.binding;
    let inbound: Inbound;
    if (!pinned && binding === undefined) {
      // Before any revision is pinned the framing may answer a message itself (stdio has no status to give a refusal).
      const decoded = decodeMessage(line, maxDepth, "the line", undefined);
      if (decoded.ok && framing?.unpinned(decoded.value)) return;
      inbound = decoded.ok ? inspectDecoded(server, decoded, undefined, undefined) : decoded.inbound;
    } else if (framing?.batches) {
      // The framing takes batches now: a line that is one is its to answer, member by member (`handle`).
      const decoded = decodeMessage(line, maxDepth, "the line", undefined, true);
      if (decoded.ok && isRequestBatch(decoded.value)) {
        framing.batch(decoded.value, decoded.lossless);
        return;
      }
      inbound = decoded.ok ? inspectDecoded(server, decoded, binding, undefined) : decoded.inbound;
    } else inbound = readMessage(server, line, maxDepth, "the line", binding, undefined);
    handle(inbound, binding, writeAnswer);
  };

  /**
   * Acts on one message read on `binding` and answers it through `reply`,
   * called exactly once: with the answer's text, or `undefined` when there
   * is none (a notification, a response, a request cancelled).
   */
  const handle = (inbound: Inbound, binding: Binding | undefined, reply: (text: string | undefined) => void): void => {
    if (inbound.kind === "error") {
      reply(stringifyJson(inbound.outcome.response));
      return;
    }
    if (inbound.kind === "request") {
      if (!pinned && binding === undefined && inbound.method !== Method.ServerDiscover) pinned = true;
      serve(inbound, new Call("stdio"), reply);
      return;
    }
    if (inbound.kind === "initialize") {
      // Only a revision plug-in opens: its framing answers (none would be a server built wrong).
      if (framing) framing.open(inbound.id, inbound.params, pinned);
      else write(internalErrorOutcome(inbound.id).response);
    }
    // A JSON-RPC response answers nothing this server asked, unless the session asked it;
    // a malformed one answers nothing at all (both reported by `inspect`, never answered).
    else if (inbound.kind === "response") framing?.settle([inbound]);
    else if (inbound.kind === "responses") framing?.settle(inbound.responses);
    else if (inbound.kind === "notification") {
      // On a session its framing reads it first (false: nothing more is done with it).
      const more = binding === undefined || framing!.notified(inbound.method, inbound.params);
      if (more && inbound.method === Method.NotificationsCancelled) inFlight.get(inbound.params.requestId)?.abort();
    }
    reply(undefined);
  };

  const connection: StdioConnection = {
    server,
    maxLineBytes: maxLine,
    maxJsonDepth: maxDepth,
    get outputClosed() {
      return outputClosed;
    },
    write,
    writeText,
    handleLine,
    handle: (message, lossless, reply) => {
      const binding = framing?.binding;
      handle(inspectDecoded(server, { ok: true, value: message, lossless }, binding, undefined), binding, reply);
    },
    begin: () => {
      running++;
    },
    end: () => {
      if (--running === 0) onIdle?.();
    },
  };
  framing = framingOf(server, connection);
  const release = () => framing?.close();

  return new Promise<void>((resolve) => {
    // The client closed our stdout (EPIPE or similar): nobody can hear answers
    // any more, so abort what runs, stop reading and end, instead of crashing.
    output.on("error", (error: NodeJS.ErrnoException) => {
      if (outputClosed) return;
      outputClosed = true;
      errors.write(`mcp stdio: output closed (${error.code ?? error.message}); stopping\n`);
      for (const call of inFlight.values()) call.abort();
      release();
      server.close();
      input.pause();
      stop?.();
    });
    stop = () => {
      if (running === 0) resolve();
      else onIdle = () => resolve();
    };
    const tooLong = () => write(errorResponse(undefined, ErrorCode.InvalidRequest, `Invalid request: line longer than ${maxLine} bytes`));
    /** One line, ended by the newline just read (not included): answered, or refused when too long. */
    const endLine = (head: Buffer) => {
      if (discarding) {
        discarding = false;
      } else if (bufferedSize + head.length > maxLine) {
        // The whole line counts, also when its end came in this chunk.
        buffered = [];
        bufferedSize = 0;
        tooLong();
      } else {
        const line = buffered.length ? Buffer.concat([...buffered, head]) : head;
        buffered = [];
        bufferedSize = 0;
        handleLine(line);
      }
    };
    input.on("data", (chunk: Buffer | Uint8Array | string) => {
      // A stream in object mode may hand plain Uint8Arrays: a Buffer view of the same bytes (no copy).
      let data =
        typeof chunk === "string"
          ? Buffer.from(chunk)
          : Buffer.isBuffer(chunk)
            ? chunk
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      // The line an earlier chunk began is ended first, as bytes.
      if (buffered.length > 0 || discarding) {
        const nl = data.indexOf(10);
        if (nl !== -1) {
          endLine(data.subarray(0, nl));
          data = data.subarray(nl + 1);
        }
      }
      // The whole lines of a chunk of ASCII (most traffic) are read as one string and split
      // there: no Buffer and no UTF-8 decoding per line. ASCII is UTF-8, with the same offsets.
      const last = buffered.length > 0 || discarding ? -1 : data.lastIndexOf(10);
      if (last !== -1 && isAscii !== undefined && isAscii(data.subarray(0, last))) {
        const text = data.toString("latin1", 0, last + 1);
        for (let start = 0, nl = text.indexOf("\n"); nl !== -1; start = nl + 1, nl = text.indexOf("\n", start)) {
          if (nl - start > maxLine) tooLong();
          else handleLine(text.slice(start, nl));
        }
        data = data.subarray(last + 1);
      }
      for (;;) {
        const nl = data.indexOf(10);
        if (nl === -1) break;
        endLine(data.subarray(0, nl));
        data = data.subarray(nl + 1);
      }
      if (data.length > 0 && !discarding) {
        bufferedSize += data.length;
        if (bufferedSize > maxLine) {
          buffered = [];
          bufferedSize = 0;
          discarding = true;
          tooLong();
        } else {
          buffered.push(Buffer.from(data));
        }
      }
    });
    input.on("end", () => {
      if (buffered.length && !discarding) handleLine(Buffer.concat(buffered));
      buffered = [];
      release();
      server.close();
      const finish = () => {
        flush();
        resolve();
      };
      if (running === 0) Promise.resolve().then(finish);
      else onIdle = finish;
    });
    input.on("error", (error) => {
      release();
      errors.write(`mcp stdio: input error: ${String(error)}\n`);
      flush();
      resolve();
    });
  });
}

/**
 * The framing of one connection by the server's revision with sessions, if
 * it has one.
 * @throws TypeError when two revisions of the server would frame stdio: a
 *   connection is pinned to one.
 */
function framingOf(server: McpServer, connection: StdioConnection): StdioFraming | undefined {
  const framed = partsOf(server).plugged.filter((p) => p.stdio !== undefined);
  if (framed.length > 1) throw new TypeError("serveStdio: a server may have one revision with sessions on stdio");
  return framed[0]?.stdio?.(connection);
}

/**
 * Node's check that bytes are all ASCII (`node:buffer` `isAscii`, one pass
 * over a whole chunk); `undefined` where the runtime has none, and then every
 * line is decoded on its own.
 */
function asciiCheck(): ((bytes: Uint8Array) => boolean) | undefined {
  try {
    return nodeBuiltin<{ isAscii?: (bytes: Uint8Array) => boolean }>("node:buffer").isAscii;
  } catch {
    return undefined;
  }
}

/** True for a line of JSON white space only (space, tab, CR), which is skipped, not answered. */
function isBlank(line: Buffer | string): boolean {
  const text = typeof line === "string";
  for (let i = 0; i < line.length; i++) {
    const b = text ? line.charCodeAt(i) : line[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return false;
  }
  return true;
}
