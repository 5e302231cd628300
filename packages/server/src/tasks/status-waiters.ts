/**
 * Who waits, on this instance, for a task's next status from the bus: the
 * listeners of `TaskRunner.watch`, and a `tasks/update` landing on an
 * instance other than the one running the task.
 */
import type { DetailedTask } from "@x/mcp-v2607/tasks";

/** How long `tasks/update` landing on another instance waits for the running one to take the answers, in milliseconds. */
export const REMOTE_UPDATE_WAIT_MS = 2000;

/** The waiters of each task id, dropped with the last of a task's. */
export class StatusWaiters {
  readonly #waiters = new Map<string, Set<(task: DetailedTask) => void>>();

  /** Calls `listener` with each status of `taskId` that reaches {@link wake}, until the returned function is called. */
  watch(taskId: string, listener: (task: DetailedTask) => void): () => void {
    const waiters = this.#of(taskId);
    // A wrapper per call: the same listener may watch twice.
    const one = (task: DetailedTask) => listener(task);
    waiters.add(one);
    return () => {
      waiters.delete(one);
      if (waiters.size === 0 && this.#waiters.get(taskId) === waiters) this.#waiters.delete(taskId);
    };
  }

  /** A status from the bus: every waiter of its task hears it. */
  wake(task: DetailedTask): void {
    const waiters = this.#waiters.get(task.taskId);
    if (waiters) for (const wake of [...waiters]) wake(task);
  }

  /** Resolves when a status of `taskId` satisfying `done` arrives, or after {@link REMOTE_UPDATE_WAIT_MS}. */
  waitFor(taskId: string, done: (task: DetailedTask) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#of(taskId);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        if (waiters.size === 0) this.#waiters.delete(taskId);
        resolve();
      };
      const wake = (task: DetailedTask) => {
        if (done(task)) finish();
      };
      const timer = setTimeout(finish, REMOTE_UPDATE_WAIT_MS);
      timer.unref?.();
      waiters.add(wake);
    });
  }

  #of(taskId: string): Set<(task: DetailedTask) => void> {
    let set = this.#waiters.get(taskId);
    if (!set) {
      set = new Set();
      this.#waiters.set(taskId, set);
    }
    return set;
  }
}
