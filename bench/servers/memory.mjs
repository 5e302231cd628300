// Memory questions from run.mjs, for the sessions rows: when a server is
// started with an IPC channel (and --expose-gc) it answers {type: "memory"}
// with its process.memoryUsage(), after two forced collections when gc is
// exposed. The question travels beside HTTP, so no request under test sees it.
export function answerMemoryQuestions() {
  if (!process.send) return;
  process.on("message", (message) => {
    if (message?.type !== "memory") return;
    const gc = globalThis.gc;
    if (gc) {
      gc();
      gc();
    }
    process.send({ type: "memory", seq: message.seq, gced: Boolean(gc), usage: process.memoryUsage() });
  });
  // The channel must not keep a server alive on its own.
  process.channel?.unref();
}

/** The number given as `--name=N` on the command line, or `undefined`. */
export function numberFlag(name) {
  const prefix = `--${name}=`;
  const arg = process.argv.find((a) => a.startsWith(prefix));
  return arg === undefined ? undefined : Number(arg.slice(prefix.length));
}
