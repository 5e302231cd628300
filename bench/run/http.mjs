// The HTTP load rows: every server, every cell, in rounds of short slices.
import { join } from "node:path";
import { log, stop } from "../lifecycle.mjs";
import { ECHO, LEGACY_VERSION, LEGACY_WORKLOADS, WORKLOADS } from "../workloads.mjs";
import { CONFIG, HTTP_SERVERS, here, ROUNDS } from "./config.mjs";
import { captureAnswers, loadRun, openSession, post, answerIsRight, rssMiB, startHttpServer } from "./servers.mjs";
import { ceilingHolds } from "./stats.mjs";

/** The HTTP cells (a workload at a concurrency), in the order of a round. */
export const HTTP_CELLS = [...WORKLOADS, ...LEGACY_WORKLOADS].flatMap((workload) =>
  CONFIG.concurrency.map((connections) => ({ workload, connections, cell: `${workload.key} c=${connections}` })),
);

export async function benchHttp() {
  const answersFile = join(here, "results", "bare-answers.json");
  const servers = {};
  const x = HTTP_SERVERS[0];
  servers.x = { ...x, ...(await startHttpServer(x)) };
  // One earlier-era session per server for the whole run, shared by every
  // connection of its load (concurrent requests on one session, as one client sends them).
  const session = await openSession(servers.x.url, x.label);
  servers.x.sessionId = session.id;
  servers.x.sessionVersion = session.version;
  await captureAnswers(servers.x.url, answersFile, servers.x.sessionId);
  await Promise.all(
    HTTP_SERVERS.slice(1).map(async (s) => {
      servers[s.key] = { ...s, ...(await startHttpServer(s, answersFile)) };
    }),
  );
  const results = {};
  const checks = {};
  const sessionVersions = {};
  const workloadsOf = (s) => [...(s.eras.includes("modern") ? WORKLOADS : []), ...(s.eras.includes("legacy") ? LEGACY_WORKLOADS : [])];
  // Every server's answer to every workload it is loaded with is checked once, before any load.
  for (const s of Object.values(servers)) {
    results[s.key] = {};
    checks[s.key] = {};
    // The bare responder has no sessions: it answers the earlier era's bytes to any session id.
    if (s.eras.includes("legacy") && s.sessionId === undefined) {
      if (s.key === "bare") s.sessionId = "00000000-0000-4000-8000-000000000000";
      else {
        try {
          const opened = await openSession(s.url, s.label, s.legacyVersions);
          s.sessionId = opened.id;
          s.sessionVersion = opened.version;
        } catch (error) {
          checks[s.key].session = String(error.message ?? error);
          log(`bench: ${s.label}: ${checks[s.key].session}`);
        }
      }
    }
    if (s.sessionVersion) sessionVersions[s.key] = s.sessionVersion;
    for (const workload of workloadsOf(s)) {
      if (workload.era === LEGACY_VERSION && s.sessionId === undefined) {
        checks[s.key][workload.key] = "no session";
        continue;
      }
      const answer = await post(s.url, workload, s.sessionId, s.sessionVersion);
      const ok = answerIsRight(workload, answer);
      checks[s.key][workload.key] = ok ? "ok" : `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
      if (!ok) log(`bench: ${s.label} answered ${workload.name} wrongly: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    s.rssIdle = rssMiB(s.child.pid);
  }
  const loaded = (s, workload) => checks[s.key][workload.key] === "ok";
  log("bench: warming up the HTTP servers...");
  for (const s of Object.values(servers)) {
    if (loaded(s, ECHO)) await loadRun(s, ECHO, 32, CONFIG.warmupMs);
    if (loaded(s, LEGACY_WORKLOADS[0])) await loadRun(s, LEGACY_WORKLOADS[0], 32, CONFIG.warmupMs);
  }

  // Rounds: each loads every server once per cell, next to each other, in the
  // opposite order every other round (see CONFIG).
  const order = Object.values(servers);
  const roundsOf = {};
  // `only`: the keys of the servers loaded (every server unless told).
  const round = async (cells, only) => {
    for (const { workload, connections, cell } of cells) {
      const inTurn = (roundsOf[cell] ?? 0) % 2 === 0 ? order : [...order].reverse();
      roundsOf[cell] = (roundsOf[cell] ?? 0) + 1;
      for (const s of inTurn) {
        if (!loaded(s, workload) || (only !== undefined && !only.includes(s.key))) continue;
        const r = await loadRun(s, workload, connections, CONFIG.sliceMs);
        results[s.key][cell] ??= [];
        results[s.key][cell].push(r);
        if (r.non2xx || r.errors) log(`bench: ${s.label} ${workload.name} c=${connections}: non-2xx ${r.non2xx} errors ${r.errors}`);
      }
    }
  };
  for (let n = 0; n < ROUNDS; n++) {
    const t0 = performance.now();
    await round(HTTP_CELLS);
    const last = (key) => Math.round(results[key]?.["echo c=32"]?.at(-1)?.rps ?? Number.NaN);
    log(
      `bench: HTTP round ${n + 1}/${ROUNDS} in ${((performance.now() - t0) / 1000).toFixed(1)} s; echo c=32: @x ${last("x")}, bare ${last("bare")}, tmcp ${last("tmcp")}, official ${last("officialOnce")} req/s`,
    );
  }
  // RSS after the full rounds, the load every server got alike (the extra rounds load @x and bare only).
  for (const s of Object.values(servers)) s.rssAfterRounds = rssMiB(s.child.pid);
  // A cell whose ceiling does not hold yet gets more rounds, one more slice
  // per repetition each time (bounded: CONFIG.extra). Only @x and bare are
  // loaded in them: the ceiling is judged on those two, and a peer's ratio
  // is paired with @x's slices of the rounds that peer ran (summarise), so
  // the time goes to the slices the judgement needs.
  const deadline = performance.now() + CONFIG.extra.httpMs;
  for (let more = 0; more < CONFIG.extra.times; more++) {
    // The latency row is measured on the echo c=32 slices, and judged by them too.
    const holds = (cell) =>
      ceilingHolds(results.bare[cell], results.x[cell]) &&
      (cell !== "echo c=32" || ceilingHolds(results.bare[cell], results.x[cell], (r) => r.mean, true));
    const pending = HTTP_CELLS.filter(({ cell }) => !holds(cell));
    if (pending.length === 0 || performance.now() > deadline) break;
    log(`bench: bare not yet steady on ${pending.map((c) => c.cell).join(", ")}: ${CONFIG.repetitions} more rounds of those`);
    for (let j = 0; j < CONFIG.repetitions; j++) await round(pending, ["x", "bare"]);
  }
  const rss = {};
  for (const s of Object.values(servers)) {
    rss[s.key] = { idleMiB: s.rssIdle, afterLoadMiB: s.rssAfterRounds, afterExtraRoundsMiB: rssMiB(s.child.pid) };
    await stop(s.child);
  }
  return { results, checks, rss, answersFile, sessionVersions, rounds: roundsOf };
}
