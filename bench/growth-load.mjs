// The load generator of the cost-growth rows (forked by growth.mjs, talking
// over IPC, never sharing a thread with a server under test). Each message
// {id, kind, ...} is answered with {id, result} or {id, error}:
//
//   amount   autocannon, `amount` requests over `connections` keep-alive connections
//   duration autocannon for `durationMs` (the latency rows)
//   walk     `walks` sequential walks of every page of tools/list (following nextCursor)
//   elicit   `total` Multi Round-Trip rounds, `concurrency` at once: tools/call of `ask`
//            answered input_required, then again with inputResponses and the requestState
//   listenOpen / listenNotify / listenClose
//            opens `count` more subscriptions/listen streams (each its own socket),
//            waits for all acknowledgements; asks `touch` and waits until every
//            stream got notifications/resources/updated; closes them all
//
// Every wait is bounded (`timeoutMs`, default 120 s).
import { Agent, request as httpRequest } from "node:http";
import autocannon from "autocannon";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const ELICIT_META = { ...META, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
const headersFor = (method, name) => {
  const h = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (name) h["mcp-name"] = name;
  return h;
};

/** At most this many latencies are kept per load (the first ones); the rest only count. */
const MAX_LATENCIES = 2_000_000;

/** The q-quantile (0..1) of sorted values, nearest rank. */
const quantile = (sorted, q) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);

function cannon(options) {
  return new Promise((resolve, reject) => {
    // autocannon's own histogram keeps whole milliseconds (its lowest
    // discernible value is 1 ms), so a 0.4 ms answer counts as 0: latencies
    // are taken from its `response` events instead, which carry the
    // duration in fractional milliseconds.
    const latencies = new Float64Array(options.amount ? Math.min(options.amount, MAX_LATENCIES) : MAX_LATENCIES);
    let kept = 0;
    const instance = autocannon(
      {
        url: options.url,
        method: "POST",
        headers: options.headers,
        body: options.body,
        connections: options.connections,
        pipelining: 1,
        timeout: 30,
        ...(options.amount
          ? { amount: options.amount }
          : { duration: options.durationMs / 1000, sampleInt: Math.min(250, options.durationMs) }),
      },
      (error, r) => {
        if (error) return reject(error);
        const seconds = (new Date(r.finish).getTime() - new Date(r.start).getTime()) / 1000;
        const sorted = latencies.subarray(0, kept).sort();
        let sum = 0;
        for (const v of sorted) sum += v;
        resolve({
          requests: r.requests.total,
          seconds,
          rps: r.requests.total / seconds,
          bytes: r.throughput.total,
          mean: sum / kept,
          p50: quantile(sorted, 0.5),
          p99: quantile(sorted, 0.99),
          max: sorted[kept - 1],
          latencies: kept,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
        });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300 && kept < latencies.length) latencies[kept++] = responseTime;
    });
  });
}

async function postJson(url, method, params, id, meta = META, name) {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } });
  const response = await fetch(url, { method: "POST", headers: headersFor(method, name), body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} answered ${response.status}: ${text.slice(0, 300)}`);
  return { body, text, json: JSON.parse(text) };
}

async function walk({ url, walks }) {
  let pages = 0;
  let tools = 0;
  let bytes = 0;
  const t0 = performance.now();
  for (let w = 0; w < walks; w++) {
    let cursor;
    for (let page = 0; page < 100_000; page++) {
      const r = await postJson(url, "tools/list", cursor === undefined ? {} : { cursor }, page + 1);
      pages++;
      bytes += r.text.length;
      tools += r.json.result.tools.length;
      cursor = r.json.result.nextCursor;
      if (cursor === undefined) break;
    }
  }
  return { walks, pages, tools, bytes, ms: performance.now() - t0 };
}

async function elicit({ url, total, concurrency }) {
  let next = 0;
  let done = 0;
  let bytesSent = 0;
  let bytesReceived = 0;
  let stateBytes = 0;
  const failures = [];
  const round = async (i) => {
    const params = { name: "ask", arguments: {} };
    const first = await postJson(url, "tools/call", params, 2 * i + 1, ELICIT_META, "ask");
    const r1 = first.json.result;
    if (r1?.resultType !== "input_required" || typeof r1.requestState !== "string")
      throw new Error(`first round answered ${first.text.slice(0, 300)}`);
    const inputResponses = {};
    for (const key of Object.keys(r1.inputRequests)) inputResponses[key] = { action: "accept", content: { name: `n${i}` } };
    const second = await postJson(
      url,
      "tools/call",
      { ...params, inputResponses, requestState: r1.requestState },
      2 * i + 2,
      ELICIT_META,
      "ask",
    );
    const text = second.json.result?.content?.[0]?.text;
    if (text !== `Hello, n${i}!`) throw new Error(`second round answered ${second.text.slice(0, 300)}`);
    bytesSent += first.body.length + second.body.length;
    bytesReceived += first.text.length + second.text.length;
    stateBytes = r1.requestState.length;
  };
  const t0 = performance.now();
  const worker = async () => {
    while (next < total) {
      const i = next++;
      try {
        await round(i);
        done++;
      } catch (error) {
        if (failures.length < 3) failures.push(String(error.message));
        if (failures.length >= 3) return;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    total,
    concurrency,
    done,
    failures,
    ms: performance.now() - t0,
    bytesSentPerRound: bytesSent / done,
    bytesReceivedPerRound: bytesReceived / done,
    stateBytes,
  };
}

// ---------------------------------------------------------------- listen streams

const streams = [];
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
let notifyWaiter;

/** One stream: its acknowledgement and the resource updates it got, read from SSE events. */
function openStream(url, uri, onAck) {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "subscriptions/listen",
    params: { notifications: { resourceSubscriptions: [uri] }, _meta: META },
  });
  const stream = { acked: false, updates: 0, rest: "", req: undefined };
  const u = new URL(url);
  const req = httpRequest(
    {
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: "POST",
      agent,
      headers: { ...headersFor("subscriptions/listen"), "content-length": Buffer.byteLength(body) },
    },
    (res) => {
      if (res.statusCode !== 200) {
        onAck(new Error(`subscriptions/listen answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        const events = (stream.rest + chunk).split("\n\n");
        stream.rest = events.pop();
        for (const event of events) {
          if (event.includes('"notifications/subscriptions/acknowledged"')) {
            stream.acked = true;
            onAck();
          } else if (event.includes('"notifications/resources/updated"')) {
            stream.updates++;
            notifyWaiter?.(stream);
          }
        }
      });
      res.on("error", () => {});
    },
  );
  req.on("error", (error) => {
    if (!stream.acked) onAck(error);
  });
  req.end(body);
  stream.req = req;
  return stream;
}

async function listenOpen({ url, uri, count, parallel = 200, timeoutMs = 120_000 }) {
  const t0 = performance.now();
  const deadline = t0 + timeoutMs;
  let opened = 0;
  let failed = 0;
  let firstError;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const ms = deadline - performance.now();
      if (ms <= 0) throw new Error(`streams not acknowledged within ${timeoutMs} ms`);
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          failed++;
          resolve();
        }, ms);
        streams.push(
          openStream(url, uri, (error) => {
            clearTimeout(timer);
            if (error) {
              failed++;
              firstError ??= String(error.message);
            } else opened++;
            resolve();
          }),
        );
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return { opened, failed, firstError, total: streams.length, ms: performance.now() - t0 };
}

async function listenNotify({ url, uri, timeoutMs = 60_000 }) {
  const target = streams.filter((s) => s.acked).length;
  const before = new Map(streams.map((s) => [s, s.updates]));
  const times = [];
  const t0 = performance.now();
  const all = new Promise((resolve) => {
    notifyWaiter = (s) => {
      if (s.updates === before.get(s) + 1) times.push(performance.now() - t0);
      if (times.length === target) resolve();
    };
  });
  const answer = postJson(url, "tools/call", { name: "touch", arguments: { uri } }, 1, META, "touch");
  let timer;
  const timedOut = new Promise((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  const [r] = await Promise.all([answer, Promise.race([all, timedOut])]);
  clearTimeout(timer);
  const answeredMs = performance.now() - t0;
  notifyWaiter = undefined;
  times.sort((a, b) => a - b);
  return {
    streams: target,
    notified: times.length,
    firstMs: times[0],
    medianMs: times[times.length >> 1],
    lastMs: times[times.length - 1],
    answeredMs,
    serverNotifyMs: Number(r.json.result?.content?.[0]?.text),
  };
}

function listenClose() {
  const n = streams.length;
  for (const s of streams) s.req.destroy();
  streams.length = 0;
  return { closed: n };
}

const KINDS = {
  amount: cannon,
  duration: cannon,
  walk,
  elicit,
  listenOpen,
  listenNotify,
  listenClose,
};

process.on("message", async (message) => {
  try {
    process.send({ id: message.id, result: await KINDS[message.kind](message) });
  } catch (error) {
    process.send({ id: message.id, error: String(error?.stack ?? error) });
  }
});
