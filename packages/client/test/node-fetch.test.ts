// The transport's node:http requests (src/transports/node-fetch.ts) against a
// real node:http server on 127.0.0.1: what they send, what they give back,
// and where they hand over to the global fetch.
import { getEventListeners } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isNode, nodeFetch } from "../src/transports/node-fetch.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
  remotePort: number;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let closedEarly = 0;
let route: (req: IncomingMessage, res: ServerResponse, body: string) => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, remotePort: req.socket.remotePort ?? 0 });
      res.on("close", () => {
        if (!res.writableFinished) closedEarly++;
      });
      route(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  seen.length = 0;
  closedEarly = 0;
  vi.unstubAllGlobals();
});

describe("nodeFetch", () => {
  it("runs here: this is Node", () => {
    expect(isNode()).toBe(true);
  });

  it("sends the method, headers and body, and gives back status, headers and text", async () => {
    route = (_req, res, body) => {
      res.writeHead(200, { "content-type": "application/json", "x-echo": "yes" });
      res.end(JSON.stringify({ got: body }));
    };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { text: "héllo" } });
    const headers = new Headers({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-method": "tools/call",
    });
    const response = await nodeFetch(new URL(`${base}/mcp`), { method: "POST", headers, body });
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get("x-echo")).toBe("yes");
    expect(await response.json()).toEqual({ got: body });
    const [request] = seen;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/mcp");
    expect(request?.headers["mcp-method"]).toBe("tools/call");
    expect(request?.headers.accept).toBe("application/json, text/event-stream");
    expect(request?.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(request?.body).toBe(body);
  });

  it("keeps the connection alive between requests", async () => {
    route = (_req, res) => res.end("ok");
    for (let i = 0; i < 3; i++) expect(await (await nodeFetch(`${base}/a`)).text()).toBe("ok");
    expect(new Set(seen.map((s) => s.remotePort)).size).toBe(1);
  });

  it("streams the body as it arrives, not once it ended", async () => {
    let finish: () => void = () => {};
    route = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      finish = () => res.end("data: last\n\n");
    };
    const response = await nodeFetch(`${base}/sse`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    finish();
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("data: last\n\n");
  });

  it("keeps a stream that stays silent longer than an idle socket is kept (4 s)", async () => {
    let later: () => void = () => {};
    route = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.flushHeaders();
      later = () => res.end("data: after the silence\n\n");
    };
    const response = await nodeFetch(`${base}/quiet`);
    await new Promise((resolve) => setTimeout(resolve, 4500));
    later();
    expect(await response.text()).toBe("data: after the silence\n\n");
    expect(closedEarly).toBe(0);
  });

  it("gives a null body for 204 and 304", async () => {
    route = (req, res) => {
      res.writeHead(req.url === "/204" ? 204 : 304);
      res.end();
    };
    const empty = await nodeFetch(`${base}/204`, { method: "DELETE" });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    expect((await nodeFetch(`${base}/304`)).body).toBeNull();
  });

  it("decodes a gzip body", async () => {
    route = (_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/plain" });
      res.end(gzipSync("compressed text"));
    };
    expect(await (await nodeFetch(`${base}/gz`, { headers: { "accept-encoding": "gzip" } })).text()).toBe("compressed text");
  });

  it("rejects with the signal's reason when aborted before the answer, and the server sees the connection go", async () => {
    route = () => {}; // never answers
    const controller = new AbortController();
    const pending = nodeFetch(`${base}/slow`, { signal: controller.signal });
    await vi.waitFor(() => expect(seen.length).toBe(1));
    const reason = new Error("stop");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await vi.waitFor(() => expect(closedEarly).toBe(1));
  });

  it("errors the body with the signal's reason when aborted while it streams", async () => {
    route = (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
    };
    const controller = new AbortController();
    const response = await nodeFetch(`${base}/stream`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const reason = new Error("enough");
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
    await vi.waitFor(() => expect(closedEarly).toBe(1));
  });

  it("rejects an already aborted signal without sending", async () => {
    const controller = new AbortController();
    controller.abort(new Error("early"));
    await expect(nodeFetch(`${base}/x`, { signal: controller.signal })).rejects.toThrow("early");
    expect(seen).toHaveLength(0);
  });

  it("fails as fetch fails when nothing listens: TypeError with the socket's error as cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await nodeFetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", body: "{}" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe("fetch failed");
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });

  it("follows redirects by fetch's rules: 307 keeps the POST and its body, 303 turns it into a GET", async () => {
    route = (req, res) => {
      if (req.url === "/old") {
        res.writeHead(307, { location: "/new" });
        res.end();
      } else if (req.url === "/see-other") {
        res.writeHead(303, { location: "/result" });
        res.end();
      } else res.end(`${req.method} at ${req.url}`);
    };
    expect(await (await nodeFetch(`${base}/old`, { method: "POST", body: "{}" })).text()).toBe("POST at /new");
    expect(seen.map((s) => [s.url, s.method, s.body])).toEqual([
      ["/old", "POST", "{}"],
      ["/new", "POST", "{}"],
    ]);
    seen.length = 0;
    const headers = { "content-type": "application/json", authorization: "Bearer t" };
    expect(await (await nodeFetch(`${base}/see-other`, { method: "POST", headers, body: "{}" })).text()).toBe("GET at /result");
    expect(seen[1]?.body).toBe("");
    expect(seen[1]?.headers["content-type"]).toBeUndefined();
    // The same origin: the credentials go along.
    expect(seen[1]?.headers.authorization).toBe("Bearer t");
  });

  it("stops after 20 redirects", async () => {
    route = (_req, res) => {
      res.writeHead(302, { location: "/loop" });
      res.end();
    };
    const failure = await nodeFetch(`${base}/loop`).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(21);
  });

  it("hands everything to the global fetch once it was replaced (a test's stub)", async () => {
    const stub = vi.fn(async () => new Response("from the stub"));
    vi.stubGlobal("fetch", stub);
    expect(await (await nodeFetch(`${base}/any`, { method: "POST", body: "{}" })).text()).toBe("from the stub");
    expect(stub).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(0);
  });

  it("hands to the global fetch what it does not handle: a form body, redirect: manual", async () => {
    route = (req, res) => {
      if (req.url === "/manual") {
        res.writeHead(307, { location: "/elsewhere" });
        res.end();
      } else res.end("served");
    };
    // fetch writes a form body's content type; the node:http path takes no form body.
    expect(await (await nodeFetch(`${base}/form`, { method: "POST", body: new URLSearchParams({ a: "1" }) })).text()).toBe("served");
    expect(seen[0]?.headers["content-type"]).toBe("application/x-www-form-urlencoded;charset=UTF-8");
    expect(seen[0]?.body).toBe("a=1");
    const manual = await nodeFetch(`${base}/manual`, { redirect: "manual" });
    expect(manual.status).toBe(307);
    expect(seen.map((s) => s.url)).toEqual(["/form", "/manual"]);
  });

  it("fails, without a crash, on a status a Response cannot hold and on an upgrade nobody asked for", async () => {
    const sockets = new Set<Socket>();
    const raw = createTcpServer((socket) => {
      sockets.add(socket);
      socket.once("data", (data) => {
        const upgrade = data.toString("latin1").startsWith("GET /upgrade");
        socket.end(
          upgrade
            ? "HTTP/1.1 101 Switching Protocols\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n"
            : "HTTP/1.1 600 Odd\r\ncontent-length: 2\r\nconnection: close\r\n\r\nhi",
        );
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    try {
      const odd = await nodeFetch(`${at}/odd`, { method: "POST", body: "{}" }).catch((e: unknown) => e);
      expect(odd).toBeInstanceOf(TypeError);
      expect((odd as TypeError).message).toBe("fetch failed");
      const upgraded = await nodeFetch(`${at}/upgrade`).catch((e: unknown) => e);
      expect(upgraded).toBeInstanceOf(TypeError);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it("drops credentials on a redirect to another origin, and refuses one to a data: URL", async () => {
    const other: Seen[] = [];
    const elsewhere = createServer((req, res) => {
      other.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: "", remotePort: 0 });
      res.end("elsewhere");
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/landed`;
    route = (req, res) => {
      res.writeHead(308, { location: req.url === "/to-data" ? "data:text/plain,hello" : target });
      res.end();
    };
    try {
      const headers = { authorization: "Bearer t", cookie: "sid=abc", "proxy-authorization": "Basic cA==", "mcp-session-id": "s1" };
      expect(await (await nodeFetch(`${base}/away`, { method: "POST", headers, body: "{}" })).text()).toBe("elsewhere");
      expect(other[0]?.headers["mcp-session-id"]).toBe("s1");
      expect(other[0]?.headers.authorization).toBeUndefined();
      expect(other[0]?.headers.cookie).toBeUndefined();
      expect(other[0]?.headers["proxy-authorization"]).toBeUndefined();
      await expect(nodeFetch(`${base}/to-data`)).rejects.toThrow(TypeError);
    } finally {
      elsewhere.closeAllConnections();
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it("writes a header value as Latin-1, as fetch does, with a string body too", async () => {
    route = (req, res) => res.end(req.headers["x-v"]);
    const response = await nodeFetch(`${base}/latin1`, { method: "POST", headers: { "x-v": "caf\u00e9" }, body: "x" });
    // node:http reads header bytes as Latin-1: one byte e9 reads back as the same character.
    expect(seen[0]?.headers["x-v"]).toBe("caf\u00e9");
    expect(response.status).toBe(200);
  });

  it("errors the body of a broken gzip stream and lets its connection go", async () => {
    route = (_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.write(Buffer.from("this is not gzip at all"));
    };
    const response = await nodeFetch(`${base}/bad-gzip`);
    await expect(response.text()).rejects.toThrow(TypeError);
    await vi.waitFor(() => expect(closedEarly).toBe(1));
  });

  it("leaves no abort listener behind once a body was read or cancelled", async () => {
    route = (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("part");
      setTimeout(() => res.end(" rest"), 20);
    };
    const controller = new AbortController();
    for (let i = 0; i < 5; i++) await (await nodeFetch(`${base}/read`, { signal: controller.signal })).text();
    for (let i = 0; i < 5; i++) await (await nodeFetch(`${base}/cancel`, { signal: controller.signal })).body?.cancel();
    await vi.waitFor(() => expect(getEventListeners(controller.signal, "abort")).toHaveLength(0));
  });

  it("hands to the global fetch when undici's global dispatcher is a proxy or mock agent", async () => {
    const key = Symbol.for("undici.globalDispatcher.1");
    const g = globalThis as Record<symbol, unknown>;
    const before = g[key];
    const dispatched: string[] = [];
    class MockAgent {
      dispatch(options: { path: string }) {
        dispatched.push(options.path);
        throw new Error("the mock answers nothing");
      }
    }
    g[key] = new MockAgent();
    try {
      await expect(nodeFetch(`${base}/mocked`, { method: "POST", body: "{}" })).rejects.toThrow();
      expect(dispatched).toEqual(["/mocked"]);
      expect(seen).toHaveLength(0);
    } finally {
      g[key] = before;
    }
  });
});
