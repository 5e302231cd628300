// What every benchmark script does around its work: a timestamped log on
// stderr, and the child processes it started killed however it ends (done,
// failed, or interrupted).

export const T0 = performance.now();

/** One line on stderr, prefixed with the seconds since the script started. */
export const log = (text) => process.stderr.write(`${((performance.now() - T0) / 1000).toFixed(1).padStart(6)}s ${text}\n`);

/** The child processes started so far; each is killed when the script ends. */
export const started = new Set();

/** Runs `main`, then (or on a failure or SIGINT/SIGTERM) kills every child in {@link started}. */
export function runMain(main) {
  const cleanUp = () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
  };
  process.on("exit", cleanUp);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }
  main().catch((error) => {
    log(`bench: ${error?.stack ?? error}`);
    cleanUp();
    process.exit(1);
  });
}
