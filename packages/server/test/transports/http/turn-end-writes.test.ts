// The node:http handler writes complete answers at the end of the event
// loop's turn, together: a burst of requests is answered with one burst of
// writes. These tests hold what that must keep: every answer arrives, in
// order, and a response whose client left before its turn ended is skipped.
import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, IncomingMessage, request as httpRequest, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import { createNodeHandler, listen } from "../../../src/index.js";
import { headersFor, request, testServer } from "../../helpers.js";

/** A socket stand-in that records the bytes written to it. */
class Recorder extends Writable {
  text = "";
  readable = false;
  override _write(chunk: Buffer, _encoding: string, callback: () => void) {
    this.text += chunk.toString("latin1");
    callback();
  }
  resume() {}
  pause() {}
  setTimeout() {}
}

/** A POST of `body` handed to `listener` as node:http hands it over; the body arrives in this turn. */
function post(listener: (req: IncomingMessage, res: ServerResponse) => void, body: object) {
  const socket = new Recorder();
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { host: "127.0.0.1", "content-length": String(Buffer.byteLength(text)) };
  for (const [k, v] of Object.entries(headersFor(body as { method: string }))) headers[k.toLowerCase()] = v;
  const req = new IncomingMessage(socket as never);
  req.method = "POST";
  req.url = "/mcp";
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = "1.1";
  req.headers = headers;
  req.rawHeaders = Object.entries(headers).flat();
  const res = new ServerResponse(req);
  res.assignSocket(socket as never);
  listener(req, res);
  req.push(Buffer.from(text));
  req.complete = true;
  req.push(null);
  return { socket, res };
}

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A handler whose server has answered once already (the first call may load its validator over several turns). */
async function warmHandler() {
  const listener = createNodeHandler(testServer());
  const first = post(listener, request("tools/call", { name: "echo", arguments: { text: "warm-up" } }));
  for (let i = 0; i < 200 && !first.res.writableEnded; i++) await turnEnd();
  expect(first.socket.text).toContain('"text":"warm-up"');
  return listener;
}
/** Lets every promise job of this turn run (the answers are produced in them), without ending the turn. */
async function drainJobs() {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

describe("answers written at the end of the turn", () => {
  it("holds the answers of one turn's requests until its end, then writes each in full", async () => {
    const listener = await warmHandler();
    const a = post(listener, request("tools/call", { name: "echo", arguments: { text: "first" } }));
    const b = post(listener, request("tools/call", { name: "echo", arguments: { text: "second" } }));
    // Both bodies are read in ticks of this turn and both tools answer at once: nothing is written yet.
    await new Promise<void>((resolve) => process.nextTick(resolve));
    await drainJobs();
    expect(a.socket.text).toBe("");
    expect(b.socket.text).toBe("");
    await turnEnd();
    expect(a.socket.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(a.socket.text).toContain('"text":"first"');
    expect(b.socket.text).toContain('"text":"second"');
    expect(a.res.writableEnded && b.res.writableEnded).toBe(true);
  });

  it("skips a response destroyed before the turn ended and still writes the others", async () => {
    const listener = await warmHandler();
    const gone = post(listener, request("tools/call", { name: "echo", arguments: { text: "gone" } }));
    const kept = post(listener, request("tools/call", { name: "echo", arguments: { text: "kept" } }));
    await new Promise<void>((resolve) => process.nextTick(resolve));
    await drainJobs();
    gone.res.destroy();
    await turnEnd();
    expect(gone.socket.text).toBe("");
    expect(kept.socket.text).toContain('"text":"kept"');
  });

  it("answers every request of 32 keep-alive connections in bursts, each with its own id, on a real server", async () => {
    const running = await listen(testServer(), { port: 0 });
    try {
      const connection = async (c: number) => {
        const seen: string[] = [];
        for (let i = 0; i < 20; i++) {
          const body = request("tools/call", { name: "echo", arguments: { text: `c${c}-${i}` } });
          const res = await fetch(running.url, { method: "POST", headers: headersFor(body), body: JSON.stringify(body) });
          const json = (await res.json()) as { id: number; result: { content: { text: string }[] } };
          expect(json.id).toBe(body.id);
          seen.push(json.result.content[0]!.text);
        }
        return seen;
      };
      const all = await Promise.all(Array.from({ length: 32 }, (_, c) => connection(c)));
      all.forEach((seen, c) => {
        expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => `c${c}-${i}`));
      });
    } finally {
      await running.close(1000);
    }
  });
  it("writes each answer in its own request's async context: loggers on 'finish' see their own AsyncLocalStorage store", async () => {
    const als = new AsyncLocalStorage<{ id: number }>();
    const handler = createNodeHandler(testServer(), { path: "/mcp" });
    let next = 0;
    let finished = 0;
    const wrong: number[] = [];
    const http = createServer((req, res) => {
      const id = ++next;
      als.run({ id }, () => {
        res.on("finish", () => {
          finished++;
          if (als.getStore()?.id !== id) wrong.push(id);
        });
        handler(req, res);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
      for (let round = 0; round < 5; round++) {
        await Promise.all(
          Array.from({ length: 16 }, async (_, i) => {
            const body = request("tools/call", { name: "echo", arguments: { text: `r${round}-${i}` } });
            const res = await fetch(url, { method: "POST", headers: headersFor(body), body: JSON.stringify(body) });
            expect(((await res.json()) as { id: number }).id).toBe(body.id);
          }),
        );
      }
      expect(finished).toBe(80);
      expect(wrong).toEqual([]);
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });

  it("answers while a test has fake timers installed (the turn's end is the real setImmediate)", async () => {
    const http = createServer(createNodeHandler(testServer(), { path: "/mcp" }));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const body = request("tools/call", { name: "echo", arguments: { text: "faked" } });
    vi.useFakeTimers();
    try {
      const text = await new Promise<string>((resolve, reject) => {
        const port = (http.address() as { port: number }).port;
        const req = httpRequest(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: headersFor(body) }, (res) => {
          let received = "";
          res.on("data", (chunk) => {
            received += chunk;
          });
          res.on("end", () => resolve(received));
        });
        req.on("error", reject);
        req.end(JSON.stringify(body));
      });
      expect(JSON.parse(text).result.content[0].text).toBe("faked");
    } finally {
      vi.useRealTimers();
      http.closeAllConnections();
      http.close();
    }
  });
});
