/**
 * The time bounds every package's vitest config uses: guards against a hang,
 * never a measure of speed. A test that starts servers, child processes or
 * other runtimes takes many times longer when both cores are busy, and must
 * still pass then; speed is measured in bench/, and a test's own bounds are
 * counts, so these only stop a run that would otherwise never end.
 */
export const HANG_GUARD = { testTimeout: 180_000, hookTimeout: 180_000 } as const;
