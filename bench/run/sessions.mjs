// The abandoned-sessions rows: memory with many earlier-era sessions open, and after their idle timeout.
import { log, stop } from "../lifecycle.mjs";
import { LEGACY_WORKLOADS } from "../workloads.mjs";
import { CONFIG, SESSION_SERVERS, sleep } from "./config.mjs";
import { askLoad, askMemory, openSession, postOnSession, rssMiB, startHttpServer } from "./servers.mjs";

export const MiB = 1048576;
export const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

/**
 * One server's abandoned-sessions row: memory (heap used after GC, RSS)
 * before, with `count` sessions open, and after its idle timeout ended them.
 * `openInTurn` runs the opening, one server at a time (the waits overlap).
 * Bounded: the opening by its count, the wait by a deadline of twice the
 * idle timeout plus 10 s after the last request.
 */
export async function sessionRow(s, openInTurn) {
  const { count, idleMs, connections } = CONFIG.sessions;
  const extraArgs = [`--idle-ms=${idleMs}`];
  if (s.maxSessions) extraArgs.push(`--max-sessions=${count + 1000}`);
  const server = await startHttpServer(s, undefined, { ipc: true, extraArgs });
  const row = { label: s.label, count, idleMs, checks: {} };
  const snapshot = async () => {
    const usage = await askMemory(server.child);
    return { heapUsedMiB: usage.heapUsed / MiB, heapTotalMiB: usage.heapTotal / MiB, rssMiB: rssMiB(server.child.pid) };
  };
  try {
    // Warm-up: the first sessions load code (validators, the SDK's lazy parts); they are DELETEd.
    for (let i = 0; i < 20; i++) {
      const { id } = await openSession(server.url, s.label);
      await postOnSession(server.url, id, LEGACY_WORKLOADS[0].message);
      await postOnSession(server.url, id, undefined, "DELETE");
    }
    row.before = await snapshot();
    const opened = await openInTurn(() => askLoad({ kind: "sessions", url: server.url, count, connections }));
    row.open = await snapshot();
    row.opening = {
      opened: opened.opened,
      failed: opened.failed,
      failures: opened.failures,
      errors: opened.errors,
      seconds: opened.ms / 1000,
    };
    row.checks.opened =
      opened.opened === count && opened.failed === 0 ? "ok" : `opened ${opened.opened} of ${count}: ${opened.failures.join("; ")}`;
    // The oldest session must still be open, so that the figure above held all of them.
    // (The probe is a request: it makes that session the one last seen.)
    const probedAt = Date.now();
    const oldest = await postOnSession(server.url, opened.firstId, PING);
    row.checks.allOpenWhenMeasured = oldest === 200 ? "ok" : `the oldest session answered ${oldest}: the idle timeout passed while opening`;
    // The wait: newer sessions first seen before the probe end no later than it; probe each once (a probe of a live session renews it).
    const deadline = probedAt + 2 * idleMs + 10_000;
    await sleep(Math.max(0, probedAt + idleMs - Date.now()));
    let endedAfter;
    for (const id of opened.lastIds) {
      if ((await postOnSession(server.url, id, PING)) === 404) {
        endedAfter = (Date.now() - probedAt) / 1000;
        break;
      }
      if (Date.now() > deadline) break;
      await sleep(Math.max(250, idleMs / 8));
    }
    // The probed oldest one was seen last: give its sweep time, then it must be gone too.
    if (endedAfter !== undefined) await sleep(Math.min(idleMs / 2, 60_000) + 500);
    const last = await postOnSession(server.url, opened.firstId, PING);
    row.checks.endedByIdleTimeout =
      endedAfter !== undefined && last === 404
        ? "ok"
        : `sessions still open ${((Date.now() - probedAt) / 1000).toFixed(1)} s after the last request`;
    row.endedAfterSeconds = endedAfter;
    row.after = await snapshot();
  } finally {
    await stop(server.child);
  }
  row.heapPerSessionKB = ((row.open?.heapUsedMiB - row.before?.heapUsedMiB) * 1024) / count;
  const fig = (phase, measure) => row[phase]?.[measure]?.toFixed(1);
  const problems = Object.values(row.checks).filter((c) => c !== "ok");
  log(
    `bench: sessions ${s.label.padEnd(22)} heap after GC ${fig("before", "heapUsedMiB")} -> ${fig("open", "heapUsedMiB")} (${count} open) -> ${fig("after", "heapUsedMiB")} MiB; RSS ${fig("before", "rssMiB")} -> ${fig("open", "rssMiB")} -> ${fig("after", "rssMiB")} MiB${problems.length ? `; ${problems.join("; ")}` : ""}`,
  );
  return row;
}

export async function benchSessions() {
  let turn = Promise.resolve();
  const openInTurn = (open) => {
    const mine = turn.then(open);
    turn = mine.catch(() => {});
    return mine;
  };
  const rows = await Promise.all(SESSION_SERVERS.map((s) => sessionRow(s, openInTurn)));
  return Object.fromEntries(SESSION_SERVERS.map((s, i) => [s.key, rows[i]]));
}
