/**
 * The time bounds every package's vitest config uses: guards against a hang,
 * never a measure of speed. A test that starts servers, child processes or
 * other runtimes takes many times longer when both cores are busy, and must
 * still pass then; speed is measured in bench/, and a test's own bounds are
 * counts, so these only stop a run that would otherwise never end.
 *
 * `expect.poll` waits by default only one second, which a busy machine's
 * child process or socket can take: its default is raised to a hang guard
 * too (under the test's, so that the poll's own message is what fails).
 */
export const HANG_GUARD = { testTimeout: 180_000, hookTimeout: 180_000, expect: { poll: { timeout: 120_000 } } } as const;
