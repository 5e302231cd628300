/**
 * The bounds and options of the tasks extension's client side (see
 * `tasks.ts`), and the port through which a task handle reaches its client.
 */
import type { CallToolResult, InputRequests, InputResponses, JSONRPCNotification, SubscriptionFilter } from "@x/mcp-v2607";
import type { DetailedTask } from "@x/mcp-v2607/tasks";
import type { InputContext } from "./mrtr.js";

/** The polling interval used when the server suggests none (`pollIntervalMs` absent), in milliseconds. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1000;
/** Default lower bound on the polling interval, in milliseconds: a smaller suggestion (0 included) is raised to it. */
export const MIN_TASK_POLL_INTERVAL_MS = 100;
/** Default upper bound on the polling interval, in milliseconds: a larger suggestion is cut to it, so that a finished task is seen soon enough. */
export const MAX_TASK_POLL_INTERVAL_MS = 30_000;
/** Default bound on one wait for a task to end, in milliseconds (one hour, the server's default time to live). */
export const DEFAULT_TASK_WAIT_MS = 3_600_000;
/** Longest wait for the acknowledgement of the `tasks/cancel` that an aborted `callTool` sends, in milliseconds. */
export const TASK_CANCEL_TIMEOUT_MS = 10_000;
/**
 * Default number of times a wait sends one `tasks/get` (or `tasks/update`)
 * that fails transiently (see {@link isTransientTaskFailure}) before it gives
 * up with the last failure: the first attempt and four retries.
 */
export const TASK_POLL_ATTEMPTS = 5;
/**
 * Default delay before the first retry of a transiently failed task request,
 * in milliseconds; each further retry waits twice as long, at most the
 * client's `maxPollIntervalMs` (so 500, 1000, 2000, 4000 ms by default:
 * about 7.5 s of an outage are ridden out).
 */
export const TASK_POLL_RETRY_DELAY_MS = 500;

/**
 * The client's tasks settings (`ClientOptions.tasks`). `true` is all the
 * defaults. Times in milliseconds.
 */
export interface TasksOptions {
  /** Lower bound on the polling interval. Default 100. At least 1. */
  minPollIntervalMs?: number;
  /** Upper bound on the polling interval. Default 30 000. At least `minPollIntervalMs`. */
  maxPollIntervalMs?: number;
  /** Most time one wait for a task to end may take; 0 for no bound but the caller's signal. Default 3 600 000 (one hour). */
  maxWaitMs?: number;
  /**
   * Hear the task's statuses on a `subscriptions/listen` stream
   * (`notifications: { taskIds }`) while waiting, polling only as a safety
   * net (at `maxPollIntervalMs`); a server that refuses the stream, or does
   * not list the task in its acknowledgement, is polled as usual. Default
   * false: polling only.
   */
  stream?: boolean;
  /**
   * How many times a wait sends one `tasks/get` or `tasks/update` that fails
   * transiently (an -32603 or -32000 answer, an HTTP 5xx or 429, a network
   * failure, that request's own timeout) before it gives up with the last
   * failure; 1 for no retry. Default 5.
   */
  pollAttempts?: number;
  /** Delay before the first such retry, doubled for each next one up to `maxPollIntervalMs`. Default 500. At least 1. */
  pollRetryDelayMs?: number;
  /** The polling interval when the server suggests none (`pollIntervalMs` absent), then clamped to the bounds above. Default 1000. At least 1. */
  pollIntervalMs?: number;
  /**
   * Most time the `tasks/cancel` that `callTool` sends for a task it gives
   * up on may take (also bounded by the client's `timeout`). Default 10 000. At least 1.
   */
  cancelTimeoutMs?: number;
}

/** Every member of {@link TasksOptions}, to refuse a misspelt one (`ClientOptions.tasks`). */
export const TASKS_OPTIONS: Record<keyof TasksOptions, true> = {
  minPollIntervalMs: true,
  maxPollIntervalMs: true,
  maxWaitMs: true,
  stream: true,
  pollAttempts: true,
  pollRetryDelayMs: true,
  pollIntervalMs: true,
  cancelTimeoutMs: true,
};

/** Options of {@link TaskHandle.wait} and {@link TaskHandle.result}. */
export interface TaskWaitOptions {
  /** Stops the wait: it rejects with -32800 (`RequestCancelled`). The task itself runs on (see {@link TaskHandle.cancel}). */
  signal?: AbortSignal;
  /** Milliseconds each `tasks/get` or `tasks/update` may take; 0 for no limit. Default: the client's `timeout`. */
  timeout?: number;
  /** Most milliseconds the whole wait may take (-32001 past it); 0 for no bound. Default: the client's `tasks.maxWaitMs`. */
  maxWaitMs?: number;
  /** Called with each new state of the task seen (a new status, status message or `lastUpdatedAt`), in order. */
  onStatus?: (task: DetailedTask) => void;
  /**
   * `"resolve"` (default): answer the task's new `inputRequests` through the
   * client's input handlers and go on waiting. `"return"`: resolve with the
   * `input_required` task as soon as it asks something not yet answered.
   */
  inputRequired?: "resolve" | "return";
  /** Most `tasks/update` rounds this wait sends before failing with -32090. Default: the client's `maxInputRounds`. */
  maxInputRounds?: number;
  /** Hear statuses on a `subscriptions/listen` stream (see {@link TasksOptions.stream}). Default: the client's `tasks.stream`. */
  stream?: boolean;
  /** Validate a completed result's `structuredContent` against the tool's `outputSchema` ({@link TaskHandle.result} only). Default: the client's. */
  validateOutput?: boolean;
}

/** Options of the single requests of a task (`get`, `update`, `cancel`). */
export interface TaskRequestOptions {
  /** Cancels the request (-32800). */
  signal?: AbortSignal;
  /** Milliseconds to wait for the answer; 0 for no limit. Default: the client's `timeout`. */
  timeout?: number;
}

/** The settings a {@link TaskHandle} reads, resolved from {@link TasksOptions} and the client's options. */
export interface TaskSettings {
  minPollIntervalMs: number;
  maxPollIntervalMs: number;
  maxWaitMs: number;
  stream: boolean;
  maxInputRounds: number;
  pollAttempts: number;
  pollRetryDelayMs: number;
  pollIntervalMs: number;
  cancelTimeoutMs: number;
}

/** A `subscriptions/listen` stream as a task watches it (the client's `Subscription`). */
export interface TaskSubscription extends AsyncIterable<JSONRPCNotification> {
  readonly acknowledged: Promise<SubscriptionFilter>;
  close(): Promise<void>;
}

/**
 * What a {@link TaskHandle} needs of its client. Internal: handles come from
 * `Client.callToolAsTask` and `Client.resumeTask`.
 */
export interface TaskPort {
  /** Sends a `tasks/*` request declaring the extension in its client capabilities; resolves with the result object. */
  send(method: string, params: Record<string, unknown>, options: TaskRequestOptions): Promise<Record<string, unknown>>;
  /** Fulfils input requests through the client's handlers (see `answerInputRequests`). */
  answer(inputRequests: InputRequests, context: Omit<InputContext, "key">): Promise<InputResponses>;
  /** Opens a `subscriptions/listen` stream declaring the extension. */
  listen(filter: SubscriptionFilter, options: { signal: AbortSignal }): TaskSubscription;
  /** Checks a completed task's result as `callTool` checks a result (content array, output schema). */
  finish(result: Record<string, unknown>, tool: string | undefined, validateOutput: boolean | undefined): CallToolResult;
  readonly settings: TaskSettings;
  warn(message: string): void;
}
