// The load generator, run as its own process (forked by run.mjs, talking
// over IPC) so that it never shares a CPU thread with a server under test.
// Each message {id, url, headers, body, connections, durationMs} runs one
// bounded autocannon run and is answered with {id, result}; a message
// {id, kind: "sessions", url, count, connections} opens `count` earlier-era
// sessions (initialize, then notifications/initialized, on each) and leaves
// them open.
import autocannon from "autocannon";
import { INITIALIZE, INITIALIZE_HEADERS, INITIALIZED, LEGACY_VERSION } from "./workloads.mjs";

function once(options) {
  return new Promise((resolve, reject) => {
    // autocannon's latency histogram keeps whole milliseconds (1.5 ms counts
    // as 1), too coarse near 1 ms: the mean is summed from each answer's own
    // fractional duration instead.
    let sumMs = 0;
    let answered = 0;
    const instance = autocannon(
      {
        url: options.url,
        method: "POST",
        headers: options.headers,
        body: options.body,
        connections: options.connections,
        pipelining: 1,
        duration: options.durationMs / 1000,
        timeout: 10,
        // autocannon ends a run at its first sample tick after `duration`: tick
        // often, so a short cell lasts what it was asked for (the rate is the
        // requests answered over the run's own start-to-finish time).
        sampleInt: Math.min(50, options.durationMs),
      },
      (error, result) => (error ? reject(error) : resolve({ ...result, meanMs: answered ? sumMs / answered : Number.NaN })),
    );
    instance.on("response", (_client, _status, _bytes, ms) => {
      sumMs += ms;
      answered++;
    });
  });
}

/**
 * Opens `count` sessions and abandons them (no DELETE): autocannon cycles
 * through two requests per connection, `initialize` (its answer's session id
 * kept in the connection's context) and `notifications/initialized` on that
 * session, so each cycle opens one session. Answers the counts, what
 * failed, the first id answered and the last 32 (newest first), for probes.
 */
function openSessions({ url, count, connections }) {
  const ids = [];
  const failures = [];
  const fail = (text) => {
    if (failures.length < 5) failures.push(text.slice(0, 300));
  };
  let failed = 0;
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: "POST",
        connections,
        pipelining: 1,
        amount: 2 * count,
        timeout: 10,
        requests: [
          {
            method: "POST",
            headers: INITIALIZE_HEADERS,
            body: JSON.stringify(INITIALIZE),
            onResponse: (status, body, context, headers) => {
              const id = headers["mcp-session-id"] ?? headers["Mcp-Session-Id"];
              context.id = id;
              if (status === 200 && id && body.includes(`"protocolVersion":"${LEGACY_VERSION}"`)) ids.push(id);
              else {
                failed++;
                fail(`initialize answered ${status}: ${body}`);
              }
            },
          },
          {
            method: "POST",
            body: JSON.stringify(INITIALIZED),
            setupRequest: (request, context) => ({
              ...request,
              headers: { ...INITIALIZE_HEADERS, "mcp-protocol-version": LEGACY_VERSION, "mcp-session-id": context.id ?? "none" },
            }),
            onResponse: (status, body) => {
              if (status !== 202) {
                failed++;
                fail(`notifications/initialized answered ${status}: ${body}`);
              }
            },
          },
        ],
      },
      (error, r) => {
        if (error) return reject(error);
        resolve({
          opened: ids.length,
          failed,
          failures,
          errors: r.errors,
          timeouts: r.timeouts,
          ms: performance.now() - t0,
          firstId: ids[0],
          lastIds: ids.slice(-32).reverse(),
        });
      },
    );
  });
}

process.on("message", async (message) => {
  try {
    if (message.kind === "sessions") {
      process.send({ id: message.id, result: await openSessions(message) });
      return;
    }
    const r = await once(message);
    const seconds = (new Date(r.finish).getTime() - new Date(r.start).getTime()) / 1000;
    process.send({
      id: message.id,
      result: {
        requests: r.requests.total,
        seconds,
        rps: r.requests.total / seconds,
        mean: r.meanMs,
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
      },
    });
  } catch (error) {
    process.send({ id: message.id, error: String(error?.stack ?? error) });
  }
});
