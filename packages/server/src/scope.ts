/**
 * The scope of one handler run (internal): what the dispatcher, the
 * revision that runs it, the tool runner and a plug-in (the tasks plug-in)
 * share with its context while it runs.
 */
import type { JSONRPCNotification } from "@x/mcp-v2607";
import type { Binding, Revision } from "./revisions/revision.js";
import { type AskRoute, NO_ROUTE } from "./route.js";

/**
 * The mutable part of one handler run, held by its context and shared with
 * the server's runners (internal): where its asks go, what it came on, a
 * tool run's limit (whose signal `ctx.signal` then reads), and the task it
 * became.
 */
export interface RunScope {
  /**
   * Where the run's asks go (see `route.ts`): set by the revision that runs
   * it (or a test), replaced by the task's when the run becomes a task.
   */
  route: AskRoute;
  /**
   * The revision that reads and answers the request (a plug-in that answers
   * in the revision's own terms, as the tasks plug-in's handles do, looks it
   * up by it); `undefined` for a run made without a server (`@x/server/testing`).
   */
  readonly revision: Revision | undefined;
  /**
   * The binding the request came on (an `initialize`-era session), opaque to
   * all but its revision; `undefined` for a request that carries its own
   * envelope. Telemetry reads its id.
   */
  readonly binding: Binding | undefined;
  limit?: {
    signalOver(outer: AbortSignal | undefined): AbortSignal;
    /** The run became a task: its signal now follows `signal` (the task's), not the request's. */
    follow(signal: AbortSignal): void;
    /** The run waits on the client until the returned function is called: meanwhile the limit does not run. */
    hold(): () => void;
  };
  /**
   * Set once the run belongs to a task (by the tasks plug-in, `@x/server/tasks`,
   * in whichever revision's terms): from then on its signal is the task's,
   * its asks go to the task's route, and its progress and log notifications
   * to the task's channel.
   */
  task?: TaskScope;
  /**
   * For a tool with `taskStart: "deferred"`: turns the rest of the run into a
   * task (see `RequestContext.startTask`); set by the tasks plug-in, or by the
   * tools feature to say the call cannot become one.
   */
  startTask?: () => Promise<boolean>;
  /** The request's `InboundRequest.lossless`: `false` when it holds no `bigint` (its values need no conversion). */
  lossless?: boolean | undefined;
}

/** A fresh scope for a run with nowhere to ask yet. */
export function runScope(revision: Revision | undefined, binding: Binding | undefined, lossless: boolean | undefined): RunScope {
  return { route: NO_ROUTE, revision, binding, limit: undefined, task: undefined, startTask: undefined, lossless };
}

/** The run of `scope` belongs to `task` from now on: its signal, asks and notifications are the task's. */
export function joinTask(scope: RunScope, task: TaskScope): void {
  scope.task = task;
  scope.route = task.route;
}

/** What a run needs of the task it belongs to (internal). */
export interface TaskScope {
  readonly taskId: string;
  /** Aborted by `tasks/cancel`, the task's time to live, or the server's close. */
  readonly signal: AbortSignal;
  /** Where the run's asks go: the task's `inputRequests`, answered by `tasks/update` (or, initialize era, on `tasks/result`). */
  readonly route: AskRoute;
  /** Where the run's progress and log notifications go; none when absent (the extension has no channel for them). */
  notify?: ((notification: JSONRPCNotification) => boolean) | undefined;
}
