// What every benchmark script does around its work: a timestamped log on
// stderr, and the child processes it started killed however it ends (done,
// failed, or interrupted).

import { fork } from "node:child_process";

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

/**
 * Forks `script` (a load generator answering `{ id, ... }` messages with
 * `{ id, result }` or `{ id, error }` over IPC), registered in {@link started}.
 * `ask(message, timeoutMs?)` sends one message and resolves with its result;
 * with `timeoutMs` it rejects when no answer came in time.
 */
export function forkWorker(script, cwd) {
  const child = fork(script, [], { cwd, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  started.add(child);
  child.on("exit", () => started.delete(child));
  let nextId = 1;
  const waiters = new Map();
  child.on("message", (message) => {
    const waiter = waiters.get(message.id);
    waiters.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error));
    else waiter?.resolve(message.result);
  });
  const ask = (message, timeoutMs) => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs === undefined ? undefined : setTimeout(() => reject(new Error(`${script}: no answer within ${timeoutMs} ms`)), timeoutMs);
      waiters.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      child.send({ id, ...message });
    });
  };
  return { child, ask };
}

/**
 * The first line a server process prints on stdout (`{ url, ... }`), parsed:
 * how every bench server says it listens. Rejects when the process exits
 * first, or when nothing came within `ms`.
 */
export function firstLine(child, label, ms) {
  return new Promise((resolve, reject) => {
    let text = "";
    let done = false;
    const timer = setTimeout(() => reject(new Error(`${label} did not start within ${ms} ms`)), ms);
    child.stdout.on("data", (chunk) => {
      if (done) return;
      text += chunk;
      const nl = text.indexOf("\n");
      if (nl !== -1) {
        done = true;
        clearTimeout(timer);
        resolve(JSON.parse(text.slice(0, nl)));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before it listened`));
    });
  });
}
