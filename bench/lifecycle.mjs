// What every benchmark script does around its work: a timestamped log on
// stderr, and the child processes it started killed however it ends (done,
// failed, or interrupted).

export const T0 = performance.now();

/** One line on stderr, prefixed with the seconds since the script started. */
export const log = (text) => process.stderr.write(`${((performance.now() - T0) / 1000).toFixed(1).padStart(6)}s ${text}\n`);

/** The child processes started so far; each is killed when the script ends. */
export const started = new Set();

/** Stops a process by its PID: SIGTERM, then SIGKILL after two seconds. */
export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(child.pid, "SIGTERM");
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGKILL");
  }, 2000);
  await exited;
  clearTimeout(timer);
}

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
