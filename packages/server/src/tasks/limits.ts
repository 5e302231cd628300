/**
 * The tasks plug-in's limits (`tasks({ ttlMs, pollIntervalMs,
 * maxTasksPerOwner, leaseMs })`): their defaults and bounds, checked once,
 * when the plug-in is made.
 */

/** Default time to live of a task, in milliseconds (one hour). */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
/** Default polling interval suggested to clients, in milliseconds. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1000;
/** Default most running (not terminal) tasks per principal. */
export const DEFAULT_MAX_TASKS_PER_OWNER = 100;
/** Default lease of a task's worker in a shared store, in milliseconds. */
export const DEFAULT_TASK_LEASE_MS = 15_000;
/** The longest timer a JavaScript runtime keeps, in milliseconds: a longer one would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;
/** The shortest lease: renewals every third of it must keep up even on a loaded machine. */
const MIN_LEASE_MS = 1000;

/** The tasks plug-in's limits, as given (see `TasksOptions`): `undefined` for the default. */
export interface TaskLimitOptions {
  ttlMs?: number | null | undefined;
  pollIntervalMs?: number | undefined;
  maxTasksPerOwner?: number | undefined;
  leaseMs?: number | undefined;
}

/** The limits read and checked, defaults filled in. */
export interface TaskLimits {
  ttlMs: number | null;
  pollIntervalMs: number;
  maxTasksPerOwner: number;
  leaseMs: number;
}

/**
 * Reads the plug-in's limits, defaults filled in.
 * @throws RangeError for an option out of range.
 */
export function taskLimits(options: TaskLimitOptions): TaskLimits {
  const ttl = options.ttlMs === undefined ? DEFAULT_TASK_TTL_MS : options.ttlMs;
  const ttlMs = ttl === null ? null : positiveInteger("ttlMs", ttl, DEFAULT_TASK_TTL_MS);
  // The longest timer a JavaScript runtime keeps: a longer one would fire at once.
  if (ttlMs !== null && ttlMs > MAX_TIMER_MS) throw new RangeError(`tasks.ttlMs must be at most ${MAX_TIMER_MS} (use null for unlimited)`);
  const leaseMs = positiveInteger("leaseMs", options.leaseMs, DEFAULT_TASK_LEASE_MS);
  // Renewed every third of it: shorter would let a live worker's lease run out between renewals.
  if (leaseMs < MIN_LEASE_MS || leaseMs > MAX_TIMER_MS)
    throw new RangeError(`tasks.leaseMs must be from ${MIN_LEASE_MS} to ${MAX_TIMER_MS}, got ${leaseMs}`);
  return {
    ttlMs,
    pollIntervalMs: positiveInteger("pollIntervalMs", options.pollIntervalMs, DEFAULT_TASK_POLL_INTERVAL_MS),
    maxTasksPerOwner: positiveInteger("maxTasksPerOwner", options.maxTasksPerOwner, DEFAULT_MAX_TASKS_PER_OWNER),
    leaseMs,
  };
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`tasks.${name} must be a positive integer, got ${String(value)}`);
  return v;
}
