/**
 * What only the instance running a task has: the run's abort controller,
 * the asks it awaits (each under a key never reused in the task), and its
 * timer. Writing that state to the {@link TaskStore} and reaching it from
 * other instances is the runner's (`runner.ts`).
 */
import type { TaskOrigin } from "./traffic.js";
import type { InputRequests } from "@x/mcp-v2607";
import { ClientRequestError } from "../errors.js";
import type { JsonObject } from "../objects.js";
import type { RequestRoute } from "../route.js";
import type { TaskScope } from "../scope.js";
import type { TaskRecord } from "./store.js";

/** One ask of a running task that awaits its answer. */
interface PendingAsk {
  request: { method: string; params: JsonObject };
  resolve(answer: unknown): void;
  reject(error: unknown): void;
}

/** A task this instance runs. */
export interface LocalTask extends TaskScope {
  /** The record as made (for the task handle). */
  readonly record: TaskRecord;
  readonly controller: AbortController;
  readonly pending: Map<string, PendingAsk>;
  /** Every ask key of the task's life: a key is never reused. */
  readonly used: Set<string>;
  readonly counters: Map<string, number>;
  /** The task's store writes, one after another. */
  chain: Promise<unknown>;
  syncQueued: boolean;
  done: boolean;
  ttlTimer: ReturnType<typeof setTimeout> | undefined;
  /** Where it came from, when made while `x-mcp:traffic` had a subscriber (its status changes are then published). */
  traffic?: TaskOrigin;
}

/** The local state of a task just made, its asks going through `route`. */
export function localTask(record: TaskRecord, route: RequestRoute): LocalTask {
  const controller = new AbortController();
  return {
    record,
    taskId: record.taskId,
    signal: controller.signal,
    route,
    controller,
    pending: new Map(),
    used: new Set(),
    counters: new Map(),
    chain: Promise.resolve(),
    syncQueued: false,
    done: false,
    ttlTimer: undefined,
  };
}

/**
 * Holds an ask of the run under `key`, or under the next unused
 * `elicit-N`/`sample-N`/`roots-N` when none is given; the promise settles
 * with its answer.
 * @throws Error when `key` was already used in the task.
 */
export function holdAsk(local: LocalTask, method: string, params: JsonObject, key: string | undefined): Promise<unknown> {
  let chosen = key;
  if (chosen === undefined) {
    const kind = method === "elicitation/create" ? "elicit" : method === "sampling/createMessage" ? "sample" : "roots";
    do {
      const n = (local.counters.get(kind) ?? 0) + 1;
      local.counters.set(kind, n);
      chosen = `${kind}-${n}`;
    } while (local.used.has(chosen));
  } else if (local.used.has(chosen)) {
    throw new Error(`ask key ${JSON.stringify(chosen)} was already used in this task: a task's keys are never reused`);
  }
  const held = chosen;
  local.used.add(held);
  return new Promise<unknown>((resolve, reject) => {
    local.pending.set(held, { request: { method, params }, resolve, reject });
  });
}

/** The outstanding asks as the task's `inputRequests`. */
export function inputRequestsOf(local: LocalTask): InputRequests {
  const inputRequests: InputRequests = {};
  for (const [key, ask] of local.pending) inputRequests[key] = ask.request as InputRequests[string];
  return inputRequests;
}

/** Resolves the asks `inputResponses` answers; keys not outstanding are ignored. */
export function answerAsks(local: LocalTask, inputResponses: JsonObject): void {
  for (const [key, answer] of Object.entries(inputResponses)) {
    const pending = local.pending.get(key);
    if (!pending) continue;
    local.pending.delete(key);
    pending.resolve(answer);
  }
}

/** Fails the ask under `key` with a `ClientRequestError`; false when it is not outstanding. */
export function refuseAsk(local: LocalTask, key: string, code: number, message: string): boolean {
  const pending = local.pending.get(key);
  if (!pending) return false;
  local.pending.delete(key);
  pending.reject(new ClientRequestError(code, message));
  return true;
}

/** Fails every outstanding ask with `error` and forgets them. */
export function rejectAsks(local: LocalTask, error: unknown): void {
  for (const ask of local.pending.values()) ask.reject(error);
  local.pending.clear();
}

/** Fails the outstanding asks and aborts the run's signal, both with an `AbortError` saying why. */
export function abortRun(local: LocalTask, why: string): void {
  rejectAsks(local, new DOMException(`the task was ${why}`, "AbortError"));
  if (!local.controller.signal.aborted) local.controller.abort(new DOMException(`the task was ${why}`, "AbortError"));
}
