// The load generator, run as its own process (forked by run.mjs, talking
// over IPC) so that it never shares a CPU thread with a server under test.
// Each message {id, url, headers, body, connections, durationMs} runs one
// bounded autocannon run and is answered with {id, result}.
import autocannon from "autocannon";

function once(options) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        method: "POST",
        headers: options.headers,
        body: options.body,
        connections: options.connections,
        pipelining: 1,
        duration: options.durationMs / 1000,
        timeout: 10,
        // autocannon ends a run at its first sample tick after `duration`: tick often.
        sampleInt: Math.min(250, options.durationMs),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

process.on("message", async (message) => {
  try {
    const r = await once(message);
    const seconds = (new Date(r.finish).getTime() - new Date(r.start).getTime()) / 1000;
    process.send({
      id: message.id,
      result: {
        requests: r.requests.total,
        seconds,
        rps: r.requests.total / seconds,
        mean: r.latency.mean,
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
