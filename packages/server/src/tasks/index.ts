/**
 * `@x/server/tasks`: the tasks plug-in. `tasks(options)` goes in
 * `ServerOptions.tasks`; then tools registered with `taskSupport` run as
 * tasks (the tasks extension, `io.modelcontextprotocol/tasks`, on 2026-07-28;
 * the tasks of 2025-11-25 on `initialize`-era sessions). Also here: the
 * {@link TaskStore} contract and its in-memory default, for a store of your
 * own (`@x/redis` implements one for several instances). A server that does
 * not import this entry carries none of its code.
 *
 * @module @x/server/tasks
 */
export { MAX_LISTEN_TASK_IDS } from "./feature.js";
export { type TasksOptions, tasks } from "./plugin.js";
export {
  DEFAULT_MAX_TASKS_PER_OWNER,
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_TTL_MS,
} from "./limits.js";
export {
  DEFAULT_MAX_STORED_TASKS,
  MemoryTaskStore,
  TaskLimitError,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
  type TaskUpdate,
} from "./store.js";
export type { TasksPlugin } from "../options.js";
