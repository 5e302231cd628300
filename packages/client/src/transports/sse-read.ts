/**
 * Reading a Server-Sent Events stream of JSON-RPC messages, for every HTTP
 * stream the client reads (a POST's answer, a session's GET stream): events
 * bounded by the message limit, parsed with `readMessage`, and where the
 * stream left off (its last event id and `retry`) kept for a resumption.
 */
import { MissingDependencyError } from "@x/jsonrpc";
import { clip, type McpClientError, transportError } from "../errors.js";
import { importOnce } from "../lazy.js";
import { readMessage } from "../numbers.js";
import { utf8Length } from "./jsonrpc.js";

/** Wait before resuming a broken SSE stream when the server sent no `retry` field, in milliseconds (`StreamableHttpOptions.resumeDelayMs`). */
export const DEFAULT_RESUME_DELAY_MS = 1000;
/** Longest wait taken from a server's `retry` field, in milliseconds (`StreamableHttpOptions.maxResumeDelayMs`). */
export const MAX_RESUME_DELAY_MS = 30_000;

/** The waits before a resumption. */
export interface ResumeDelays {
  /** Without a `retry` from the server. */
  readonly resumeDelayMs: number;
  /** Most taken from a server's `retry`. */
  readonly maxResumeDelayMs: number;
}

// Imported on first use, not with the package: a client that reads only JSON
// answers never needs it, and loading it is a noticeable part of a cold start.
const eventSourceParser = importOnce(() => import("eventsource-parser"), "eventsource-parser");

/** Where an SSE stream left off: the last event id seen and the server's last `retry` (ms). */
export interface StreamCursor {
  lastEventId?: string;
  retry?: number;
}

/** The wait before a resumption: the server's `retry` (else `resumeDelayMs`), at most `maxResumeDelayMs`. */
export function resumeDelay(cursor: StreamCursor, delays: ResumeDelays): number {
  return Math.min(cursor.retry ?? delays.resumeDelayMs, delays.maxResumeDelayMs);
}

/**
 * Reads the events of one SSE stream, handing each JSON-RPC message to
 * `onMessage` until it returns true (the stream is then closed) or the
 * stream ends. Records the last event id and `retry` in `cursor`.
 * @returns `undefined` when the stream ended or `onMessage` stopped it, the error when a read broke.
 * @throws `"message_too_large"` / `"invalid_message"` transport errors, a MissingDependencyError, or the abort reason.
 */
export async function readEvents(
  maxBytes: number,
  body: ReadableStream<Uint8Array>,
  controller: AbortController,
  what: string,
  cursor: StreamCursor,
  onMessage: (message: unknown) => boolean,
): Promise<unknown> {
  let createParser: typeof import("eventsource-parser")["createParser"];
  try {
    ({ createParser } = await eventSourceParser.get());
  } catch (error) {
    // The stream is not read: let the server go of it (an earlier-era GET stream would otherwise be held open).
    await body.cancel().catch(() => {});
    throw error;
  }
  let done = false;
  let failure: McpClientError | MissingDependencyError | undefined;
  const parser = createParser({
    maxBufferSize: maxBytes,
    onRetry: (ms) => {
      cursor.retry = ms;
    },
    onEvent: (event) => {
      if (done || failure) return;
      if (event.id !== undefined) cursor.lastEventId = event.id;
      if (event.event !== undefined && event.event !== "message") return;
      if (event.data.trim() === "") return;
      if (utf8Length(event.data) > maxBytes) {
        failure = transportError("message_too_large", `An SSE event of ${what} is over the limit of ${maxBytes} bytes`, {
          limit: maxBytes,
        });
        return;
      }
      let parsed: unknown;
      try {
        parsed = readMessage(event.data);
      } catch (error) {
        failure =
          error instanceof MissingDependencyError
            ? error
            : transportError("invalid_message", `An SSE event of ${what} is not JSON: ${clip(event.data)}`);
        return;
      }
      if (onMessage(parsed)) done = true;
    },
    onError: (error) => {
      if (error.type === "max-buffer-size-exceeded" && !failure) {
        failure = transportError("message_too_large", `An SSE event of ${what} is over the limit of ${maxBytes} bytes`, {
          limit: maxBytes,
        });
      }
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  let broke: unknown;
  try {
    while (!done && !failure) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason ?? error;
        broke = error;
        ended = true;
        break;
      }
      if (step.done) {
        ended = true;
        try {
          // A stream may end on a lone CR, which the parser holds back in case an LF follows.
          parser.feed(`${decoder.decode()}\n`);
        } catch {
          // The parser ended in an error state; the failure is already recorded.
        }
        break;
      }
      try {
        parser.feed(decoder.decode(step.value, { stream: true }));
      } catch {
        // The parser throws after a max-buffer-size error; onError recorded it.
      }
    }
  } finally {
    if (!ended) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  if (failure && !done) throw failure;
  return broke;
}
