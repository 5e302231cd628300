// The in-process request paths the micro benchmarks drive: a `tools/call`
// echo through a `node:http` listener on Node's own IncomingMessage and
// ServerResponse over a socket stand-in that swallows the bytes, and
// pipelined echo lines through a stdio server on in-memory streams. No
// sockets, pipes or load generator, so what is left is each server's own
// work (and Node's HTTP objects, the same for every listener). Used by
// http-path.mjs, stdio-path.mjs and ab-builds.mjs, and by run.mjs's
// instruction rows.
import { IncomingMessage, ServerResponse } from "node:http";
import { PassThrough, Writable } from "node:stream";
import { echo, echoInput, SERVER_INFO } from "../servers/tools.mjs";
import { ECHO, headersOf, INITIALIZE, INITIALIZE_HEADERS, INITIALIZED, LEGACY_WORKLOADS, lineOf } from "../workloads.mjs";

/** The bytes @x/server answers the echo call with, around the request's id (what the bare responder writes). */
export const ECHO_ANSWER = [
  '{"jsonrpc":"2.0","id":',
  ',"result":{"content":[{"type":"text","text":"hello"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"1.0.0"}}}}',
];

/** An @x/server (from `mod`, the package or a build of it) with the bench's echo tool. */
export function echoServer(mod) {
  const server = new mod.McpServer(SERVER_INFO);
  server.registerTool("echo", { description: "Echoes the text", inputSchema: echoInput }, echo);
  return server;
}

/**
 * The bytes @x/server answers the earlier era's echo call with on a session
 * (2025-11-25: no stamp; JSON, as the answer is given at once), around the id.
 */
export const SESSION_ECHO_ANSWER = ['{"jsonrpc":"2.0","id":', ',"result":{"content":[{"type":"text","text":"hello"}]}}'];

// ------------------------------------------------------------------ HTTP

/** The bytes and headers of one HTTP request for `message` with `headers`, as node:http hands them over. */
export function httpRequestOf(message, headers) {
  const body = Buffer.from(JSON.stringify(message));
  const all = { host: "127.0.0.1:3000", "content-length": String(body.length), ...headers };
  return {
    body,
    rawHeaders: Object.entries(all).flat(),
    headers: Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), v])),
  };
}

const ECHO_REQUEST = httpRequestOf(ECHO.message, headersOf(ECHO));

/** A socket stand-in: takes every write at once, reads nothing. */
class Sink extends Writable {
  readable = false;
  _write(_chunk, _encoding, callback) {
    callback();
  }
  _writev(_chunks, callback) {
    callback();
  }
  resume() {}
  pause() {}
  setTimeout() {}
}

/**
 * One request/response pair as node:http hands it to a listener; resolves
 * with the status and, when `record` is set, the body written (UTF-8)
 * once the response finished.
 */
function exchange(listener, sink, request, record = false) {
  const req = new IncomingMessage(sink);
  req.method = "POST";
  req.url = "/mcp";
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = "1.1";
  req.headers = request.headers;
  req.rawHeaders = request.rawHeaders;
  const res = new ServerResponse(req);
  res.shouldKeepAlive = true;
  res.assignSocket(sink);
  const written = [];
  if (record) {
    const { write, end } = res;
    const keep = (chunk, encoding) => {
      if (chunk !== undefined && typeof chunk !== "function")
        written.push(typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8") : chunk);
    };
    res.write = (chunk, encoding, cb) => {
      keep(chunk, encoding);
      return write.call(res, chunk, encoding, cb);
    };
    res.end = (chunk, encoding, cb) => {
      keep(chunk, encoding);
      return end.call(res, chunk, encoding, cb);
    };
  }
  return new Promise((resolve) => {
    res.on("finish", () => {
      res.detachSocket(sink);
      res.emit("close");
      // `head`: the head as written (writeHead with a list of headers leaves getHeader empty).
      resolve({ status: res.statusCode, body: Buffer.concat(written).toString("utf8"), head: res._header ?? "" });
    });
    listener(req, res);
    req.push(request.body);
    req.complete = true;
    req.push(null);
  });
}

/** The status and body (UTF-8) `listener` answers `request` (from {@link httpRequestOf}) with. */
export const answerOf = (listener, request) => exchange(listener, new Sink(), request, true);

/**
 * Drives `listener` with `request` (from {@link httpRequestOf}; the echo
 * call by default), `width` in flight (one socket stand-in each): resolves
 * to `run(n)`, which answers `n` calls (rounded up to a multiple of
 * `width`). Checks the first answer's status (200) first.
 */
export async function httpDriver(listener, width = 32, request = ECHO_REQUEST) {
  const sinks = Array.from({ length: width }, () => new Sink().setMaxListeners(0));
  const { status } = await exchange(listener, sinks[0], request);
  if (status !== 200) throw new Error(`the listener answered ${status}`);
  return async (n) => {
    for (let done = 0; done < n; done += width) {
      const batch = [];
      for (let i = 0; i < width; i++) batch.push(exchange(listener, sinks[i], request));
      await Promise.all(batch);
    }
  };
}

/** @x/server's node:http handler for `server`. */
export const xHttpListener = (mod, server) => mod.createNodeHandler(server, { path: "/mcp" });

/**
 * The earlier era's echo on one session of @x's `listener`: opens it
 * (`initialize` for 2025-11-25, then `notifications/initialized`, checked:
 * 200 with a session id, then 202) and drives `tools/call` echoes on it as
 * {@link httpDriver} does.
 */
export async function sessionDriver(listener, width = 32) {
  const sink = new Sink().setMaxListeners(0);
  const opened = await exchange(listener, sink, httpRequestOf(INITIALIZE, INITIALIZE_HEADERS), true);
  const sessionId = /^mcp-session-id: *(\S+)\r$/im.exec(opened.head)?.[1];
  if (opened.status !== 200 || typeof sessionId !== "string") throw new Error(`initialize answered ${opened.status}, no session`);
  const call = LEGACY_WORKLOADS[0];
  const done = await exchange(listener, sink, httpRequestOf(INITIALIZED, headersOf(call, sessionId)));
  if (done.status !== 202) throw new Error(`notifications/initialized answered ${done.status}`);
  return httpDriver(listener, width, httpRequestOf(call.message, headersOf(call, sessionId)));
}

/**
 * The bare responder's listener (servers/bare.mjs): @x's bytes with the id
 * put in, written at the end of the turn as @x writes. `answer` is the text
 * before the id and the text after it (the echo call's by default).
 */
export function bareHttpListener(answer = ECHO_ANSWER) {
  let due = [];
  const writeDue = () => {
    const list = due;
    due = [];
    for (let i = 0; i < list.length; i += 2) {
      list[i].writeHead(200, { "content-type": "application/json" });
      list[i].end(list[i + 1]);
    }
  };
  return (req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (due.length === 0) setImmediate(writeDue);
      due.push(res, answer[0] + JSON.stringify(message.id) + answer[1]);
    });
  };
}

// ------------------------------------------------------------------ stdio

/** Lines of requests written at once, each chunk after the previous chunk's answers came back. */
export const BATCH = 64;

/** A stream that counts answer lines and wakes `onLines` with each count. */
class Counter extends Writable {
  lines = 0;
  first = "";
  onLines = () => {};
  _write(chunk, _encoding, callback) {
    const text = typeof chunk === "string" ? chunk : chunk.toString("latin1");
    if (this.lines === 0) this.first += text;
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.lines++;
    this.onLines(this.lines);
    callback();
  }
}

/**
 * Drives a stdio server, attached by `serve({ input, output })` to in-memory
 * streams, with pipelined echo lines: resolves to `run(n)`, which answers `n`
 * lines (rounded up to a multiple of {@link BATCH}). Checks the first answer
 * (the echoed text, for id 1) first.
 */
export async function stdioDriver(serve) {
  const input = new PassThrough();
  const output = new Counter();
  serve({ input, output });
  let nextId = 1;
  const run = (count) =>
    new Promise((resolve) => {
      const n = Math.ceil(count / BATCH) * BATCH;
      const start = output.lines;
      const target = start + n;
      const send = () => {
        let chunk = "";
        for (let i = 0; i < BATCH; i++) chunk += lineOf(ECHO, nextId++);
        input.write(chunk);
      };
      output.onLines = (lines) => {
        if (lines >= target) resolve();
        else if ((lines - start) % BATCH === 0) send();
      };
      send();
    });
  await run(BATCH);
  const first = output.first.slice(0, output.first.indexOf("\n"));
  if (!first.startsWith(`${ECHO_ANSWER[0]}1,`) || !first.includes('"text":"hello"'))
    throw new Error(`the stdio server answered ${first.slice(0, 300)}`);
  return run;
}

/** @x/server's serveStdio for `server`. */
export const xStdio = (mod, server) => (streams) => mod.serveStdio(server, streams);

/** servers/bare.mjs's stdio loop. */
export function bareStdio({ input, output }) {
  let rest = "";
  input.setEncoding("utf8");
  input.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) if (line !== "") out += `${ECHO_ANSWER[0]}${JSON.stringify(JSON.parse(line).id)}${ECHO_ANSWER[1]}\n`;
    if (out !== "") output.write(out);
  });
}

/**
 * The driver of one request path: `which` is "x" (an @x/server from `mod`)
 * or "bare", `path` "http", "stdio" or "session" (the earlier era's echo on
 * one 2025-11-25 session over HTTP; bare answers it as servers/bare.mjs
 * does, ignoring the session id); `prepare(server)`, when given, is
 * awaited on @x's server before the first request (what is attached to it).
 * Resolves to `run(n)`.
 */
export async function driver(which, path, mod, prepare) {
  const server = which === "bare" ? undefined : echoServer(mod);
  if (server && prepare) await prepare(server);
  if (path === "stdio") return stdioDriver(which === "bare" ? bareStdio : xStdio(mod, server));
  if (path === "session") {
    if (server) return sessionDriver(xHttpListener(mod, server));
    const call = LEGACY_WORKLOADS[0];
    return httpDriver(bareHttpListener(SESSION_ECHO_ANSWER), 32, httpRequestOf(call.message, headersOf(call, "any-session")));
  }
  return httpDriver(which === "bare" ? bareHttpListener() : xHttpListener(mod, server));
}

/** CPU time (user + system, GC included) per request of `run(n)`, in µs. */
export async function cpuPerRequest(run, n) {
  const start = process.cpuUsage();
  await run(n);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

export const median = (values) => [...values].sort((p, q) => p - q)[values.length >> 1];
