import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type RunningHttpServer } from "../../../src/index.js";
import { headersFor, parseRawAnswer, request, testServer } from "../../helpers.js";

let running: RunningHttpServer;

beforeAll(async () => {
  running = await listen(testServer(), { port: 0 });
});
afterAll(async () => {
  await running.close();
});

/**
 * Writes `head` and `body` in one write, waits until the write is done (or
 * failed), and only then reads the answer until the server ends the
 * connection: the order of a client that sends its whole request first.
 * Resolves with what it read, or with the error that ended it.
 */
function sendThenRead(head: string, body: Buffer): Promise<{ text: string; error?: string }> {
  const { port } = new URL(running.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("error", (error: NodeJS.ErrnoException) => resolve({ text: Buffer.concat(chunks).toString("utf8"), error: error.code }));
    socket.on("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8") }));
    socket.write(Buffer.concat([Buffer.from(head), body]), (error) => {
      if (error) return;
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    });
  });
}

/** Reads from `socket` until `count` whole HTTP answers (with a Content-Length, or chunked) have arrived; resolves with them. */
function answers(socket: Socket, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const found: string[] = [];
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      // Each pass takes one whole answer off the front; bounded by the answers asked for.
      while (found.length < count) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString("latin1");
        const declared = /content-length: (\d+)/i.exec(head)?.[1];
        // A chunked answer ends with its zero-size chunk.
        const last = declared === undefined ? buffer.indexOf("\r\n0\r\n\r\n", end + 2) : -1;
        const size = declared === undefined ? (last === -1 ? Number.POSITIVE_INFINITY : last + 7 - (end + 4)) : Number(declared);
        if (buffer.length < end + 4 + size) return;
        found.push(buffer.subarray(0, end + 4 + size).toString("utf8"));
        buffer = buffer.subarray(end + 4 + size);
      }
      socket.off("data", onData);
      resolve(found);
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
}

function headOf(declared: number | undefined, extra = ""): string {
  const { host, pathname } = new URL(running.url);
  const length = declared === undefined ? "transfer-encoding: chunked\r\n" : `content-length: ${declared}\r\n`;
  return `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n${length}${extra}\r\n`;
}

describe("an answer given before the body was read", () => {
  it("a 5 MiB body with Content-Length and Connection: close gets its whole 413, never a reset (20 tries)", async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 0x61);
    const { host, pathname } = new URL(running.url);
    const head =
      `POST ${pathname} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n` +
      `content-length: ${body.length}\r\nconnection: close\r\n\r\n`;
    for (let i = 0; i < 20; i++) {
      const { text, error } = await sendThenRead(head, body);
      expect(error, `try ${i}`).toBeUndefined();
      const answer = parseRawAnswer(text);
      expect(answer.status).toBe("HTTP/1.1 413 Payload Too Large");
      expect(answer.json).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    }
  });

  it("on a kept-alive connection the refused body is read to its end and the next request is served", async () => {
    const { port } = new URL(running.url);
    const socket = connect(Number(port), "127.0.0.1");
    try {
      const body = request("tools/list");
      const text = JSON.stringify(body);
      const { host, pathname } = new URL(running.url);
      const lines = Object.entries({ host, ...headersFor(body), "content-length": String(Buffer.byteLength(text)) });
      const next = `POST ${pathname} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n${text}`;
      const got = answers(socket, 2);
      socket.write(Buffer.concat([Buffer.from(headOf(5 * 1024 * 1024)), Buffer.alloc(5 * 1024 * 1024, 0x61), Buffer.from(next)]));
      const [refused, served] = await got;
      expect(parseRawAnswer(refused!).status).toBe("HTTP/1.1 413 Payload Too Large");
      expect(parseRawAnswer(refused!).headers).not.toContain("connection: close");
      expect(parseRawAnswer(served!).status).toBe("HTTP/1.1 200 OK");
      expect(parseRawAnswer(served!).json).toMatchObject({ id: body.id, result: { tools: expect.any(Array) } });
    } finally {
      socket.destroy();
    }
  });

  it("a body declared past the bound of what is read after the answer (16 MiB), or of no declared length, closes the connection", async () => {
    const { port } = new URL(running.url);
    // 413 for the declared length; 415 for the chunked body of another type (refused before its read, as the 413).
    for (const [declared, type] of [
      [32 * 1024 * 1024, "application/json"],
      [undefined, "text/plain"],
    ] as const) {
      const socket = connect(Number(port), "127.0.0.1");
      try {
        const got = answers(socket, 1);
        socket.write(headOf(declared).replace("content-type: application/json", `content-type: ${type}`));
        const [refused] = await got;
        const answer = parseRawAnswer(refused!);
        expect(answer.status).toMatch(/^HTTP\/1\.1 (413|415)/);
        expect(answer.headers).toContain("connection: close");
        expect(answer.json.id).toBeNull();
      } finally {
        socket.destroy();
      }
    }
  });
});
