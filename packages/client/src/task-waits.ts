/**
 * The bounds of a task wait, shared by the tasks extension's
 * {@link TaskHandle} and the task-augmented calls of revision 2025-11-25:
 * one retry policy for transient failures, and one signal for the caller's
 * cancel and `maxWaitMs`.
 */
import { delay } from "./delay.js";
import { ClientErrorCode, clip, McpClientError } from "./errors.js";
import type { TaskPort } from "./task-options.js";
import { isTransientTaskFailure, markGaveUp } from "./task-reads.js";

/**
 * Sends one request of a task wait (`what` names it in warnings), again after
 * a transient failure ({@link isTransientTaskFailure}): at most
 * `settings.pollAttempts` times, the n-th retry after `pollRetryDelayMs * 2^(n-1)`
 * ms (at most `maxPollIntervalMs`), each retry reported through `warn`. The
 * last failure is then marked as given up on (`gaveUpTransiently`) and
 * thrown. A definite failure, or one once `signal` aborted, is thrown at once.
 */
export async function retryTransient<T>(
  port: Pick<TaskPort, "settings" | "warn">,
  what: string,
  send: () => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  const { pollAttempts, pollRetryDelayMs, maxPollIntervalMs } = port.settings;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (signal.aborted || !isTransientTaskFailure(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= pollAttempts) {
        port.warn(`${what} failed ${attempt} times in a row; giving up: ${message}`);
        if (typeof error === "object" && error !== null) markGaveUp(error);
        throw error;
      }
      const wait = Math.min(pollRetryDelayMs * 2 ** (attempt - 1), maxPollIntervalMs);
      port.warn(`${what} failed (${message}); attempt ${attempt + 1} of ${pollAttempts} in ${wait} ms`);
      await delay(wait, signal);
    }
  }
}

/**
 * The signal of one wait for task `taskId`: it aborts with -32800
 * (`RequestCancelled`) when `outer` aborts, and with -32001
 * (`RequestTimeout`) once `maxWaitMs` milliseconds passed (0: no bound).
 * Call `release` when the wait ends.
 * @throws TypeError for a `maxWaitMs` that is not a non-negative integer;
 *   the -32800 error at once when `outer` already aborted.
 */
export function waitBound(taskId: string, outer: AbortSignal | undefined, maxWaitMs: number): { signal: AbortSignal; release: () => void } {
  if (!Number.isSafeInteger(maxWaitMs) || maxWaitMs < 0) throw new TypeError(`maxWaitMs must be a non-negative integer, got ${maxWaitMs}`);
  const id = clip(JSON.stringify(taskId), 80);
  const cancelled = (reason: unknown) =>
    new McpClientError(
      ClientErrorCode.RequestCancelled,
      `The wait for task ${id} was cancelled`,
      { taskId, reason: reason instanceof Error ? reason.message : reason },
      "client",
      { cause: reason },
    );
  if (outer?.aborted) throw cancelled(outer.reason);
  const stop = new AbortController();
  const onAbort = () => stop.abort(cancelled(outer?.reason));
  outer?.addEventListener("abort", onAbort, { once: true });
  const timer =
    maxWaitMs > 0
      ? setTimeout(
          () =>
            stop.abort(
              new McpClientError(ClientErrorCode.RequestTimeout, `Task ${id} did not end within ${maxWaitMs} ms`, { taskId, maxWaitMs }),
            ),
          maxWaitMs,
        )
      : undefined;
  return {
    signal: stop.signal,
    release: () => {
      if (timer !== undefined) clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}
